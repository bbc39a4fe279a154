//! The metamutant on small crates written inline: compile-pruning and its cache, a crate that
//! does not compile, coverage probes, and a directory the mutator did not make.

use std::path::Path;

use ferastrau_mutator::compile::{self, Compiler};
use ferastrau_mutator::{build_metamutant, build_metamutant_with, discover, single_mutant_crate};

use crate::common::krate;

/// `peek_mut` has `peek`'s signature up to `&mut self`: calling it where `self` is shared
/// does not compile, and holding its result while calling `peek` again does not borrow-check.
pub(crate) const BORROWS: &str = r#"
pub struct S {
    pub v: Vec<u32>,
    pub k: u32,
}

impl S {
    pub fn peek(&self, i: usize) -> &u32 {
        &self.v[i]
    }

    pub fn peek_mut(&mut self, i: usize) -> &u32 {
        self.v.push(0);
        &self.v[i]
    }

    pub fn shared(&self, i: usize) -> u32 {
        *self.peek(i)
    }

    pub fn twice(&mut self, i: usize, j: usize) -> u32 {
        let a = self.peek(i);
        let b = self.peek(j);
        *a + *b
    }
}
"#;

#[test]
fn compile_pruning_drops_what_does_not_compile_and_caches() {
    let dir = krate(BORROWS, &["S::shared", "S::twice"], &[]);
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("metamutant");
    let m = build_metamutant(dir.path(), &out, &crate::common::probes()).unwrap();
    assert!(!m.cached && m.catalog.pruned);
    let dropped: Vec<(&str, &str, &str)> = m
        .catalog
        .mutants
        .iter()
        .filter(|x| x.viable == Some(false))
        .map(|x| {
            (
                x.function.as_str(),
                x.original.as_str(),
                x.replacement.as_str(),
            )
        })
        .collect();
    // In `shared`, `self` is `&S`: `peek_mut` does not type-check. In `twice`, each
    // `peek_mut` keeps `*self` borrowed mutably while the other `peek` borrows it.
    assert!(
        dropped.contains(&("S::shared", "peek", "peek_mut")),
        "{dropped:?}"
    );
    assert!(
        dropped.contains(&("S::twice", "peek", "peek_mut")),
        "{dropped:?}"
    );
    assert!(m.catalog.mutants.iter().any(|x| x.viable == Some(true)));
    assert!(!m.rounds.is_empty() && m.rounds.iter().all(|r| r.seconds > 0.0));
    let lib = std::fs::read_to_string(out.join("src/lib.rs")).unwrap();
    assert!(lib.contains("match __ferastrau_active"));
    assert!(lib.contains("::ferastrau_probes::tick()"));
    assert!(out.join("ferastrau-probes.json").exists());
    assert!(out.join("ferastrau-mutants.json").exists());
    // A dropped mutant has no arm left in the code (`1 => ` not counting `11 => `).
    let has_arm = |id: u32| {
        let arm = format!("{id} => ");
        lib.match_indices(&arm)
            .any(|(at, _)| !lib[..at].ends_with(|c: char| c.is_ascii_digit()))
    };
    assert!(m
        .catalog
        .mutants
        .iter()
        .filter(|x| x.viable == Some(true))
        .all(|x| has_arm(x.id)));
    for x in m.catalog.mutants.iter().filter(|x| x.viable == Some(false)) {
        assert!(!has_arm(x.id), "arm of {} left", x.id);
    }

    let again = build_metamutant(dir.path(), &out, &crate::common::probes()).unwrap();
    assert!(again.cached);
    assert_eq!(again.catalog, m.catalog);
    // Built or cached, it holds the sources it was made from (what the reports show).
    assert_eq!(
        m.sources.get("src/lib.rs").map(String::as_str),
        Some(BORROWS)
    );
    assert_eq!(again.sources, m.sources);

    // The benchmark's own sources are untouched.
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/lib.rs")).unwrap(),
        BORROWS
    );
}

#[test]
fn a_crate_that_does_not_compile_is_named_with_its_first_error() {
    let dir = krate(
        "pub fn f(a: u32, b: u32) -> u32 {\n    let s: u32 = \"text\";\n    a + b + s\n}\n",
        &["f"],
        &[],
    );
    let work = tempfile::tempdir().unwrap();
    let e = build_metamutant(
        dir.path(),
        &work.path().join("metamutant"),
        &crate::common::probes(),
    )
    .unwrap_err();
    let e = format!("{e:#}");
    assert!(e.contains("`inline_bench` does not compile"), "{e}");
    assert!(e.contains("mismatched types"), "{e}");
}

