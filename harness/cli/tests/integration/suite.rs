//! `evaluate --suite FILE` (issue 34, item 2): a Rust test file measured against every mutant
//! through the metamutant. A file that holds exactly scope 1's inputs of `testdata/chain`
//! (`testdata/suites/chain_scope1.rs`, written by hand) kills exactly what `--scopes 1` kills;
//! a user's few tests kill less, and say which mutants they miss; a suite wrong about the
//! original, or one that is no suite, is refused before any mutant runs. The suites the harness
//! writes itself (`export-tests`, `sequences`) are measured in [`crate::export_tests`].

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::{command, evaluate, fixture, json, one_error, text};

pub(crate) const USAGE: i32 = 2;
pub(crate) const BROKEN: i32 = 4;

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
pub(crate) fn killed_at(mutants: &serde_json::Value, scope: u32) -> BTreeSet<u64> {
    mutants["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["scopes"][scope.to_string()]["status"] == "killed")
        .map(|m| m["id"].as_u64().unwrap())
        .collect()
}

pub(crate) fn killed_by_suite(report: &serde_json::Value) -> BTreeSet<u64> {
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
