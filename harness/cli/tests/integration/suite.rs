//! `evaluate --suite FILE` (issue 34, item 2): a Rust test file measured against every mutant
//! through the metamutant. A file that holds exactly scope 1's inputs of `testdata/chain`
//! (`testdata/suites/chain_scope1.rs`, written by hand) kills exactly what `--scopes 1` kills;
//! a user's few tests kill less, and say which mutants they miss; a suite wrong about the
//! original, or one that is no suite, is refused before any mutant runs.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::{command, evaluate, ferastrau, fixture, json, one_error, text};

const USAGE: i32 = 2;
const BROKEN: i32 = 4;
/// The suites' clock floor in these tests (their runs are milliseconds).
const FLOOR: &[&str] = &["--timeout-floor", "150ms"];

fn suite(name: &str) -> PathBuf {
    fixture("suites").join(name)
}

/// `evaluate --suite` on `testdata/chain`; its status, stdout, stderr and the out directory.
fn run_suite(file: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let chain = fixture("chain");
    let mut args = vec![
        "evaluate",
        "--benchmark-path",
        chain.to_str().unwrap(),
        "--suite",
        file.to_str().unwrap(),
        "--timeout-floor",
        "150ms",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    command(&args).output().unwrap()
}

/// The ids of the mutants `evaluate`'s `mutants.json` says were killed at `scope`.
fn killed_at(mutants: &serde_json::Value, scope: u32) -> BTreeSet<u64> {
    mutants["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["scopes"][scope.to_string()]["status"] == "killed")
        .map(|m| m["id"].as_u64().unwrap())
        .collect()
}

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

fn killed_by_suite(report: &serde_json::Value) -> BTreeSet<u64> {
    report["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["status"] == "killed")
        .map(|v| v["id"].as_u64().unwrap())
        .collect()
}

#[test]
fn a_suite_of_scope_1_s_inputs_kills_exactly_what_scope_1_kills() {
    let root = tempfile::tempdir().unwrap();
    let chain = fixture("chain");
    let (evaluation, mutants) = evaluate(
        &[
            "--benchmark-path",
            chain.to_str().unwrap(),
            "--scopes",
            "1",
            "--timeout-floor",
            "150ms",
        ],
        &root.path().join("korat"),
    );
    let by_korat = killed_at(&mutants, 1);
    let out = root.path().join("suite");
    let o = run_suite(&suite("chain_scope1.rs"), &out, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let report = json(&out.join("suite.json"));
    assert_eq!(report["tests"].as_array().unwrap().len(), 4);
    assert_eq!(killed_by_suite(&report), by_korat);
    assert_eq!(
        report["kill_rate"], evaluation["scopes"][0]["kill_rate"],
        "the same kill rate"
    );
    assert_eq!(report["mutants"], evaluation["scopes"][0]["mutants"]);

    // `export-tests` of the same scope: `chain` writes no calls (`construct`), so each input is
    // built directly, its candidate decoded, and marked so; it kills the same mutants.
    let file = root.path().join("exported.rs");
    let o = command(&[
        "export-tests",
        "--benchmark-path",
        chain.to_str().unwrap(),
        "--scopes",
        "1",
        "--out",
        file.to_str().unwrap(),
    ])
    .output()
    .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let exported = std::fs::read_to_string(&file).unwrap();
    let tests = exported.matches("#[test]").count();
    assert_eq!(
        tests,
        evaluation["scopes"][0]["inputs"].as_u64().unwrap() as usize
    );
    assert_eq!(exported.matches("(built directly:").count(), tests);
    let out = root.path().join("exported");
    let o = run_suite(&file, &out, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(killed_by_suite(&json(&out.join("suite.json"))), by_korat);
}

#[test]
fn a_few_hand_written_tests_kill_less_and_name_what_they_miss() {
    let root = tempfile::tempdir().unwrap();
    let o = run_suite(&suite("chain_few.rs"), root.path(), &["--format", "json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON document");
    let rate = doc["kill_rate"].as_f64().unwrap();
    assert!(rate > 20.0 && rate < 90.0, "kill rate {rate}");
    // Looping mutants end at the clock, panicking ones as crashes or failed tests.
    let reasons: BTreeSet<&str> = doc["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v["reason"].as_str())
        .collect();
    assert!(
        reasons.contains("timeout") && reasons.contains("output"),
        "{reasons:?}"
    );
    let failing: BTreeSet<&str> = doc["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v["test"].as_str())
        .collect();
    assert!(failing.contains("a_value_inserted_is_found"), "{failing:?}");

    // The same verdicts as `mutation-testing-report.json`, for Stryker's viewer: valid under
    // the published schema, its score the suite's kill rate, a failed test its killer.
    let stryker = json(&root.path().join("mutation-testing-report.json"));
    let validator = jsonschema::validator_for(&crate::support::report_schema::schema()).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&stryker)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let mutants: Vec<&serde_json::Value> = stryker["files"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|f| f["mutants"].as_array().unwrap())
        .collect();
    let count = |s: &str| mutants.iter().filter(|m| m["status"] == s).count() as f64;
    let score = 100.0 * (count("Killed") + count("Timeout"))
        / (count("Killed") + count("Timeout") + count("Survived"));
    assert_eq!((score * 100.0).round() / 100.0, rate);
    assert!(mutants
        .iter()
        .any(|m| m["killedBy"][0] == "a_value_inserted_is_found"));
    // And as `report.html`: the survivors first, each with its line and the edit in place.
    let page = std::fs::read_to_string(root.path().join("report.html")).unwrap();
    let survived = doc["mutants"].as_u64().unwrap() - doc["killed"].as_u64().unwrap();
    assert_eq!(
        page.matches("<tr class=\"survived\">").count() as u64,
        survived
    );
    assert!(
        page.contains(&format!("{survived} survive the suite")),
        "{page}"
    );
    assert!(page.contains("<del>") && page.contains("<ins>"));
    assert!(page.contains("the test <code>a_value_inserted_is_found</code>"));

    let table = run_suite(&suite("chain_few.rs"), root.path(), &[]);
    let said = text(&table.stdout);
    assert!(table.status.success(), "{}", text(&table.stderr));
    assert!(
        said.contains("the suite") && said.contains("(3 tests;"),
        "{said}"
    );
    assert!(said.contains("survive the suite:\n  src/lib.rs:"), "{said}");
}

#[test]
fn a_suite_wrong_about_the_original_or_no_suite_at_all_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let o = run_suite(&suite("chain_wrong.rs"), root.path(), &[]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(BROKEN), "{err}");
    assert!(
        err.contains("remove_of_the_absent_says_it_removed fails on the original"),
        "{err}"
    );
    assert!(!root.path().join("suite.json").exists());

    let bad = root.path().join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    for (name, text_, why) in [
        ("none.rs", "fn helper() {}\n", "no #[test] function"),
        ("broken.rs", "#[test] fn t( {}\n", "not valid Rust"),
        (
            "typo.rs",
            "#[test] fn t() { chain::Chain::no_such_method(); }\n",
            "does not build",
        ),
    ] {
        let file = bad.join(name);
        std::fs::write(&file, text_).unwrap();
        let o = run_suite(&file, &root.path().join(name), &[]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(USAGE), "{name}: {err}");
        assert!(err.contains(why), "{name}: {err}");
        assert!(one_error(&err), "{name}: {err}");
    }
    let o = run_suite(&bad.join("none.rs"), root.path(), &["--scopes", "1..2"]);
    assert_eq!(o.status.code(), Some(USAGE), "--suite with --scopes");
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

/// A suite's run killed (SIGKILL) or stopped (SIGTERM) at moments spread over its span, then
/// continued with `--resume`, ends with exactly the verdicts of a run never stopped: each
/// verdict reached is in `suite-journal.jsonl`, a torn last line is run again, nothing is
/// counted twice. `--resume` of another run (the suite file edited) is refused, naming it.
#[test]
fn a_suite_s_run_killed_at_any_moment_resumes_to_the_same_verdicts() {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let root = tempfile::tempdir().unwrap();
    let file = root.path().join("chain_few.rs");
    std::fs::copy(suite("chain_few.rs"), &file).unwrap();
    let whole = root.path().join("whole");
    let started = Instant::now();
    let o = run_suite(&file, &whole, &["--jobs", "2"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let span = started.elapsed();
    let expected = json(&whole.join("suite.json"))["verdicts"].clone();

    let cut = root.path().join("cut");
    let journal = cut.join("suite-journal.jsonl");
    for round in 0..6u32 {
        let mut extra = vec!["--jobs", "1"];
        if journal.exists() {
            extra.push("--resume");
        }
        let chain = fixture("chain");
        let mut args = vec!["evaluate", "--benchmark-path", chain.to_str().unwrap()];
        args.extend([
            "--suite",
            file.to_str().unwrap(),
            "--timeout-floor",
            "150ms",
        ]);
        args.extend(["--out", cut.to_str().unwrap()]);
        args.extend(extra);
        let mut child = command(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Killed once this round has judged 20 more mutants (or a torn line's worth), while
        // the others are running.
        let before = verdicts_in(&journal);
        let deadline = Instant::now() + span * 4;
        while child.try_wait().unwrap().is_none()
            && verdicts_in(&journal) < before + 20
            && Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(2));
        }
        let signal = if round % 2 == 0 {
            Signal::SIGKILL
        } else {
            Signal::SIGTERM
        };
        // Counted just before the signal: under load the loop above may be descheduled for a
        // while after its last look, the run judging on meanwhile.
        let at_signal = verdicts_in(&journal);
        let _ = kill(Pid::from_raw(child.id() as i32), signal);
        let status = child.wait().unwrap();
        let after = verdicts_in(&journal);
        eprintln!("round {round}: {after} verdicts, {status:?}");
        if signal == Signal::SIGTERM {
            assert!(
                status.success() || status.code() == Some(130),
                "round {round}: {status:?}"
            );
        }
        // Stopped at once: the mutant running when the signal came may still be recorded,
        // no later one (one more for the count read a moment before the signal).
        assert!(
            after <= at_signal + 2,
            "round {round}: {before} -> {at_signal} at the signal -> {after}"
        );
    }
    // The kills left verdicts behind, which the last run takes from the journal.
    let verdicts = verdicts_in(&journal);
    eprintln!("{verdicts} verdicts recorded before the last run");
    assert!(verdicts > 0 && verdicts < 161, "{verdicts}");
    let o = run_suite(&file, &cut, &["--resume"]);
    let err = text(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("judged before, from the journal"), "{err}");
    assert_eq!(json(&cut.join("suite.json"))["verdicts"], expected);

    std::fs::write(
        &file,
        std::fs::read_to_string(&file).unwrap() + "\n// edited\n",
    )
    .unwrap();
    let o = run_suite(&file, &cut, &["--resume"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(USAGE), "{err}");
    assert!(err.contains("the suite file changed"), "{err}");
}

/// Whole verdict lines in a suite's journal.
fn verdicts_in(journal: &Path) -> usize {
    std::fs::read_to_string(journal)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with("{\"verdict\":") && l.ends_with('}'))
        .count()
}

/// `gate --suite`: a suite's run against an earlier run's `suite.json` as its baseline. The
/// same suite passes, and so does an edit that moves every line of the crate (its mutants
/// are matched through the change, not by line); the suite without its invariant checks fails
/// (status 3), naming each mutant that survives now; options the suite gate cannot honour are
/// refused. (It once ignored `--suite` and gated Korat's inputs at scopes 1..5 instead.)
#[test]
fn the_suite_gate_fails_a_weaker_suite_naming_what_survives_and_passes_a_moved_crate() {
    let root = tempfile::tempdir().unwrap();
    let krate = root.path().join("chain");
    crate::common::copy_fixture("chain", &krate);
    let baseline = root.path().join("suite-baseline.json");
    let out = root.path().join("out");
    let gate = |tests: &Path, extra: &[&str]| {
        let mut args = vec!["gate", "--baseline", baseline.to_str().unwrap()];
        args.extend(["--benchmark-path", krate.to_str().unwrap()]);
        args.extend([
            "--suite",
            tests.to_str().unwrap(),
            "--timeout-floor",
            "150ms",
        ]);
        args.extend(["--out", out.to_str().unwrap()]);
        args.extend_from_slice(extra);
        command(&args).output().unwrap()
    };
    let scope1 = suite("chain_scope1.rs");
    let o = gate(&scope1, &[]);
    assert_eq!(
        o.status.code(),
        Some(USAGE),
        "no baseline yet: {}",
        text(&o.stderr)
    );
    let o = gate(&scope1, &["--update-baseline"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(json(&baseline)["places"]
        .as_object()
        .is_some_and(|p| p.len() == 161));
    let o = gate(&scope1, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("gate passed"),
        "{}",
        text(&o.stdout)
    );

    // Every line moves: the same mutants, matched through the change.
    let lib = krate.join("src/lib.rs");
    let source = std::fs::read_to_string(&lib).unwrap();
    std::fs::write(&lib, format!("// one\n// two\n{source}")).unwrap();
    let o = gate(&scope1, &[]);
    let said = text(&o.stdout);
    assert!(
        o.status.success(),
        "a false alarm: {said}{}",
        text(&o.stderr)
    );
    assert!(!said.contains("differ from the baseline"), "{said}");

    // The invariant no longer checked: what only it killed survives.
    let weaker = root.path().join("weaker.rs");
    let text_ = std::fs::read_to_string(&scope1).unwrap();
    let check = "    assert!(ChainBench.invariant(&(c, 0)), \"the invariant\");\n";
    assert_eq!(text_.matches(check).count(), 1);
    std::fs::write(&weaker, text_.replace(check, "    let _ = c;\n")).unwrap();
    let o = gate(&weaker, &[]);
    let (said, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(3), "{said}{err}");
    assert!(err.contains("suite gate failed"), "{err}");
    assert!(err.contains("the kill rate fell from 42.24% to "), "{err}");
    let listed: Vec<&str> = said
        .lines()
        .skip_while(|l| *l != "killed in the baseline, survive now:")
        .skip(1)
        .collect();
    assert_eq!(listed.len(), 68 - 49, "{said}");
    assert!(
        listed
            .iter()
            .all(|l| l.contains("src/lib.rs:") && l.contains("Chain::")),
        "{said}"
    );

    let o = gate(&scope1, &["--format", "json"]);
    assert_eq!(o.status.code(), Some(USAGE), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("gate --suite takes no --format"));
}