#[test]
fn probes_cover_statements_branches_and_the_specification() {
    let dir = krate(
        r#"
pub fn code(xs: &[u32], o: Option<u32>) -> Option<u32> {
    let mut n = 0;
    for x in xs {
        if *x > 2 && n < 10 {
            n += 1;
        }
    }
    while n > 100 {
        n -= 1;
    }
    let y = o?;
    match y {
        0 => None,
        _ => Some(n),
    }
}

pub fn spec(a: u32) -> bool {
    if let Some(b) = a.checked_sub(1) { b > 0 } else { false }
}
"#,
        &["code"],
        &["spec"],
    );
    let work = tempfile::tempdir().unwrap();
    let m = build_metamutant(
        dir.path(),
        &work.path().join("mm"),
        &crate::common::probes(),
    )
    .unwrap();
    let kinds: Vec<String> = m
        .probes
        .iter()
        .map(|p| {
            format!(
                "{} {} {} {}",
                p.role,
                p.kind,
                p.construct.as_deref().unwrap_or("-"),
                p.outcome.as_deref().unwrap_or("-")
            )
        })
        .collect();
    for want in [
        "code statement - -",
        "code branch for true",
        "code branch for false",
        "code branch if true",
        "code branch if false",
        "code branch && true",
        "code branch && false",
        "code branch while true",
        "code branch while false",
        "code branch ? continue",
        "code branch ? return",
        "code branch match arm 1",
        "code branch match arm 2",
        "spec statement - -",
        "spec branch if true",
        "spec branch if false",
    ] {
        assert!(
            kinds.contains(&want.to_string()),
            "{want} missing: {kinds:?}"
        );
    }
    let ids: Vec<u32> = m.probes.iter().map(|p| p.id).collect();
    assert_eq!(ids, (0..m.probes.len() as u32).collect::<Vec<_>>());
    assert!(m.catalog.mutants.iter().all(|x| x.function == "code"));
}

/// The mutants left viable, by id.
fn viable(m: &ferastrau_mutator::Metamutant) -> Vec<u32> {
    m.catalog
        .mutants
        .iter()
        .filter(|x| x.viable == Some(true))
        .map(|x| x.id)
        .collect()
}

/// A package that links the crate at `dependency`, as the harness's worker does.
fn consumer(dir: &Path, dependency: &Path) -> std::path::PathBuf {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"consumer\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n\
             [dependencies]\ninline_bench = {{ path = {:?} }}\n\n[workspace]\n",
            dependency.display().to_string()
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("src/main.rs"),
        "use inline_bench as _;\nfn main() {}\n",
    )
    .unwrap();
    dir.join("Cargo.toml")
}

