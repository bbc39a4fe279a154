//! Generator-style benchmarks (issue 33): `testdata/boxed`, a search tree linked by
//! `Option<Box<Node>>` whose inputs are a generator program (`ferastrau_sdk::generator`),
//! evaluated end to end like any crate; a generator that misbehaves stops the run naming the
//! choices that lead there; `testdata/leftist`, a user's leftist heap whose glue is no longer
//! than its code.

use std::path::Path;

use crate::common::{command, evaluate, fixture, text};

/// Trees of up to s nodes with distinct keys among s values, times s + 1 keys to look for,
/// for each of the two methods: 2 · (s + 1) · Σₙ Catalan(n) · C(s, n).
fn expected_inputs(s: u64) -> u64 {
    let catalan = [1, 1, 2, 5, 14];
    let choose = |n: u64, k: u64| (0..k).fold(1, |a, i| a * (n - i) / (i + 1));
    2 * (s + 1)
        * (0..=s)
            .map(|n| catalan[n as usize] * choose(s, n))
            .sum::<u64>()
}

#[test]
fn a_boxed_tree_described_by_a_generator_program_is_evaluated_end_to_end() {
    let root = tempfile::tempdir().unwrap();
    let path = fixture("boxed");
    let args = [
        "--benchmark-path",
        path.to_str().unwrap(),
        "--scopes",
        "1..3",
    ];
    let (evaluation, mutants) = evaluate(&args, &root.path().join("out"));
    assert_eq!(
        evaluation["engine"], "generator",
        "the reports name the engine"
    );
    let scopes = evaluation["scopes"].as_array().unwrap();
    let inputs: Vec<u64> = scopes
        .iter()
        .map(|s| s["inputs"].as_u64().unwrap())
        .collect();
    assert_eq!(
        inputs,
        [1, 2, 3].map(expected_inputs),
        "8, 30 and 120 inputs"
    );
    // Mutants of both methods are killed, and the spec's checks ran on every input.
    let at3 = &scopes[2];
    assert!(at3["killed"].as_u64().unwrap() > 0, "{at3}");
    assert!(at3["kill_rate"].as_f64().unwrap() > 50.0, "{at3}");
    assert!(at3["statement_coverage"].as_f64().unwrap() > 90.0, "{at3}");
    for method in ["Tree::insert", "Tree::contains"] {
        let killed = mutants["mutants"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["function"] == method && m["scopes"]["3"]["status"] == "killed");
        assert!(killed, "no mutant of {method} killed");
    }
}

#[test]
fn a_generator_that_panics_stops_the_run_naming_its_choices() {
    let root = tempfile::tempdir().unwrap();
    let path = fixture("boxed");
    let out = root.path().join("out");
    let args = [
        "evaluate",
        "--benchmark-path",
        path.to_str().unwrap(),
        "--scopes",
        "1..2",
        "--out",
        out.to_str().unwrap(),
    ];
    let o = command(&args)
        .env("FERASTRAU_BOXED_PANIC", "1")
        .output()
        .unwrap();
    let err = text(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("generator panicked") && err.contains("after choices ["),
        "{err}"
    );
    assert!(
        !out.join("evaluation.json").exists(),
        "no report of a broken run"
    );
}

/// Lines of code: neither blank nor a comment (as the README counts them).
pub(crate) fn code_lines(file: &Path) -> usize {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .count()
}

/// The README's example: a leftist heap linked by `Option<Box<Node>>` (`src/heap.rs`, eight
/// target methods) made a benchmark by a generator program, an invariant over the real heap,
/// and what is compared (`src/lib.rs`), in no more lines than the heap itself; evaluated end to
/// end, its mutants die at every method.
#[test]
fn a_leftist_heap_needs_no_more_glue_than_code_and_is_evaluated_end_to_end() {
    let path = fixture("leftist");
    let (code, glue) = (
        code_lines(&path.join("src/heap.rs")),
        code_lines(&path.join("src/lib.rs")),
    );
    assert!(glue <= code, "{glue} lines of glue for {code} of code");
    let root = tempfile::tempdir().unwrap();
    let args = [
        "--benchmark-path",
        path.to_str().unwrap(),
        "--scopes",
        "1..3",
    ];
    let (evaluation, mutants) = evaluate(&args, &root.path().join("out"));
    assert_eq!(evaluation["engine"], "generator");
    let rows = evaluation["scopes"].as_array().unwrap();
    let inputs: Vec<u64> = rows.iter().map(|s| s["inputs"].as_u64().unwrap()).collect();
    assert!(inputs.windows(2).all(|w| w[0] < w[1]), "{inputs:?}");
    let rate = rows[2]["kill_rate"].as_f64().unwrap();
    assert!(rate > 80.0, "kill rate {rate} at scope 3");
    let killed_in = |function: &str| {
        mutants["mutants"].as_array().unwrap().iter().any(|m| {
            m["function"].as_str() == Some(function)
                && m["scopes"]["3"]["status"].as_str() == Some("killed")
        })
    };
    for f in [
        "Heap::insert",
        "Heap::extract_min",
        "Heap::merge",
        "Heap::contains",
        "merge",
    ] {
        assert!(killed_in(f), "no mutant of {f} dies");
    }
}
