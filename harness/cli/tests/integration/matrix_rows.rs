//! The kill matrix's rows where the mutant's process fails (issue 10's adversary, in the
//! matrix): a death is a kill at its input and costs one process, a row capped by
//! `--kill-matrix-max-deaths` is unknown beyond the cap, not survived; an interrupted matrix,
//! its journal damaged, resumes to the rows of a whole run; recursions without end are
//! timeouts however much they leak, and one stall is not a timeout kill. What the matrix and
//! `subsets` compute is in [`crate::matrix`].

use std::path::Path;

use crate::common::*;
use crate::matrix::subsets;
use ferastrau_harness::matrix::file;
use ferastrau_protocol::Reason;

#[test]
fn deaths_are_kills_at_their_input_and_a_capped_row_is_unknown_not_survived() {
    let tmp = tempfile::tempdir().unwrap();
    let path = fixture("faulty");
    let run = |cap: &str, out: &Path| {
        let mut args = vec!["--benchmark-path", path.to_str().unwrap()];
        args.extend_from_slice(&FAULTY_LIMITS);
        args.extend_from_slice(&["--kill-matrix", "--kill-matrix-max-deaths", cap]);
        evaluate(&args, out);
        file::read(out, 2).expect("a readable matrix")
    };
    let full = run("64", &tmp.path().join("full"));
    let capped = run("1", &tmp.path().join("capped"));
    let n = full.header.inputs;
    assert!(n >= 2, "the test needs two inputs or more");
    let dying: Vec<_> = full.rows.iter().filter(|r| r.deaths > 0).collect();
    assert!(
        dying.len() >= 4,
        "faulty's crashing, aborting, hogging mutants"
    );
    for r in &dying {
        // One death per input, each recorded as a kill at that input.
        assert_eq!(u64::from(r.deaths), n, "mutant {}", r.mutant);
        assert_eq!(r.kills.len(), n);
        assert!(r.complete());
        let c = capped.rows.iter().find(|c| c.mutant == r.mutant).unwrap();
        assert_eq!(c.deaths, 1);
        assert_eq!(c.kills.len(), 1);
        assert_eq!(c.unknown.len(), n - 1, "the rest is unknown, not survived");
        assert!(c.kills.is_disjoint(&c.unknown));
    }
    // Rows without deaths are the same whatever the cap.
    for r in full.rows.iter().filter(|r| r.deaths == 0) {
        let c = capped.rows.iter().find(|c| c.mutant == r.mutant).unwrap();
        assert_eq!((&c.kills, c.complete()), (&r.kills, true));
    }
    // subsets names the incomplete rows and bounds their figures.
    let o = subsets(&tmp.path().join("capped"), &["--no-render"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let t = json(&tmp.path().join("capped/subsets.json"));
    // Without --families, one row: every family.
    assert_eq!(t["rows"].as_array().unwrap().len(), 1);
    let incomplete: Vec<u64> = t["incomplete_mutants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    let expect: Vec<u64> = dying.iter().map(|r| u64::from(r.mutant)).collect();
    assert_eq!(incomplete, expect);
}

/// The rows of a finished matrix as comparable values (bitmaps, reasons, deaths, first kill).
///
/// A process that runs out of its address space dies of the allocation that failed (memory)
/// or, now and then, of a page it could not map at that moment (a crash): which one depends
/// on what else the process had mapped by then, and it differed between two runs of the same
/// row (`faulty`'s `hog`: memory 2 and crash 1 against memory 3, under load). Such deaths
/// are compared as deaths; every other reason as it is.
fn rows_of(out: &Path, scope: u32) -> Vec<String> {
    let m = file::read(out, scope).expect("a readable matrix");
    m.rows
        .iter()
        .map(|r| {
            let mut reasons = r.reasons.clone();
            let deaths = [Reason::Memory, Reason::Crash]
                .iter()
                .map(|k| reasons.remove(k).unwrap_or(0))
                .sum::<u64>();
            let first = r.first.map(|f| match f.reason {
                Reason::Memory | Reason::Crash => (f.index, None),
                reason => (f.index, Some(reason)),
            });
            format!(
                "{} {:?} {:?} {:?} memory or crash {} {} {:?}",
                r.mutant, r.kills, r.unknown, reasons, deaths, r.deaths, first
            )
        })
        .collect()
}

/// The journal's kill-matrix row lines.
fn journaled_rows(journal: &Path) -> Vec<String> {
    std::fs::read_to_string(journal)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains("\"kind\":\"row\""))
        .map(str::to_string)
        .collect()
}

/// Starts `evaluate` on `faulty` with the matrix into `out`, waits until the journal holds more
/// than `rows` rows, and signals it; returns whether it was still running to be signalled.
fn interrupt_after_rows(
    out: &Path,
    rows: usize,
    resume: bool,
    signal: nix::sys::signal::Signal,
) -> Option<std::process::Output> {
    use nix::sys::signal::kill;
    use nix::unistd::Pid;
    use std::process::Stdio;
    let path = fixture("faulty");
    let mut args = vec!["evaluate", "--benchmark-path", path.to_str().unwrap()];
    args.extend_from_slice(&FAULTY_LIMITS);
    args.extend_from_slice(&["--kill-matrix", "--out", out.to_str().unwrap()]);
    if resume {
        args.push("--resume");
    }
    let mut child = command(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let journal = out.join("journal.jsonl");
    let started = std::time::Instant::now();
    while journaled_rows(&journal).len() <= rows {
        if child.try_wait().unwrap().is_some() {
            let o = child.wait_with_output().unwrap();
            panic!(
                "the run ended ({:?}) with no kill-matrix row in its journal beyond {rows}: {}",
                o.status,
                text(&o.stderr)
            );
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(600));
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    kill(Pid::from_raw(child.id() as i32), signal).unwrap();
    Some(child.wait_with_output().unwrap())
}

#[test]
fn an_interrupted_matrix_resumes_with_the_rows_it_has_and_ends_as_a_whole_run() {
    use nix::sys::signal::Signal;
    let tmp = tempfile::tempdir().unwrap();
    let path = fixture("faulty");
    let whole = tmp.path().join("whole");
    let mut args = vec!["--benchmark-path", path.to_str().unwrap()];
    args.extend_from_slice(&FAULTY_LIMITS);
    args.push("--kill-matrix");
    evaluate(&args, &whole);

    let cut = tmp.path().join("cut");
    let journal = cut.join("journal.jsonl");
    // Ctrl-C during the matrix: exit status 130, the rows done kept in the journal. At least
    // two of them: the damage below garbles the first and tears a copy of the last, and with
    // one row only (a fast first interrupt) no whole row was left to resume from, so the test
    // failed on how quickly the signal came.
    let o = interrupt_after_rows(&cut, 1, false, Signal::SIGINT).unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("--resume"), "{err}");
    let kept = journaled_rows(&journal);
    assert!(kept.len() >= 2, "{kept:?}");

    // Damage: one row's bitmap garbled, one torn row line at the end. Both are computed
    // again, never read as rows.
    let text_now = std::fs::read_to_string(&journal).unwrap();
    let garbled = kept[0].replacen("\"kills\":\"", "\"kills\":\"AAAA", 1);
    let torn = &kept[kept.len() - 1][..kept[kept.len() - 1].len() / 2];
    let damaged = text_now.replacen(&kept[0], &garbled, 1) + torn;
    std::fs::write(&journal, damaged).unwrap();

    // kill -9 once more rows are in, then resume to the end.
    interrupt_after_rows(&cut, kept.len(), true, Signal::SIGKILL);
    let mut resume = args.clone();
    resume.push("--resume");
    evaluate(&resume, &cut);

    let mut resumed = 0;
    for scope in 1..=2 {
        assert_eq!(
            rows_of(&cut, scope),
            rows_of(&whole, scope),
            "scope {scope}"
        );
        resumed += file::read(&cut, scope).unwrap().header.resumed;
    }
    assert!(resumed >= 1, "no row was taken from the journal");
}

/// `deep`'s mutants that recurse without end reach their tick budget deep in the recursion on
/// every input of a kill-matrix row. The worker abandons those calls instead of unwinding them,
/// leaking what their frames hold, and gives way to a fresh process before the leaks reach the
/// memory limit: every such input is a timeout, as unwinding made it, and none is blamed on a
/// memory death, marked unknown or lost with a dead process.
#[test]
fn recursions_without_end_are_timeouts_on_every_input_however_much_they_leak() {
    let out = tempfile::tempdir().unwrap();
    let deep = fixture("deep");
    evaluate(
        &[
            "--benchmark-path",
            deep.to_str().unwrap(),
            "--scopes",
            "3",
            "--kill-matrix",
            "--memory-limit",
            "1G",
            // ~1,000 frames deep at the budget: within the stack at every opt-level (at
            // opt-level 0 the default 10,000 overflow it first) and far past the depth at
            // which a trip is abandoned rather than unwound.
            "--tick-floor",
            "1000",
        ],
        out.path(),
    );
    let m = file::read(out.path(), 3).expect("a readable matrix");
    let inputs = m.header.inputs;
    assert_eq!(inputs, 61);
    let mut endless = 0;
    let mut recycles = 0;
    for row in &m.rows {
        assert!(row.complete(), "mutant {} incomplete", row.mutant);
        assert_eq!(row.deaths, 0, "mutant {}: {:?}", row.mutant, row.reasons);
        for reason in row.reasons.keys() {
            assert!(
                matches!(reason, Reason::Timeout | Reason::Output),
                "mutant {}: {:?}",
                row.mutant,
                row.reasons
            );
        }
        if row.reasons.get(&Reason::Timeout).copied().unwrap_or(0) >= inputs - 2 {
            endless += 1;
        }
        recycles += row.recycles;
    }
    assert!(
        endless >= 5,
        "only {endless} mutants time out on every input"
    );
    // An endless row leaks ~8 MiB per input (a thousand frames of 8 KiB) against an
    // allowance of 64 MiB: its 60 inputs need about seven fresh processes.
    assert!(
        recycles >= 2 * endless,
        "{recycles} fresh processes for {endless} endless rows"
    );
}

/// A load spike in a kill-matrix row is not a kill: the matrix confirms a clock timeout as
/// the first-kill run does, running that input again alone with the clock limits ten times
/// wider. `faulty`'s `stall` mutant sleeps past the clock limit on the first call of the whole
/// run (a marker file says it happened), here made in the matrix (`--kill-matrix --resume`
/// of a finished run) and is otherwise `fine`: its row holds no kill, as its first-kill
/// verdict says; `spin`, which loops, is a timeout on every input all the same.
#[test]
fn a_stall_in_a_matrix_row_is_not_a_timeout_kill_and_a_loop_still_is() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let path = fixture("faulty");
    let mut args = vec!["--benchmark-path", path.to_str().unwrap()];
    args.extend_from_slice(&FAULTY_LIMITS);
    evaluate(&args, &out);
    let marker = tmp.path().join("stalled");
    let mut with_matrix = vec!["evaluate", "--out", out.to_str().unwrap()];
    with_matrix.extend_from_slice(&args);
    with_matrix.extend_from_slice(&["--kill-matrix", "--resume"]);
    let o = command(&with_matrix)
        .env("FERASTRAU_FAULTY_STALL_ONCE", &marker)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        marker.exists(),
        "the stall mutant stalled once, in the matrix"
    );
    let mutants = json(&out.join("mutants.json"));
    let id = |replacement: &str| {
        mutants["mutants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["replacement"] == replacement)
            .unwrap()["id"]
            .as_u64()
            .unwrap() as u32
    };
    for scope in 1..=2 {
        let m = file::read(&out, scope).expect("a readable matrix");
        let row = |mutant: u32| m.rows.iter().find(|r| r.mutant == mutant).unwrap();
        let stall = row(id("stall"));
        assert!(stall.kills.is_empty(), "scope {scope}: {:?}", stall.reasons);
        let spin = row(id("spin"));
        assert_eq!(
            u64::from(spin.kills.len() as u32),
            m.header.inputs,
            "scope {scope}: {:?}",
            spin.reasons
        );
        assert_eq!(spin.reasons.keys().collect::<Vec<_>>(), [&Reason::Timeout]);
    }
}
