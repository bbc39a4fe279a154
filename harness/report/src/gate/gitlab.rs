//! `gate --format gitlab`: the [findings](super::findings) as a GitLab Code Quality report,
//! which GitLab shows in the merge request (new and fixed findings against the target
//! branch's report) and in the diff.
//!
//! The report is a JSON array of Code Climate issues: `description`, `check_name`,
//! `fingerprint`, `severity` and `location` (`path` relative to the repository's root, the
//! current directory in a job, and `lines.begin`). Every finding is in it: GitLab has no
//! per-step limit. GitLab tells a finding that persists from one that is new by its
//! fingerprint, so it is a hash of what the finding is about — its check, the benchmark, the
//! mutant's file (relative to the crate), function and key — and never of its line (which
//! moves with every edit above it) or of the figures in its message.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::findings::{Check, Finding, Level};
use super::github::shown_path;

/// The report's default file, in the current directory (the name GitLab's documentation
/// uses for Code Quality artifacts).
pub const DEFAULT_FILE: &str = "gl-code-quality-report.json";

/// Where a GitLab job wants the gate's output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gitlab {
    /// The gated crate: locations name its files relative to the current directory.
    pub crate_dir: PathBuf,
    /// The Code Quality report to write (`--code-quality FILE`).
    pub code_quality: PathBuf,
}

/// A finding's Code Quality severity: the verdict and a broken run `critical`, each reason
/// the gate failed `major`, a new survivor `minor` (`major` when it fails the gate), a note
/// `info`.
pub fn severity(f: &Finding) -> &'static str {
    match f.check {
        Check::Failed | Check::Broken => "critical",
        Check::NewSurvivor if f.level != Level::Error => "minor",
        Check::Note => "info",
        _ => "major",
    }
}

/// A finding's fingerprint: the same for the same finding in any run on any machine, and
/// different for different findings (the workspace's FNV-1a hash, whose value is fixed).
pub fn fingerprint(f: &Finding, benchmark: &str) -> String {
    let (file, function) = f
        .place
        .as_ref()
        .map_or(("", ""), |p| (p.file.as_str(), p.function.as_str()));
    ferastrau_mutator::ContentHash::default()
        .feed(f.check.name().as_bytes())
        .feed(benchmark.as_bytes())
        .feed(file.as_bytes())
        .feed(function.as_bytes())
        .feed(f.key.as_deref().unwrap_or(&f.about).as_bytes())
        .hex()
}

/// The Code Quality report of `findings` about the crate at `crate_dir`: a finding without a
/// place (the verdict, a kill rate) is placed at the crate's manifest, as GitLab wants a
/// location for each.
pub fn code_quality(
    findings: &[Finding],
    benchmark: &str,
    crate_dir: &Path,
    cwd: &Path,
) -> serde_json::Value {
    let issues = findings
        .iter()
        .map(|f| {
            let (path, line) = match &f.place {
                Some(p) => (shown_path(crate_dir, &p.file, cwd), p.line),
                None => (shown_path(crate_dir, "Cargo.toml", cwd), 1),
            };
            serde_json::json!({
                "description": f.message,
                "check_name": f.check.name(),
                "fingerprint": fingerprint(f, benchmark),
                "severity": severity(f),
                "location": { "path": path, "lines": { "begin": line } },
            })
        })
        .collect();
    serde_json::Value::Array(issues)
}

