//! No wrong result ever exits 0 (issue 10): every way a run was seen to report a wrong kill
//! rate with exit status 0, tried as an adversary would — an original that misbehaves, limits
//! no program can meet, two runs on one directory or one crate, SIGKILL and SIGTERM at random
//! moments. A crate edited under a running or resumed run is in [`crate::trust_edits`].
//!
//! Exit statuses: 0 success, 2 usage (refused), 4 broken run, 130 interrupted (see the README).

use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{
    command, copy_fixture, evaluate, fixture, json, processes_tagged, statuses, text, untimed,
    OPT_LEVEL_VAR,
};
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

pub(crate) const USAGE: i32 = 2;
const BROKEN: i32 = 4;
const INTERRUPTED: i32 = 130;

pub(crate) fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// `ferastrau evaluate` on the `faulty` fixture at scopes 1..2 into `out`, with its original
/// misbehaving as `mode` says (`None`: not at all).
fn faulty(mode: Option<&str>, cmd: &str, out: &Path, extra: &[&str]) -> Output {
    let path = fixture("faulty");
    let mut args = vec![
        cmd,
        "--benchmark-path",
        s(&path),
        "--scopes",
        "1..2",
        "--original-timeout",
        "2s",
    ];
    if !extra.contains(&"--memory-limit") {
        args.extend(["--memory-limit", "256M"]);
    }
    if cmd == "evaluate" {
        args.extend(["--out", s(out)]);
        if !extra.contains(&"--timeout-floor") {
            args.extend(["--timeout-floor", "300ms"]);
        }
    }
    args.extend_from_slice(extra);
    let mut c = command(&args);
    match mode {
        Some(m) => c.env("FERASTRAU_FAULTY_ORIGINAL", m),
        None => c.env_remove("FERASTRAU_FAULTY_ORIGINAL"),
    };
    c.output().expect("ferastrau runs")
}

#[test]
fn an_original_that_misbehaves_on_one_input_stops_the_run_naming_the_input() {
    let cases = [
        ("exit0", "it ends the process with exit status 0"),
        ("exit1", "it ends the process with exit status 1"),
        ("loop", "clock limit of 2.000 s"),
        ("stack", "it overflows the stack"),
        ("abort", "it aborts the process"),
        ("memory", "memory allocation of"),
        ("print", "it prints to stdout"),
        ("panic", "the original gives up on 1"),
        ("negative", "its post-state breaks the invariant"),
        ("decode", "the decoder cannot read 1"),
        ("invariant", "the invariant cannot judge 2"),
        ("postcondition", "the postcondition cannot judge 1"),
    ];
    for (mode, what) in cases {
        for cmd in ["evaluate", "check"] {
            // A broken post-state is a counterexample to `check`, which goes on (see
            // `check_counts_broken_post_states_and_prints_the_counterexample`).
            if cmd == "check" && matches!(mode, "negative" | "invariant") {
                continue;
            }
            let out = tempfile::tempdir().unwrap();
            let started = Instant::now();
            let o = faulty(Some(mode), cmd, out.path(), &[]);
            let err = text(&o.stderr);
            assert_eq!(o.status.code(), Some(BROKEN), "{cmd} {mode}: {err}");
            assert!(
                err.contains("at scope 1 on bump input #1"),
                "{cmd} {mode}: {err}"
            );
            assert!(err.contains(what), "{cmd} {mode}: {err}");
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "{cmd} {mode} took {:?}",
                started.elapsed()
            );
            assert!(!out.path().join("evaluation.json").exists(), "{mode}");
        }
    }
    // Korat's own calls into the benchmark (here its precondition) panicking.
    let out = tempfile::tempdir().unwrap();
    let o = faulty(Some("precondition"), "evaluate", out.path(), &[]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(BROKEN), "{err}");
    assert!(
        err.contains("cannot generate the inputs of scope 1")
            && err.contains("`bump`'s precondition")
            && err.contains("the precondition cannot judge 1"),
        "{err}"
    );
}

