//! Trivial compiler equivalence on a small crate written inline: which mutants the compiler
//! finds equal to the original or to each other, and what it leaves alone.

use ferastrau_mutator::compile::Compiler;
use ferastrau_mutator::equivalence::Setup;
use ferastrau_mutator::{build_metamutant_compared, Verdict};

use crate::common::krate;

/// `c` is a copy of `a`, so reading one for the other changes nothing; `x + 1` has three
/// mutants that compute `x` (`x * 1`, `x / 1`, `x + 0`); `h` is generic.
const LIB: &str = r#"
pub fn f(a: u32, b: u32) -> u32 {
    let c = a;
    if c < b {
        c
    } else {
        b
    }
}

pub fn g(x: u32) -> u32 {
    x + 1
}

pub fn h<T: Into<u32>>(x: T) -> u32 {
    x.into() + 1
}
"#;

#[test]
fn the_compiler_finds_equivalent_and_duplicate_mutants_and_skips_generic_functions() {
    let dir = krate(LIB, &["f", "g", "h"], &[]);
    let work = tempfile::tempdir().unwrap();
    let target = work.path().join("target");
    let setup = Setup {
        dir: work.path().join("equivalence"),
        compiler: Compiler::check(&target),
    };
    let m = build_metamutant_compared(
        dir.path(),
        &work.path().join("metamutant"),
        &crate::common::probes(),
        &Compiler::check(&target),
        Some(&setup),
    )
    .unwrap();
    let e = m.equivalence.as_ref().unwrap();
    assert_eq!(e.failed, None);
    let change = |id: u32| {
        let x = m.catalog.get(id).unwrap();
        format!("{} {} -> {}", x.function, x.original, x.replacement)
    };
    let judged: Vec<(String, Verdict)> =
        e.verdicts.iter().map(|(&id, &v)| (change(id), v)).collect();
    // Reading `a` for `c` (or `c` for `a`) anywhere in `f` is the same program.
    assert!(
        judged
            .iter()
            .any(|(c, v)| c == "f c -> a" && *v == Verdict::Equivalent),
        "{judged:?}"
    );
    let identity: Vec<u32> = m
        .catalog
        .mutants
        .iter()
        .filter(|x| x.function == "g")
        .filter(|x| ["*", "/"].contains(&x.replacement.as_str()) || x.replacement == "0")
        .map(|x| x.id)
        .collect();
    assert_eq!(identity.len(), 3, "{:?}", m.catalog.mutants);
    // The first computes `x`, which is not `x + 1`; the others are its duplicates.
    assert_eq!(e.verdict(identity[0]), None);
    for &id in &identity[1..] {
        assert_eq!(
            e.verdict(id),
            Some(Verdict::Duplicate { of: identity[0] }),
            "{}",
            change(id)
        );
    }
    // `c <= b` still takes the smaller (the compiler knows it: equivalent), `c > b` takes the
    // larger; no mutant of the generic `h` is compared.
    let le = judged.iter().find(|(c, _)| c == "f < -> <=");
    assert_eq!(le.map(|(_, v)| *v), Some(Verdict::Equivalent), "{judged:?}");
    for x in &m.catalog.mutants {
        if x.function == "h" || x.function == "f" && x.replacement == ">" {
            assert_eq!(e.verdict(x.id), None, "{}", change(x.id));
            assert_eq!(e.compared.contains(&x.id), x.function != "h");
        }
    }
    assert_eq!(e.not_compared.len(), 1);
    assert_eq!(e.not_compared[0].function, "h");
}

