//! The published mutation-testing-report-schema, fetched from the npm registry (`npm pack`)
//! into `target/` once, never copied into the repository.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The schema release the tests validate against.
pub const VERSION: &str = "3.8.4";

/// The schema document; panics with what to do if npm or the registry is unreachable.
pub fn schema() -> serde_json::Value {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mutation-testing-report-schema-{VERSION}"));
    let file = dir.join("package/dist/src/mutation-testing-report-schema.json");
    if !file.exists() {
        fetch(&dir);
    }
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    serde_json::from_str(&text).expect("the schema is JSON")
}

fn fetch(dir: &PathBuf) {
    std::fs::create_dir_all(dir).unwrap();
    let spec = format!("mutation-testing-report-schema@{VERSION}");
    let o = Command::new("npm")
        .args(["pack", &spec, "--silent", "--pack-destination"])
        .arg(dir)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run npm ({e}): the schema test needs npm and the npm registry to fetch {spec} (apt-get install npm)")
        });
    assert!(
        o.status.success(),
        "npm pack {spec} failed (the schema test needs the npm registry): {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let tgz = dir.join(format!("mutation-testing-report-schema-{VERSION}.tgz"));
    let t = Command::new("tar")
        .arg("xzf")
        .arg(&tgz)
        .arg("-C")
        .arg(dir)
        .status()
        .expect("tar runs");
    assert!(t.success(), "cannot unpack {}", tgz.display());
}
