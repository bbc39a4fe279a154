//! `ferastrau gate` end to end on a copy of the `faulty` fixture: a baseline passes against
//! itself and against an edit that only shifts lines; weakening the benchmark's oracle fails
//! the gate naming the mutants that now survive; a broken run fails with its own status;
//! `--in-diff` evaluates every mutant of the functions a diff changes, all of them when it
//! changes the specification side, and none when it changes nothing they depend on.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

use crate::common::{command, copy_fixture, edit, json, text, FAULTY_LIMITS};

const GATE_FAILED: i32 = 3;
const BROKEN: i32 = 4;

fn gate(krate: &Path, out: &Path, baseline: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "gate",
        "--baseline",
        baseline.to_str().unwrap(),
        "--benchmark-path",
        krate.to_str().unwrap(),
    ];
    args.extend_from_slice(&FAULTY_LIMITS);
    args.extend_from_slice(&["--out", out.to_str().unwrap()]);
    args.extend_from_slice(extra);
    command(&args).output().unwrap()
}

/// A copy of `faulty` in a directory of its own, with where its reports and its baseline go:
/// (the directory, the crate, the output directory, the baseline file).
fn faulty_copy() -> (
    tempfile::TempDir,
    std::path::PathBuf,
    std::path::PathBuf,
    std::path::PathBuf,
) {
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("faulty");
    copy_fixture("faulty", &krate);
    let (out, baseline) = (dir.path().join("out"), dir.path().join("baseline.json"));
    (dir, krate, out, baseline)
}

/// (key, line) of every mutant in a mutants.json.
fn keys_and_lines(out: &Path) -> (BTreeSet<String>, BTreeSet<u64>) {
    let m = json(&out.join("mutants.json"));
    let all = m["mutants"].as_array().unwrap();
    (
        all.iter()
            .map(|m| m["key"].as_str().unwrap().to_string())
            .collect(),
        all.iter().map(|m| m["line"].as_u64().unwrap()).collect(),
    )
}