#[test]
fn a_failed_run_leaves_no_report_behind_and_reuses_nothing() {
    let out = tempfile::tempdir().unwrap();
    let good = faulty(None, "evaluate", out.path(), &[]);
    assert!(good.status.success(), "{}", text(&good.stderr));
    assert!(out.path().join("evaluation.json").exists());
    assert!(out.path().join("report.html").exists());
    // The same directory, now with an original that exits with status 0 on one input: twice,
    // because the second run once found the first one's files and reported 100% killed.
    for _ in 0..2 {
        let o = faulty(Some("exit0"), "evaluate", out.path(), &[]);
        assert_eq!(o.status.code(), Some(BROKEN), "{}", text(&o.stderr));
        for f in [
            "evaluation.json",
            "evaluation.csv",
            "mutants.json",
            "report.html",
            "mutation-testing-report.json",
        ] {
            assert!(
                !out.path().join(f).exists(),
                "{f} of the earlier run remains"
            );
        }
    }
}

#[test]
fn limits_the_original_cannot_meet_make_a_broken_run_not_a_perfect_score() {
    let cases: [(&[&str], &str); 2] = [
        (
            &["--tick-factor", "0", "--tick-floor", "0"],
            "--tick-factor",
        ),
        (&["--memory-limit", "4M"], "--memory-limit 4 MiB"),
    ];
    for (extra, hint) in cases {
        let out = tempfile::tempdir().unwrap();
        let o = faulty(None, "evaluate", out.path(), extra);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(BROKEN), "{extra:?}: {err}");
        assert!(err.contains(hint), "{extra:?}: {err}");
        // A worker the loader cannot map under the limit is said to be ours, not reported
        // as the code under test's "exited with status 127".
        assert!(!err.contains("status 127"), "{extra:?}: {err}");
        assert!(!out.path().join("evaluation.json").exists(), "{extra:?}");
    }
}

/// `check` on an original whose post-state breaks the invariant (on input 1 of each scope):
/// counted per scope like a postcondition failure, and the smallest counterexample with its
/// pre-state, output, post-state and the clause that fails, in the table's report and in JSON.
#[test]
fn check_counts_broken_post_states_and_prints_the_counterexample() {
    let cases = [
        ("negative", "false on the post-state", "bump() on -7"),
        (
            "invariant",
            "it panicked on the post-state: the invariant cannot judge 2",
            "bump() on 2",
        ),
    ];
    for (mode, message, post) in cases {
        let out = tempfile::tempdir().unwrap();
        let o = faulty(Some(mode), "check", out.path(), &["--format", "json"]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(BROKEN), "{mode}: {err}");
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{mode}: {e}: {}", text(&o.stdout)));
        let c = &doc["counterexample"];
        assert_eq!(c["clause"], "invariant", "{mode}: {doc}");
        assert_eq!(c["scope"], 1, "{mode}: {doc}");
        assert_eq!(c["input"], "bump() on 1", "{mode}: {doc}");
        assert_eq!(c["index"], 1, "{mode}: {doc}");
        assert_eq!(c["message"], message, "{mode}: {doc}");
        assert_eq!(c["post_state"], post, "{mode}: {doc}");
        // Every scope was checked, each counting its one broken post-state.
        let scopes = doc["scopes"].as_array().unwrap();
        assert!(scopes.len() > 1, "{mode}: {doc}");
        for s in scopes {
            assert_eq!(s["invariant_violations"], 1, "{mode}: {doc}");
            assert_eq!(s["postcondition_violations"], 0, "{mode}: {doc}");
        }
        assert_eq!(doc["violations"], scopes.len(), "{mode}: {doc}");
        // The table's report: the same counterexample, said once.
        let t = faulty(Some(mode), "check", out.path(), &[]);
        let stdout = text(&t.stdout);
        assert_eq!(t.status.code(), Some(BROKEN), "{mode}: {stdout}");
        assert!(
            stdout.contains("post-state: ") && stdout.contains(post),
            "{stdout}"
        );
        assert!(
            stdout.contains(&format!("fails:      the class invariant: {message}")),
            "{stdout}"
        );
    }
}