/// Writes the report of `findings` to `g.code_quality` atomically (a file beside it, then
/// renamed): GitLab uploads it even when the job fails, and a half-written one would be
/// read as no findings.
pub fn write(g: &Gitlab, findings: &[Finding], benchmark: &str) -> Result<()> {
    let cwd = super::github::current_dir();
    let report = code_quality(findings, benchmark, &g.crate_dir, &cwd);
    let path = &g.code_quality;
    let dir = match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(d) => d.to_path_buf(),
        None => PathBuf::from("."),
    };
    let cannot = || format!("cannot write the Code Quality report {}", path.display());
    std::fs::create_dir_all(&dir).with_context(cannot)?;
    let mut tmp = tempfile::NamedTempFile::new_in(&dir).with_context(cannot)?;
    serde_json::to_writer_pretty(&mut tmp, &report).with_context(cannot)?;
    std::io::Write::write_all(&mut tmp, b"\n").with_context(cannot)?;
    // An artifact like any other file of the job: readable by all (a temporary file is not).
    use std::os::unix::fs::PermissionsExt;
    tmp.as_file()
        .set_permissions(std::fs::Permissions::from_mode(0o644))
        .with_context(cannot)?;
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(cannot)?;
    ferastrau_console::stage!(
        "Wrote",
        "{} finding(s) to the Code Quality report {}",
        findings.len(),
        path.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::findings::tests::{gated, run_of};
    use crate::gate::Thresholds;

    fn report(before_rate: f64, now: &[(&str, &[u32])]) -> serde_json::Value {
        let before = run_of(before_rate, &[("a x", &[1, 2, 3]), ("b x", &[3])]);
        let now = run_of(40.0, now);
        gated(&before, &now, &Thresholds::default(), &["n".into()], |o| {
            code_quality(
                &o.findings(),
                "chain",
                Path::new("/repo/chain"),
                Path::new("/repo"),
            )
        })
    }

    #[test]
    fn every_finding_is_an_issue_with_a_fingerprint_that_does_not_move_with_its_line() {
        let r = report(90.0, &[("a x", &[]), ("b x", &[]), ("n x", &[])]);
        let issues = r.as_array().unwrap();
        let checks: Vec<&str> = issues
            .iter()
            .map(|i| i["check_name"].as_str().unwrap())
            .collect();
        assert_eq!(
            checks,
            [
                "ferastrau-gate-failed",
                "ferastrau-kill-rate-fell",
                "ferastrau-mutant-survives-now",
                "ferastrau-mutant-survives-now",
                "ferastrau-new-mutant-survives",
                "ferastrau-gate-note",
            ]
        );
        let severities: Vec<&str> = issues
            .iter()
            .map(|i| i["severity"].as_str().unwrap())
            .collect();
        assert_eq!(
            severities,
            ["critical", "major", "major", "major", "minor", "info"]
        );
        assert_eq!(issues[0]["location"]["path"], "chain/Cargo.toml");
        assert_eq!(issues[2]["location"]["path"], "chain/src/lib.rs");
        assert_eq!(issues[2]["location"]["lines"]["begin"], 10);
        // Distinct findings, distinct fingerprints.
        let prints: std::collections::BTreeSet<&str> = issues
            .iter()
            .map(|i| i["fingerprint"].as_str().unwrap())
            .collect();
        assert_eq!(prints.len(), issues.len());
        // Another run: other figures, the mutants on other lines (a mutant first), the
        // same findings keep their fingerprints.
        let again = report(
            95.0,
            &[("m x", &[1]), ("a x", &[]), ("b x", &[]), ("n x", &[])],
        );
        let print_of = |r: &serde_json::Value, check: &str, nth: usize| {
            r.as_array()
                .unwrap()
                .iter()
                .filter(|i| i["check_name"] == check)
                .nth(nth)
                .map(|i| i["fingerprint"].clone())
        };
        for (check, nth) in [
            ("ferastrau-gate-failed", 0),
            ("ferastrau-kill-rate-fell", 0),
            ("ferastrau-mutant-survives-now", 0),
            ("ferastrau-mutant-survives-now", 1),
            ("ferastrau-new-mutant-survives", 0),
        ] {
            assert_eq!(
                print_of(&r, check, nth),
                print_of(&again, check, nth),
                "{check}"
            );
        }
        assert_ne!(
            again.as_array().unwrap()[2]["location"]["lines"]["begin"],
            issues[2]["location"]["lines"]["begin"],
            "the lines moved"
        );
        // A fixed value, whatever the machine or toolchain (std's hasher promises no such
        // thing), and not of the message, whose reason changes.
        let broken =
            |why: &str| fingerprint(&super::super::findings::broken("chain", why), "chain");
        assert_eq!(broken("why"), "8845a1ceaafbde6b");
        assert_eq!(broken("why"), broken("another input"));
    }
}
