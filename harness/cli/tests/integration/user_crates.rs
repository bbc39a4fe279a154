//! A user's crate outside the workspace, as each command finds it: the metadata's names and
//! the `--benchmark-path` are checked before any work, each mistake with its own message; a
//! command run in a crate's directory works on that crate; the binary installed elsewhere
//! evaluates a crate outside the checkout. The crates are written by `init` (see
//! [`crate::init`]).

use std::path::Path;
use std::process::Command;

use crate::common::*;
use crate::init::{init_crate, path_str, SKELETON_INPUTS};

#[test]
fn every_command_refuses_an_unknown_name_in_the_metadata_before_any_work() {
    let (_tmp, dir) = init_crate("typo-set");
    let manifest = dir.join("Cargo.toml");
    for (from, to, named) in [
        (
            "\"IntSet::contains\"",
            "\"IntSet::contain\"",
            "IntSet::contain",
        ),
        ("\"rep_ok\"", "\"rep_okay\"", "rep_okay"),
    ] {
        edit(&manifest, from, to);
        for command in ["generate", "check", "mutants", "evaluate"] {
            let mut args = vec![command, "--benchmark-path", path_str(&dir)];
            if command != "mutants" {
                args.extend(["--scopes", "1"]);
            }
            if command == "evaluate" {
                args.extend(["--out", "/nonexistent/never-written"]);
            }
            let o = ferastrau(&args);
            let err = text(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{command}: {err}");
            assert!(
                err.contains(&format!("no function `{named}`")) && err.contains("did you mean"),
                "{command}: {err}"
            );
            assert!(crate::common::one_error(&err), "{command}: {err}");
        }
        edit(&manifest, to, from);
    }
}

#[test]
fn benchmark_paths_get_accurate_messages_and_a_manifest_counts_as_its_crate() {
    let (tmp, dir) = init_crate("path-set");
    std::fs::create_dir(tmp.path().join("empty")).unwrap();
    for (path, expect) in [
        (tmp.path().join("missing"), "does not exist"),
        (dir.join("src/lib.rs"), "is a file, not a crate"),
        (
            tmp.path().join("empty"),
            "is not a benchmark crate: it has no Cargo.toml",
        ),
    ] {
        let o = ferastrau(&[
            "generate",
            "--benchmark-path",
            path_str(&path),
            "--scopes",
            "1",
        ]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{}: {err}", path.display());
        assert!(err.contains(expect), "{}: {err}", path.display());
        assert!(err.contains(path_str(&path)), "names the path: {err}");
    }
    // A path to the manifest itself is the crate it describes.
    let o = ferastrau(&[
        "generate",
        "--benchmark-path",
        path_str(&dir.join("Cargo.toml")),
        "--scopes",
        "2",
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["benchmark"], "path-set");
    let (add, remove_first) = SKELETON_INPUTS[1];
    assert_eq!(
        doc["scopes"][0]["inputs"].as_u64(),
        Some(add + remove_first)
    );
}

/// Run in a crate's directory, a command works on that crate; outside a checkout, the
/// paper's benchmarks by name are refused with how to get them, and a directory with no crate
/// is refused with what to do (each status 2, before any work).
#[test]
fn commands_default_to_the_crate_in_the_current_directory() {
    let (tmp, dir) = init_crate("here-set");
    let run = |cwd: &Path, args: &[&str]| {
        command(args)
            .current_dir(cwd)
            .output()
            .expect("the ferastrau binary runs")
    };
    let o = run(&dir, &["generate", "--scopes", "2", "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["benchmark"], "here-set");
    // Outside any checkout: no paper benchmarks by name, and no crate here.
    let o = run(tmp.path(), &["generate", "--benchmark", "search_tree"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("live in a Ferastrau checkout") && err.contains("--benchmark-path DIR"),
        "{err}"
    );
    let o = run(tmp.path(), &["generate"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("holds no benchmark crate") && err.contains("cargo ferastrau init"),
        "{err}"
    );
    // As cargo runs it: `cargo ferastrau generate` is `cargo-ferastrau ferastrau generate`.
    let cargo_ferastrau = Path::new(env!("CARGO_BIN_EXE_cargo-ferastrau"));
    let o = Command::new(cargo_ferastrau)
        .args(["ferastrau", "generate", "--scopes", "1", "--json"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", shared_target())
        .env(OPT_LEVEL_VAR, FAST_BUILDS)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["benchmark"], "here-set");
}

/// The binary alone, elsewhere, run from a directory outside the checkout on a crate outside
/// it. It evaluates the crate, says once (the first time) where that crate's builds are
/// cached (its target directory: `$CARGO_TARGET_DIR` here, which the tests share; a crate's
/// own `target/` in `scripts/install-test.sh`), and names its page.
#[test]
fn an_installed_binary_evaluates_a_crate_outside_the_checkout() {
    let (tmp, dir) = init_crate("leftist-heap");
    let lib = std::fs::read_to_string(dir.join("tests/counts.rs")).unwrap();
    assert!(
        lib.contains("use leftist_heap::LeftistHeapBenchmark as Bench;"),
        "{lib}"
    );
    let bin = tmp.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let installed = bin.join("ferastrau");
    std::fs::copy(env!("CARGO_BIN_EXE_ferastrau"), &installed).unwrap();
    // Started as the harness starts its workers: a binary just copied may be "busy" for the
    // length of another test thread's fork.
    let run = || {
        let mut cmd = Command::new(&installed);
        cmd.args([
            "evaluate",
            "--benchmark-path",
            "leftist-heap",
            "--scopes",
            "1..2",
        ])
        .env(ferastrau_mutator::compile::OPT_LEVEL_VAR, FAST_BUILDS)
        .env("CARGO_TARGET_DIR", shared_target())
        .current_dir(tmp.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
        ferastrau_harness::process::spawn(&mut cmd)
            .unwrap()
            .wait_with_output()
            .unwrap()
    };
    let first = run();
    let err = text(&first.stderr);
    assert!(first.status.success(), "{err}");
    let cached = format!(
        "Caching builds of leftist-heap in {}",
        shared_target().join("ferastrau").display()
    );
    assert!(err.contains(&cached), "{err}");
    let out = text(&first.stdout);
    assert!(
        out.contains("report: ferastrau.out/leftist-heap/report.html"),
        "{out}"
    );
    let evaluation = json(
        &tmp.path()
            .join("ferastrau.out/leftist-heap/evaluation.json"),
    );
    assert_eq!(evaluation["scopes"].as_array().unwrap().len(), 2);
    // The skeleton's input notation reaches the page.
    let page =
        std::fs::read_to_string(tmp.path().join("ferastrau.out/leftist-heap/report.html")).unwrap();
    assert!(page.contains("adds 2 to the set"), "no input notation");
    // Said once: the second run finds the cache.
    let second = run();
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert!(
        !text(&second.stderr).contains("Caching"),
        "{}",
        text(&second.stderr)
    );
}
