//! Compiles the digest of the mutator's own source (see `src/source_digest.rs`) into the
//! mutator as `FERASTRAU_MUTATOR_DIGEST`.

#[path = "src/content_hash.rs"]
mod content_hash;
#[path = "src/source_digest.rs"]
mod source_digest;

use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    // `probes/src` is the probes crate of a checkout. The published mutator is a package of
    // its own, without it: there the probes it generates calls for are the ones of its exact
    // version (`=VERSION`, part of every metamutant's fingerprint), fixed by that version.
    let dirs: Vec<PathBuf> = source_digest::DIGESTED_DIRS
        .iter()
        .map(|d| root.join(d))
        .filter(|d| d.is_dir() || !d.ends_with("probes/src"))
        .collect();
    for d in &dirs {
        // A directory: cargo rescans it, so a new file reruns this script too.
        println!("cargo:rerun-if-changed={}", d.display());
    }
    let digest = source_digest::digest(&dirs).expect("the mutator's sources are readable");
    println!("cargo:rustc-env=FERASTRAU_MUTATOR_DIGEST={digest}");
}
