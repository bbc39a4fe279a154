//! `report.html` and `mutation-testing-report.json`: written by `evaluate` and by `ferastrau
//! report`, the page opened in headless Chromium (its script runs without errors and counts
//! what evaluation.json counts; a screenshot under target/), the schema JSON validated
//! against the published schema.

use crate::support::chromium;
use crate::support::report_schema;

use std::path::{Path, PathBuf};

use crate::common::{self, ferastrau, json, text};
use ferastrau_harness::locate::workspace_root;

/// A copy of the committed reports of `benchmark` (its evaluation, not re-run).
fn committed(benchmark: &str, into: &Path) -> PathBuf {
    let dir = into.join(benchmark);
    std::fs::create_dir_all(&dir).unwrap();
    for f in ferastrau_harness::evaluate::report::FILES {
        std::fs::copy(
            workspace_root().join("reports").join(benchmark).join(f),
            dir.join(f),
        )
        .unwrap();
    }
    dir
}

fn report(dir: &Path) -> std::process::Output {
    ferastrau(&["report", dir.to_str().unwrap()])
}

/// The counts the page should show at the largest scope, from the reports themselves.
fn expected(evaluation: &serde_json::Value, mutants: &serde_json::Value) -> serde_json::Value {
    let last = evaluation["scopes"].as_array().unwrap().last().unwrap();
    let n = |k: &str| last[k].as_u64().unwrap();
    let not_viable = mutants["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["viable"] == false)
        .count();
    let by = &last["killed_by"];
    serde_json::json!({
        "killed": n("killed"),
        "invariant": by["invariant"], "output": by["output"], "timeout": by["timeout"],
        "memory": by["memory"], "crash": by["crash"],
        "survived": n("mutants") - n("killed"),
        "skipped": n("skipped"),
        "not-viable": not_viable,
        "not-run": 0,
    })
}

#[test]
fn search_tree_report_opens_in_headless_chromium_and_counts_what_evaluation_json_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let (evaluation, mutants) =
        common::evaluate(&["--benchmark", "search_tree", "--scopes", "1..3"], &out);
    let page = out.join("report.html");
    let png = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html/search_tree.png");
    chromium::screenshot(&page, &png);
    let loaded = chromium::load(&page).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.counted, expected(&evaluation, &mutants));
    assert!(loaded.dom.contains("the counts above match them"));
    // Every listed mutant is on the page, with its diff.
    let listed = mutants["mutants"].as_array().unwrap();
    for m in listed {
        assert!(loaded.dom.contains(&format!("id=\"m{}\"", m["id"])));
    }
    assert_eq!(loaded.dom.matches("+++ b/src/").count(), listed.len());
    // `report` on the directory evaluate wrote gives the same bytes: one path writes both.
    let html = std::fs::read(&page).unwrap();
    let schema_json = std::fs::read(out.join("mutation-testing-report.json")).unwrap();
    let o = report(&out);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(std::fs::read(&page).unwrap(), html);
    assert_eq!(
        std::fs::read(out.join("mutation-testing-report.json")).unwrap(),
        schema_json
    );
    let doc = json(&out.join("mutation-testing-report.json"));
    validate(&doc);
    assert_eq!(score(&doc), last_kill_rate(&evaluation));
}

#[test]
fn a_page_whose_script_throws_fails_the_browser_check() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = committed("search_tree", tmp.path());
    let o = report(&dir);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let page = dir.join("report.html");
    assert!(chromium::load(&page).is_ok());
    let html = std::fs::read_to_string(&page).unwrap();
    let from = "counted[status] += 1;";
    assert!(html.contains(from));
    std::fs::write(&page, html.replace(from, "counted[status].no.such += 1;")).unwrap();
    let err = chromium::load(&page)
        .err()
        .expect("a broken script is caught");
    assert!(err.contains("TypeError"), "{err}");
}

#[test]
fn the_committed_pages_are_what_report_writes() {
    let tmp = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(workspace_root().join("reports")).unwrap() {
        let entry = entry.unwrap();
        if !entry.path().join("evaluation.json").exists() {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        let dir = committed(&name, tmp.path());
        let o = report(&dir);
        assert!(o.status.success(), "{name}: {}", text(&o.stderr));
        for f in ["report.html", "mutation-testing-report.json"] {
            let want = std::fs::read(entry.path().join(f))
                .unwrap_or_else(|e| panic!("reports/{name}/{f}: {e} (run `ferastrau report`)"));
            assert!(
                std::fs::read(dir.join(f)).unwrap() == want,
                "reports/{name}/{f} is not what `ferastrau report reports/{name}` writes now"
            );
        }
        let doc = json(&dir.join("mutation-testing-report.json"));
        validate(&doc);
        assert_eq!(
            score(&doc),
            last_kill_rate(&json(&dir.join("evaluation.json")))
        );
    }
}

#[test]
fn report_refuses_reports_whose_counts_disagree() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = committed("search_tree", tmp.path());
    let path = dir.join("evaluation.json");
    let mut ev = json(&path);
    let last = ev["scopes"].as_array().unwrap().len() - 1;
    let n = ev["scopes"][last]["killed_by"]["output"].as_u64().unwrap();
    ev["scopes"][last]["killed_by"]["output"] = serde_json::json!(n + 1);
    std::fs::write(&path, serde_json::to_string(&ev).unwrap()).unwrap();
    let o = report(&dir);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("disagree"), "{}", text(&o.stderr));
    assert!(!dir.join("report.html").exists());
    // A directory that holds no run is a usage error.
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let o = report(&empty);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("holds no evaluation.json"));
}

#[test]
fn the_schema_check_rejects_what_the_schema_forbids() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = committed("search_tree", tmp.path());
    assert!(report(&dir).status.success());
    let doc = json(&dir.join("mutation-testing-report.json"));
    let validator = jsonschema::validator_for(&report_schema::schema()).unwrap();
    assert!(validator.is_valid(&doc));
    let mut bad = doc.clone();
    bad["files"]["src/tree.rs"]["mutants"][0]["status"] = serde_json::json!("Dead");
    assert!(!validator.is_valid(&bad));
    let mut bad = doc.clone();
    bad.as_object_mut().unwrap().remove("thresholds");
    assert!(!validator.is_valid(&bad));
}

/// Validates `doc` against the published schema, listing every violation.
fn validate(doc: &serde_json::Value) {
    let validator = jsonschema::validator_for(&report_schema::schema()).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "schema violations: {errors:#?}");
}

/// The schema's mutation score: detected (Killed, Timeout) over the valid mutants (those
/// that are not CompileError, RuntimeError, Ignored or Pending), in percent, rounded as our
/// reports round.
fn score(doc: &serde_json::Value) -> f64 {
    let (mut detected, mut valid) = (0, 0);
    for file in doc["files"].as_object().unwrap().values() {
        for m in file["mutants"].as_array().unwrap() {
            match m["status"].as_str().unwrap() {
                "Killed" | "Timeout" => {
                    detected += 1;
                    valid += 1
                }
                "Survived" | "NoCoverage" => valid += 1,
                _ => {}
            }
        }
    }
    (10000.0 * detected as f64 / valid as f64).round() / 100.0
}

fn last_kill_rate(evaluation: &serde_json::Value) -> f64 {
    let scopes = evaluation["scopes"].as_array().unwrap();
    scopes.last().unwrap()["kill_rate"].as_f64().unwrap()
}