#[test]
fn the_gate_passes_what_did_not_change_and_in_diff_runs_what_a_diff_touches() {
    let (dir, krate, out, baseline) = faulty_copy();

    // No baseline yet: refused, then made on purpose.
    let o = gate(&krate, &out, &baseline, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let o = gate(&krate, &out, &baseline, &["--update-baseline"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let (keys, lines) = keys_and_lines(&out);

    // The same tree passes.
    let o = gate(&krate, &out, &baseline, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("gate passed"));

    // Lines shift (a comment on top): every mutant keeps its key, and the gate passes.
    let lib = krate.join("src").join("lib.rs");
    let source = std::fs::read_to_string(&lib).unwrap();
    std::fs::write(&lib, format!("// one\n// two\n// three\n{source}")).unwrap();
    let o = gate(&krate, &out, &baseline, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let (shifted_keys, shifted_lines) = keys_and_lines(&out);
    assert_eq!(shifted_keys, keys);
    assert_ne!(shifted_lines, lines, "the lines did move");

    in_diff_runs_every_mutant_of_the_function_a_diff_touches(
        dir.path(),
        &krate,
        &out,
        &baseline,
        &keys,
    );
}

/// A pull request's check (`--in-diff`) on the copy of `faulty` at `krate` with its baseline of
/// `keys`: every mutant of the function a diff touches (`faulty` mutates one function,
/// `Counter::bump`: all of them), whatever prefixes git gave the diff's paths; a diff of no file
/// of the crate, or with `--update-baseline`, is refused; a diff that changes nothing the
/// verdicts depend on passes, said plainly.
fn in_diff_runs_every_mutant_of_the_function_a_diff_touches(
    dir: &Path,
    krate: &Path,
    out: &Path,
    baseline: &Path,
    keys: &BTreeSet<String>,
) {
    let lib = krate.join("src").join("lib.rs");
    let source = std::fs::read_to_string(&lib).unwrap();
    let line = source
        .lines()
        .position(|l| l.trim() == "if self.value > before {")
        .unwrap()
        + 1;
    let diff = dir.join("pr.diff");
    // The change on that line, and the diff of it with the paths as `old` and `new`.
    let change = format!(
        "@@ -{line},1 +{line},1 @@\n-        if self.value >= before {{\n+        if self.value > before {{\n"
    );
    let write_diff = |old: &str, new: &str| {
        std::fs::write(&diff, format!("--- {old}\n+++ {new}\n{change}")).unwrap()
    };
    let gate_diff = || gate(krate, out, baseline, &["--in-diff", diff.to_str().unwrap()]);
    write_diff("a/src/lib.rs", "b/src/lib.rs");
    let o = gate_diff();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let m = json(&out.join("mutants.json"));
    let evaluated: Vec<&str> = m["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["scopes"].as_object().is_some_and(|s| !s.is_empty()))
        .map(|m| m["function"].as_str().unwrap())
        .collect();
    assert!(
        !evaluated.is_empty() && evaluated.iter().all(|&f| f == "Counter::bump"),
        "{evaluated:?}"
    );
    assert_eq!(&keys_and_lines(out).0, keys, "every mutant of the function");
    assert!(json(&out.join("evaluation.json"))["in_diff"].is_string());
    // The same change with git's other prefixes (`diff.mnemonicPrefix`, `--no-prefix`,
    // `--src-prefix`/`--dst-prefix`) selects the same mutants: it once selected none, silently.
    let keys_of = |out: &Path| keys_and_lines(out).0;
    let selected = keys_of(out);
    for (old, new) in [("i/", "w/"), ("", ""), ("before/", "after/")] {
        write_diff(&format!("{old}src/lib.rs"), &format!("{new}src/lib.rs"));
        let o = gate_diff();
        assert!(o.status.success(), "{old}{new}: {}", text(&o.stderr));
        assert_eq!(keys_of(out), selected, "prefixes {old:?} {new:?}");
    }
    // A diff of files the crate does not have would run nothing and pass: refused.
    write_diff("a/src/other.rs", "b/src/other.rs");
    let o = gate_diff();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("names no file of the crate"), "{err}");
    write_diff("a/src/lib.rs", "b/src/lib.rs");
    let o = gate(
        krate,
        out,
        baseline,
        &["--in-diff", diff.to_str().unwrap(), "--update-baseline"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    // A diff that changes nothing the verdicts depend on: said plainly, no table.
    for nothing in [
        String::new(),
        "--- a/README.md\n+++ b/README.md\n@@ -1,1 +1,1 @@\n-a\n+b\n".to_string(),
    ] {
        std::fs::write(&diff, nothing).unwrap();
        std::fs::write(krate.join("README.md"), "b\n").unwrap();
        let o = gate_diff();
        let said = text(&o.stdout);
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert!(said.contains("nothing to gate"), "{said}");
        assert!(!said.contains("killed %"), "{said}");
    }
}

/// A run of some mutants only (`--only-mutants`) is marked so in `evaluation.json` and is not
/// the run a baseline describes: the gate refuses it (status 2, naming `--only-mutants`), run by
/// the gate or given with `--current` (it once passed, "not compared"), and `--update-baseline`
/// refuses it, leaving the whole crate's baseline as it was (it once replaced a 419-mutant
/// baseline by 20 mutants, at "100%"). A sample is refused likewise unless the baseline is of
/// the same sample.
#[test]
fn a_run_of_some_mutants_never_passes_the_gate_or_becomes_the_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let krate = crate::common::fixture("faulty");
    let out = dir.path().join("out");
    let baseline = dir.path().join("baseline.json");
    let o = gate(&krate, &out, &baseline, &["--update-baseline"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let whole = std::fs::read(&baseline).unwrap();
    let mutants = json(&out.join("mutants.json"));
    let killed = mutants["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["scopes"]["1"]["status"] == "killed")
        .expect("a killed mutant")["id"]
        .to_string();
    a_run_of_only_some_mutants_is_refused(&krate, &out, &baseline, &killed, &whole);
    a_sample_is_refused_unless_the_baseline_is_of_that_sample(
        &krate,
        &out,
        &baseline,
        &dir.path().join("sampled.json"),
        &whole,
    );
}

/// `--only-mutants` (of the mutant `killed`), asked of the gate's own run or given with
/// `--current`, with or without `--update-baseline`: refused, and `baseline` stays `whole`.
fn a_run_of_only_some_mutants_is_refused(
    krate: &Path,
    out: &Path,
    baseline: &Path,
    killed: &str,
    whole: &[u8],
) {
    let refused = |o: &Output| {
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains("--only-mutants") && err.contains("not the run a baseline describes"),
            "{err}"
        );
        assert_eq!(
            std::fs::read(baseline).unwrap(),
            whole,
            "the baseline changed"
        );
    };
    // Asked of the gate's own run: refused before anything runs.
    for update in [&[][..], &["--update-baseline"]] {
        refused(&gate(
            krate,
            out,
            baseline,
            &[&["--only-mutants", killed][..], update].concat(),
        ));
    }
    // The reports of such a run, gated with --current: refused too.
    let krate_path = krate.to_str().unwrap();
    let (evaluation, _) = crate::common::evaluate(
        &[
            &["--benchmark-path", krate_path][..],
            &FAULTY_LIMITS,
            &["--only-mutants", killed],
        ]
        .concat(),
        out,
    );
    assert_eq!(
        evaluation["only_mutants"],
        serde_json::json!([killed.parse::<u64>().unwrap()])
    );
    for update in [&[][..], &["--update-baseline"]] {
        let args = [
            &[
                "gate",
                "--current",
                out.to_str().unwrap(),
                "--baseline",
                baseline.to_str().unwrap(),
            ][..],
            update,
        ]
        .concat();
        refused(&command(&args).output().unwrap());
    }
}

/// A sample (`--max-mutants`) is a subset too, unless the baseline is of the same sample:
/// against the baseline of every mutant (`baseline`, holding `whole`) it neither gates nor
/// replaces it; against a baseline of a sample (`sampled`), the same sample is compared whole,
/// another one cannot replace it, and a run of every mutant may.
fn a_sample_is_refused_unless_the_baseline_is_of_that_sample(
    krate: &Path,
    out: &Path,
    baseline: &Path,
    sampled: &Path,
    whole: &[u8],
) {
    let sample = |seed: &'static str| ["--max-mutants", "3", "--seed", seed];
    let o = gate(
        krate,
        out,
        baseline,
        &[&sample("1")[..], &["--update-baseline"]].concat(),
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("a sample (--max-mutants 3 --seed 1) where the baseline has every mutant")
            && err.contains("not the run a baseline describes"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(baseline).unwrap(),
        whole,
        "the baseline shrank"
    );
    assert_eq!(
        json(&out.join("evaluation.json"))["sample"],
        serde_json::json!({"max_mutants": 3, "seed": 1})
    );
    // Gated, it is refused as well: the mutants it left out are not compared with anything.
    let o = gate(krate, out, baseline, &sample("1"));
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("a sample (--max-mutants 3 --seed 1) where the baseline has every mutant")
            && err.contains("not the run a baseline describes"),
        "{err}"
    );
    // A baseline of a sample: the same sample is compared whole, another one is a subset
    // that cannot replace it, and a run of every mutant may.
    let o = gate(
        krate,
        out,
        sampled,
        &[&sample("1")[..], &["--update-baseline"]].concat(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = gate(krate, out, sampled, &sample("1"));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains(" points)"), "{}", text(&o.stdout));
    let o = gate(
        krate,
        out,
        sampled,
        &[&sample("2")[..], &["--update-baseline"]].concat(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains(
        "another sample (--max-mutants 3 --seed 2) than the baseline's (--max-mutants 3 --seed 1)"
    ));
    let o = gate(krate, out, sampled, &["--update-baseline"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        std::fs::read(sampled).unwrap(),
        whole,
        "every mutant, as the whole baseline"
    );
}

/// Weakening the oracle (it no longer compares return values) fails the gate, whole and
/// `--in-diff`, naming each mutant that survives now once; a broken run fails with its own
/// status and never becomes the baseline. (Apart from the test above, so that the test
/// threads run the two side by side.)
#[test]
fn weakening_the_oracle_fails_the_gate_and_a_broken_run_never_passes() {
    let (dir, krate, out, baseline) = faulty_copy();
    let o = gate(&krate, &out, &baseline, &["--update-baseline"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let lib = krate.join("src").join("lib.rs");
    let diff = dir.path().join("pr.diff");
    let gate_diff = || {
        gate(
            &krate,
            &out,
            &baseline,
            &["--in-diff", diff.to_str().unwrap()],
        )
    };

    // The oracle no longer compares return values: the mutants only they killed survive.
    edit(
        &lib,
        "        input.bump()\n",
        "        input.bump();\n        0\n",
    );
    edit(
        &lib,
        "if post.value == pre.value + 1 && *ret == post.value {",
        "if post.value == pre.value + 1 && *ret == 0 {",
    );
    let o = gate(&krate, &out, &baseline, &[]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(GATE_FAILED), "{err}");
    assert!(
        err.contains("killed in the baseline, survives now"),
        "{err}"
    );
    // Named by key, place and edit: the comparison in `bump` that picks the return value.
    assert!(err.contains("Counter::bump operator: > -> "), "{err}");
    assert!(err.contains("src/lib.rs:"), "{err}");
    assert!(err.contains("kill rate fell"), "{err}");
    // One line per mutant, with its scopes: no mutant is listed twice.
    let listed: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("survives now: "))
        .map(|l| l.split("survives now: ").nth(1).unwrap())
        .collect();
    let distinct: BTreeSet<&str> = listed.iter().copied().collect();
    assert_eq!(listed.len(), distinct.len(), "{err}");
    // The pull request's own check fails too: the diff touches the specification side (the
    // abstraction and the postcondition), so every mutant is evaluated, not none.
    let ret = std::fs::read_to_string(&lib)
        .unwrap()
        .lines()
        .position(|l| l.contains("*ret == 0 {"))
        .unwrap()
        + 1;
    std::fs::write(
        &diff,
        format!(
            "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -{ret},1 +{ret},1 @@\n-        if post.value == pre.value + 1 && *ret == post.value {{\n+        if post.value == pre.value + 1 && *ret == 0 {{\n"
        ),
    )
    .unwrap();
    let o = gate_diff();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(GATE_FAILED), "{err}");
    assert!(err.contains("Counter::bump operator: > -> "), "{err}");
    assert_eq!(
        json(&out.join("evaluation.json"))["in_diff"],
        serde_json::Value::Null,
        "a whole run"
    );

    // A broken run (limits the original cannot meet) fails with its own status.
    let o = gate(
        &krate,
        &out,
        &baseline,
        &["--tick-factor", "0", "--tick-floor", "0"],
    );
    assert_eq!(o.status.code(), Some(BROKEN), "{}", text(&o.stderr));
    // ... and cannot become the baseline.
    let o = gate(
        &krate,
        &out,
        &baseline,
        &[
            "--tick-factor",
            "0",
            "--tick-floor",
            "0",
            "--update-baseline",
        ],
    );
    assert_eq!(o.status.code(), Some(BROKEN), "{}", text(&o.stderr));
}

/// Ten `gate --update-baseline` runs into one file at once, one per benchmark as a CI matrix
/// runs them, keep every section, round after round (unlocked, sections were lost in 11 of 15
/// rounds, every run exiting 0).
#[test]
fn concurrent_baseline_updates_keep_every_section() {
    let root = crate::common::workspace_root();
    let benchmarks = ferastrau_harness::locate::known_benchmarks();
    assert!(benchmarks.len() >= 6, "{benchmarks:?}");
    let dir = tempfile::tempdir().unwrap();
    for round in 0..4 {
        let baseline = dir.path().join(format!("round-{round}/baseline.json"));
        let children: Vec<_> = benchmarks
            .iter()
            .map(|b| {
                let current = root.join("reports").join(b);
                command(&[
                    "gate",
                    "--current",
                    current.to_str().unwrap(),
                    "--baseline",
                    baseline.to_str().unwrap(),
                    "--update-baseline",
                ])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
            })
            .collect();
        for c in children {
            let o = c.wait_with_output().unwrap();
            assert!(o.status.success(), "{}", text(&o.stderr));
        }
        let file = json(&baseline);
        let sections: BTreeSet<&str> = file["benchmarks"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let expected: BTreeSet<&str> = benchmarks.iter().map(String::as_str).collect();
        assert_eq!(sections, expected, "round {round} lost sections");
    }
}

/// Whoever reads a run's reports takes its output directory's lock, shared: while a run holds
/// the directory (it has just taken it, and is about to clear the reports there), `gate
/// --current`, `merge` (its shards), `subsets` and `report` refuse, naming the run, instead of
/// reading reports that are being replaced (the gate once passed a directory half a second
/// before the new run cleared it). Readers do not refuse each other, and a run that starts
/// while they read waits for them. Committed reports stand in for a run's, the test holds the
/// locks: no run needed.
#[test]
fn readers_of_an_output_directory_take_its_lock() {
    let tmp = tempfile::tempdir().unwrap();
    let benchmark = "linked_list";
    let dir = tmp.path().join("run");
    std::fs::create_dir_all(&dir).unwrap();
    let committed = crate::common::workspace_root()
        .join("reports")
        .join(benchmark);
    for f in ferastrau_harness::evaluate::report::FILES
        .iter()
        .chain(&ferastrau_report::html::FILES)
    {
        std::fs::copy(committed.join(f), dir.join(f)).unwrap();
    }
    let baseline = tmp.path().join("baseline.json");
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let gate_current = |extra: &[&str]| {
        let mut args = vec![
            "gate".to_string(),
            "--current".into(),
            s(&dir),
            "--baseline".into(),
            s(&baseline),
        ];
        args.extend(extra.iter().map(|a| a.to_string()));
        command(&args.iter().map(String::as_str).collect::<Vec<_>>())
            .output()
            .unwrap()
    };
    let o = gate_current(&["--update-baseline"]);
    assert!(o.status.success(), "{}", text(&o.stderr));

    // A run holds the directory (its pid, start and command in the lock file, as a run
    // writes them).
    let lock_path = dir.join(".ferastrau.lock");
    let open = || {
        std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&lock_path)
            .unwrap()
    };
    let run = open();
    run.lock().unwrap();
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    std::fs::write(
        &lock_path,
        format!("pid 4242\nstarted {started}\ncommand ferastrau evaluate --out run\n"),
    )
    .unwrap();
    let merged = tmp.path().join("merged");
    let refused = [
        ("gate --current", gate_current(&[])),
        (
            "merge",
            crate::common::ferastrau(&["merge", &s(&dir), "--out", &s(&merged)]),
        ),
        (
            "subsets",
            crate::common::ferastrau(&["subsets", &s(&dir), "--no-render"]),
        ),
        (
            "report",
            crate::common::ferastrau(&["report", &s(&dir), "--benchmark", benchmark]),
        ),
    ];
    for (what, o) in refused {
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{what}: {err}");
        assert!(
            err.contains("pid 4242") && err.contains("ferastrau evaluate --out run"),
            "{what}: {err}"
        );
    }
    drop(run);

    // Readers share it; a run (here `report`, which rewrites the page) waits for them.
    let reader = open();
    reader.lock_shared().unwrap();
    let o = gate_current(&[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut writer = command(&["report", &s(&dir), "--benchmark", benchmark])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(
        writer.try_wait().unwrap().is_none(),
        "a run refused or ignored a reader's lock"
    );
    drop(reader);
    let o = writer.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
}