/// After an edit, only the functions it changed are copied and compiled again: the others'
/// verdicts come from the last comparison, under the new ids, and equal what a comparison
/// from scratch finds.
#[test]
fn a_rebuild_after_an_edit_compares_only_what_the_edit_changed() {
    let dir = krate(LIB, &["f", "g", "h"], &[]);
    let work = tempfile::tempdir().unwrap();
    let target = work.path().join("target");
    let build = |metamutant: &str, equivalence: &str| {
        let setup = Setup {
            dir: work.path().join(equivalence),
            compiler: Compiler::check(&target),
        };
        build_metamutant_compared(
            dir.path(),
            &work.path().join(metamutant),
            &crate::common::probes(),
            &Compiler::check(&target),
            Some(&setup),
        )
        .unwrap()
    };
    let first = build("metamutant", "equivalence");
    // `g` gains a statement (and mutants); `f` is unchanged.
    let lib = dir.path().join("src/lib.rs");
    let edited = LIB.replace("    x + 1\n}", "    let y = x;\n    y + 1\n}");
    assert_ne!(edited, LIB);
    std::fs::write(&lib, &edited).unwrap();
    let again = build("metamutant", "equivalence");
    let copied = std::fs::read_to_string(work.path().join("equivalence/src/lib.rs")).unwrap();
    // Only `g` was copied this time: its original and one copy per viable mutant.
    let g_viable = again
        .catalog
        .mutants
        .iter()
        .filter(|x| x.function == "g" && x.viable == Some(true))
        .count();
    assert_eq!(
        copied.matches("fn ferastrau_tce_").count(),
        1 + g_viable,
        "{copied}"
    );
    let fresh = build("fresh", "fresh-equivalence");
    let (e, f) = (
        again.equivalence.as_ref().unwrap(),
        fresh.equivalence.as_ref().unwrap(),
    );
    assert_eq!(e.verdicts, f.verdicts);
    assert_eq!(e.compared, f.compared);
    // `f`'s verdicts were carried: some exist, under ids that are `f`'s now.
    let f_ids: Vec<u32> = again
        .catalog
        .mutants
        .iter()
        .filter(|x| x.function == "f")
        .map(|x| x.id)
        .collect();
    assert!(f_ids
        .iter()
        .any(|id| e.verdict(*id) == Some(Verdict::Equivalent)));
    assert!(first.equivalence.is_some());
}

/// A crate whose first pruning rounds fail (pruning's `BORROWS`: `peek_mut` where `self` is
/// shared) and whose `g` has duplicate mutants.
fn pruned_crate() -> tempfile::TempDir {
    let lib = format!(
        "{}\npub fn g(x: u32) -> u32 {{\n    x + 1\n}}\n",
        crate::pruning::BORROWS
    );
    krate(&lib, &["S::shared", "g"], &[])
}

/// A package with a binary that depends on the crate at `dep` (as the worker depends on the
/// metamutant), in `dir`: what [`Compiler::build_through`] builds.
fn through(dir: &std::path::Path, dep: &std::path::Path) -> std::path::PathBuf {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("src/main.rs"), "fn main() {}\n").unwrap();
    let manifest = dir.join("Cargo.toml");
    std::fs::write(
        &manifest,
        format!(
            "[package]\nname = \"through\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n\
             [dependencies]\ninline_bench = {{ path = {:?} }}\n\n[workspace]\n",
            dep.display().to_string()
        ),
    )
    .unwrap();
    manifest
}

/// Built through a worker-like package (cargo's `-vv` status lines give the metamutant's
/// command), the comparison is compiled beside the build: started in each round, killed when
/// the round fails, kept from the last; its verdicts are those of a comparison compiled through
/// cargo after the build (a metamutant cached without one).
#[test]
fn the_comparison_beside_the_build_survives_failing_rounds_with_the_verdicts_through_cargo() {
    use ferastrau_mutator::equivalence::Compiled;
    let work = tempfile::tempdir().unwrap();
    let target = work.path().join("target");
    let build = |krate: &std::path::Path, name: &str, compare: bool| {
        let (meta, copy) = (
            work.path().join(name),
            work.path().join(format!("{name}-copy")),
        );
        let setup = Setup {
            compiler: Compiler::build_through(
                &target,
                through(&work.path().join(format!("{name}-copy-through")), &copy),
                "inline_bench",
            ),
            dir: copy,
        };
        build_metamutant_compared(
            krate,
            &meta,
            &crate::common::probes(),
            &Compiler::build_through(
                &target,
                through(&work.path().join(format!("{name}-through")), &meta),
                "inline_bench",
            ),
            compare.then_some(&setup),
        )
        .unwrap()
    };
    let beside_crate = pruned_crate();
    let beside = build(beside_crate.path(), "beside", true);
    assert!(!beside.rounds.is_empty(), "no failing round: a weak test");
    let b = beside.equivalence.as_ref().unwrap();
    assert_eq!(b.compiled, Compiled::BesideTheBuild);
    assert!(
        b.verdicts
            .values()
            .any(|v| matches!(v, Verdict::Duplicate { .. })),
        "{b:?}"
    );

    let cargo_crate = pruned_crate();
    assert!(build(cargo_crate.path(), "cargo", false)
        .equivalence
        .is_none());
    let cargo = build(cargo_crate.path(), "cargo", true);
    let c = cargo.equivalence.as_ref().unwrap();
    assert_eq!(
        c.compiled,
        Compiled::ThroughCargo {
            beside_failed: None
        }
    );
    assert_eq!((&b.verdicts, &b.compared), (&c.verdicts, &c.compared));
    assert_eq!(beside.catalog.to_json(), cargo.catalog.to_json());
}
