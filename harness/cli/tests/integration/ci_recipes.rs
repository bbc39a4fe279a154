//! The CI recipes of `examples/ci/` (issue 30), run as a user's CI would run them: their
//! scripts, on `testdata/chain` in a temporary git repository with the baseline committed on
//! main — the full gate on main, the gate of a harmless and of a weakening pull request, and
//! the sharded run merged and gated. The workflows (GitHub Actions, GitLab CI) call these
//! scripts and nothing else of Ferastrau's. GitLab's merge-request job is run as
//! `gitlab-ci.yml` has it (issue 53), in a shallow clone as a runner makes one.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::workspace_root;

use crate::common::{copy_fixture, git, text, FAST_BUILDS, OPT_LEVEL_VAR};

const GATE_FAILED: i32 = 3;

fn recipes() -> PathBuf {
    workspace_root().join("examples").join("ci")
}

/// The weakening pull request: the abstraction compares only how many values there are.
const WEAKER: (&str, &str) = (
    "        input.0.values()\n    }",
    "        vec![input.0.values().len() as i64]\n    }",
);

/// `bash args` in `repo` as a CI job runs it, with `ferastrau` on the PATH, at scopes 1..3.
fn job(repo: &Path, args: &[&str]) -> Command {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_ferastrau"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut c = Command::new("bash");
    c.args(args)
        .current_dir(repo)
        .env("PATH", path)
        .env("SCOPES", "1..3")
        .env(OPT_LEVEL_VAR, FAST_BUILDS)
        // As in the other tests, and as the shared baselines were made: the kill rates of a
        // run with the compiler's verdicts would follow another rule than theirs.
        .env(crate::common::EQUIVALENCE_VAR, "0")
        .env("CARGO_TARGET_DIR", crate::common::shared_target());
    c
}

/// `bash examples/ci/<script> args` in `repo`, with `ferastrau` on the PATH.
fn script(repo: &Path, name: &str, args: &[&str]) -> Output {
    let script = recipes().join(name);
    let mut all = vec![script.to_str().unwrap()];
    all.extend_from_slice(args);
    job(repo, &all).output().unwrap()
}

fn said(o: &Output) -> String {
    format!("{}\n{}", text(&o.stdout), text(&o.stderr))
}

#[test]
fn the_workflows_call_only_scripts_that_exist() {
    for workflow in [
        "github-actions.yml",
        "github-actions-sharded.yml",
        "gitlab-ci.yml",
    ] {
        let text = std::fs::read_to_string(recipes().join(workflow)).unwrap();
        let called: Vec<&str> = text
            .split("examples/ci/")
            .skip(1)
            .filter_map(|rest| rest.split_whitespace().next())
            .filter(|s| s.ends_with(".sh") && !s.contains('*'))
            .collect();
        assert!(!called.is_empty(), "{workflow} calls no script");
        for s in called {
            assert!(recipes().join(s).is_file(), "{workflow} calls {s}");
        }
    }
}

