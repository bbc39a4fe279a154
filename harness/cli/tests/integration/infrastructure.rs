//! Verdicts that survive the world (issue 29): what happens to a worker process from outside —
//! `kill -9` (the OOM killer, a cgroup), SIGSTOP past the whole-process guard (a suspended
//! machine, a debugger), SIGBUS from a mapped file on a full file system — never becomes a
//! kill. The worker's test-only fault hook (`FERASTRAU_FAULT`, `ferastrau_worker::fault`)
//! delivers each fault to the process running a chosen mutant, once (a fault that passes: the
//! verdicts must equal an undisturbed run's) or every time (a fault that persists: the run
//! stops with status 4, naming it).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

use crate::common::{command, fixture, json, statuses, text, FAULTY_LIMITS};

const BROKEN: i32 = 4;

/// `evaluate` on `faulty` (scopes 1..2) into `out` with `env` set.
fn run(out: &Path, env: &[(&str, String)], extra: &[&str]) -> Output {
    let path = fixture("faulty");
    let mut args = vec![
        "evaluate",
        "--benchmark-path",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(&FAULTY_LIMITS);
    args.extend_from_slice(extra);
    let mut c = command(&args);
    c.env_remove("FERASTRAU_FAULTY_ORIGINAL")
        .env_remove("FERASTRAU_FAULT");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("ferastrau runs")
}

/// The verdicts of a run, without what depends on the machine's speed or on the process (a
/// clock timeout's detail names a limit computed from the original's measured time; a memory
/// kill's, the size of whichever allocation met the limit first, which depends on what else
/// the process had allocated: it failed CI once, 1308987 against 1048576 bytes).
fn verdicts(out: &Path) -> BTreeMap<(u64, String), serde_json::Value> {
    let mut all = statuses(&json(&out.join("mutants.json")));
    for r in all.values_mut() {
        if r["limit"] == "clock" || r["reason"] == "memory" {
            r.as_object_mut().unwrap().remove("detail");
        }
    }
    all
}

/// The id of `faulty`'s call mutant to `callee`.
fn mutant_to(out: &Path, callee: &str) -> u64 {
    json(&out.join("mutants.json"))["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["replacement"] == callee)
        .unwrap_or_else(|| panic!("no call mutant to {callee}"))["id"]
        .as_u64()
        .unwrap()
}

#[test]
fn a_worker_killed_stopped_or_faulted_from_outside_changes_no_verdict() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("undisturbed");
    let o = run(&base, &[], &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let expected = verdicts(&base);
    // A survivor, a mutant killed by its output and one killed by its own crash: each fault
    // lands on the first scope of that mutant's process.
    let cases = [
        ("kill", "stall", &[][..]),
        ("kill", "boom", &["--mutants-per-process", "1"][..]),
        ("bus", "die", &[][..]),
        ("bus", "stall", &["--mutants-per-process", "1"][..]),
        ("stop", "boom", &["--mutants-per-process", "1"][..]),
        ("stop", "stall", &[][..]),
    ];
    for (i, (kind, callee, extra)) in cases.into_iter().enumerate() {
        let victim = mutant_to(&base, callee);
        let marker = tmp.path().join(format!("fault-{i}"));
        let out = tmp.path().join(format!("run-{i}"));
        let env = [
            (
                "FERASTRAU_FAULT",
                format!("{kind}@{victim}:{}", marker.display()),
            ),
            // A stopped worker meets its guard after about two seconds, not a minute.
            ("FERASTRAU_FAULT_GUARD_MS", "1500".to_string()),
        ];
        let o = run(&out, &env, extra);
        let what = format!("{kind} on mutant {victim} ({callee}) {extra:?}");
        assert!(marker.exists(), "{what}: the fault was never delivered");
        assert!(o.status.success(), "{what}: {}", text(&o.stderr));
        assert_eq!(verdicts(&out), expected, "{what}: a verdict changed");
    }
}

#[test]
fn a_fault_that_persists_stops_the_run_as_broken_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("undisturbed");
    let o = run(&base, &[], &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let victim = mutant_to(&base, "stall");
    for (kind, signal) in [("kill", "signal 9"), ("bus", "signal 7")] {
        let out = tmp.path().join(kind);
        let o = run(
            &out,
            &[("FERASTRAU_FAULT", format!("{kind}@{victim}"))],
            &[],
        );
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(BROKEN), "{kind}: {err}");
        assert!(err.contains("infrastructure failure"), "{kind}: {err}");
        assert!(err.contains(signal), "{kind}: {err}");
        assert!(err.contains(&format!("mutant {victim}")), "{kind}: {err}");
        assert!(
            !out.join("evaluation.json").exists(),
            "{kind}: a stopped run left reports behind"
        );
    }
}

/// `--out` pointed at a directory of the user's: refused before anything runs, and every file
/// left as it was (a run once deleted a user's `report.html`, `shard.json` and `kill-matrix/`).
#[test]
fn an_output_directory_the_tool_does_not_own_is_refused_and_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("mine");
    std::fs::create_dir_all(out.join("kill-matrix")).unwrap();
    let files = [
        "report.html",
        "shard.json",
        "notes.txt",
        "kill-matrix/scope-1.json",
    ];
    for f in files {
        std::fs::write(out.join(f), format!("the user's {f}")).unwrap();
    }
    let o = run(&out, &[], &[]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("no ferastrau run wrote"), "{err}");
    for f in files {
        assert_eq!(
            std::fs::read_to_string(out.join(f)).unwrap(),
            format!("the user's {f}"),
            "{f}"
        );
    }
    assert!(!out.join(".ferastrau.lock").exists());
}

/// The benchmark's `render` panicking while kills are reported changes no verdict: each kill
/// keeps its reason (a panicking render once turned kills by output into crashes) and shows
/// that its input could not be rendered.
#[test]
fn a_render_that_panics_changes_no_verdict() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("undisturbed");
    let o = run(&base, &[], &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = tmp.path().join("render");
    let o = run(
        &out,
        &[("FERASTRAU_FAULTY_RENDER", "panic".to_string())],
        &[],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let verdict = |r: &serde_json::Value| (r["status"].clone(), r["reason"].clone());
    let before: BTreeMap<_, _> = verdicts(&base)
        .iter()
        .map(|(k, r)| (k.clone(), verdict(r)))
        .collect();
    let after = verdicts(&out);
    assert_eq!(
        after
            .iter()
            .map(|(k, r)| (k.clone(), verdict(r)))
            .collect::<BTreeMap<_, _>>(),
        before
    );
    let unrendered = after
        .values()
        .filter(|r| r["status"] == "killed")
        .filter(|r| {
            r["input"].as_str().is_some_and(|i| {
                i.contains("cannot be rendered") && i.contains("render cannot draw")
            })
        })
        .count();
    assert!(unrendered > 0, "{after:?}");
}
