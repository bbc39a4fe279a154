//! `ferastrau evaluate` end to end on `testdata/` crates: kill reasons on a fault-injection
//! crate, determinism across `--jobs`, coverage and what it misses. (What must never give a
//! wrong result is in `trust.rs`; the paper's observations on SearchTree in `paper.rs`.)

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::{evaluate, ferastrau, fixture, json, statuses, text, untimed, FAULTY_LIMITS};
use serde_json::Value;

#[test]
fn every_way_of_dying_gets_its_own_reason_and_the_rest_stay_intact() {
    // One mutant per process, and all of them in one: a process that dies in a mutant after
    // the first is replaced and that mutant judged again in a fresh one, so the results are
    // the same; `squat` leaks memory for the rest of its process and `hungry`, after it in
    // the same process, would die of it (a wrong kill) if that death were taken as it came.
    let path = fixture("faulty");
    let mut runs = Vec::new();
    for per_process in ["1", "64"] {
        let out = tempfile::tempdir().unwrap();
        let (evaluation, mutants) = evaluate(
            &[
                &["--benchmark-path", path.to_str().unwrap()][..],
                &FAULTY_LIMITS,
                &["--jobs", "1", "--mutants-per-process", per_process],
            ]
            .concat(),
            out.path(),
        );
        check_reasons(&evaluation, &mutants);
        let mut all = statuses(&mutants);
        // A clock timeout's detail names its limit, which comes from the original's measured
        // time: everything else must be equal.
        for r in all.values_mut() {
            if r["limit"] == "clock" {
                r.as_object_mut().unwrap().remove("detail");
            }
        }
        runs.push(all);
    }
    assert_eq!(runs[0], runs[1]);
}

