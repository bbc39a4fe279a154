//! Compiles the digest of the metamutant's generator (see `src/generator.rs`) into the
//! mutator as `FERASTRAU_GENERATOR_DIGEST`.

#[path = "src/content_hash.rs"]
mod content_hash;
#[path = "src/generator.rs"]
mod generator;

use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    // `probes/src` is the probes crate of a checkout. The published mutator is a package of
    // its own, without it: there the probes it generates calls for are the ones of its exact
    // version (`=VERSION`, part of every metamutant's fingerprint), fixed by that version.
    let dirs: Vec<PathBuf> = generator::GENERATOR_DIRS
        .iter()
        .map(|d| root.join(d))
        .filter(|d| d.is_dir() || !d.ends_with("probes/src"))
        .collect();
    for d in &dirs {
        // A directory: cargo rescans it, so a new file reruns this script too.
        println!("cargo:rerun-if-changed={}", d.display());
    }
    let digest = generator::digest(&dirs).expect("the mutator's sources are readable");
    println!("cargo:rustc-env=FERASTRAU_GENERATOR_DIGEST={digest}");
}
