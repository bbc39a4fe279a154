//! A run that talks while it works, only where someone watches, and keeps to its time budget.
//!
//! On a terminal (a pseudo-terminal from util-linux's `script`, as in `terminal.rs`) each
//! scope's generation leaves what it found and the mutant phase counts outcomes as they come;
//! into a pipe, or with `--quiet`, none of it. `--max-time` stops between scopes, resumably,
//! with the interrupted run's status; `--resume` with room finishes the run with the verdicts
//! a run without a budget gives. All on the `chain` fixture at scopes 1..3 (about a second a
//! run, its builds shared with the other tests).

use std::path::Path;
use std::process::Output;

use crate::common::{command, fixture, json, statuses, text, untimed};

const USAGE: i32 = 2;
const INTERRUPTED: i32 = 130;

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// `evaluate` of `chain` at scopes 1..3 into `out`, with `extra` arguments.
fn chain_args(out: &Path, extra: &[&str]) -> Vec<String> {
    let chain = fixture("chain");
    let mut args: Vec<String> = [
        "evaluate",
        "--benchmark-path",
        s(&chain),
        "--scopes",
        "1..3",
        "--out",
        s(out),
    ]
    .iter()
    .map(|a| a.to_string())
    .collect();
    args.extend(extra.iter().map(|a| a.to_string()));
    args
}

/// Runs `ferastrau args` on a pseudo-terminal (with `NO_COLOR` set when `no_color`); its
/// status and everything it wrote there (stdout and stderr together, as a terminal shows
/// them).
fn on_a_terminal(args: &[String], no_color: bool) -> (Option<i32>, String) {
    let line = format!("{} {}", crate::BIN, args.join(" "));
    let o = crate::common::on_a_terminal(&line, no_color);
    (o.status.code(), text(&o.stdout))
}

fn piped(args: &[String]) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    command(&args).output().expect("the ferastrau binary runs")
}

/// The mutant phase's counts in every redraw of its line: (done, killed, survived, timeout)
/// from `mutants 37/161: 30 killed, 5 survived, 2 timeout`.
fn mutant_counts(screen: &str) -> Vec<(u64, u64, u64, u64)> {
    let mut found = Vec::new();
    for part in screen.split("mutants ").skip(1) {
        let Some((done, rest)) = part.split_once('/') else {
            continue;
        };
        let Some((_, rest)) = rest.split_once(": ") else {
            continue;
        };
        let words: Vec<&str> = rest.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        let n = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
        if let (Ok(done), Some(k), Some("killed"), Some(s), Some("survived"), Some(t)) = (
            done.parse::<u64>(),
            n(0),
            words.get(1).copied(),
            n(2),
            words.get(3).copied(),
            n(4),
        ) {
            found.push((done, k, s, t));
        }
    }
    found
}

/// A terminal sees each scope's generation say what it found (its inputs and candidates)
/// and the mutant phase count kills and survivals as they come, each redraw's counts adding
/// up to the mutants done; with `NO_COLOR` the same without a single escape byte (lines are
/// redrawn with carriage returns); `--quiet` on the same terminal draws none of it.
#[test]
fn a_terminal_sees_the_counts_as_they_come() {
    let dir = tempfile::tempdir().unwrap();
    for no_color in [false, true] {
        let out = dir.path().join(format!("out-{no_color}"));
        let (status, screen) = on_a_terminal(&chain_args(&out, &[]), no_color);
        assert_eq!(status, Some(0), "{screen}");
        // Korat's counts of chain: 4, 16 and 48 inputs of 10, 46 and 148 candidates.
        for (scope, inputs, candidates) in [(1, 4, 10), (2, 16, 46), (3, 48, 148)] {
            let said = format!("scope {scope}: {inputs} inputs of {candidates} candidates");
            assert!(screen.contains(&said), "no {said:?} in:\n{screen}");
        }
        // (The limits check's bar itself may not be drawn: on a run this small it can end
        // within the terminal's redraw interval of the line before it.)
        assert!(screen.contains("the limits: the metamutant"), "{screen}");
        let counts = mutant_counts(&screen);
        assert!(
            counts.iter().any(|&(done, ..)| done > 0),
            "the mutant line never counted a result: {counts:?}\n{screen}"
        );
        for &(done, k, s, t) in &counts {
            assert_eq!(done, k + s + t, "{counts:?}");
        }
        let last = counts.last().unwrap();
        assert!(last.1 > 0 && last.2 > 0, "kills and survivals: {last:?}");
        assert_eq!(screen.contains('\x1b'), !no_color, "escapes:\n{screen}");
    }

    let (status, quiet) =
        on_a_terminal(&chain_args(&dir.path().join("quiet"), &["--quiet"]), false);
    assert_eq!(status, Some(0), "{quiet}");
    assert!(mutant_counts(&quiet).is_empty(), "{quiet}");
    assert!(!quiet.contains(" candidates, "), "{quiet}");
    assert!(
        !quiet.contains("\x1b[2K"),
        "a line was redrawn under --quiet:\n{quiet}"
    );
}

