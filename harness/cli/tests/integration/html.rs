//! `report.html` and `mutation-testing-report.json`: written by `evaluate` and by `ferastrau
//! report`, the page opened in headless Chromium (its script runs without errors and counts
//! what evaluation.json counts; a screenshot under target/; the keyboard moves between
//! survivors and the killed filter hides and shows), the survivors' `EQUIVALENT.md` verdicts,
//! scope + 1 and reach, per-line coverage and the input notation on the page, the schema JSON
//! validated against the published schema.

use crate::support::chromium;
use crate::support::report_schema;

use std::path::{Path, PathBuf};

use crate::common::workspace_root;
use crate::common::{self, ferastrau, json, text};
use ferastrau_report::html::equivalent::{self, Conclusion};

/// A copy of the committed reports of `benchmark` (its evaluation, not re-run), with its
/// `EQUIVALENT.md`.
fn committed(benchmark: &str, into: &Path) -> PathBuf {
    let dir = into.join(benchmark);
    std::fs::create_dir_all(&dir).unwrap();
    let from = workspace_root().join("reports").join(benchmark);
    for f in ferastrau_harness::evaluate::report::FILES {
        std::fs::copy(from.join(f), dir.join(f)).unwrap();
    }
    if from.join(equivalent::FILE).exists() {
        std::fs::copy(from.join(equivalent::FILE), dir.join(equivalent::FILE)).unwrap();
    }
    dir
}

