//! The gate's output for CI services (issue 53): `--format github` on a gate that fails with
//! more regressions than GitHub shows (the verdict first, at most ten errors and ten warnings,
//! everything in the step summary), `--current` annotating the crate its reports are of,
//! a broken run's reason as an `::error` and a Code Quality finding, and `--format gitlab`'s
//! Code Quality report valid against GitLab's schema with fingerprints that do not move with
//! the lines.
//!
//! One baseline of `testdata/chain` at scopes 1..3 and one failing run serve every test here
//! (and `ci_recipes.rs`'s shallow clone): the tests read their reports with `--current`,
//! which evaluates nothing.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

use crate::common::{command, copy_fixture, edit, fixture, text, workspace_root};

const USAGE: i32 = 2;
const GATE_FAILED: i32 = 3;
const BROKEN: i32 = 4;

/// A pull request of `pull_requests.rs` that fails with more regressions than GitHub shows
/// of a level: the finitization narrowed (the argument is always 1), so that what larger
/// arguments killed survives (56 mutants; the weakened abstraction makes only 2 survive now).
const NARROWED: (&str, &str) = (
    "b.field(ROOT, \"x\", Domain::ints(1, n64));",
    "b.field(ROOT, \"x\", Domain::ints(1, 1));",
);

/// `gate` of the `chain` crate under the current directory against the shared baseline, at
/// scopes 1..3, its reports in `out`, printing `format`.
fn gate_chain(format: &str) -> std::process::Command {
    command(&[
        "gate",
        "--baseline",
        s(chain_baseline()),
        "--benchmark-path",
        "chain",
        "--scopes",
        "1..3",
        "--out",
        "out",
        "--format",
        format,
    ])
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A baseline of `testdata/chain` at scopes 1..3, made once for the tests of this process
/// (a file in a directory that lives as long as it). Its mutants' places are relative to the
/// crate, so it is the baseline of any copy of `chain`.
pub fn chain_baseline() -> &'static Path {
    static BASELINE: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &BASELINE
        .get_or_init(|| {
            let dir = tempfile::tempdir().unwrap();
            let krate = dir.path().join("chain");
            copy_fixture("chain", &krate);
            let baseline = dir.path().join("baseline.json");
            let out = dir.path().join("out");
            let o = command(&[
                "gate",
                "--baseline",
                s(&baseline),
                "--benchmark-path",
                s(&krate),
                "--scopes",
                "1..3",
                "--out",
                s(&out),
                "--update-baseline",
            ])
            .output()
            .unwrap();
            assert!(o.status.success(), "{}", text(&o.stderr));
            (dir, baseline)
        })
        .1
}

/// A repository (`root`) holding `chain/` with [`NARROWED`] applied, and `out/`, the reports
/// of its gate against [`chain_baseline`] with `--format github` run from the root, with the
/// step summary's file (prefilled with a line) and that gate's output.
struct Failing {
    _dir: tempfile::TempDir,
    root: PathBuf,
    out: PathBuf,
    summary: PathBuf,
    gated: Output,
}

const PREFILLED: &str = "an earlier step's summary\n";

fn failing() -> &'static Failing {
    static FAILING: OnceLock<Failing> = OnceLock::new();
    FAILING.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        copy_fixture("chain", &root.join("chain"));
        edit(&root.join("chain/src/lib.rs"), NARROWED.0, NARROWED.1);
        let summary = root.join("step-summary.md");
        std::fs::write(&summary, PREFILLED).unwrap();
        let gated = gate_chain("github")
            .current_dir(&root)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("GITHUB_SERVER_URL", "https://github.com")
            .env("GITHUB_REPOSITORY", "owner/repo")
            .env("GITHUB_RUN_ID", "42")
            .output()
            .unwrap();
        Failing {
            _dir: dir,
            out: root.join("out"),
            root,
            summary,
            gated,
        }
    })
}

/// `gate --current DIR --baseline <chain's> extra` in `cwd`.
fn gate_current(cwd: &Path, dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "gate",
        "--current",
        s(dir),
        "--baseline",
        s(chain_baseline()),
    ];
    args.extend_from_slice(extra);
    command(&args).current_dir(cwd).output().unwrap()
}

/// The workflow commands among `stdout`'s lines.
fn commands(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("::")).collect()
}

/// The keys of the mutants that survive now, as the gate's error lists them on stderr.
fn survivors(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter_map(|l| l.split_once(": killed in the baseline, survives now: "))
        .map(|(_, rest)| rest.rsplit_once(" (src/").unwrap().0)
        .collect()
}