/// Into a pipe: the notes (each scope's estimate past the second) but no progress line, no
/// escape and no carriage return, with or without a budget.
#[test]
fn a_pipe_gets_notes_and_no_progress() {
    let dir = tempfile::tempdir().unwrap();
    for (name, extra) in [("plain", &[][..]), ("budget", &["--max-time", "1h"][..])] {
        let o = piped(&chain_args(&dir.path().join(name), extra));
        let err = text(&o.stderr);
        assert!(o.status.success(), "{err}");
        assert!(
            err.contains("scope 3: estimated ") && err.contains(" from the growth of scopes 1..2"),
            "{name}: {err}"
        );
        for artefact in [
            "\x1b",
            "\r",
            "ETA",
            " candidates, ",
            " killed, ",
            "limits check",
            "█",
        ] {
            assert!(!err.contains(artefact), "{name}: {artefact:?} in:\n{err}");
        }
    }
}

/// `--max-time` with a budget spent before the second scope: the first scope's results go
/// to the journal, the run stops before scope 2 with the interrupted status and says how to
/// go on, and writes no reports; `--resume` with a larger budget finishes it, with the
/// verdicts and figures of a run that had no budget.
#[test]
fn max_time_stops_between_scopes_and_resume_finishes_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = piped(&chain_args(&out, &["--max-time", "1ms"]));
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(INTERRUPTED), "{err}");
    for said in [
        "stopped before scope 2: the 1ms --max-time is used up",
        "the results of scope 1 are in",
        "journal.jsonl",
        "continue with --resume and a larger --max-time",
    ] {
        assert!(err.contains(said), "no {said:?} in:\n{err}");
    }
    assert!(!out.join("evaluation.json").exists());
    let journal = std::fs::read_to_string(out.join("journal.jsonl")).unwrap();
    assert!(journal.lines().count() > 1, "nothing journaled:\n{journal}");

    let o = piped(&chain_args(&out, &["--resume", "--max-time", "1h"]));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let whole = dir.path().join("whole");
    let o = piped(&chain_args(&whole, &[]));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mutants = |d: &Path| statuses(&json(&d.join("mutants.json")));
    let evaluation = |d: &Path| untimed(&json(&d.join("evaluation.json")));
    assert_eq!(mutants(&out), mutants(&whole));
    assert_eq!(evaluation(&out), evaluation(&whole));
}

/// A budget that no run could keep, or that is no duration, is refused on the command line.
#[test]
fn an_absurd_max_time_is_a_usage_error() {
    for bad in ["0s", "0ms", "-5s", "soon", "10", "2d"] {
        // `=`: clap would take `-5s` for a flag of its own.
        let o = piped(&chain_args(
            Path::new("unused"),
            &[&format!("--max-time={bad}")],
        ));
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(USAGE), "{bad}: {err}");
        // The option exists and refuses the value (not "unexpected argument").
        assert!(
            err.contains(&format!(
                "invalid value '{bad}' for '--max-time <DURATION>'"
            )),
            "{bad}: {err}"
        );
    }
}