/// The survivors of the largest scope, in source order (file, line, column, id): the order
/// of the page's list and of its next/previous keys.
fn survivors(
    evaluation: &serde_json::Value,
    mutants: &serde_json::Value,
) -> Vec<serde_json::Value> {
    let last = evaluation["scopes"].as_array().unwrap().last().unwrap()["scope"].to_string();
    let mut out: Vec<serde_json::Value> = mutants["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["skipped"].is_null() && m["scopes"][&last]["status"] == "survived")
        .cloned()
        .collect();
    out.sort_by_key(|m| {
        (
            m["file"].as_str().unwrap().to_string(),
            m["line"].as_u64(),
            m["column"].as_u64(),
            m["id"].as_u64(),
        )
    });
    out
}

/// The page's entry (`<details id="mN" …>…</details>`) of mutant `id`.
fn entry(dom: &str, id: &serde_json::Value) -> String {
    let start = dom
        .find(&format!("<details class=\"mutant\" id=\"m{id}\""))
        .unwrap_or_else(|| panic!("no entry for mutant {id}"));
    let end = dom[start..].find("</details>").unwrap() + start;
    dom[start..end].to_string()
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
#[ignore = "needs Chromium: bash scripts/test-prerequisites.sh, then --ignored (CI runs it)"]
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
    // No EQUIVALENT.md beside these reports: the page says nothing about verdicts.
    assert!(!loaded.dom.contains("EQUIVALENT.md"));
    assert!(!loaded.dom.contains("tag verdict"));
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
#[ignore = "needs Chromium: bash scripts/test-prerequisites.sh, then --ignored (CI runs it)"]
fn the_keys_move_between_survivors_and_the_killed_filter_hides_and_shows() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = committed("search_tree", tmp.path());
    let o = report(&dir);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let evaluation = json(&dir.join("evaluation.json"));
    let mutants = json(&dir.join("mutants.json"));
    let last = evaluation["scopes"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    let listed = mutants["mutants"].as_array().unwrap().len() as u64;
    let killed = last["killed"].as_u64().unwrap();
    let alive = survivors(&evaluation, &mutants);
    assert!(alive.len() >= 3, "the test needs three survivors");
    let id = |i: usize| format!("m{}", alive[i]["id"]);
    let steps = ["n", "n", "p", "k", "j", "click:killed", "click:killed"];
    let loaded = chromium::load_replaying(&dir.join("report.html"), &steps)
        .unwrap_or_else(|e| panic!("{e}"));
    let t = &loaded.trail;
    let current: Vec<&serde_json::Value> = t.iter().map(|s| &s["current"]).collect();
    // Loaded: none current; n, n: the first two survivors; p: back to the first; k (previous)
    // from the first: the last; j (next) from the last: the first again.
    assert_eq!(
        current,
        [
            &serde_json::Value::Null,
            &serde_json::json!(id(0)),
            &serde_json::json!(id(1)),
            &serde_json::json!(id(0)),
            &serde_json::json!(id(alive.len() - 1)),
            &serde_json::json!(id(0)),
            &serde_json::json!(id(0)),
            &serde_json::json!(id(0)),
        ]
    );
    // Killed mutants are hidden when the page opens, one click shows them, another hides
    // them again; what is shown is counted from the layout and matches evaluation.json.
    let hidden = serde_json::json!({ "total": listed - killed, "survived": alive.len() });
    assert_eq!(t[0]["shown"], hidden);
    assert_eq!(loaded.shown, hidden);
    assert_eq!(t[6]["shown"]["total"], listed);
    assert_eq!(t[6]["shown"]["killed"], killed);
    assert_eq!(t[6]["shown"]["survived"], alive.len());
    assert_eq!(t[7]["shown"], hidden);
    assert!(loaded.dom.contains(&format!(
        "Showing {} of {listed} mutants (hidden: {killed} killed).",
        listed - killed
    )));
    // The page with killed mutants hidden is the shorter one.
    let (short, long) = (
        t[0]["height"].as_u64().unwrap(),
        t[6]["height"].as_u64().unwrap(),
    );
    assert!(
        short * 2 < long,
        "{short} px with killed mutants hidden, {long} px shown"
    );
    eprintln!("search_tree page: {short} px with killed mutants hidden, {long} px with them");
}

#[test]
#[ignore = "needs Chromium: bash scripts/test-prerequisites.sh, then --ignored (CI runs it)"]
fn each_survivor_shows_its_equivalent_md_verdict_its_scope_plus_one_and_the_headline() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = committed("search_tree", tmp.path());
    assert!(report(&dir).status.success());
    let evaluation = json(&dir.join("evaluation.json"));
    let mutants = json(&dir.join("mutants.json"));
    let doc = equivalent::read(&dir)
        .unwrap()
        .expect("search_tree has an EQUIVALENT.md");
    let loaded = chromium::load(&dir.join("report.html")).unwrap_or_else(|e| panic!("{e}"));
    let dom = &loaded.dom;
    let last = evaluation["scopes"].as_array().unwrap().last().unwrap();
    assert!(dom.contains(&format!(
        "Kill rate at scope {} (the largest): <b id=\"kill-rate\">{:.2}%</b>",
        last["scope"],
        last["kill_rate"].as_f64().unwrap()
    )));
    let alive = survivors(&evaluation, &mutants);
    // The list at the top: each survivor, in order, with its key and place.
    let list = dom.split("<ol id=\"survivor-list\">").nth(1).unwrap();
    let list = &list[..list.find("</ol>").unwrap()];
    assert_eq!(list.matches("<li ").count(), alive.len());
    let mut at = 0;
    for m in &alive {
        let place = format!(
            "{}:{}:{}",
            m["file"].as_str().unwrap(),
            m["line"],
            m["column"]
        );
        let here = list[at..]
            .find(&format!("data-id=\"m{}\"", m["id"]))
            .unwrap_or_else(|| panic!("{} is not listed in order", m["id"]))
            + at;
        let item = &list[here..here + list[here..].find("</li>").unwrap()];
        assert!(item.contains(&place), "{item}");
        assert_eq!(item.matches("</li>").count(), 0);
        at = here;
        // Its entry: the verdict and the argument of EQUIVALENT.md, and scope + 1.
        let key = m["key"].as_str().unwrap();
        let argument = doc
            .argument(key)
            .unwrap_or_else(|| panic!("no entry for {key}"));
        let verdict = Conclusion::of(argument).unwrap();
        let e = entry(dom, &m["id"]);
        assert!(
            e.contains(&format!(
                "tag verdict {}\">{}</span>",
                verdict.class(),
                verdict.label()
            )),
            "{e}"
        );
        let plain = Conclusion::strip(argument).split('`').next().unwrap();
        assert!(e.contains(plain), "the argument of {key} is not shown: {e}");
        assert!(item.contains(verdict.label()), "{item}");
        let next = &m["next_scope"];
        assert_eq!(next["status"], "survived", "{key}");
        assert!(
            e.contains(&format!("survives scope {} too", next["scope"])),
            "{e}"
        );
    }
    // Without the document, nothing about verdicts.
    std::fs::remove_file(dir.join(equivalent::FILE)).unwrap();
    assert!(report(&dir).status.success());
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(!html.contains("EQUIVALENT.md") && !html.contains("tag verdict"));
}

#[test]
fn a_survivor_no_input_reaches_is_no_coverage_and_lines_show_what_the_original_missed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = committed("fibonacci_heap", tmp.path());
    assert!(report(&dir).status.success());
    let evaluation = json(&dir.join("evaluation.json"));
    let mutants = json(&dir.join("mutants.json"));
    let last = evaluation["scopes"].as_array().unwrap().last().unwrap();
    let scope = last["scope"].to_string();
    let mut unreached: Vec<serde_json::Value> = survivors(&evaluation, &mutants)
        .into_iter()
        .filter(|m| m["scopes"][&scope]["executions"] == 0)
        .map(|m| m["id"].clone())
        .collect();
    unreached.sort_by_key(|v| v.as_u64());
    assert!(
        !unreached.is_empty(),
        "the committed fibonacci_heap run has survivors no input reaches"
    );
    // The schema JSON: NoCoverage for those, and only those; still valid, same score.
    let doc = json(&dir.join("mutation-testing-report.json"));
    validate(&doc);
    assert_eq!(score(&doc), last_kill_rate(&evaluation));
    let mut no_coverage: Vec<serde_json::Value> = Vec::new();
    for file in doc["files"].as_object().unwrap().values() {
        for m in file["mutants"].as_array().unwrap() {
            if m["status"] == "NoCoverage" {
                no_coverage.push(serde_json::json!(m["id"]
                    .as_str()
                    .unwrap()
                    .parse::<u64>()
                    .unwrap()));
            }
        }
    }
    no_coverage.sort_by_key(|v| v.as_u64());
    assert_eq!(no_coverage, unreached);
    // The page: "no input reaches it" on each, in the list and in the entry.
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    for id in &unreached {
        assert!(entry(&html, id).contains("No input reaches it"), "{id}");
        let li = html.find(&format!("<li data-id=\"m{id}\"")).unwrap();
        assert!(html[li..li + html[li..].find("</li>").unwrap()].contains("no input reaches it"));
    }
    assert_eq!(html.matches("No input reaches it").count(), unreached.len());
    // Per-line coverage: each line with a code probe the original missed at the largest scope
    // has a bar saying which; every other bar says all was reached.
    let bars = line_bars(&html);
    let mut missed: std::collections::BTreeMap<u64, Vec<String>> = Default::default();
    for u in last["uncovered"].as_array().unwrap() {
        let u = u.as_str().unwrap();
        let (place, what) = u.split_once(": ").unwrap();
        let line: u64 = place
            .split(' ')
            .next()
            .unwrap()
            .rsplit(':')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        missed.entry(line).or_default().push(what.to_string());
    }
    assert!(!missed.is_empty());
    for (line, whats) in &missed {
        let (class, title) = &bars[line];
        assert_ne!(class, "cov-full", "line {line}: {title}");
        for w in whats {
            assert!(
                title.contains(w.as_str()),
                "line {line} should name {w}: {title}"
            );
        }
    }
    for (line, (class, title)) in &bars {
        if !missed.contains_key(line) && !title.is_empty() {
            assert!(
                class == "cov-full" || title.contains("missed: "),
                "line {line}: {class} {title}"
            );
        }
    }
    assert!(bars.values().filter(|(c, _)| c == "cov-full").count() > 50);
}