#[test]
fn absurd_options_are_refused_before_anything_runs() {
    let cases: [(&[&str], &str); 10] = [
        (&["--jobs", "0"], "--jobs"),
        (&["--jobs", "100000"], "--jobs"),
        (&["--max-mutants", "0"], "--max-mutants"),
        (&["--timeout-floor", "100000000000s"], "--timeout-floor"),
        (&["--timeout-factor=-1"], "--timeout-factor"),
        (&["--timeout-factor", "NaN"], "--timeout-factor"),
        (&["--tick-factor", "99999999999999999999"], "--tick-factor"),
        (&["--memory-limit", "0"], "--memory-limit"),
        (&["--original-timeout", "0s"], "--original-timeout"),
        (&["--timeout-floor", "0s"], "--timeout-floor"),
    ];
    for (extra, name) in cases {
        let out = tempfile::tempdir().unwrap();
        let started = Instant::now();
        let o = faulty(None, "evaluate", out.path(), extra);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(USAGE), "{extra:?}: {err}");
        assert!(err.contains(name), "{extra:?}: {err}");
        assert!(!err.contains("panicked"), "{extra:?}: {err}");
        assert!(started.elapsed() < Duration::from_secs(10), "{extra:?}");
    }
    // The workers' opt-level, from the environment, is checked as an option is.
    for level in ["4", "fast", ""] {
        let out = tempfile::tempdir().unwrap();
        let chain = fixture("chain");
        let o = command(&[
            "evaluate",
            "--benchmark-path",
            s(&chain),
            "--out",
            s(out.path()),
        ])
        .env(OPT_LEVEL_VAR, level)
        .output()
        .unwrap();
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(USAGE), "{level:?}: {err}");
        assert!(err.contains("FERASTRAU_OPT_LEVEL"), "{level:?}: {err}");
    }
    // A fractional factor is a factor: accepted, and the worker agrees.
    let out = tempfile::tempdir().unwrap();
    let o = faulty(None, "evaluate", out.path(), &["--timeout-factor", "2.5"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

#[test]
fn scopes_that_would_fill_the_disk_are_refused_before_they_are_generated() {
    let out = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let chain = fixture("chain");
    let o = command(&[
        "evaluate",
        "--benchmark-path",
        s(&chain),
        "--scopes",
        "1..100",
        "--max-scratch",
        "2M",
        "--out",
        s(out.path()),
    ])
    .output()
    .unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(USAGE), "{err}");
    assert!(err.contains("--max-scratch"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(120));
}

#[test]
fn a_second_run_on_the_same_output_directory_is_refused_and_the_first_is_unharmed() {
    let out = tempfile::tempdir().unwrap();
    let chain = fixture("chain");
    let args = [
        "evaluate",
        "--benchmark-path",
        s(&chain),
        "--scopes",
        "1..10",
        "--jobs",
        "1",
        "--out",
        s(out.path()),
    ];
    let first = command(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lock = out.path().join(".ferastrau.lock");
    let started = Instant::now();
    while !std::fs::read_to_string(&lock).is_ok_and(|t| t.contains("pid")) {
        assert!(started.elapsed() < Duration::from_secs(60), "no lock taken");
        std::thread::sleep(Duration::from_millis(10));
    }
    let second = command(&args).output().unwrap();
    let err = text(&second.stderr);
    assert_eq!(second.status.code(), Some(USAGE), "{err}");
    assert!(err.contains("another ferastrau run"), "{err}");
    // How long ago it started, not a raw clock value.
    assert!(err.contains(" s ago: `"), "{err}");
    assert!(!err.contains("since the epoch"), "{err}");
    assert!(err.contains(&format!("pid {}", first.id())), "{err}");
    let first = first.wait_with_output().unwrap();
    assert!(first.status.success(), "{}", text(&first.stderr));
    let rows = json(&out.path().join("evaluation.json"));
    assert_eq!(rows["scopes"].as_array().unwrap().len(), 10);

    // The directory now holds chain's reports: another crate may not overwrite them.
    let o = faulty(None, "evaluate", out.path(), &[]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(USAGE), "{err}");
    assert!(err.contains("holds the reports"), "{err}");
}

#[test]
fn reports_go_to_an_untracked_directory_by_default_owned_by_one_crate() {
    let cwd = tempfile::tempdir().unwrap();
    let path = fixture("faulty");
    let o = command(&["evaluate", "--benchmark-path", s(&path), "--scopes", "1"])
        .current_dir(cwd.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = cwd.path().join("ferastrau.out").join("faulty");
    assert!(out.join("evaluation.json").exists());
    assert!(out.join("mutants.json").exists());

    // Another crate of the same name (a user's crate named like a built-in, say) does not
    // overwrite them.
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("faulty");
    copy_fixture("faulty", &other);
    let o = command(&["evaluate", "--benchmark-path", s(&other), "--scopes", "1"])
        .current_dir(cwd.path())
        .output()
        .unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(USAGE), "{err}");
    assert!(err.contains("holds the reports of the crate at"), "{err}");
}

/// A small deterministic generator for kill times (the seed is printed, so a failure can be
/// replayed with `FERASTRAU_TEST_SEED`).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

/// Waits until no process carries `tag` (the workers die with the harness).
/// No process the killed harness started is left: its workers die with it at once; a build
/// it had started (cargo dies with it too) may only finish the compilations already running,
/// and must be gone within a minute.
fn assert_no_worker_left(tag: &str) {
    let started = Instant::now();
    loop {
        let left = processes_tagged(tag);
        let workers: Vec<&String> = left
            .iter()
            .filter(|p| !p.contains("rustc") && !p.contains("cargo build"))
            .collect();
        let cargo: Vec<&String> = left.iter().filter(|p| p.contains("cargo build")).collect();
        if left.is_empty() {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(2) || workers.is_empty(),
            "processes outlived the harness: {workers:?}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(2) || cargo.is_empty(),
            "a build outlived the harness: {cargo:?}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "compilations outlived the harness by a minute: {left:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn sigkill_and_sigterm_at_random_moments_lose_nothing_and_leave_no_worker() {
    let whole = tempfile::tempdir().unwrap();
    let cut = tempfile::tempdir().unwrap();
    let chain = fixture("chain");
    let args = [
        "--benchmark-path",
        s(&chain),
        "--scopes",
        "1..8",
        "--jobs",
        "2",
    ];
    let started = Instant::now();
    let (e_whole, m_whole) = evaluate(&args, whole.path());
    let span = started.elapsed().as_millis() as u64;

    let seed = std::env::var("FERASTRAU_TEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
        });
    eprintln!("FERASTRAU_TEST_SEED={seed}");
    let mut rng = Lcg(seed);
    let tag = format!("FERASTRAU_TEST_TAG={seed}");
    let journal = cut.path().join("journal.jsonl");
    for round in 0..6 {
        let signal = if round % 2 == 0 {
            Signal::SIGKILL
        } else {
            Signal::SIGTERM
        };
        let mut all = vec!["evaluate", "--out", s(cut.path())];
        all.extend_from_slice(&args);
        if journal.exists() {
            all.push("--resume");
        }
        let (key, value) = tag.split_once('=').unwrap();
        let mut child = command(&all)
            .env(key, value)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Not before the first few milliseconds: the signal handlers must be installed for
        // SIGTERM to be caught at all.
        let delay = Duration::from_millis(30 + rng.below(span));
        std::thread::sleep(delay);
        let _ = kill(Pid::from_raw(child.id() as i32), signal);
        let status = child.wait().unwrap();
        if signal == Signal::SIGTERM {
            assert!(
                status.success() || status.code() == Some(INTERRUPTED),
                "round {round}: SIGTERM after {delay:?} ended with {status:?}"
            );
        }
        assert_no_worker_left(&tag);
    }
    let mut all = vec!["--out", s(cut.path())];
    all.extend_from_slice(&args);
    if journal.exists() {
        all.push("--resume");
    }
    let o = command(&[&["evaluate"][..], &all].concat())
        .output()
        .unwrap();
    assert!(o.status.success(), "seed {seed}: {}", text(&o.stderr));
    let (e_cut, m_cut) = (
        json(&cut.path().join("evaluation.json")),
        json(&cut.path().join("mutants.json")),
    );
    assert_eq!(statuses(&m_whole), statuses(&m_cut), "seed {seed}");
    assert_eq!(untimed(&e_whole), untimed(&e_cut), "seed {seed}");
}

#[test]
fn an_interrupt_during_generation_stops_the_run_at_once() {
    let out = tempfile::tempdir().unwrap();
    // `faulty`'s precondition sleeps for a minute in mode `slow`, after writing the marker:
    // the signal lands inside generation (not in the build before it, however slow the
    // machine).
    let marker_dir = tempfile::tempdir().unwrap();
    let marker = marker_dir.path().join("generating");
    let faulty = fixture("faulty");
    let child = command(&[
        "evaluate",
        "--benchmark-path",
        s(&faulty),
        "--scopes",
        "1",
        "--out",
        s(out.path()),
    ])
    .env("FERASTRAU_FAULTY_ORIGINAL", "slow")
    .env("FERASTRAU_FAULTY_SLOW_MARKER", &marker)
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let started = Instant::now();
    while !marker.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "generation never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let signalled = Instant::now();
    let o = child.wait_with_output().unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(INTERRUPTED), "{err}");
    assert!(err.contains("--resume"), "{err}");
    assert!(
        signalled.elapsed() < Duration::from_secs(3),
        "took {:?} to stop",
        signalled.elapsed()
    );
}

/// A worker killed from outside (`kill -9`: the kernel's out-of-memory killer, a cgroup, a
/// user) while it searches for a scope's inputs: the run says so and exits 1, neither blaming
/// `--memory-limit` (which did not kill it) nor calling the run broken (exit 4, which says the
/// crate or the limits are at fault).
#[test]
fn a_worker_killed_from_outside_during_the_input_search_is_not_blamed_on_a_limit() {
    let out = tempfile::tempdir().unwrap();
    let tag = format!("FERASTRAU_TEST_TAG=outside-kill-{}", std::process::id());
    let (key, value) = tag.split_once('=').unwrap();
    // Scope 9 of the default benchmark: seconds of search, so the worker is found mid-search.
    let mut run = command(&[
        "evaluate",
        "--benchmark",
        "search_tree",
        "--scopes",
        "9",
        "--out",
        s(out.path()),
    ])
    .env(key, value)
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let stderr = run.stderr.take().unwrap();
    let said = std::thread::spawn(move || {
        use std::io::Read;
        let mut text = String::new();
        let _ = std::io::BufReader::new(stderr).read_to_string(&mut text);
        text
    });
    // The worker is a content-addressed copy under `<target>/ferastrau/bin/`; the first ones
    // (describe) end at once, the one generating scope 9 stays.
    let started = Instant::now();
    let worker = loop {
        let workers: Vec<String> = processes_tagged(&tag)
            .into_iter()
            .filter(|p| p.contains("/ferastrau/bin/"))
            .collect();
        if let Some(w) = workers.first() {
            std::thread::sleep(Duration::from_millis(300));
            if processes_tagged(&tag).iter().any(|p| p == w) {
                break w.clone();
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no worker appeared"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let pid: i32 = worker.split(':').next().unwrap().parse().unwrap();
    kill(Pid::from_raw(pid), Signal::SIGKILL).unwrap();
    let status = run.wait().unwrap();
    let err = said.join().unwrap();
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(
        err.contains("killed by signal 9 from outside the process") && err.contains("run again"),
        "{err}"
    );
    assert!(
        !err.contains("--memory-limit"),
        "blamed on the limit: {err}"
    );
}
