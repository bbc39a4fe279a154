//! No wrong result ever exits 0 (issue 10), continued from [`crate::trust`]: a run reports the
//! code it ran, whatever happens to the crate meanwhile — an edit or a rebuild under a running
//! or stopped run, two crates of one name at once, a resume after an edit or with other
//! options — and a mutant that one stall of a loaded machine slowed is not killed for it.

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::common::{
    command, copy_fixture, edit, evaluate, fixture, json, processes_with, statuses, text, untimed,
    FAULTY_LIMITS,
};
use crate::trust::{s, USAGE};
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

/// The replacement text of every call mutant, with its status at every scope.
fn call_statuses(mutants: &serde_json::Value) -> Vec<(String, String, String)> {
    let mut v = Vec::new();
    for m in mutants["mutants"].as_array().unwrap() {
        if m["family"] != "call" {
            continue;
        }
        for (scope, r) in m["scopes"].as_object().unwrap() {
            v.push((
                m["replacement"].as_str().unwrap().to_string(),
                scope.clone(),
                r["status"].as_str().unwrap().to_string(),
            ));
        }
    }
    v
}

/// Makes three of the fixture's failing functions harmless: their call mutants survive.
fn tame(dir: &Path) {
    let lib = dir.join("src").join("lib.rs");
    edit(&lib, "panic!(\"boom at {x}\")", "x + 1");
    edit(
        &lib,
        "pub fn die(_x: i64) -> i64 {\n    std::process::abort()",
        "pub fn die(x: i64) -> i64 {\n    x + 1",
    );
    edit(
        &lib,
        "pub fn quit(_x: i64) -> i64 {\n    std::process::exit(0)",
        "pub fn quit(x: i64) -> i64 {\n    x + 1",
    );
}

fn survives(calls: &[(String, String, String)], callee: &str) -> bool {
    calls
        .iter()
        .filter(|(c, ..)| c == callee)
        .all(|(.., status)| status == "survived")
}

