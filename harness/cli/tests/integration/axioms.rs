//! Axioms (issue 34, item 5; the paper's Sec. 6.3): algebraic properties a benchmark declares
//! over its methods, tested as targets of their own by `check` and by the mutants' runs.

use std::path::Path;

use crate::common::*;
use ferastrau_harness::matrix::file;

/// `testdata/axioms` with its `remove` made never to look at the last slot.
fn planted(dir: &Path) -> std::path::PathBuf {
    let set = dir.join("axioms");
    copy_fixture("axioms", &set);
    edit(
        &set.join("src/lib.rs"),
        "while i < self.items.len() {",
        "while i + 1 < self.items.len() {",
    );
    set
}

fn without_axioms(set: &Path) {
    edit(
        &set.join("src/lib.rs"),
        "fn axioms(&self) -> &'static [Axiom] {\n        &[",
        "fn axioms(&self) -> &'static [Axiom] {\n        return &[];\n        #[allow(unreachable_code)]\n        &[",
    );
}

fn check(set: &Path) -> std::process::Output {
    ferastrau(&[
        "check",
        "--benchmark-path",
        set.to_str().unwrap(),
        "--scopes",
        "1..3",
    ])
}

/// The set has no postconditions; its axioms are its specification. `check` runs each axiom on
/// every input of its method (the inputs count twice: two methods, two axioms) and finds the
/// planted bug through `insert_then_remove`; without the axioms the same bug passes `check`.
#[test]
fn check_tests_the_axioms_on_every_input_and_finds_what_no_postcondition_states() {
    let o = check(&fixture("axioms"));
    let out = text(&o.stdout);
    assert!(o.status.success(), "the correct set: {}", text(&o.stderr));
    // Scope 1: [] and [1], x = 1, for each of the four targets.
    assert!(out.contains("    1          8 "), "{out}");

    let dir = tempfile::tempdir().unwrap();
    let set = planted(dir.path());
    let o = check(&set);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(
        err.contains("smallest counterexample: insert_then_remove on insert(1) on []"),
        "{err}"
    );
    assert!(
        err.contains(
            "the axiom insert_then_remove is false: insert(1) said true, then remove(1) said false"
        ),
        "{err}"
    );
    let out = text(&o.stdout);
    assert!(out.contains("returned false (insert(1) said true"), "{out}");

    without_axioms(&set);
    let o = check(&set);
    assert!(
        o.status.success(),
        "no axiom, no specification: {}",
        text(&o.stderr)
    );
    assert!(
        text(&o.stdout).contains("    1          4 "),
        "{}",
        text(&o.stdout)
    );
}

/// In the mutants' runs an axiom is a target like a method: its inputs kill mutants (the kill
/// matrix's rows for the axioms' ranges: 26 of the 34 mutants killed at scope 2), with the same kill counts per scope as without them on
/// this set, whose methods' own outputs already show every fault the axioms see. An axiom over
/// a method the benchmark does not have stops the run, naming both.
#[test]
fn axioms_are_targets_whose_inputs_kill_mutants() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let set = fixture("axioms");
    let o = ferastrau(&[
        "evaluate",
        "--benchmark-path",
        set.to_str().unwrap(),
        "--scopes",
        "1..2",
        "--kill-matrix",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let m = file::read(&out, 2).unwrap();
    let names: Vec<&str> = m.header.methods.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        ["insert", "remove", "insert_then_remove", "remove_twice"]
    );
    let axiom_inputs: roaring::RoaringBitmap = m.header.methods[2..]
        .iter()
        .flat_map(|r| r.offset as u32..(r.offset + r.inputs) as u32)
        .collect();
    let killed_by_axioms = m
        .rows
        .iter()
        .filter(|r| !(&r.kills & &axiom_inputs).is_empty())
        .count();
    let killed = m.rows.iter().filter(|r| !r.kills.is_empty()).count();
    // 26 of the 34 mutants killed at scope 2 die on an axiom's input too.
    assert_eq!((killed_by_axioms, killed), (26, 34));

    // Without the axioms: the same kills on this set.
    let copy = dir.path().join("axioms");
    copy_fixture("axioms", &copy);
    without_axioms(&copy);
    let with = json(&out.join("evaluation.json"));
    let out2 = dir.path().join("out2");
    let o = ferastrau(&[
        "evaluate",
        "--benchmark-path",
        copy.to_str().unwrap(),
        "--scopes",
        "1..2",
        "--out",
        out2.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let without = json(&out2.join("evaluation.json"));
    for s in 0..2 {
        assert_eq!(
            with["scopes"][s]["inputs"].as_u64().unwrap(),
            2 * without["scopes"][s]["inputs"].as_u64().unwrap()
        );
        assert_eq!(with["scopes"][s]["killed"], without["scopes"][s]["killed"]);
    }

    let wrong = dir.path().join("wrong");
    copy_fixture("axioms", &wrong);
    edit(
        &wrong.join("src/lib.rs"),
        "inputs_of: \"remove\"",
        "inputs_of: \"delete\"",
    );
    let o = ferastrau(&[
        "generate",
        "--benchmark-path",
        wrong.to_str().unwrap(),
        "--scopes",
        "1",
    ]);
    let err = text(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains("axiom remove_twice is declared over the inputs of delete"),
        "{err}"
    );
}