/// The coverage bar of each numbered source line with probes: line → (class, title). (The
/// page has one file per mutated file; this benchmark's mutants are in one.)
fn line_bars(html: &str) -> std::collections::BTreeMap<u64, (String, String)> {
    let mut out = std::collections::BTreeMap::new();
    for part in html.split("<span class=\"cov ").skip(1) {
        let Some((class, rest)) = part.split_once("\" title=\"") else {
            continue;
        };
        let (title, rest) = rest.split_once('"').unwrap();
        let Some(ln) = rest.strip_prefix("></span><span class=\"ln\">") else {
            continue;
        };
        let line: u64 = ln[..ln.find('<').unwrap()].parse().unwrap();
        let title = title
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&amp;", "&");
        out.insert(line, (class.to_string(), title));
    }
    out
}

#[test]
#[ignore = "needs Chromium: bash scripts/test-prerequisites.sh, then --ignored (CI runs it)"]
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
        for f in ferastrau_report::html::FILES {
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
        // Each benchmark explains its killing inputs' notation (its manifest's
        // `input-notation`), and the page shows it.
        let manifest =
            ferastrau_mutator::Manifest::read(&workspace_root().join("benchmarks").join(&name))
                .unwrap();
        let notation = manifest
            .input_notation
            .unwrap_or_else(|| panic!("benchmarks/{name} documents no input-notation"));
        let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
        let block = html.split("id=\"notation\"").nth(1).unwrap();
        let block = &block[..block.find("</details>").unwrap()];
        for part in notation.split('`') {
            let escaped = part
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;");
            assert!(
                block.contains(&escaped),
                "{name}: `{part}` is not on the page"
            );
        }
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

#[test]
fn without_chromium_the_browser_tests_fail_naming_the_prerequisites_script() {
    let tmp = tempfile::tempdir().unwrap();
    // Nothing at the fixed places, an empty PATH: a failure that says what to run.
    let err = chromium::find(None, &[tmp.path().join("chromium")], Some("".into())).unwrap_err();
    assert!(err.contains("bash scripts/test-prerequisites.sh"), "{err}");
    let err = chromium::find(Some(tmp.path().join("nope").into()), &[], None).unwrap_err();
    assert!(err.contains("FERASTRAU_CHROMIUM") && err.contains(chromium::PREREQUISITES));
    // Found on the PATH as the script finds it.
    let bin = tmp.path().join("chromium");
    std::fs::write(&bin, "").unwrap();
    let found = chromium::find(None, &[], Some(tmp.path().as_os_str().to_owned())).unwrap();
    assert_eq!(found, bin);
    // The script exists, and CI installs through it.
    let root = workspace_root();
    assert!(root.join(chromium::PREREQUISITES).is_file());
    let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap();
    assert!(
        ci.contains(chromium::PREREQUISITES),
        ".ci/run does not call the script"
    );
}

/// The README's test command passes on a machine with Rust and git only: every test that
/// opens a browser is ignored by default (it would fail there), and CI runs them with
/// `--ignored` after installing Chromium, so that they never pass unseen. A browser test
/// added without the attribute fails here.
#[test]
fn the_browser_tests_are_ignored_by_default_and_ci_runs_them() {
    let here = std::fs::read_to_string(workspace_root().join(file!())).unwrap();
    let mut browsers = 0;
    for test in here.split("#[test]\n").skip(1) {
        let body = test.split("\n}\n").next().unwrap();
        if body.contains("fn the_browser_tests_are_ignored_by_default_and_ci_runs_them") {
            continue;
        }
        let opens = ["chromium::load", "chromium::screenshot"]
            .iter()
            .any(|c| body.contains(c));
        let name = body.lines().find(|l| l.starts_with("fn ")).unwrap_or(body);
        assert_eq!(
            opens,
            body.starts_with("#[ignore = \"needs Chromium"),
            "{name}: a test that opens Chromium is ignored by default, and only such a test"
        );
        browsers += usize::from(opens);
    }
    assert!(browsers >= 4, "{browsers} browser tests found");
    let ci = std::fs::read_to_string(workspace_root().join(".ci/run")).unwrap();
    assert!(
        ci.contains("--test integration html:: -- --ignored"),
        ".ci/run does not run the browser tests"
    );
}