#[test]
fn the_recipes_gate_main_pull_requests_and_shards() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    copy_fixture("chain", repo);
    std::fs::write(repo.join(".gitignore"), "/target\n").unwrap();
    // The baseline, made once and committed on main.
    let o = script(repo, "gate-main.sh", &["--update-baseline"]);
    assert!(o.status.success(), "{}", said(&o));
    assert!(repo.join("ferastrau-baseline.json").is_file());
    git(repo, &["init", "-q", "-b", "main"]);
    git(repo, &["add", "."]);
    git(repo, &["commit", "-q", "-m", "the crate and its baseline"]);

    // main: the full gate passes.
    let o = script(repo, "gate-main.sh", &[]);
    assert!(o.status.success(), "{}", said(&o));

    // A harmless pull request (an early return, dead for valid inputs) passes; one that
    // weakens the abstraction fails, naming the mutants that now survive.
    let lib = repo.join("src/lib.rs");
    let base = std::fs::read_to_string(&lib).unwrap();
    let head = "    pub fn insert(&mut self, x: i64) -> bool {\n";
    for (branch, from, to, passes) in [
        (
            "early-return",
            head,
            "    pub fn insert(&mut self, x: i64) -> bool {\n        if self.size < 0 {\n            return false;\n        }\n",
            true,
        ),
        ("weaker", WEAKER.0, WEAKER.1, false),
    ] {
        git(repo, &["checkout", "-q", "-b", branch, "main"]);
        assert_eq!(base.matches(from).count(), 1, "{branch}");
        std::fs::write(&lib, base.replacen(from, to, 1)).unwrap();
        git(repo, &["commit", "-q", "-am", branch]);
        let o = script(repo, "gate-pr.sh", &["main"]);
        if passes {
            assert!(o.status.success(), "{branch}: {}", said(&o));
        } else {
            assert_eq!(o.status.code(), Some(GATE_FAILED), "{branch}: {}", said(&o));
            assert!(said(&o).contains("survives now"), "{branch}: {}", said(&o));
        }
        git(repo, &["checkout", "-q", "main"]);
    }

    // main in two shares, merged and gated.
    for k in ["1", "2"] {
        let o = script(repo, "gate-shard.sh", &[k, "2"]);
        assert!(o.status.success(), "shard {k}: {}", said(&o));
    }
    let o = script(repo, "gate-merged.sh", &[]);
    assert!(o.status.success(), "{}", said(&o));
    assert!(text(&o.stdout).contains("gate passed"), "{}", said(&o));
}

/// What `gitlab-ci.yml` says of a job, read line by line (the file is kept to the plain block
/// style this reads): its `script:` commands, its Code Quality report, its artifacts' paths.
struct GitlabJob {
    script: Vec<String>,
    code_quality: Option<String>,
    paths: Vec<String>,
}

/// A YAML plain or quoted scalar, its comment left out.
fn scalar(s: &str) -> String {
    let s = s.split(" #").next().unwrap().trim();
    s.strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(s)
        .to_string()
}

/// The items of the block list under the key `key:` among `lines` (more indented than it,
/// comments skipped).
fn list(lines: &[&str], key: &str) -> Vec<String> {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let Some(at) = lines.iter().position(|l| l.trim() == key) else {
        return Vec::new();
    };
    lines[at + 1..]
        .iter()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .take_while(|l| indent(l) > indent(lines[at]))
        .filter_map(|l| l.trim().strip_prefix("- "))
        .map(|item| item.to_string())
        .collect()
}

/// The lines of `yml`'s top-level key `name` (up to the next top-level key).
fn top_level<'a>(yml: &'a str, name: &str) -> Vec<&'a str> {
    yml.lines()
        .skip_while(|l| *l != format!("{name}:"))
        .skip(1)
        .take_while(|l| l.is_empty() || l.starts_with(' ') || l.starts_with('#'))
        .collect()
}

fn gitlab_job(yml: &str, name: &str) -> GitlabJob {
    let lines = top_level(yml, name);
    assert!(!lines.is_empty(), "no job {name}");
    GitlabJob {
        script: list(&lines, "script:"),
        code_quality: lines
            .iter()
            .find_map(|l| l.trim().strip_prefix("codequality:"))
            .map(scalar),
        paths: list(&lines, "paths:").iter().map(|p| scalar(p)).collect(),
    }
}

/// The file's global `variables:`.
fn gitlab_variables(yml: &str) -> Vec<(String, String)> {
    top_level(yml, "variables")
        .iter()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|l| l.trim().split_once(": "))
        .map(|(k, v)| (k.to_string(), scalar(v)))
        .collect()
}

