//! The metamutant is faithful (issue 3, "Must show"): with no mutant active it behaves exactly
//! like the original crate, and with mutant `m` switched on it behaves exactly like the plain
//! single-mutant crate built from `m`'s diff.
//!
//! Both tests build workers (release builds); they share the harness's worker build
//! directory, so only the benchmark crate and the worker binary are compiled per variant.

use std::path::{Path, PathBuf};

use ferastrau::locate::{locate, workspace_root};
use ferastrau::worker::Worker;
use ferastrau_mutator::{build_metamutant, sample, single_mutant_crate, Family, Metamutant};

const BENCH: &str = "search_tree";

fn work() -> PathBuf {
    workspace_root()
        .join("target")
        .join("ferastrau")
        .join(BENCH)
        .join("metamutant-test")
}

fn metamutant() -> (PathBuf, Metamutant) {
    let bench = workspace_root().join("benchmarks").join(BENCH);
    let probes = workspace_root().join("mutator").join("runtime");
    let meta = build_metamutant(&bench, &work().join("metamutant"), &probes).unwrap();
    (bench, meta)
}

fn worker(crate_dir: &Path, variant: &str) -> Worker {
    let krate = locate(None, Some(crate_dir)).unwrap();
    Worker::build_for(&krate, &work().join(format!("worker-{variant}"))).unwrap()
}

#[test]
fn with_no_mutant_active_the_metamutant_is_the_original() {
    let (bench, meta) = metamutant();
    let viable = meta.catalog.viable().count();
    assert!(viable >= 200, "{viable} viable mutants");
    for f in Family::ALL {
        assert!(
            meta.catalog.viable().any(|m| m.family == f),
            "{f:?} present"
        );
    }
    // The paper's example (Sec. 8.3): `temp = left/*temp*/.right` in remove_node's loop.
    let paper = meta.catalog.viable().find(|m| {
        m.function == "SearchTree::remove_node"
            && m.original == "temp"
            && m.replacement == "left"
            && std::fs::read_to_string(bench.join(&m.file))
                .unwrap()
                .lines()
                .nth(m.line - 1)
                .is_some_and(|l| l.trim() == "temp = self.node(temp).right;")
    });
    assert!(paper.is_some(), "the paper's mutant `temp = left.right`");

    let original = worker(&bench, "original").outputs(5, 0).unwrap();
    let mutated = worker(&meta.dir, "metamutant").outputs(5, 0).unwrap();
    assert!(original.len() > 1000, "{} scope-5 inputs", original.len());
    assert!(original.iter().all(|o| !o.ends_with("timeout")));
    assert_eq!(original, mutated);
}

#[test]
fn each_switch_behaves_like_its_single_mutant_crate() {
    let (bench, meta) = metamutant();
    let chosen = sample(&meta.catalog, 36, 2024);
    assert!(chosen.mutants.len() >= 30);
    let mm = worker(&meta.dir, "metamutant");
    let mut compared = 0;
    for m in &chosen.mutants {
        let dir = work().join("single").join(m.id.to_string());
        single_mutant_crate(&bench, m, &dir).unwrap();
        let expected = mm.outputs(4, m.id).unwrap();
        let plain = worker(&dir, &format!("single-{}", m.id)).outputs(4, 0);
        match plain {
            Ok(got) => assert_eq!(
                got, expected,
                "mutant {} ({} → {} at {}:{})",
                m.id, m.original, m.replacement, m.file, m.line
            ),
            // A plain crate has no tick budget: where the metamutant stops a run for looping
            // (`timeout`), the plain crate may instead die of a stack overflow.
            Err(e) => assert!(
                expected.last().is_some_and(|l| l.ends_with("timeout")),
                "mutant {}: the plain crate failed ({e:#}) where the metamutant did not loop",
                m.id
            ),
        }
        compared += 1;
    }
    assert!(compared >= 30);
}
