//! The metamutant is faithful (issue 3, "Must show"): with no mutant active it behaves exactly
//! like the original crate, and with mutant `m` switched on it behaves exactly like the plain
//! single-mutant crate built from `m`'s diff.
//!
//! They run on `testdata/chain`, whose mutants cover every family, loops that mutants make
//! endless, and panics. Both tests build workers (release builds); they share the harness's worker build
//! directory, so only the benchmark crate and the worker binary are compiled per variant.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common::workspace_root;
use ferastrau_harness::locate::locate;
use ferastrau_harness::process::Isolation;
use ferastrau_harness::target_dir::lock_file;
use ferastrau_harness::worker::Worker;
use ferastrau_mutator::{build_metamutant, sample, single_mutant_crate, Family, Metamutant};
use ferastrau_protocol::{Message, Request};

const BENCH: &str = "chain";

fn work() -> PathBuf {
    workspace_root()
        .join("target")
        .join("ferastrau")
        .join(BENCH)
        .join("metamutant-test")
}

/// Built once per test binary: the tests run in parallel and share the directory. Under a
/// file lock too, for runners that start each test in a process of its own (nextest): one
/// process's build would otherwise wipe the copy another one's cargo is compiling.
fn metamutant() -> (PathBuf, Metamutant) {
    static BUILT: std::sync::OnceLock<(PathBuf, Metamutant)> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let bench = workspace_root().join("testdata").join(BENCH);
            let probes = ferastrau_harness::runtime::Runtime::Checkout(workspace_root())
                .dependency(ferastrau_harness::runtime::Package::Probes);
            let _lock = lock_file(&work().join("build.lock"), || {}).unwrap();
            let meta = build_metamutant(&bench, &work().join("metamutant"), &probes).unwrap();
            (bench, meta)
        })
        .clone()
}

fn worker(crate_dir: &Path, variant: &str) -> Worker {
    crate::common::fast_builds_in_process();
    let krate = locate(None, Some(crate_dir)).unwrap();
    Worker::build_for(&krate, &work().join(format!("worker-{variant}"))).unwrap()
}

#[test]
fn with_no_mutant_active_the_metamutant_is_the_original() {
    let (bench, meta) = metamutant();
    let viable = meta.catalog.viable().count();
    assert!(viable >= 100, "{viable} viable mutants");
    for f in Family::ALL {
        assert!(
            meta.catalog.viable().any(|m| m.family == f),
            "{f:?} present"
        );
    }
    let original = worker(&bench, "original").outputs(5, 0).unwrap();
    let mutated = worker(&meta.dir, "metamutant").outputs(5, 0).unwrap();
    assert_eq!(original.len(), 320, "scope 5's inputs, one output each");
    assert!(original.iter().all(|o| !o.ends_with("timeout")));
    assert_eq!(original, mutated);
}

/// The lines of the worker's `outputs` (as [`Worker::outputs`] renders them) and whether the
/// run completed within `limit`. A plain crate has no tick budget and the worker runs "the
/// original" (here: the mutant) once unwatched to count ticks, so a looping mutant is stopped
/// here by the process guard instead.
fn plain_outputs(w: &Worker, scope: u32, limit: Duration) -> (Vec<String>, bool) {
    let request = Request::Outputs {
        scope,
        mutant: 0,
        clock: Duration::from_secs(2),
    };
    let isolation = Isolation {
        guard: Some(limit),
        ..Isolation::default()
    };
    let f = w.run(&request, &isolation).unwrap();
    let lines = f
        .messages
        .iter()
        .filter_map(|m| match m {
            Message::Output {
                method,
                index,
                output,
            } => Some(format!("{method}#{index}: {output}")),
            _ => None,
        })
        .collect();
    (lines, f.completed())
}

#[test]
fn each_switch_behaves_like_its_single_mutant_crate() {
    let (bench, meta) = metamutant();
    // Two mutants per family: each is a build of its own crate, the test's cost (about a
    // CPU-second each; sixteen made it the CLI tests' most expensive after the pull requests).
    let chosen = sample(&meta.catalog, 8, 2024);
    assert_eq!(chosen.mutants.len(), 8);
    let mm = worker(&meta.dir, "metamutant");
    let (mut same, mut looping) = (0, 0);
    for m in &chosen.mutants {
        let what = format!(
            "mutant {} ({} → {} at {}:{})",
            m.id, m.original, m.replacement, m.file, m.line
        );
        let dir = work().join("single").join(m.id.to_string());
        single_mutant_crate(&bench, m, &dir).unwrap();
        let expected = mm.outputs(4, m.id).unwrap();
        let single = worker(&dir, &format!("single-{}", m.id));
        let (got, completed) = plain_outputs(&single, 4, Duration::from_secs(20));
        if completed {
            assert_eq!(got, expected, "{what}");
            same += 1;
        } else {
            // The plain crate looped (or overflowed its stack) where the metamutant ran out
            // of ticks: the same outputs up to that input, then `timeout`.
            let (last, before) = expected.split_last().unwrap();
            assert!(
                last.ends_with("timeout"),
                "{what}: the plain crate did not finish"
            );
            assert_eq!(got, before, "{what}");
            looping += 1;
        }
    }
    eprintln!("{same} mutants with identical outputs, {looping} looping in both builds");
    assert!(same + looping == 8 && same >= 5);
}

/// The cold start's shape: `evaluate` (`subject::prepare`) compiles the metamutant once, in the
/// shared build directory with the tuned `ferastrau` profile — its last compile-pruning round
/// is the worker's build — and keeps no `cargo check` target directory of the crate's own
/// (which re-checked every dependency per benchmark).
#[test]
fn the_metamutant_is_pruned_and_built_once_with_the_tuned_profile() {
    crate::common::fast_builds_in_process();
    let bench = locate(None, Some(&workspace_root().join("testdata").join(BENCH))).unwrap();
    let subject = ferastrau_harness::subject::prepare(&bench).unwrap();
    let scratch = ferastrau_harness::target_dir::scratch_dir(&bench, "");
    assert!(scratch.join("metamutant").is_dir());
    assert!(!scratch.join("check-target").exists());
    let profile_dir =
        ferastrau_mutator::compile::profile_dir(&ferastrau_harness::target_dir::build_dir(&bench));
    assert!(
        profile_dir.ends_with("build/ferastrau"),
        "{}",
        profile_dir.display()
    );
    let package = std::fs::read_to_string(scratch.join("worker-metamutant/Cargo.toml"))
        .unwrap()
        .lines()
        .find_map(|l| {
            l.strip_prefix("name = \"")
                .map(|n| n.trim_end_matches('"').to_string())
        })
        .unwrap();
    let built = profile_dir.join(&package);
    assert_eq!(
        ferastrau_harness::fingerprint::file_hash(&built).unwrap(),
        subject.worker.hash,
        "the worker that runs is the one built with the profile"
    );
    assert!(!subject.methods.is_empty());
}
