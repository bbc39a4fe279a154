//! Helpers shared by the mutator's tests on small crates written inline.

#![allow(dead_code)]

use ferastrau_mutator::{Catalog, Family};
use tempfile::TempDir;

/// A standalone crate with `src/lib.rs` = `lib` and the given declarations.
pub fn krate(lib: &str, mutate: &[&str], spec: &[&str]) -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    let list = |xs: &[&str]| {
        xs.iter()
            .map(|x| format!("{x:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        format!(
            "[package]\nname = \"inline_bench\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [package.metadata.ferastrau]\nmutate = [{}]\nspecification = [{}]\n\n[workspace]\n",
            list(mutate),
            list(spec)
        ),
    )
    .unwrap();
    std::fs::write(dir.path().join("src/lib.rs"), lib).unwrap();
    dir
}

pub fn changes(c: &Catalog, family: Family) -> Vec<String> {
    c.mutants
        .iter()
        .filter(|m| m.family == family)
        .map(|m| format!("{} -> {}", m.original, m.replacement))
        .collect()
}

/// Fails unless `src` still tokenizes as Rust.
pub fn syn_check(src: &str) {
    assert!(
        src.parse::<proc_macro2::TokenStream>().is_ok(),
        "the mutated source still tokenizes"
    );
}

/// The metamutant's `ferastrau-probes` dependency in these tests: this checkout's, by path.
pub fn probes() -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("probes");
    format!("{{ path = {:?} }}", dir.display().to_string())
}
