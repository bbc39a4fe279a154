//! `ferastrau init` and a user's crate outside the workspace: the skeleton is generated,
//! checked and evaluated as is, with exact counts, in either style and with the SDK from a path
//! or from git. How each command finds such a crate is in [`crate::user_crates`].

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;

/// The valid inputs of the skeleton per scope 1..=3 as (add, remove_first): subsets of 1..=n
/// (2^n) times the n values of `x`, and the 2^n − 1 non-empty subsets. The generated crate's
/// own tests (run below by `cargo test`) check the same figures against the brute force.
pub(crate) const SKELETON_INPUTS: [(u64, u64); 3] = [(2, 1), (8, 3), (24, 7)];

/// `--sdk-path` of this checkout's SDK: the crates these tests write build against the
/// checkout (the default, `ferastrau-sdk = "VERSION"` from crates.io, is what the
/// installation test in `scripts/install-test.sh` builds against the packaged crates).
fn sdk_path() -> String {
    workspace_root()
        .join("harness/sdk")
        .to_str()
        .expect("utf-8 path")
        .to_string()
}

/// A new crate written by `init` into a temporary directory outside the workspace.
pub(crate) fn init_crate(name: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    assert!(
        !tmp.path().starts_with(workspace_root()),
        "the temporary directory must lie outside the workspace"
    );
    let dir = tmp.path().join(name);
    let sdk = sdk_path();
    let o = ferastrau(&[
        "init",
        dir.to_str().unwrap(),
        "--name",
        name,
        "--sdk-path",
        &sdk,
    ]);
    assert!(o.status.success(), "init: {}", text(&o.stderr));
    (tmp, dir)
}

