//! Every source place a committed report names is one of the benchmark's current source:
//! each place listed as not covered (`uncovered`, `uncovered_spec` of each scope of
//! `evaluation.json`) is a probe (the file, the line, the function and what it sees), and each
//! mutant of `mutants.json` stands at its line and column with its original text. An edit that
//! moves the instrumented or mutated code (a change to `invariant.rs` above `rep_ok`, an
//! attribute above a struct of the code under test) leaves a report pointing at lines that hold
//! something else, a wrong statement with no failing number; these tests refuse it until the
//! report comes from a run of the source as it is.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    crate::common::workspace_root()
}

/// The `evaluation.json` files of the committed reports of benchmark `b`: `reports/<b>/`, its
/// structural run and the full (every mutant) reproduction.
fn evaluations(b: &str) -> Vec<PathBuf> {
    reports(b, "evaluation.json")
}

/// The files called `name` of the committed reports of benchmark `b`.
fn reports(b: &str, name: &str) -> Vec<PathBuf> {
    let root = repo().join("reports");
    [
        root.join(b),
        root.join(b).join("structural"),
        root.join("full").join(b),
    ]
    .into_iter()
    .map(|d| d.join(name))
    .filter(|p| p.is_file())
    .collect()
}

/// The benchmarks with committed reports.
fn reported() -> Vec<String> {
    let mut benchmarks: Vec<String> = std::fs::read_dir(repo().join("benchmarks"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|b| repo().join("reports").join(b).is_dir())
        .collect();
    benchmarks.sort();
    assert!(!benchmarks.is_empty(), "no committed reports found");
    benchmarks
}

/// The uncovered places of every scope of `path`.
fn places(path: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut out = BTreeSet::new();
    for scope in json["scopes"].as_array().expect("scopes") {
        for key in ["uncovered", "uncovered_spec"] {
            for place in scope[key].as_array().into_iter().flatten() {
                out.insert(place.as_str().expect("a place is a string").to_string());
            }
        }
    }
    out
}

#[test]
fn every_uncovered_place_in_a_committed_report_is_a_probe_of_the_current_source() {
    let benchmarks = reported();
    let mut failures = Vec::new();
    let mut checked = 0;
    for b in &benchmarks {
        let probes: BTreeSet<String> =
            ferastrau_mutator::probes(&repo().join("benchmarks").join(b))
                .unwrap()
                .iter()
                .map(|p| p.place())
                .collect();
        for path in evaluations(b) {
            let stale: Vec<String> = places(&path).difference(&probes).cloned().collect();
            checked += 1;
            if !stale.is_empty() {
                failures.push(format!(
                    "{}: {} place(s) name no probe of benchmarks/{b} as it is now (the source moved since the report was written), e.g. {}",
                    path.strip_prefix(repo()).unwrap().display(),
                    stale.len(),
                    stale[0]
                ));
            }
        }
    }
    assert!(
        checked >= benchmarks.len(),
        "a benchmark without evaluation.json"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_mutant_of_a_committed_report_stands_at_its_place_in_the_current_source() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for b in reported() {
        for path in reports(&b, "mutants.json") {
            let text = std::fs::read_to_string(&path).unwrap();
            let json: serde_json::Value = serde_json::from_str(&text).unwrap();
            let mut stale = Vec::new();
            for m in json["mutants"].as_array().expect("mutants") {
                let file = m["file"].as_str().expect("file");
                let (line, column) = (m["line"].as_u64().unwrap(), m["column"].as_u64().unwrap());
                let original = m["original"].as_str().expect("original");
                let source = std::fs::read_to_string(repo().join("benchmarks").join(&b).join(file))
                    .unwrap_or_default();
                // Lines and columns count from 1, columns in characters.
                let here: String = source
                    .lines()
                    .nth(line as usize - 1)
                    .unwrap_or("")
                    .chars()
                    .skip(column as usize - 1)
                    .take(original.chars().count())
                    .collect();
                checked += 1;
                if here != original {
                    stale.push(format!(
                        "{file}:{line}:{column} `{original}` (the source has `{here}`)"
                    ));
                }
            }
            if let Some(first) = stale.first() {
                failures.push(format!(
                    "{}: {} mutant(s) not at their place in benchmarks/{b}, e.g. {first}",
                    path.strip_prefix(repo()).unwrap().display(),
                    stale.len()
                ));
            }
        }
    }
    assert!(checked > 0, "no mutant checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
