//! The CI recipes of `examples/ci/` (issue 30), run as a user's CI would run them: their
//! scripts, on `testdata/chain` in a temporary git repository with the baseline committed on
//! main — the full gate on main, the gate of a harmless and of a weakening pull request, and
//! the sharded run merged and gated. The workflows (GitHub Actions, GitLab CI) call these
//! scripts and nothing else of Ferastrau's.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::workspace_root;

use crate::common::{copy_fixture, git, text, FAST_BUILDS, OPT_LEVEL_VAR};

const GATE_FAILED: i32 = 3;

fn recipes() -> PathBuf {
    workspace_root().join("examples").join("ci")
}

/// `bash examples/ci/<script> args` in `repo`, with `ferastrau` on the PATH.
fn script(repo: &Path, name: &str, args: &[&str]) -> Output {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_ferastrau"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("bash")
        .arg(recipes().join(name))
        .args(args)
        .current_dir(repo)
        .env("PATH", path)
        .env("SCOPES", "1..3")
        .env(OPT_LEVEL_VAR, FAST_BUILDS)
        .env("CARGO_TARGET_DIR", crate::common::shared_target())
        .output()
        .unwrap()
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
        (
            "weaker",
            "        input.0.values()\n    }",
            "        vec![input.0.values().len() as i64]\n    }",
            false,
        ),
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
