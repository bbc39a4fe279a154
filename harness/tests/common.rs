//! Helpers shared by the command-line tests: run the real `ferastrau` binary.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn ferastrau(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ferastrau"))
        .args(args)
        .output()
        .expect("the ferastrau binary runs")
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
        .join(name)
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub fn json(path: &Path) -> serde_json::Value {
    let t = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&t).expect("valid JSON")
}

/// Runs `evaluate` into `out` and returns the reports (evaluation, mutants).
pub fn evaluate(args: &[&str], out: &Path) -> (serde_json::Value, serde_json::Value) {
    let mut all = vec!["evaluate"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", out.to_str().expect("utf-8 path")]);
    let o = ferastrau(&all);
    assert!(o.status.success(), "evaluate failed: {}", text(&o.stderr));
    (
        json(&out.join("evaluation.json")),
        json(&out.join("mutants.json")),
    )
}