#[test]
fn github_shows_the_verdict_first_within_its_limits_and_summarises_everything() {
    let f = failing();
    let (said, err) = (text(&f.gated.stdout), text(&f.gated.stderr));
    assert_eq!(f.gated.status.code(), Some(GATE_FAILED), "{err}");
    let keys = survivors(&err);
    assert!(keys.len() > 10, "more than GitHub shows: {err}");
    let lines = commands(&said);
    // The verdict first: the kill rate's fall at the largest scope and how many survive now.
    assert!(
        lines[0].starts_with(
            "::error title=ferastrau gate failed::the gate failed for chain: the kill rate at scope 3 fell from 90.06%25 to "
        ) && lines[0].contains(&format!(
            "; {} mutant(s) killed in the baseline survive now",
            keys.len()
        )),
        "{said}"
    );
    let errors: Vec<&&str> = lines.iter().filter(|l| l.starts_with("::error ")).collect();
    let warnings = lines.iter().filter(|l| l.starts_with("::warning ")).count();
    assert_eq!(errors.len(), 10, "{said}");
    assert!(warnings <= 10, "{said}");
    // The worst regressions come next, each at its mutant's line; the last says how many
    // more there are.
    assert!(
        errors[3].starts_with("::error file=chain/src/lib.rs,line="),
        "{said}"
    );
    let last = errors[9];
    let more = last
        .rsplit_once("%0A(and ")
        .and_then(|(_, m)| m.strip_suffix(" more errors: see the job summary)"))
        .unwrap_or_else(|| panic!("{last}"));
    // The summary, one finding per other kind of failure (the kill rate, the coverage), and
    // each mutant.
    assert_eq!(more, (1 + 2 + keys.len() - 10).to_string(), "{said}");

    // The step summary: appended to, the table, every regression with its place and key, and
    // the run's page.
    let summary = std::fs::read_to_string(&f.summary).unwrap();
    let added = summary
        .strip_prefix(PREFILLED)
        .unwrap_or_else(|| panic!("appended to: {summary}"));
    assert!(
        added.starts_with("## ferastrau gate: chain failed\n"),
        "{added}"
    );
    assert!(
        added.contains("| 3 | 90.06 → ") && added.contains("| code statements % |"),
        "{added}"
    );
    for key in &keys {
        assert!(
            added.contains(&format!(" · `{key}`: edit → ")),
            "{key} is missing: {added}"
        );
    }
    assert!(added.contains("- `chain/src/lib.rs:"), "{added}");
    assert!(
        added.contains("[https://github.com/owner/repo/actions/runs/42]"),
        "{added}"
    );
}

#[test]
fn current_annotates_the_crate_of_its_reports_and_refuses_another() {
    let f = failing();
    // From the repository's root, with nothing naming the crate: its files, not those of the
    // checkout's default benchmark.
    let o = gate_current(&f.root, &f.out, &["--format", "github"]);
    let said = text(&o.stdout);
    assert_eq!(o.status.code(), Some(GATE_FAILED), "{}", text(&o.stderr));
    let placed: Vec<&str> = commands(&said)
        .into_iter()
        .filter(|l| l.contains(" file="))
        .collect();
    assert!(!placed.is_empty(), "{said}");
    assert!(
        placed
            .iter()
            .all(|l| l.starts_with("::error file=chain/src/lib.rs,line=")),
        "{said}"
    );
    // The crate named too: the same one passes, another is refused.
    let o = gate_current(&f.root, &f.out, &["--benchmark-path", "chain"]);
    assert_eq!(o.status.code(), Some(GATE_FAILED), "{}", text(&o.stderr));
    let o = gate_current(
        &f.root,
        &f.out,
        &[
            "--format",
            "github",
            "--benchmark-path",
            s(&fixture("chain")),
        ],
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(USAGE), "{err}");
    assert!(
        err.contains("are of the crate at ") && err.contains("leave out --benchmark"),
        "{err}"
    );
    assert!(commands(&text(&o.stdout)).is_empty());
}

/// The Code Quality report at `path`: each issue valid against GitLab's schema (vendored in
/// `testdata/gitlab-code-quality-schema/`), its severity one GitLab knows.
pub fn valid_code_quality(path: &Path) -> Vec<serde_json::Value> {
    let schema = crate::common::json(
        &workspace_root().join("testdata/gitlab-code-quality-schema/codeclimate.json"),
    );
    let validator = jsonschema::validator_for(&schema).unwrap();
    let report = crate::common::json(path);
    let issues = report.as_array().expect("an array of issues").clone();
    for issue in &issues {
        let errors: Vec<String> = validator
            .iter_errors(issue)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{errors:?}: {issue}");
        assert!(
            ["info", "minor", "major", "critical", "blocker"]
                .contains(&issue["severity"].as_str().unwrap()),
            "{issue}"
        );
    }
    issues
}