/// Pruning through the worker's build (the harness's cold start: no second target directory,
/// no second compilation of the metamutant) drops exactly what `cargo check` drops, bisection
/// included, and leaves the package that links the metamutant built with the tuned profile:
/// building it again compiles nothing.
#[test]
fn pruning_through_the_consumers_build_drops_what_check_drops_and_leaves_it_built() {
    let dir = krate(BORROWS, &["S::shared", "S::twice"], &[]);
    let work = tempfile::tempdir().unwrap();
    let checked =
        build_metamutant(dir.path(), &work.path().join("a"), &crate::common::probes()).unwrap();

    let out = work.path().join("through/metamutant");
    std::fs::create_dir_all(&out).unwrap();
    let out = out.canonicalize().unwrap();
    let manifest = consumer(&work.path().join("consumer"), &out);
    let target = work.path().join("target");
    let built = build_metamutant_with(
        dir.path(),
        &out,
        &crate::common::probes(),
        &Compiler::build_through(&target, &manifest, "inline_bench"),
    )
    .unwrap();
    assert_eq!(viable(&built), viable(&checked));
    assert!(viable(&built).len() < built.catalog.mutants.len());
    assert_eq!(
        built.rounds.iter().map(|r| &r.dropped).collect::<Vec<_>>(),
        checked
            .rounds
            .iter()
            .map(|r| &r.dropped)
            .collect::<Vec<_>>()
    );
    assert!(work.path().join("check-target").is_dir());
    assert!(!work.path().join("through/check-target").exists());

    let again = compile::cargo()
        .args(["build", "--profile", compile::PROFILE])
        .args(compile::profile_args(Some("inline_bench")).unwrap())
        .args(["--message-format=json", "--manifest-path"])
        .arg(&manifest)
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .unwrap();
    assert!(again.status.success());
    let artifacts: Vec<serde_json::Value> = String::from_utf8_lossy(&again.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact")
        .collect();
    let names: Vec<&str> = artifacts
        .iter()
        .map(|a| a["target"]["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"inline_bench") && names.contains(&"consumer"),
        "{names:?}"
    );
    for a in &artifacts {
        assert_eq!(a["fresh"], true, "rebuilt after pruning: {a}");
        assert_eq!(a["profile"]["opt_level"], "3", "{a}");
    }
    assert!(compile::profile_dir(&target).join("consumer").is_file());
}

#[test]
fn a_directory_not_made_by_the_mutator_is_never_wiped() {
    let dir = krate("pub fn f(a: u32, b: u32) -> u32 { a + b }\n", &["f"], &[]);
    let work = tempfile::tempdir().unwrap();
    let precious = work.path().join("precious");
    std::fs::create_dir_all(&precious).unwrap();
    std::fs::write(precious.join("notes.txt"), "keep me").unwrap();
    let c = discover(dir.path()).unwrap();
    assert!(single_mutant_crate(dir.path(), &c.mutants[0], &precious).is_err());
    assert!(Path::new(&precious.join("notes.txt")).exists());
}

/// An edit costs the pruning of what it changed: a rebuild after an edit to one function keeps
/// out, from the first round, the mutants the last build dropped in functions the edit did not
/// touch, and ends with the viability a build from scratch finds. An edit to the function of a
/// dropped mutant, or to what type checking reads around the functions (the skeleton), carries
/// nothing of it.
#[test]
fn a_rebuild_after_an_edit_carries_the_drops_of_untouched_functions_and_equals_a_fresh_build() {
    let source = format!(
        "{BORROWS}\nimpl S {{\n    pub fn bump(&self) -> u32 {{\n        self.k + 1\n    }}\n}}\n"
    );
    let mutate = ["S::shared", "S::twice", "S::bump"];
    let dir = krate(&source, &mutate, &[]);
    let work = tempfile::tempdir().unwrap();
    let (out, fresh) = (work.path().join("metamutant"), work.path().join("fresh"));
    let probes = crate::common::probes();
    let first = build_metamutant(dir.path(), &out, &probes).unwrap();
    let dropped_in = |m: &ferastrau_mutator::Metamutant, f: &str| {
        m.catalog
            .mutants
            .iter()
            .filter(|x| x.function == f && x.viable == Some(false))
            .count()
    };
    let (shared, twice) = (
        dropped_in(&first, "S::shared"),
        dropped_in(&first, "S::twice"),
    );
    assert!(shared > 0 && twice > 0 && !first.rounds.is_empty());
    assert_eq!(first.carried, 0);

    // Each edit, then the same crate built from scratch elsewhere: the same mutants, the same
    // viability.
    let edit_and_compare = |from: &str, to: &str| {
        let path = dir.path().join("src/lib.rs");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{from}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        let edited = build_metamutant(dir.path(), &out, &probes).unwrap();
        let _ = std::fs::remove_dir_all(&fresh);
        let scratch = build_metamutant(dir.path(), &fresh, &probes).unwrap();
        assert_eq!(scratch.carried, 0);
        assert_eq!(edited.catalog, scratch.catalog);
        edited
    };
    // `bump` only: both functions' drops carried, no pruning round left to run.
    let edited = edit_and_compare("self.k + 1", "1 + self.k");
    assert_eq!(edited.carried, shared + twice);
    assert!(edited.rounds.is_empty(), "{:?}", edited.rounds);
    // `twice` itself: only `shared`'s drops are carried.
    let edited = edit_and_compare("*a + *b", "*b + *a");
    assert_eq!(edited.carried, shared);
    // A layout and comment edit changes no token: everything carried.
    let edited = edit_and_compare("pub k: u32,", "pub k: u32, // the key");
    assert_eq!(edited.carried, shared + twice);
    // The skeleton (a field's type, which every body type-checks against): nothing carried.
    let edited = edit_and_compare("pub k: u32,", "pub k: u32,\n    pub extra: u64,");
    assert_eq!(edited.carried, 0);
}