/// The clock limit is the one kill criterion that depends on the machine: a mutant stalled
/// once (a loaded box descheduling it) is not killed, and a mutant that loops is, its detail
/// saying the timeout was confirmed.
#[test]
fn a_stall_of_one_run_is_not_a_timeout_kill_and_a_loop_is_confirmed() {
    let marker_dir = tempfile::tempdir().unwrap();
    let marker = marker_dir.path().join("stalled");
    let out = tempfile::tempdir().unwrap();
    let path = fixture("faulty");
    let o = command(&[
        "evaluate",
        "--benchmark-path",
        s(&path),
        "--scopes",
        "1..2",
        "--timeout-floor",
        "300ms",
        "--memory-limit",
        "256M",
        "--out",
        s(out.path()),
    ])
    .env("FERASTRAU_FAULTY_STALL_ONCE", &marker)
    .env_remove("FERASTRAU_FAULTY_ORIGINAL")
    .output()
    .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(marker.exists(), "the stall mutant ran and stalled once");
    let mutants = json(&out.path().join("mutants.json"));
    let calls = call_statuses(&mutants);
    assert!(survives(&calls, "stall"), "{calls:?}");
    let spin = mutants["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["replacement"] == "spin")
        .unwrap();
    for scope in ["1", "2"] {
        let r = &spin["scopes"][scope];
        assert_eq!(r["reason"], "timeout", "{r}");
        assert_eq!(r["limit"], "clock", "{r}");
        let detail = r["detail"].as_str().unwrap();
        assert!(detail.contains("and again over"), "{detail}");
    }
}

/// `evaluate` of the crate at `krate` into `out` at `scopes` (one job, `faulty`'s limits),
/// stopped (SIGSTOP) right after its first result; SIGCONT lets it go on.
fn stopped_after_first_result(krate: &Path, out: &Path, scopes: &str) -> Child {
    let args = [
        "evaluate",
        "--benchmark-path",
        s(krate),
        "--scopes",
        scopes,
        "--jobs",
        "1",
        "--timeout-floor",
        "300ms",
        "--memory-limit",
        "256M",
        "--out",
        s(out),
    ];
    let run = command(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_results(&out.join("journal.jsonl"), 1, &run);
    kill(Pid::from_raw(run.id() as i32), Signal::SIGSTOP).unwrap();
    run
}

#[test]
fn a_run_finishes_on_the_code_it_started_with_whatever_is_rebuilt_meanwhile() {
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("faulty");
    copy_fixture("faulty", &krate);
    let out = tempfile::tempdir().unwrap();
    // Stopped right after its first result: every later mutant runs after the rebuild.
    let run = stopped_after_first_result(&krate, out.path(), "1..3");

    tame(&krate);
    let other = tempfile::tempdir().unwrap();
    let (_, edited) = evaluate(
        &[
            "--benchmark-path",
            s(&krate),
            "--scopes",
            "1",
            "--timeout-floor",
            "300ms",
        ],
        other.path(),
    );
    assert!(survives(&call_statuses(&edited), "boom"), "the edit took");

    kill(Pid::from_raw(run.id() as i32), Signal::SIGCONT).unwrap();
    let done = run.wait_with_output().unwrap();
    assert!(done.status.success(), "{}", text(&done.stderr));
    let calls = call_statuses(&json(&out.path().join("mutants.json")));
    for callee in ["boom", "die", "quit"] {
        let mine: Vec<_> = calls.iter().filter(|(c, ..)| c == callee).collect();
        assert_eq!(mine.len(), 3, "{callee}: {calls:?}");
        assert!(
            mine.iter().all(|(.., status)| status == "killed"),
            "{callee} ran on the rebuilt code: {calls:?}"
        );
    }
}

/// An edit of a mutated line while the run is stopped: the run finishes with status 0, and its
/// page shows the code it evaluated (the page was once drawn from the file on disk at the
/// end, and the run failed with status 1 because the text no longer matched).
#[test]
fn a_run_whose_crate_is_edited_under_it_reports_the_code_it_ran() {
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("faulty");
    copy_fixture("faulty", &krate);
    let out = tempfile::tempdir().unwrap();
    let run = stopped_after_first_result(&krate, out.path(), "1..2");
    edit(
        &krate.join("src/lib.rs"),
        "if self.value > before {",
        "if self.value >= before {",
    );
    kill(Pid::from_raw(run.id() as i32), Signal::SIGCONT).unwrap();
    let done = run.wait_with_output().unwrap();
    assert!(done.status.success(), "{}", text(&done.stderr));
    let page = std::fs::read_to_string(out.path().join("report.html")).unwrap();
    // The source listing has the line as it ran (mutants' diffs may show `>=` elsewhere).
    assert!(
        page.contains("<code>        if self.value &gt; before {</code>"),
        "the page lost the code that ran"
    );
}

#[test]
fn two_crates_with_one_name_run_at_once_each_on_its_own_code() {
    let dir = tempfile::tempdir().unwrap();
    let tamed = dir.path().join("faulty");
    copy_fixture("faulty", &tamed);
    tame(&tamed);
    let original = fixture("faulty");
    let (o1, o2) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let start = |krate: &Path, out: &Path| {
        command(
            &[
                &["evaluate", "--benchmark-path", s(krate)][..],
                &FAULTY_LIMITS,
                &["--out", s(out)],
            ]
            .concat(),
        )
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
    };
    let (a, b) = (start(&original, o1.path()), start(&tamed, o2.path()));
    for c in [a, b] {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    let fierce = call_statuses(&json(&o1.path().join("mutants.json")));
    let tame = call_statuses(&json(&o2.path().join("mutants.json")));
    for callee in ["boom", "die", "quit"] {
        assert!(
            fierce
                .iter()
                .filter(|(c, ..)| c == callee)
                .all(|(.., s)| s == "killed"),
            "{callee}: {fierce:?}"
        );
        assert!(survives(&tame, callee), "{callee}: {tame:?}");
    }
}

#[test]
fn resuming_after_an_edit_or_with_other_options_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("faulty");
    copy_fixture("faulty", &krate);
    let out = tempfile::tempdir().unwrap();
    let base = [
        "--benchmark-path",
        s(&krate),
        "--scopes",
        "1..2",
        "--timeout-floor",
        "300ms",
    ];
    let (e1, m1) = evaluate(&base, out.path());
    let resume = |extra: &[&str]| {
        let mut args = vec!["evaluate", "--resume", "--out", s(out.path())];
        args.extend_from_slice(&base);
        args.extend_from_slice(extra);
        command(&args).output().unwrap()
    };
    let reports = |dir: &Path| -> Vec<Option<Vec<u8>>> {
        [
            "evaluation.json",
            "mutants.json",
            "report.html",
            "mutation-testing-report.json",
        ]
        .iter()
        .map(|f| std::fs::read(dir.join(f)).ok())
        .collect()
    };
    let before = reports(out.path());
    assert!(before.iter().all(Option::is_some));
    let o = resume(&["--tick-factor", "7"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(USAGE), "{err}");
    assert!(err.contains("limits"), "{err}");
    // Refused, it leaves no reports that a gate could read as this run's; the journal stays,
    // and a --resume of the run it recorded writes them again.
    assert!(
        reports(out.path()).iter().all(Option::is_none),
        "a refused --resume left the reports of another run"
    );
    assert!(out.path().join("journal.jsonl").is_file());

    let o = resume(&[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        statuses(&json(&out.path().join("mutants.json"))),
        statuses(&m1)
    );
    assert_eq!(
        untimed(&json(&out.path().join("evaluation.json"))),
        untimed(&e1)
    );

    // A run refused at any stage leaves nothing to gate, even before it has checked the
    // crate's code: a source that does not parse once left the previous run's reports, which
    // the gate passed.
    let baseline = dir.path().join("baseline.json");
    let gate = |extra: &[&str]| {
        let mut args = vec![
            "gate",
            "--current",
            s(out.path()),
            "--baseline",
            s(&baseline),
        ];
        args.extend_from_slice(extra);
        command(&args).output().unwrap()
    };
    let o = gate(&["--update-baseline"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let lib = krate.join("src").join("lib.rs");
    let source = std::fs::read_to_string(&lib).unwrap();
    std::fs::write(&lib, format!("{source}\nfn broken( {{\n")).unwrap();
    let o = command(&[&["evaluate", "--out", s(out.path())][..], &base].concat())
        .output()
        .unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot parse"), "{err}");
    assert!(
        reports(out.path()).iter().all(Option::is_none),
        "a run refused for a parse error left the reports of the previous one"
    );
    let o = gate(&[]);
    assert_eq!(o.status.code(), Some(USAGE), "{}", text(&o.stderr));
    std::fs::write(&lib, source).unwrap();

    // A comment is enough: the journal's results belong to the source they were measured on.
    let mut text_now = std::fs::read_to_string(&lib).unwrap();
    text_now.push_str("// edited\n");
    std::fs::write(&lib, text_now).unwrap();
    let o = resume(&[]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(USAGE), "{err}");
    assert!(err.contains("the benchmark's source"), "{err}");
}

/// An edit to the crate while the run is mutating it changes nothing the run reports: the
/// page is drawn from the sources the run mutated (it once failed at the end, "the reports ...
/// do not match the source", exit 1), and the run says that the crate changed under it.
#[test]
fn an_edit_while_the_run_mutates_is_reported_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("faulty");
    copy_fixture("faulty", &krate);
    let out = dir.path().join("out");
    let mut run = command(&[
        "evaluate",
        "--benchmark-path",
        s(&krate),
        "--scopes",
        "1",
        "--timeout-floor",
        "100ms",
        "--memory-limit",
        "256M",
        "--out",
        s(&out),
    ])
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    // Right after mutation, while the worker builds: every mutant's line moves down one.
    let lib = krate.join("src").join("lib.rs");
    let source = std::fs::read_to_string(&lib).unwrap();
    let mut stderr = std::io::BufReader::new(run.stderr.take().unwrap());
    let mut said = String::new();
    loop {
        let mut line = String::new();
        let n = std::io::BufRead::read_line(&mut stderr, &mut line).unwrap();
        assert!(n > 0, "the run ended before mutating: {said}");
        said.push_str(&line);
        if line.trim_start().starts_with("Mutated ") {
            break;
        }
    }
    std::fs::write(&lib, format!("// edited during the run\n{source}")).unwrap();
    std::io::Read::read_to_string(&mut stderr, &mut said).unwrap();
    let status = run.wait().unwrap();
    assert!(status.success(), "{said}");
    assert!(said.contains("changed during the run"), "{said}");
    let page = json(&out.join("mutation-testing-report.json"));
    assert_eq!(
        page["files"]["src/lib.rs"]["source"].as_str(),
        Some(source.as_str()),
        "the page shows the source the run mutated"
    );
}

/// Waits until `journal` holds at least `n` results (while `child` runs).
fn wait_for_results(journal: &Path, n: usize, child: &Child) {
    let started = Instant::now();
    while results(journal) < n {
        assert!(started.elapsed() < Duration::from_secs(180), "no progress");
        std::thread::sleep(Duration::from_millis(5));
        let _ = child;
    }
}

fn results(journal: &Path) -> usize {
    std::fs::read_to_string(journal)
        .map(|t| t.matches("\"kind\":\"result\"").count())
        .unwrap_or(0)
}

/// The worker's own crate (its library: the worker's loop and Korat's search instantiated for
/// the crate's types, most of a worker's build; its binary calls it) and the crate under test
/// (its metamutant) are compiled incrementally, the worker's other dependencies not, so that
/// an edit of a function's body reuses the rest of the work (issue 56); and the edited crate's
/// verdicts are those of a build from nothing: the same mutants with the same statuses at
/// every scope as a copy of the edited crate at another path.
#[test]
fn an_edited_crate_s_worker_is_rebuilt_incrementally_to_the_verdicts_of_a_fresh_build() {
    let dir = tempfile::tempdir().unwrap();
    let (krate, fresh) = (dir.path().join("edited"), dir.path().join("fresh"));
    let run = |k: &Path| {
        let out = tempfile::tempdir().unwrap();
        evaluate(&["--benchmark-path", s(k), "--scopes", "1..3"], out.path())
    };
    copy_fixture("leftist", &krate);
    run(&krate);
    let (line, edited) = (
        "x.rank = rank(&x.right) + 1;",
        "x.rank = 1 + rank(&x.right);",
    );
    edit(&krate.join("src/heap.rs"), line, edited);
    let before_edit = std::time::SystemTime::now();
    let (evaluation, mutants) = run(&krate);

    // rustc keeps a directory of incremental state per crate it compiles that way, named
    // after the crate (underscored) and a hash.
    let incremental = crate::common::shared_target().join("ferastrau/build/ferastrau/incremental");
    let sessions: Vec<(String, std::time::SystemTime)> = std::fs::read_dir(&incremental)
        .unwrap_or_else(|e| panic!("no {}: {e}", incremental.display()))
        .flatten()
        .map(|d| {
            (
                d.file_name().to_string_lossy().into_owned(),
                d.metadata().unwrap().modified().unwrap(),
            )
        })
        .collect();
    let compiled_since_the_edit = |prefix: &str, infix: &str| {
        sessions.iter().any(|(name, modified)| {
            name.starts_with(prefix) && name.contains(infix) && *modified >= before_edit
        })
    };
    assert!(
        compiled_since_the_edit("ferastrau_leftist_", "_worker_metamutant"),
        "the edited crate's worker was not compiled incrementally: {sessions:?}"
    );
    assert!(
        compiled_since_the_edit("leftist-", ""),
        "the edited crate's metamutant was not compiled incrementally: {sessions:?}"
    );
    // Every test's crates share this directory, but none is named after the worker's other
    // dependencies (their code, compiled whole, is as fast as before).
    for other in [
        "korat-",
        "ferastrau_sdk-",
        "ferastrau_worker-",
        "ferastrau_probes-",
    ] {
        assert!(
            !compiled_since_the_edit(other, ""),
            "{other}* was compiled incrementally: {sessions:?}"
        );
    }

    copy_fixture("leftist", &fresh);
    edit(&fresh.join("src/heap.rs"), line, edited);
    let (fresh_evaluation, fresh_mutants) = run(&fresh);
    assert_eq!(statuses(&mutants), statuses(&fresh_mutants));
    assert_eq!(untimed(&evaluation), untimed(&fresh_evaluation));
}

/// The crate's incremental compile killed half-way (SIGKILL to its `rustc`, as the kernel's
/// out-of-memory killer would, then to the run) leaves rustc's incremental state to the next
/// run, whose verdicts are still those of a build from nothing; and so does that state
/// overwritten with garbage (issue 56: the crate under test is compiled incrementally, and a
/// wrong verdict from a half-written or damaged cache would exit 0).
#[test]
fn an_incremental_compile_killed_or_damaged_leaves_the_next_run_the_verdicts_of_a_fresh_build() {
    let dir = tempfile::tempdir().unwrap();
    let (krate, fresh) = (dir.path().join("killed"), dir.path().join("fresh"));
    // A crate name of its own, so that its compile is told from every other test's.
    let (name, renamed) = ("name = \"leftist\"", "name = \"leftist_killed_half_way\"");
    let run = |k: &Path| {
        let out = tempfile::tempdir().unwrap();
        evaluate(&["--benchmark-path", s(k), "--scopes", "1..3"], out.path())
    };
    let (line, edited) = (
        "x.rank = rank(&x.right) + 1;",
        "x.rank = 1 + rank(&x.right);",
    );
    copy_fixture("leftist", &krate);
    edit(&krate.join("Cargo.toml"), name, renamed);
    let (first_evaluation, first_mutants) = run(&krate);
    edit(&krate.join("src/heap.rs"), line, edited);

    // rustc works on a session directory named `s-...-working` until it finalises it.
    let incremental = crate::common::shared_target().join("ferastrau/build/ferastrau/incremental");
    let working = || -> Vec<std::path::PathBuf> {
        let crates = std::fs::read_dir(&incremental)
            .into_iter()
            .flatten()
            .flatten();
        crates
            .filter(|c| (c.file_name().to_string_lossy()).starts_with("leftist_killed_half_way-"))
            .flat_map(|c| std::fs::read_dir(c.path()).into_iter().flatten().flatten())
            .map(|s| s.path())
            .filter(|s| s.to_string_lossy().ends_with("-working"))
            .collect()
    };
    let before = working();
    let out = dir.path().join("out");
    let mut killed = command(&[
        "evaluate",
        "--benchmark-path",
        s(&krate),
        "--scopes",
        "1..3",
    ])
    .args(["--out", s(&out)])
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    let started = Instant::now();
    // Killed once it works on a session of its own: the compile is half-way.
    let rustc = loop {
        let pid = processes_with("--crate-name leftist_killed_half_way ")
            .into_iter()
            .find(|(_, cmdline)| cmdline.contains("incremental="))
            .map(|(pid, _)| pid);
        if let Some(pid) = pid.filter(|_| working().iter().any(|w| !before.contains(w))) {
            break pid;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the crate's incremental compile was never seen working on a session"
        );
        assert!(killed.try_wait().unwrap().is_none(), "the run ended first");
        std::thread::sleep(Duration::from_millis(2));
    };
    let _ = kill(Pid::from_raw(rustc), Signal::SIGKILL);
    killed.kill().unwrap();
    killed.wait().unwrap();
    let (evaluation, mutants) = run(&krate);
    copy_fixture("leftist", &fresh);
    edit(&fresh.join("Cargo.toml"), name, renamed);
    edit(&fresh.join("src/heap.rs"), line, edited);
    let (fresh_evaluation, fresh_mutants) = run(&fresh);
    assert_eq!(statuses(&mutants), statuses(&fresh_mutants));
    assert_eq!(untimed(&evaluation), untimed(&fresh_evaluation));

    // Every file of the crate's finished sessions overwritten (the same lengths), the edit
    // undone: the verdicts of the first run, on the same code.
    let mut damaged = 0;
    for krate_dir in std::fs::read_dir(&incremental).unwrap().flatten() {
        if !(krate_dir.file_name().to_string_lossy()).starts_with("leftist_killed_half_way-") {
            continue;
        }
        for session in std::fs::read_dir(krate_dir.path()).unwrap().flatten() {
            for file in std::fs::read_dir(session.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                let len = file.metadata().unwrap().len() as usize;
                std::fs::write(file.path(), vec![0xA5; len]).unwrap();
                damaged += 1;
            }
        }
    }
    assert!(
        damaged > 0,
        "no incremental state found in {}",
        incremental.display()
    );
    edit(&krate.join("src/heap.rs"), edited, line);
    let before_run = std::time::SystemTime::now();
    let (evaluation, mutants) = run(&krate);
    // rustc ran on that state (a session of this run's), not a binary cached from the first.
    let sessions = std::fs::read_dir(&incremental).unwrap().flatten();
    let compiled = sessions
        .filter(|c| (c.file_name().to_string_lossy()).starts_with("leftist_killed_half_way-"))
        .flat_map(|c| std::fs::read_dir(c.path()).unwrap().flatten())
        .any(|s| s.metadata().unwrap().modified().unwrap() >= before_run);
    assert!(compiled, "the reverted crate was not compiled again");
    assert_eq!(statuses(&mutants), statuses(&first_mutants));
    assert_eq!(untimed(&evaluation), untimed(&first_evaluation));
}
