//! Compiles the digest of the metamutant's generator (see `src/generator.rs`) into the
//! mutator as `FERASTRAU_GENERATOR_DIGEST`.

#[path = "src/content_hash.rs"]
mod content_hash;
#[path = "src/generator.rs"]
mod generator;

use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let dirs: Vec<PathBuf> = generator::GENERATOR_DIRS
        .iter()
        .map(|d| root.join(d))
        .collect();
    for d in &dirs {
        // A directory: cargo rescans it, so a new file reruns this script too.
        println!("cargo:rerun-if-changed={}", d.display());
    }
    let digest = generator::digest(&dirs).expect("the mutator's sources are readable");
    println!("cargo:rustc-env=FERASTRAU_GENERATOR_DIGEST={digest}");
}