/// (check_name, fingerprint) of each issue about a mutant, by its description's key.
fn mutant_fingerprints(
    issues: &[serde_json::Value],
) -> std::collections::BTreeSet<(String, String)> {
    issues
        .iter()
        .filter(|i| i["check_name"] == "ferastrau-mutant-survives-now")
        .map(|i| {
            (
                i["description"].as_str().unwrap().to_string(),
                i["fingerprint"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn gitlab_writes_a_valid_code_quality_report_whose_fingerprints_do_not_move() {
    let f = failing();
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("nested/cq.json");
    let o = gate_current(
        &f.root,
        &f.out,
        &["--format", "gitlab", "--code-quality", s(&report)],
    );
    assert_eq!(o.status.code(), Some(GATE_FAILED), "{}", text(&o.stderr));
    // The usual table on stdout, no workflow command.
    let said = text(&o.stdout);
    assert!(said.starts_with("chain against "), "{said}");
    assert!(commands(&said).is_empty(), "{said}");
    let issues = valid_code_quality(&report);
    // Every finding: no cap.
    let keys = survivors(&text(&f.gated.stderr)).len();
    let survive = issues
        .iter()
        .filter(|i| i["check_name"] == "ferastrau-mutant-survives-now")
        .count();
    assert_eq!(survive, keys);
    assert_eq!(issues[0]["check_name"], "ferastrau-gate-failed");
    assert_eq!(issues[0]["severity"], "critical");
    assert_eq!(issues[0]["location"]["path"], "chain/Cargo.toml");
    assert!(
        issues
            .iter()
            .filter(|i| i["check_name"] == "ferastrau-mutant-survives-now")
            .all(|i| i["location"]["path"] == "chain/src/lib.rs"
                && i["severity"] == "major"
                && i["location"]["lines"]["begin"].as_u64().unwrap() > 1),
        "{issues:?}"
    );
    let prints: std::collections::BTreeSet<&str> = issues
        .iter()
        .map(|i| i["fingerprint"].as_str().unwrap())
        .collect();
    assert_eq!(
        prints.len(),
        issues.len(),
        "distinct findings, distinct fingerprints"
    );

    // Another run of the same change, three lines lower (a comment on top), in another
    // directory, the report in the default place: the same findings, the same fingerprints.
    let again = dir.path().join("again");
    copy_fixture("chain", &again.join("chain"));
    let lib = again.join("chain/src/lib.rs");
    edit(&lib, NARROWED.0, NARROWED.1);
    let source = std::fs::read_to_string(&lib).unwrap();
    std::fs::write(&lib, format!("// one\n// two\n// three\n{source}")).unwrap();
    let o = gate_chain("gitlab").current_dir(&again).output().unwrap();
    assert_eq!(o.status.code(), Some(GATE_FAILED), "{}", text(&o.stderr));
    let moved = valid_code_quality(&again.join("gl-code-quality-report.json"));
    let strip_lines = |set: std::collections::BTreeSet<(String, String)>| -> Vec<(String, String)> {
        // The descriptions name the lines: compare the keys (up to the place) and prints.
        set.into_iter()
            .map(|(d, p)| (d.rsplit_once(" (src/").unwrap().0.to_string(), p))
            .collect()
    };
    assert_eq!(
        strip_lines(mutant_fingerprints(&moved)),
        strip_lines(mutant_fingerprints(&issues))
    );
    let first_line = |issues: &[serde_json::Value]| issues[3]["location"]["lines"]["begin"].clone();
    assert_ne!(first_line(&moved), first_line(&issues), "the lines moved");
}

#[test]
fn a_broken_run_tells_the_ci_job_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.md");
    // Limits the original cannot meet: the evaluation the gate runs stops, naming the input.
    let gate = |format: &str| {
        let mut c = command(&[
            "gate",
            "--baseline",
            s(&dir.path().join("baseline.json")),
            "--benchmark-path",
            s(&fixture("faulty")),
            "--scopes",
            "1..2",
            "--out",
            s(&dir.path().join("out")),
            "--tick-factor",
            "0",
            "--tick-floor",
            "0",
            "--format",
            format,
        ]);
        c.current_dir(dir.path())
            .env("GITHUB_STEP_SUMMARY", &summary)
            .output()
            .unwrap()
    };
    let o = gate("github");
    let (said, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(BROKEN), "{err}");
    let lines = commands(&said);
    assert_eq!(lines.len(), 1, "{said}");
    assert!(
        lines[0].starts_with("::error title=ferastrau gate%3A broken run::")
            && lines[0].contains("the limits are ones the original itself cannot meet")
            && lines[0].contains("on bump input #0"),
        "{said}"
    );
    let summary = std::fs::read_to_string(&summary).unwrap();
    assert!(
        summary.starts_with("## ferastrau gate: faulty broken\n")
            && summary.contains("on bump input #0"),
        "{summary}"
    );
    let o = gate("gitlab");
    assert_eq!(o.status.code(), Some(BROKEN), "{}", text(&o.stderr));
    let issues = valid_code_quality(&dir.path().join("gl-code-quality-report.json"));
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0]["check_name"], "ferastrau-broken-run");
    assert_eq!(issues[0]["severity"], "critical");
    assert!(
        issues[0]["description"]
            .as_str()
            .unwrap()
            .contains("on bump input #0"),
        "{issues:?}"
    );

    // Reports marked broken, gated with --current: the same. (A copy of the failing run's
    // reports, its owner stamp with them.)
    let f = failing();
    let marked = dir.path().join("marked");
    std::fs::create_dir(&marked).unwrap();
    for e in std::fs::read_dir(&f.out).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), marked.join(e.file_name())).unwrap();
        }
    }
    let evaluation = marked.join("evaluation.json");
    let mut doc = crate::common::json(&evaluation);
    doc["broken"] = "the original crashed on insert input #3".into();
    std::fs::write(&evaluation, doc.to_string()).unwrap();
    let o = gate_current(&f.root, &marked, &["--format", "github"]);
    assert_eq!(o.status.code(), Some(BROKEN), "{}", text(&o.stderr));
    let said = text(&o.stdout);
    assert!(
        commands(&said).len() == 1
            && said.contains("::error title=ferastrau gate%3A broken run::")
            && said.contains("the original crashed on insert input #3"),
        "{said}"
    );
}

