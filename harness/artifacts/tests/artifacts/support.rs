//! Where the files are, and what "the same bytes" means for a file that has no version yet.

use std::path::{Path, PathBuf};

use ferastrau_artifacts::{
    Artifact, CodeFacts, Evaluation, GateBaseline, Generators, KillMatrixHeader, Mutants,
    ReducedSuite, ShardRecord, Subsets, SuiteRun,
};

/// The workspace's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `tests/artifacts/fixtures/<name>`: files the current tool wrote that no committed report
/// holds (a shard's record, a journal, a kill matrix's header).
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/artifacts/fixtures")
        .join(name)
}

/// The report directories: `reports/<benchmark>/` and `reports/full/<benchmark>/`.
pub fn report_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for base in [root().join("reports"), root().join("reports/full")] {
        let mut here: Vec<PathBuf> = std::fs::read_dir(&base)
            .unwrap_or_else(|e| panic!("{}: {e}", base.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir() && p.file_name().is_some_and(|n| n != "full"))
            .collect();
        here.sort();
        dirs.extend(here);
    }
    dirs
}

/// Every committed file of type `T` (`reports/gate-baseline.json` for the baseline).
pub fn committed<T: Artifact>() -> Vec<PathBuf> {
    if T::FILE_NAME == GateBaseline::FILE_NAME {
        return vec![root().join("reports/gate-baseline.json")];
    }
    report_dirs()
        .into_iter()
        .map(|d| d.join(T::FILE_NAME))
        .filter(|p| p.exists())
        .collect()
}

/// Calls `f` with every committed file of every artifact type and the fixtures of the types
/// that no report holds, by type: `f::<T>(path)` through the [`EachFile`] visitor.
pub trait EachFile {
    fn file<T: Artifact>(&mut self, path: &Path);
}

/// Visits every committed report and every fixture with its type. Returns how many files of
/// each type were visited, so that a test can insist none is missing.
pub fn each_file(v: &mut impl EachFile) -> Vec<(&'static str, usize)> {
    fn all<T: Artifact>(v: &mut impl EachFile, extra: &[&str]) -> (&'static str, usize) {
        let mut paths = committed::<T>();
        paths.extend(extra.iter().map(|f| fixture(f)));
        for p in &paths {
            v.file::<T>(p);
        }
        (T::FILE_NAME, paths.len())
    }
    vec![
        all::<Evaluation>(v, &["shard-evaluation.json"]),
        all::<Mutants>(v, &[]),
        all::<CodeFacts>(v, &[]),
        all::<Generators>(v, &[]),
        all::<Subsets>(v, &[]),
        all::<ReducedSuite>(v, &[]),
        all::<GateBaseline>(v, &[]),
        all::<ShardRecord>(v, &["shard.json"]),
        all::<KillMatrixHeader>(v, &["kill-matrix-scope-1.json"]),
        all::<SuiteRun>(v, &["suite.json"]),
    ]
}

/// `written` (what [`Artifact::to_text`] gives) without the version member that a file of
/// version 0 did not have: the line `"schema_version": N` of a pretty file (and the comma it
/// leaves on the line before when it was the last member).
pub fn without_version_line(written: &str, key: &str) -> String {
    let member = format!("\"{key}\": ");
    let lines: Vec<&str> = written.split('\n').collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with(&format!("  {member}")))
        .unwrap_or_else(|| panic!("no {member} line in\n{written}"));
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let last = !out[at].ends_with(',');
    out.remove(at);
    if last {
        let prev = out[at - 1]
            .strip_suffix(',')
            .expect("a comma before")
            .to_string();
        out[at - 1] = prev;
    }
    out.join("\n")
}