/// Every misbehaving call mutant of `faulty` killed for its own reason at the first input,
/// and the equivalent ones surviving.
fn check_reasons(evaluation: &Value, mutants: &Value) {
    let by_replacement: BTreeMap<String, &Value> = mutants["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["replacement"].as_str().unwrap().to_string(), m))
        .collect();
    let expect = [
        ("spin", "timeout", Some("clock")),
        ("recurse", "crash", None),
        ("hog", "memory", None),
        ("die", "crash", None),
        ("boom", "output", None),
        ("quit", "crash", None),
        ("chatter", "output", None),
        ("forge", "crash", None),
    ];
    for (callee, reason, detail) in expect {
        let m = by_replacement
            .get(callee)
            .unwrap_or_else(|| panic!("no call mutant to {callee}: {mutants}"));
        for scope in ["1", "2"] {
            let r = &m["scopes"][scope];
            assert_eq!(r["status"], "killed", "{callee} at {scope}: {r}");
            assert_eq!(r["reason"], reason, "{callee} at {scope}: {r}");
            if let Some(limit) = detail {
                assert_eq!(r["limit"], limit, "{callee}: {r}");
            }
            // The killing input is named, even when the process died.
            assert_eq!(r["input"], "bump() on 0", "{callee}: {r}");
        }
    }
    for callee in ["stall", "squat", "hungry"] {
        for scope in ["1", "2"] {
            let r = &by_replacement[callee]["scopes"][scope];
            assert_eq!(r["status"], "survived", "{callee} at {scope}: {r}");
        }
    }
    assert_eq!(
        by_replacement["recurse"]["scopes"]["1"]["detail"],
        "stack overflow"
    );
    // Every mutant has a result at every scope, the well-behaved ones included.
    let all = statuses(mutants);
    let n = mutants["mutants"].as_array().unwrap().len();
    assert_eq!(all.len(), 2 * n);
    assert!(n > expect.len(), "the fixture has other mutants too");
    assert_eq!(
        evaluation["scopes"][1]["mutants"].as_u64().unwrap() as usize,
        n
    );
}

#[test]
fn results_do_not_depend_on_jobs_and_coverage_names_what_it_misses() {
    let one = tempfile::tempdir().unwrap();
    let two = tempfile::tempdir().unwrap();
    let chain = fixture("chain");
    let scopes = [
        "--benchmark-path",
        chain.to_str().unwrap(),
        "--scopes",
        "1..4",
    ];
    let (e1, m1) = evaluate(&[&scopes[..], &["--jobs", "1"]].concat(), one.path());
    let (e2, m2) = evaluate(&[&scopes[..], &["--jobs", "2"]].concat(), two.path());
    assert_eq!(statuses(&m1), statuses(&m2));
    assert_eq!(untimed(&e1), untimed(&e2));

    let rows = e1["scopes"].as_array().unwrap();
    let inputs: Vec<u64> = rows.iter().map(|r| r["inputs"].as_u64().unwrap()).collect();
    assert_eq!(inputs, [4, 16, 48, 128]);
    for w in rows.windows(2) {
        assert!(w[0]["kill_rate"].as_f64() <= w[1]["kill_rate"].as_f64());
    }
    let rate = |i: usize| rows[i]["kill_rate"].as_f64().unwrap();
    assert!(rate(0) < rate(2), "larger scopes kill more");
    // Scope 1 (one node at most) misses branches that scope 2 reaches; `Chain::last` is
    // reached by no original call at any scope, only by the call mutants that swap it in.
    let uncovered = |i: usize| -> Vec<String> {
        rows[i]["uncovered"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u.as_str().unwrap().to_string())
            .collect()
    };
    assert!(uncovered(0).len() > uncovered(1).len());
    assert!(!uncovered(3).is_empty());
    assert!(
        uncovered(3)
            .iter()
            .all(|u| u.starts_with("src/lib.rs:") && u.contains("Chain::last")),
        "{:?}",
        uncovered(3)
    );
    assert!(rows[3]["statement_coverage"].as_f64().unwrap() < 100.0);

    // The specification's misses are listed apart: at scope 1 (no chain of two nodes) the
    // invariant never finds two values out of order, which its coverage short of 100% says;
    // from scope 2 on nothing of it is missed.
    let uncovered_spec = |i: usize| -> Vec<String> {
        rows[i]["uncovered_spec"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u.as_str().unwrap().to_string())
            .collect()
    };
    assert!(rows[0]["spec_branch_coverage"].as_f64().unwrap() < 100.0);
    assert!(!uncovered_spec(0).is_empty());
    assert!(
        uncovered_spec(0)
            .iter()
            .all(|u| u.starts_with("src/lib.rs:") && u.contains("rep_ok")),
        "{:?}",
        uncovered_spec(0)
    );
    assert!(uncovered(0).iter().all(|u| !u.contains("rep_ok")));
    for (i, row) in rows.iter().enumerate().skip(1) {
        assert_eq!(row["spec_statement_coverage"], 100.0);
        assert_eq!(uncovered_spec(i), Vec::<String>::new());
    }
}

/// A worker whose abandoned calls (recursions stopped at their tick budget, deep) have leaked
/// past its allowance gives way to a fresh one after the scope it is on (`Message::Recycle`),
/// and the runner carries on with the mutants and scopes left: `deep` under a memory limit
/// that forces it gives the verdicts of a run that never needed it, with more processes.
#[test]
fn a_worker_replaced_for_its_leaks_between_scopes_changes_no_verdict() {
    let tmp = tempfile::tempdir().unwrap();
    let deep = fixture("deep");
    let run = |memory: &str| {
        let out = tmp.path().join(memory);
        let o = ferastrau(&[
            "evaluate",
            "--benchmark-path",
            deep.to_str().unwrap(),
            "--scopes",
            "1..3",
            // ~2,000 frames deep at the budget, each holding 8 KiB of heap: ~16 MiB leaked
            // per abandoned call, one call per endless mutant and scope.
            "--tick-floor",
            "2000",
            "--memory-limit",
            memory,
            // A process per mutant: under 128M (an allowance of 16 MiB) each endless one's
            // process gives way after its second scope, with its third still to run there:
            // the replacement must not be judged as the mutant's death.
            "--mutants-per-process",
            "1",
            "--jobs",
            "1",
            "--format",
            "json",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let printed: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let processes = printed["runner"]["processes"].as_u64().unwrap();
        (statuses(&json(&out.join("mutants.json"))), processes)
    };
    // An allowance of 16 MiB (an eighth of the limit) against one of 64 MiB (three scopes
    // leak ~48 MiB: never replaced).
    let (tight, replaced) = run("128M");
    let (roomy, once) = run("1G");
    assert_eq!(tight, roomy, "replacing the worker changed a verdict");
    let timeouts = tight.values().filter(|r| r["reason"] == "timeout").count();
    assert!(
        timeouts >= 20,
        "only {timeouts} timeouts: nothing was abandoned"
    );
    assert!(
        replaced > once,
        "{replaced} processes under 128M against {once} under 1G: no worker was replaced"
    );
}

/// A user's run says why each survivor survived (on the terminal, the page and in its JSON),
/// lists every survivor in `survivors.txt`, offers the next scope's evidence when it is cheap
/// and, with `--next-scope`, says of each survivor whether it survives scope + 1 too; the page
/// shows the verdicts the crate records in its own `EQUIVALENT.md`; a broken run lists no
/// survivors (they mean nothing).
#[test]
fn a_run_says_why_each_survivor_survived_and_keeps_the_crates_verdicts() {
    let tmp = tempfile::tempdir().unwrap();
    let krate = tmp.path().join("chain");
    crate::common::copy_fixture("chain", &krate);
    let out = tmp.path().join("out");
    let (k, o) = (krate.to_str().unwrap(), out.to_str().unwrap());
    let run = ferastrau(&[
        "evaluate",
        "--benchmark-path",
        k,
        "--scopes",
        "1..2",
        "--out",
        o,
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let (n, whys) = the_terminal_says_why_each_survivor_survived(&text(&run.stdout), &out);
    let report: Value = serde_json::from_slice(
        &ferastrau(&[
            "evaluate",
            "--benchmark-path",
            k,
            "--scopes",
            "1..2",
            "--out",
            o,
            "--format",
            "json",
            "--next-scope",
        ])
        .stdout,
    )
    .unwrap();
    the_next_scope_marks_every_survivor(&report, &out, n);
    let first = &report["survivors"]["mutants"][0];
    assert_eq!(first["why"].as_str(), Some(whys[0].as_str()), "{first}");
    the_page_shows_the_verdict_the_crate_records(&krate, &out, first["key"].as_str().unwrap());
    a_broken_run_lists_no_survivors(&krate, &out);
}

/// The terminal's account of a run of `chain` at scopes 1..2 into `out` (its stdout `said`):
/// a short reason per survivor shown (at most 20), the rest in `survivors.txt`, and the offer
/// of `--next-scope`. Returns the number of survivors and the reasons shown.
fn the_terminal_says_why_each_survivor_survived(said: &str, out: &Path) -> (usize, Vec<String>) {
    let n: usize = said
        .lines()
        .find_map(|l| l.strip_suffix(" mutants survive scope 2:"))
        .unwrap_or_else(|| panic!("{said}"))
        .parse()
        .unwrap();
    let whys: Vec<&str> = said
        .lines()
        .filter(|l| l.starts_with("      why: "))
        .collect();
    assert_eq!(whys.len(), n.min(20), "{said}");
    assert!(whys.iter().all(|l| l.len() <= 100), "{said}");
    // `contains`' survivors ran on inputs that reach them; `last` is called by no method.
    assert!(
        said.contains("input(s) reach it; return value, abstraction, invariant: as the original's"),
        "{said}"
    );
    assert!(
        said.contains("why: no input of scope 2 executes line "),
        "{said}"
    );
    assert_eq!(said.contains("every survivor is in"), n > 20, "{said}");
    assert!(
        said.contains(&format!(
            "next: --next-scope runs the {n} survivor(s) at scope 3 too (about "
        )),
        "{said}"
    );
    let listed = std::fs::read_to_string(out.join("survivors.txt")).unwrap();
    assert_eq!(listed.lines().count(), n, "{listed}");
    assert!(
        listed.lines().all(|l| l.starts_with("src/lib.rs:")),
        "{listed}"
    );
    let whys = whys
        .iter()
        .map(|l| l.strip_prefix("      why: ").unwrap().to_string())
        .collect();
    (n, whys)
}

/// With `--next-scope`, every one of the `n` survivors ran at scope 3: it survives it too or
/// dies there, and mutants.json in `out` (which the page is drawn from) records the same.
fn the_next_scope_marks_every_survivor(report: &Value, out: &Path, n: usize) {
    assert_eq!(report["next_scope"]["scope"], 3, "{report}");
    let survivors = report["survivors"]["mutants"].as_array().unwrap();
    assert_eq!(survivors.len(), n);
    let mutants: Value =
        serde_json::from_slice(&std::fs::read(out.join("mutants.json")).unwrap()).unwrap();
    for s in survivors {
        let mark = &s["next_scope"];
        assert_eq!(mark["scope"], 3, "{s}");
        assert!(
            mark["status"] == "survived" || mark["status"] == "killed",
            "{s}"
        );
        let recorded = mutants["mutants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["id"] == s["id"])
            .unwrap();
        assert_eq!(&recorded["next_scope"], mark);
    }
}

/// The crate at `krate` records a verdict on the survivor `key` in its `EQUIVALENT.md`; the
/// page of the run in `out`, drawn again by `report`, shows it beside why the mutant survived
/// and its next-scope mark.
fn the_page_shows_the_verdict_the_crate_records(krate: &Path, out: &Path, key: &str) {
    std::fs::write(
        krate.join("EQUIVALENT.md"),
        format!("# chain\n\n## Summary\n\n## Survivors\n\n### one\n\nKey: `{key}`\n\n**Equivalent.** Argued by hand.\n"),
    )
    .unwrap();
    let again = ferastrau(&[
        "report",
        out.to_str().unwrap(),
        "--benchmark-path",
        krate.to_str().unwrap(),
    ]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        page.contains("Argued by hand."),
        "the crate's verdict is not on the page"
    );
    assert!(page.contains("Why it survived: "), "no reason on the page");
    assert!(
        page.contains("survives scope 3 too") || page.contains("killed at scope 3"),
        "no next-scope mark on the page"
    );
}

/// Only `last`, which nothing calls, mutated: 0% coverage, a broken run, and no survivor list
/// (its survivors mean nothing).
fn a_broken_run_lists_no_survivors(krate: &Path, out: &Path) {
    crate::common::edit(
        &krate.join("Cargo.toml"),
        "mutate = [\"Chain::insert\", \"Chain::remove\", \"Chain::contains\", \"Chain::before\", \"Chain::last\"]",
        "mutate = [\"Chain::last\"]",
    );
    let broken = ferastrau(&[
        "evaluate",
        "--benchmark-path",
        krate.to_str().unwrap(),
        "--scopes",
        "1..2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(broken.status.code(), Some(4), "{}", text(&broken.stderr));
    assert!(
        !text(&broken.stdout).contains("survive"),
        "{}",
        text(&broken.stdout)
    );
}