/// The crate at `dir` passes its own tests (each of `tests` among them, by name) and is
/// formatted as rustfmt would, whatever its name. Dependencies compiled for the workers are
/// reused (the same release profile).
fn passes_its_tests_and_rustfmt(dir: &Path, tests: &[&str]) {
    let cargo = || Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    // Under the workers' profile at their opt-level in these tests, in their build directory:
    // the crate's tests then link the dependencies the workers' builds compiled (under
    // `--release` they were all compiled once more, at opt-level 3: 26 s of a serial build).
    crate::common::fast_builds_in_process();
    let o = cargo()
        .args(["test", "--profile", ferastrau_mutator::compile::PROFILE])
        .args(ferastrau_mutator::compile::profile_args(None).unwrap())
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .env(
            "CARGO_TARGET_DIR",
            workspace_root().join("target/ferastrau/build"),
        )
        .output()
        .unwrap();
    let out = text(&o.stdout);
    assert!(o.status.success(), "cargo test: {out}{}", text(&o.stderr));
    for t in tests {
        assert!(out.contains(&format!("test {t} ... ok")), "{t}: {out}");
    }
    let o = cargo()
        .args(["fmt", "--check", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .output()
        .unwrap();
    assert!(o.status.success(), "cargo fmt --check: {}", text(&o.stdout));
}

pub(crate) fn path_str(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

#[test]
fn a_crate_from_init_outside_the_workspace_is_generated_checked_and_evaluated() {
    let (tmp, dir) = init_crate("my-set");

    // The crate's own tests pass, its exact counts and the brute-force check among them.
    passes_its_tests_and_rustfmt(
        &dir,
        &[
            "korat_finds_exactly_the_counted_inputs",
            "korat_is_sound_complete_and_optimal_against_brute_force",
            "the_original_meets_its_postconditions",
        ],
    );

    let o = ferastrau(&[
        "generate",
        "--benchmark-path",
        path_str(&dir),
        "--scopes",
        "1..3",
        "--json",
    ]);
    assert!(o.status.success(), "generate: {}", text(&o.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let scopes = doc["scopes"].as_array().unwrap();
    assert_eq!(scopes.len(), 3);
    for (s, (add, remove_first)) in scopes.iter().zip(SKELETON_INPUTS) {
        let per_method: Vec<(&str, u64)> = s["methods"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["method"].as_str().unwrap(), m["inputs"].as_u64().unwrap()))
            .collect();
        assert_eq!(
            per_method,
            [("add", add), ("remove_first", remove_first)],
            "scope {}",
            s["scope"]
        );
        assert_eq!(s["inputs"].as_u64(), Some(add + remove_first));
    }

    let o = ferastrau(&[
        "check",
        "--benchmark-path",
        path_str(&dir),
        "--scopes",
        "1..3",
    ]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "check: {out}{}", text(&o.stderr));
    assert!(out.contains("no violation"), "{out}");

    let (evaluation, mutants) = evaluate(
        &["--benchmark-path", path_str(&dir), "--scopes", "1..3"],
        &tmp.path().join("out"),
    );
    assert!(evaluation.get("broken").is_none(), "{evaluation}");
    let rows = evaluation["scopes"].as_array().unwrap();
    let inputs: Vec<u64> = rows.iter().map(|r| r["inputs"].as_u64().unwrap()).collect();
    let expected: Vec<u64> = SKELETON_INPUTS.iter().map(|(a, r)| a + r).collect();
    assert_eq!(inputs, expected);
    for r in rows {
        assert!(r["mutants"].as_u64().unwrap() > 0, "{r}");
        assert!(r["kill_rate"].as_f64().unwrap() > 0.0, "{r}");
        assert_eq!(r["violations"].as_u64(), Some(0), "{r}");
    }
    assert!(!mutants["mutants"].as_array().unwrap().is_empty());
}

/// `init --style generator`: the same set, its inputs a generator program. Its own tests pass
/// (exact counts), and evaluated it gives the Korat skeleton's inputs per scope and the same
/// verdict for every mutant: the two styles are two descriptions of one input space.
#[test]
fn a_program_style_crate_from_init_matches_the_korat_style_one_mutant_for_mutant() {
    let tmp = tempfile::tempdir().unwrap();
    let mut runs = Vec::new();
    for style in ["korat", "generator"] {
        let dir = tmp.path().join(format!("{style}-set"));
        let name = format!("{style}-set");
        let sdk = sdk_path();
        let o = ferastrau(&[
            "init",
            path_str(&dir),
            "--name",
            &name,
            "--style",
            style,
            "--sdk-path",
            &sdk,
        ]);
        assert!(o.status.success(), "init: {}", text(&o.stderr));
        if style == "generator" {
            passes_its_tests_and_rustfmt(
                &dir,
                &[
                    "the_program_finds_exactly_the_counted_inputs",
                    "the_original_meets_its_postconditions",
                ],
            );
        }
        let (evaluation, mutants) = evaluate(
            &["--benchmark-path", path_str(&dir), "--scopes", "1..3"],
            &tmp.path().join(format!("{style}-out")),
        );
        let inputs: Vec<u64> = evaluation["scopes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["inputs"].as_u64().unwrap())
            .collect();
        let expected: Vec<u64> = SKELETON_INPUTS.iter().map(|(a, r)| a + r).collect();
        assert_eq!(inputs, expected, "{style}");
        // Mutant by mutant (the same code under test, the same catalog): killed or not.
        let verdicts: std::collections::BTreeMap<(String, String), String> = mutants["mutants"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|m| {
                let key = m["key"].as_str().unwrap().to_string();
                m["scopes"].as_object().unwrap().iter().map(move |(s, r)| {
                    (
                        (key.clone(), s.clone()),
                        r["status"].as_str().unwrap().to_string(),
                    )
                })
            })
            .collect();
        assert!(verdicts.values().any(|v| v == "killed"), "{style}");
        runs.push(verdicts);
    }
    assert_eq!(runs[0], runs[1], "the same verdicts from both styles");
}

#[test]
fn init_refuses_what_it_cannot_write_and_writes_the_dependency_asked_for() {
    let tmp = tempfile::tempdir().unwrap();
    let taken = tmp.path().join("taken");
    std::fs::create_dir(&taken).unwrap();
    std::fs::write(taken.join("notes.txt"), "mine").unwrap();
    for (dir, name, expect) in [
        (taken.clone(), "fine", "is not empty"),
        (tmp.path().join("a"), "my set", "not a valid crate name"),
        (tmp.path().join("b"), "fn", "not a valid crate name"),
    ] {
        let o = ferastrau(&["init", path_str(&dir), "--name", name]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(expect), "{name}: {err}");
    }
    assert_eq!(
        std::fs::read_to_string(taken.join("notes.txt")).unwrap(),
        "mine"
    );
    assert!(!tmp.path().join("a").exists() && !tmp.path().join("b").exists());

    // The default: this binary's version from crates.io, and no lock file (a registry SDK
    // resolves as any dependency does). Without --name, the directory's name.
    let default = tmp.path().join("default");
    let o = ferastrau(&["init", path_str(&default)]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("crate `default`"),
        "{}",
        text(&o.stdout)
    );
    let manifest = std::fs::read_to_string(default.join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains(&format!(
            "ferastrau-sdk = \"{}\"",
            ferastrau_harness::runtime::VERSION
        )) && manifest.contains("name = \"default\""),
        "{manifest}"
    );
    assert!(manifest.contains("\n[workspace]\n"), "{manifest}");
    assert!(!default.join("Cargo.lock").exists());
    // --sdk-path: a path dependency on that checkout's SDK, absolute, with its lock file.
    let pathed = tmp.path().join("pathed");
    let o = ferastrau(&["init", path_str(&pathed), "--sdk-path", &sdk_path()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let manifest = std::fs::read_to_string(pathed.join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains(&format!("ferastrau-sdk = {{ path = {:?} }}", sdk_path())),
        "{manifest}"
    );
    assert!(pathed.join("Cargo.lock").exists());
    // A directory without a name to give: refused, asking for --name.
    let o = ferastrau(&["init", "/"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("--name"), "{}", text(&o.stderr));

    // --git: a git dependency, pinned when asked.
    let git = tmp.path().join("git");
    let o = ferastrau(&[
        "init",
        path_str(&git),
        "--name",
        "g",
        "--git",
        "https://example.org/ferastrau.git",
        "--rev",
        "v0.1.0",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let manifest = std::fs::read_to_string(git.join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains(
            "ferastrau-sdk = { git = \"https://example.org/ferastrau.git\", rev = \"v0.1.0\" }"
        ),
        "{manifest}"
    );
    // --sdk-path must name a crate directory.
    let o = ferastrau(&[
        "init",
        path_str(&tmp.path().join("w")),
        "--name",
        "w",
        "--sdk-path",
        path_str(tmp.path()),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("no Cargo.toml there"));
}

/// The members of [`sdk_repository`]: the SDK, the worker runtime, and what they depend on.
const RUNTIME: [&str; 5] = [
    "korat",
    "mutator/probes",
    "harness/protocol",
    "harness/sdk",
    "harness/worker",
];

/// A git repository holding the SDK, the worker runtime and what they depend on (Korat, the
/// protocol, the probes), with the workspace's inherited fields: what `--git URL` points at.
fn sdk_repository(dest: &Path) {
    let root = workspace_root();
    let mut manifest: toml::Table = std::fs::read_to_string(root.join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let ws = manifest["workspace"].as_table_mut().unwrap();
    ws.insert(
        "members".into(),
        toml::Value::Array(RUNTIME.map(|m| toml::Value::String(m.into())).to_vec()),
    );
    ws.remove("default-members");
    std::fs::create_dir_all(dest).unwrap();
    std::fs::write(dest.join("Cargo.toml"), toml::to_string(&manifest).unwrap()).unwrap();
    for member in RUNTIME {
        std::fs::create_dir_all(dest.join(member).parent().unwrap()).unwrap();
        let o = Command::new("cp")
            .arg("-r")
            .arg(root.join(member))
            .arg(dest.join(member))
            .output()
            .unwrap();
        assert!(o.status.success(), "cp {member}: {}", text(&o.stderr));
    }
    for args in [
        vec!["init", "-q"],
        vec!["add", "-A"],
        vec![
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "worker",
        ],
    ] {
        let o = Command::new("git")
            .args(&args)
            .current_dir(dest)
            .output()
            .unwrap();
        assert!(o.status.success(), "git {args:?}: {}", text(&o.stderr));
    }
}

#[test]
fn a_crate_that_takes_the_sdk_from_git_is_evaluated_like_one_with_a_path() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    sdk_repository(&repo);
    let dir = tmp.path().join("git-set");
    let url = format!("file://{}", repo.display());
    let o = ferastrau(&["init", path_str(&dir), "--name", "git-set", "--git", &url]);
    assert!(o.status.success(), "init: {}", text(&o.stderr));
    // The worker runtime and the probes come from the same repository: from anywhere else
    // the SDK from git would be another crate than the one the worker runtime implements, and
    // would read another copy of the probes than the metamutant sets: no build, or no
    // coverage and every mutant the original.
    let (evaluation, _) = evaluate(
        &["--benchmark-path", path_str(&dir), "--scopes", "1..2"],
        &tmp.path().join("out"),
    );
    assert!(evaluation.get("broken").is_none(), "{evaluation}");
    let rows = evaluation["scopes"].as_array().unwrap();
    let inputs: Vec<u64> = rows.iter().map(|r| r["inputs"].as_u64().unwrap()).collect();
    assert_eq!(inputs, [3, 11]);
    for r in rows {
        assert!(r["kill_rate"].as_f64().unwrap() > 0.0, "{r}");
        assert!(r["statement_coverage"].as_f64().unwrap() > 0.0, "{r}");
    }
}

/// The book's table of the two skeletons (`docs/src/adding-a-benchmark.md`, "Or: inputs as a
/// generator program") counts what
/// `init` writes: each `file` N of a cell is that file's lines of code in that style's
/// skeleton, and a cell's total after the colon is their sum. A template edited without the
/// table (or the table without the template) fails here.
#[test]
fn the_readme_s_skeleton_table_counts_the_lines_init_writes() {
    let readme =
        std::fs::read_to_string(workspace_root().join("docs/src/adding-a-benchmark.md")).unwrap();
    let row = |label: &str| -> Vec<String> {
        let line = readme
            .lines()
            .find(|l| l.starts_with(&format!("| {label} |")))
            .unwrap_or_else(|| panic!("docs/src/adding-a-benchmark.md has no table row {label:?}"));
        line.split('|')
            .skip(2)
            .take(2)
            .map(str::to_string)
            .collect()
    };
    let tmp = tempfile::tempdir().unwrap();
    let styles = ["korat", "generator"];
    let dirs: Vec<PathBuf> = styles
        .iter()
        .map(|style| {
            let dir = tmp.path().join(format!("{style}-set"));
            let o = ferastrau(&["init", path_str(&dir), "--name", "my-set", "--style", style]);
            assert!(o.status.success(), "init: {}", text(&o.stderr));
            dir
        })
        .collect();
    let lines = |dir: &Path, file: &str| crate::generator::code_lines(&dir.join(file));
    let number = |s: &str| -> usize {
        let digits: String = s.trim().chars().take_while(char::is_ascii_digit).collect();
        digits
            .parse()
            .unwrap_or_else(|_| panic!("no number in {s:?}"))
    };
    for (i, dir) in dirs.iter().enumerate() {
        for (label, file) in [
            ("code under test (`set.rs`)", "src/set.rs"),
            ("counting test", "tests/counts.rs"),
        ] {
            let n = number(&row(label)[i]);
            assert_eq!(n, lines(dir, file), "{}: {file}", styles[i]);
        }
        // `lib.rs` N, `invariant.rs` N (...), `space.rs` N (...): the sum
        let glue = &row("glue")[i];
        let mut sum = 0;
        let mut files = 0;
        for piece in glue.split('`').skip(1).collect::<Vec<_>>().chunks(2) {
            if let [file, after] = piece {
                if file.ends_with(".rs") {
                    let n = number(after);
                    assert_eq!(
                        n,
                        lines(dir, &format!("src/{file}")),
                        "{}: {file}",
                        styles[i]
                    );
                    sum += n;
                    files += 1;
                }
            }
        }
        assert!(files > 0, "no file counted in {glue:?}");
        let total = glue.rsplit(':').next().unwrap();
        assert_eq!(number(total), sum, "{}: the glue's total", styles[i]);
    }
}