/// Kill rates under two rules (the compiler's equivalent and duplicate mutants left out, the
/// default, or counted, `--count-equivalents`, as every baseline before the comparison counted
/// them) differ with no test changed: a run under the other rule than its baseline's is
/// refused (status 2) naming both ways out, never failed or passed on that difference.
#[test]
fn a_run_and_a_baseline_of_two_counting_rules_are_refused_not_compared() {
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("chain");
    copy_fixture("chain", &krate);
    let evaluate = |out: &str, extra: &[&str]| {
        let mut args = vec!["evaluate", "--benchmark-path", "chain", "--scopes", "1..3"];
        args.extend_from_slice(&["--out", out]);
        args.extend_from_slice(extra);
        // The comparison on, as a user's run has it (the tests switch it off).
        let o = command(&args)
            .env(crate::common::EQUIVALENCE_VAR, "1")
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", text(&o.stderr));
        dir.path().join(out)
    };
    // The shared baseline counts every mutant (made with the comparison off).
    let leaves_out = evaluate("leaves-out", &[]);
    let refused = gate_current(dir.path(), &leaves_out, &[]);
    assert_eq!(
        refused.status.code(),
        Some(USAGE),
        "{}",
        text(&refused.stderr)
    );
    let said = text(&refused.stderr);
    assert!(
        said.contains("the baseline's kill rates count the mutants the compiler finds equivalent or duplicate")
            && said.contains("rates under two rules are not comparable")
            && said.contains("--count-equivalents")
            && said.contains("--update-baseline"),
        "{said}"
    );
    let counts = evaluate("counts", &["--count-equivalents"]);
    let passed = gate_current(dir.path(), &counts, &[]);
    assert!(passed.status.success(), "{}", text(&passed.stderr));
    // A baseline recorded under the default rule refuses a run that counts them.
    let baseline = dir.path().join("baseline.json");
    std::fs::copy(chain_baseline(), &baseline).unwrap();
    let (b, l) = (baseline.to_str().unwrap(), leaves_out.to_str().unwrap());
    let recorded = command(&["gate", "--current", l, "--baseline", b, "--update-baseline"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(recorded.status.success(), "{}", text(&recorded.stderr));
    let c = counts.to_str().unwrap();
    let refused = command(&["gate", "--current", c, "--baseline", b])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(
        refused.status.code(),
        Some(USAGE),
        "{}",
        text(&refused.stderr)
    );
    assert!(
        text(&refused.stderr).contains("the baseline's kill rates leave out"),
        "{}",
        text(&refused.stderr)
    );
}