/// GitLab's merge-request job, its commands read out of `gitlab-ci.yml`, in a clone made as
/// a runner makes one — shallow (`--depth 1`, of the merge request's branch only): its own
/// fetch brings the target branch and the history back to the merge base, the gate fails on
/// the weakening change (status 3), and the Code Quality report and the page the job keeps
/// are there, the report valid against GitLab's schema. (The recipe's former bare
/// `git fetch origin main` left no `origin/main` in such a clone, and no merge base in one
/// that tracks every branch: `git diff origin/main...HEAD` failed, status 128.)
#[test]
fn the_gitlab_merge_request_job_works_in_a_shallow_clone() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    copy_fixture("chain", &work);
    std::fs::write(work.join(".gitignore"), "/target\n").unwrap();
    // The scripts, copied into the repository as a user does; the baseline committed on main.
    std::fs::create_dir_all(work.join("examples/ci")).unwrap();
    for e in std::fs::read_dir(recipes()).unwrap() {
        let e = e.unwrap();
        if e.file_name().to_string_lossy().ends_with(".sh") {
            std::fs::copy(e.path(), work.join("examples/ci").join(e.file_name())).unwrap();
        }
    }
    std::fs::copy(
        crate::gate_formats::chain_baseline(),
        work.join("ferastrau-baseline.json"),
    )
    .unwrap();
    git(&work, &["init", "-q", "-b", "main"]);
    git(&work, &["add", "."]);
    git(&work, &["commit", "-q", "-m", "the crate and its baseline"]);
    git(&work, &["checkout", "-q", "-b", "weaker"]);
    crate::common::edit(&work.join("src/lib.rs"), WEAKER.0, WEAKER.1);
    git(&work, &["commit", "-q", "-am", "weaker"]);
    let origin = dir.path().join("origin.git");
    git(dir.path(), &["clone", "-q", "--bare", "work", "origin.git"]);
    let url = format!("file://{}", origin.display());
    git(
        dir.path(),
        &[
            "clone", "-q", "--depth", "1", "--branch", "weaker", &url, "clone",
        ],
    );
    let clone = dir.path().join("clone");
    let shallow = git(&clone, &["rev-parse", "--is-shallow-repository"]);
    assert_eq!(text(&shallow.stdout).trim(), "true");

    let yml = std::fs::read_to_string(recipes().join("gitlab-ci.yml")).unwrap();
    let mr = gitlab_job(&yml, "ferastrau-gate-mr");
    assert!(
        mr.script.len() >= 2 && mr.script.last().unwrap().contains("gate-pr.sh"),
        "{:?}",
        mr.script
    );
    let variables = gitlab_variables(&yml);
    assert!(
        variables.contains(&("GIT_DEPTH".into(), "0".into()))
            && variables.contains(&("FORMAT".into(), "gitlab".into())),
        "{variables:?}"
    );
    for (i, command) in mr.script.iter().enumerate() {
        let mut c = job(&clone, &["-c", command]);
        c.envs(variables.iter().map(|(k, v)| (k, v)))
            .env("SCOPES", "1..3")
            .env("CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "main");
        let o = c.output().unwrap();
        if i + 1 < mr.script.len() {
            assert!(o.status.success(), "{command}: {}", said(&o));
        } else {
            assert_eq!(
                o.status.code(),
                Some(GATE_FAILED),
                "{command}: {}",
                said(&o)
            );
            assert!(said(&o).contains("survives now"), "{}", said(&o));
        }
    }
    let report = mr.code_quality.expect("a Code Quality report");
    let issues = crate::gate_formats::valid_code_quality(&clone.join(&report));
    assert!(
        issues
            .iter()
            .any(|i| i["check_name"] == "ferastrau-mutant-survives-now"
                && i["location"]["path"] == "src/lib.rs"),
        "{issues:?}"
    );
    assert!(mr.paths.contains(&report), "{:?}", mr.paths);
    for p in &mr.paths {
        assert!(
            clone.join(p).is_file(),
            "the job keeps {p}, which is not there"
        );
    }
}
