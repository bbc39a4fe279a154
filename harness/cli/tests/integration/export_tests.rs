//! Tests the harness writes, measured as suites with `evaluate --suite` (issue 34, items 1
//! and 3): Korat's inputs exported as tests built by calls (`export-tests`) kill exactly what
//! their scope kills, also after `subsets`' reduction; `check`'s counterexample printed as a
//! test fails on the original; the sequences of calls (`sequences`) reach every input Korat
//! generates, and exported as tests kill a subset. How `--suite` measures a file is in
//! [`crate::suite`].

use std::path::Path;

use crate::common::{command, evaluate, ferastrau, fixture, json, text};
use crate::suite::{killed_at, killed_by_suite, BROKEN, USAGE};

/// The suites' clock floor in these tests (their runs are milliseconds).
const FLOOR: &[&str] = &["--timeout-floor", "150ms"];

/// `evaluate --suite FILE` of a built-in benchmark into `out`, which must succeed; its
/// `suite.json`.
fn suite_of(benchmark: &str, file: &Path, out: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["evaluate", "--benchmark", benchmark, "--suite"];
    args.extend([file.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    args.extend_from_slice(extra);
    let o = command(&args).output().unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    json(&out.join("suite.json"))
}

/// `export-tests` (issue 34, item 1) of SearchTree at scope 3: a file that builds every input
/// by `add` calls (no struct literal of a tree or a node), passes on the original (the suite's
/// own check) and, measured with `--suite`, kills exactly the mutants `--scopes 3` kills.
#[test]
fn search_tree_s_scope_3_exported_as_calls_kills_exactly_what_scope_3_kills() {
    let root = tempfile::tempdir().unwrap();
    let file = root.path().join("exhaustive.rs");
    let o = command(&[
        "export-tests",
        "--benchmark",
        "search_tree",
        "--scopes",
        "3",
        "--out",
        file.to_str().unwrap(),
    ])
    .output()
    .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let exported = std::fs::read_to_string(&file).unwrap();
    assert_eq!(exported.matches("#[test]").count(), 90, "scope 3's inputs");
    assert!(exported.contains("tree.add(2);\n    tree.add(1);\n    tree.add(3);\n"));
    for literal in ["SearchTree {", "Node {", "nodes:"] {
        assert!(!exported.contains(literal), "a struct literal: {literal}");
    }
    let korat = root.path().join("korat");
    let (evaluation, mutants) = evaluate(
        &[
            "--benchmark",
            "search_tree",
            "--scopes",
            "2..3",
            "--kill-matrix",
        ],
        &korat,
    );
    let by_korat = killed_at(&mutants, 3);
    let measure =
        |file: &Path, out: &str| suite_of("search_tree", file, &root.path().join(out), FLOOR);
    let report = measure(&file, "suite");
    assert_eq!(killed_by_suite(&report), by_korat);
    assert_eq!(report["kill_rate"], evaluation["scopes"][1]["kill_rate"]);

    // `--reduced`: the greedy reduced suite `subsets` chose from the kill matrix, exported the
    // same way, kills the same mutants with a fraction of the tests.
    let o = ferastrau(&["subsets", korat.to_str().unwrap(), "--random-samples", "10"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let suite_file = korat.join("reduced-suite.json");
    let chosen = json(&suite_file)["inputs"].as_array().unwrap().len();
    let reduced = root.path().join("reduced.rs");
    let export_reduced = |suite: &Path| {
        command(&[
            "export-tests",
            "--benchmark",
            "search_tree",
            "--reduced",
            suite.to_str().unwrap(),
            "--out",
            reduced.to_str().unwrap(),
        ])
        .output()
        .unwrap()
    };
    let o = export_reduced(&suite_file);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let written = std::fs::read_to_string(&reduced).unwrap();
    assert_eq!(written.matches("#[test]").count(), chosen);
    assert_eq!(chosen, 13, "the greedy cover of scope 3's 90 inputs");
    assert_eq!(killed_by_suite(&measure(&reduced, "reduced")), by_korat);
    // A suite the crate no longer generates (an input rendered otherwise) is refused.
    let tampered = root.path().join("tampered.json");
    let text_of = std::fs::read_to_string(&suite_file).unwrap();
    let first = json(&suite_file)["inputs"][0]["input"]
        .as_str()
        .unwrap()
        .to_string();
    std::fs::write(&tampered, text_of.replacen(&first, "add(9) on ()", 1)).unwrap();
    let o = export_reduced(&tampered);
    assert_eq!(o.status.code(), Some(USAGE));
    assert!(
        text(&o.stderr).contains("changed since the reduced suite"),
        "{}",
        text(&o.stderr)
    );
    // Another benchmark's reduced suite is refused.
    let chain = fixture("chain");
    let o = command(&[
        "export-tests",
        "--benchmark-path",
        chain.to_str().unwrap(),
        "--reduced",
        suite_file.to_str().unwrap(),
        "--out",
        root.path().join("wrong.rs").to_str().unwrap(),
    ])
    .output()
    .unwrap();
    assert_eq!(o.status.code(), Some(USAGE));
    assert!(
        text(&o.stderr).contains("the reduced suite is search_tree's, not chain's"),
        "{}",
        text(&o.stderr)
    );
}

/// `check`'s smallest counterexample, printed as a test built by calls (issue 34, item 1):
/// `remove(1) on [1]` of `testdata/buggy` as `set.insert(1)` and the call, the postcondition
/// asserted. Measured as a suite, it fails on the original, as `check` says the original does.
#[test]
fn check_prints_its_counterexample_as_a_test_that_fails_on_the_original() {
    let buggy = fixture("buggy");
    let o = command(&[
        "check",
        "--benchmark-path",
        buggy.to_str().unwrap(),
        "--scopes",
        "1..2",
        "--format",
        "json",
    ])
    .output()
    .unwrap();
    assert_eq!(o.status.code(), Some(BROKEN), "{}", text(&o.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let test = doc["counterexample"]["test"]
        .as_str()
        .expect("a test")
        .to_string();
    assert!(test.contains("set.insert(1);") && test.contains("bench.run(0, &mut input)"));
    assert!(
        !test.contains("items:"),
        "no struct literal of the set: {test}"
    );
    let table = command(&[
        "check",
        "--benchmark-path",
        buggy.to_str().unwrap(),
        "--scopes",
        "1",
    ])
    .output()
    .unwrap();
    assert!(
        text(&table.stdout).contains("as a test (built by calls"),
        "{}",
        text(&table.stdout)
    );

    let root = tempfile::tempdir().unwrap();
    let file = root.path().join("counterexample.rs");
    std::fs::write(&file, &test).unwrap();
    let out = root.path().join("out");
    let mut args = vec!["evaluate", "--benchmark-path", buggy.to_str().unwrap()];
    args.extend(["--suite", file.to_str().unwrap()]);
    args.extend(["--out", out.to_str().unwrap()]);
    let o = command(&args).output().unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(BROKEN), "{err}");
    assert!(
        err.contains("test counterexample fails on the original"),
        "{err}"
    );
}

/// `sequences` (issue 34, item 3) on SearchTree: every sequence of `add` and `remove` calls up
/// to length 4 with arguments 1..4 reaches every receiver of Korat's scope-4 inputs (every
/// search tree of up to four keys in 1..4 is built by adding its keys in pre-order); merged by
/// abstraction there are exactly the 16 sets of 1..4. A benchmark with no initial state is
/// refused with the reason.
#[test]
fn sequences_of_calls_reach_every_search_tree_korat_generates() {
    let run = |matching: &str| {
        let o = command(&[
            "sequences",
            "--benchmark",
            "search_tree",
            "--length",
            "4",
            "--matching",
            matching,
            "--format",
            "json",
        ])
        .output()
        .unwrap();
        assert!(o.status.success(), "{}", text(&o.stderr));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let iso = run("isomorphism");
    let levels = iso["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 4);
    let c = &iso["coverage"];
    assert!(c["receivers"].as_u64().unwrap() > 16, "{c}");
    assert_eq!(c["covered"], c["receivers"], "every tree is reached: {c}");
    let abs = run("abstraction");
    let last = abs["levels"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["states"], 16, "the subsets of 1..4: {last}");
    assert_eq!(abs["coverage"]["covered"], 16);

    let chain = fixture("chain");
    let o = command(&[
        "sequences",
        "--benchmark-path",
        chain.to_str().unwrap(),
        "--length",
        "2",
    ])
    .output()
    .unwrap();
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("Benchmark::initial"),
        "{}",
        text(&o.stderr)
    );
}

/// `sequences --export` (issue 34, item 3): SearchTree's calls in sequences of up to three
/// calls, arguments 1..3, written as 60 tests (each state built by the calls that first reached
/// it), measured with `--suite` against Korat's 90 inputs of scope 3: the calls cover less code
/// (83.05 % of statements against 89.83 %) and kill a strict subset of scope 3's mutants (231
/// against 263 of 360) — at length 3 no call is made on a tree of three keys.
#[test]
fn sequences_of_length_3_exported_as_tests_kill_a_subset_of_what_scope_3_kills() {
    let root = tempfile::tempdir().unwrap();
    let file = root.path().join("sequences.rs");
    let o = command(&[
        "sequences",
        "--benchmark",
        "search_tree",
        "--length",
        "3",
        "--export",
        file.to_str().unwrap(),
        "--format",
        "json",
    ])
    .output()
    .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["statement_coverage"], 83.05, "{report}");
    assert_eq!(report["branch_coverage"], 86.11, "{report}");
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(written.matches("#[test]").count(), 60);
    assert!(written.contains(
        "    for (m, arg) in [(0, 2), (0, 1)] {\n        input = bench.with_argument(m, &input, arg);"
    ));

    let (evaluation, mutants) = evaluate(
        &["--benchmark", "search_tree", "--scopes", "3"],
        &root.path().join("korat"),
    );
    assert_eq!(evaluation["scopes"][0]["statement_coverage"], 89.83);
    let by_korat = killed_at(&mutants, 3);
    let by_sequences = killed_by_suite(&suite_of(
        "search_tree",
        &file,
        &root.path().join("suite"),
        FLOOR,
    ));
    assert_eq!((by_sequences.len(), by_korat.len()), (231, 263));
    assert!(by_sequences.is_subset(&by_korat));
}

/// `export-tests` of a benchmark that writes no calls itself (BinomialHeap has no
/// `construct`): each input whose receiver some sequence of its methods' calls reaches (from
/// `initial`, arguments 1..3) is built by the shortest such sequence — 224 of scope 3's 336,
/// every input but `union`'s with a second heap of more than one node, which no call with one
/// argument makes — and the rest directly; the file kills exactly what `--scopes 3` kills (on a
/// sample of the mutants, the same for both).
#[test]
fn inputs_are_built_by_the_shortest_sequences_of_calls_that_reach_them() {
    let root = tempfile::tempdir().unwrap();
    let file = root.path().join("exported.rs");
    let o = command(&[
        "export-tests",
        "--benchmark",
        "binomial_heap",
        "--scopes",
        "3",
        "--out",
        file.to_str().unwrap(),
    ])
    .output()
    .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let exported = std::fs::read_to_string(&file).unwrap();
    assert_eq!(exported.matches("#[test]").count(), 336);
    assert_eq!(
        exported.matches("(built by the shortest sequence").count(),
        224
    );
    assert_eq!(exported.matches("(built directly:").count(), 112);
    let sample = ["--max-mutants", "60", "--seed", "1"];
    let mut args = vec!["--benchmark", "binomial_heap", "--scopes", "3"];
    args.extend(sample);
    let (_, mutants) = evaluate(&args, &root.path().join("korat"));
    let by_korat = killed_at(&mutants, 3);
    let report = suite_of("binomial_heap", &file, &root.path().join("suite"), &sample);
    assert_eq!(killed_by_suite(&report), by_korat);
}
