//! Helpers shared by the command-line tests: run the real binary, `crate::BIN` (`ferastrau`
//! here; `harness/paper/tests/` includes this file by path and runs `ferastrau-paper`).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `faulty` fixture's usual run: scopes 1..2 under limits that let its misbehaving mutants
/// die quickly (a clock timeout of 150 ms, 256 MiB of address space). The clock floor is most
/// of these tests' time: `faulty`'s loop without ticks runs to it, then to the confirmation's
/// ten times wider limit, at each scope of every run (at 300 ms, 6.6 s a run, a fifth of the
/// CLI's tests' wall time). Its other mutants die in about 10 ms.
pub const FAULTY_LIMITS: [&str; 6] = [
    "--scopes",
    "1..2",
    "--timeout-floor",
    "150ms",
    "--memory-limit",
    "256M",
];

/// The checkout these tests were compiled in (a test may know where it was built; the binary
/// finds what it needs at run time). Every test crate that includes this module lives two
/// directories below the root (`harness/cli`, `harness/paper`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the checkout exists")
}

pub fn ferastrau(args: &[&str]) -> Output {
    command(args).output().expect("the ferastrau binary runs")
}

/// The binary under test (`crate::BIN`) with `args`, not yet started, building its workers
/// unoptimised ([`FAST_BUILDS`]).
pub fn command(args: &[&str]) -> Command {
    let mut c = Command::new(crate::BIN);
    c.args(args)
        .env(OPT_LEVEL_VAR, FAST_BUILDS)
        .env(EQUIVALENCE_VAR, "0")
        .env("CARGO_TARGET_DIR", shared_target());
    c
}

/// Trivial compiler equivalence is off in these tests (`FERASTRAU_COMPILER_EQUIVALENCE=0`):
/// its one compile per metamutant (about 0.6 CPU-s at this size) times the hundred-odd crates
/// the tests mutate would cost CI a minute. The tests of the comparison switch it on
/// (`matrix::compiler_verdicts_agree_with_the_kill_matrix`).
pub use ferastrau_mutator::equivalence::SWITCH_VAR as EQUIVALENCE_VAR;

/// The target directory every crate these tests evaluate builds in (`CARGO_TARGET_DIR`): the
/// workspace's. A crate's builds go to its own target directory, and the fixtures and the
/// crates the tests write in temporary directories each have one: with their own, each would
/// compile the workers' dependencies again (the installed binary's test checks that a crate
/// left alone keeps its builds in its own).
pub fn shared_target() -> PathBuf {
    workspace_root().join("target")
}

/// The workers' opt-level in these tests (`FERASTRAU_OPT_LEVEL`): the tests build about
/// seventy workers, each about 5 CPU-seconds at opt-level 3 and under one at 0, and run them
/// on small scopes. Every test uses it, the snapshots too, which therefore record how a
/// recursion without end dies at 0 (`chain`'s one: a crash, where 3 makes it a loop and a
/// timeout): a second opt-level would compile every dependency of the workers again, one
/// build after another behind cargo's lock (47 s of the tests' wall time when the snapshots
/// used 3).
pub const FAST_BUILDS: &str = "0";
pub use ferastrau_mutator::compile::OPT_LEVEL_VAR;

/// [`FAST_BUILDS`] for the workers this test process builds itself (through the harness's
/// library rather than the binary).
pub fn fast_builds_in_process() {
    static SET: std::sync::Once = std::sync::Once::new();
    SET.call_once(|| {
        std::env::set_var(OPT_LEVEL_VAR, FAST_BUILDS);
        std::env::set_var(EQUIVALENCE_VAR, "0");
        std::env::set_var("CARGO_TARGET_DIR", shared_target());
    });
}

/// The purpose-built crate `testdata/<name>` (see `testdata/README.md`).
pub fn fixture(name: &str) -> PathBuf {
    workspace_root().join("testdata").join(name)
}

/// `ferastrau <cmd> --benchmark-path testdata/<name> <args>`, run to its end.
pub fn on_fixture(cmd: &str, name: &str, args: &[&str]) -> Output {
    let path = fixture(name);
    let mut all = vec![cmd, "--benchmark-path", path.to_str().expect("utf-8 path")];
    all.extend_from_slice(args);
    ferastrau(&all)
}

/// Copies the fixture `name` to `dest` (a crate outside the repository, like a user's), its
/// dependency on the SDK made absolute.
pub fn copy_fixture(name: &str, dest: &Path) {
    let src = fixture(name);
    std::fs::create_dir_all(dest.join("src")).unwrap();
    let sdk = workspace_root().join("harness/sdk");
    let manifest = std::fs::read_to_string(src.join("Cargo.toml"))
        .unwrap()
        .replace(
            "\"../../harness/sdk\"",
            &format!("{:?}", sdk.display().to_string()),
        );
    std::fs::write(dest.join("Cargo.toml"), manifest).unwrap();
    for f in std::fs::read_dir(src.join("src")).unwrap() {
        let f = f.unwrap();
        std::fs::copy(f.path(), dest.join("src").join(f.file_name())).unwrap();
    }
}

/// Replaces `from` by `to` in `file`, which must contain it.
pub fn edit(file: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "{} has no {from:?}", file.display());
    std::fs::write(file, text.replacen(from, to, 1)).unwrap();
}

/// `git -C repo args` with a committer identity, which must succeed; its output.
pub fn git(repo: &Path, args: &[&str]) -> Output {
    let o = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "git {args:?}: {}", text(&o.stderr));
    o
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Whether `stderr` holds exactly one error line (`error: ...`) and otherwise only the stage
/// lines a command announces its work with (`    Building the worker of ...`): one message a
/// user reads, not a cascade.
pub fn one_error(stderr: &str) -> bool {
    let stage = |l: &str| {
        let verb = l.trim_start();
        l.len() - verb.len() + verb.find(' ').unwrap_or(0) == 12
            && verb.starts_with(|c: char| c.is_ascii_uppercase())
    };
    let lines: Vec<&str> = stderr.trim_end().lines().collect();
    lines.iter().filter(|l| l.starts_with("error: ")).count() == 1
        && lines.iter().all(|l| l.starts_with("error: ") || stage(l))
}

/// `stderr` is clap's rendering of a mistake on the command line: `error: ...`, a "tip" for a
/// misspelling, the usage line where it helps, and where to read more.
pub fn clap_error(stderr: &str) -> bool {
    stderr.starts_with("error: ") && stderr.contains("For more information, try '--help'.")
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

/// Status per (mutant, scope) of a mutants.json, without anything time-dependent.
pub fn statuses(
    mutants: &serde_json::Value,
) -> std::collections::BTreeMap<(u64, String), serde_json::Value> {
    let mut out = std::collections::BTreeMap::new();
    for m in mutants["mutants"].as_array().expect("mutants") {
        let id = m["id"].as_u64().unwrap();
        for (scope, r) in m["scopes"].as_object().expect("scopes") {
            out.insert((id, scope.clone()), r.clone());
        }
    }
    out
}

/// The evaluation rows without their timings.
pub fn untimed(evaluation: &serde_json::Value) -> Vec<serde_json::Value> {
    evaluation["scopes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let mut s = s.clone();
            let o = s.as_object_mut().unwrap();
            o.remove("generation_seconds");
            o.remove("checking_seconds");
            s
        })
        .collect()
}

/// The processes (other than this one) whose environment holds `tag`: a test's way to find
/// the workers a harness it started left behind.
pub fn processes_tagged(tag: &str) -> Vec<String> {
    let mut found = Vec::new();
    let me = std::process::id().to_string();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.bytes().all(|b| b.is_ascii_digit()) || name == me {
            continue;
        }
        let Ok(env) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        if env.split(|&b| b == 0).any(|kv| kv == tag.as_bytes()) {
            let cmd = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            found.push(format!("{name}: {}", text(&cmd).replace('\0', " ")));
        }
    }
    found
}

/// The shell command `line` run on a pseudo-terminal (util-linux's `script`), as a user's
/// terminal runs it: a colour terminal, colour off only with `no_color` (`NO_COLOR`), the tests'
/// worker builds.
pub fn on_a_terminal(line: &str, no_color: bool) -> Output {
    let mut c = Command::new("script");
    c.args(["-qec", line, "/dev/null"])
        .env(OPT_LEVEL_VAR, FAST_BUILDS)
        .env(EQUIVALENCE_VAR, "0")
        .env("CARGO_TARGET_DIR", shared_target())
        .env("TERM", "xterm-256color")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE");
    if no_color {
        c.env("NO_COLOR", "1");
    }
    c.output().expect("util-linux's script runs")
}

/// The running processes whose command line (arguments joined by spaces) contains `needle`:
/// each pid and command line.
pub fn processes_with(needle: &str) -> Vec<(i32, String)> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|p| {
            let pid = p.file_name().to_string_lossy().parse().ok()?;
            let cmdline = std::fs::read(p.path().join("cmdline")).ok()?;
            Some((pid, String::from_utf8_lossy(&cmdline).replace('\0', " ")))
        })
        .filter(|(_, c)| c.contains(needle))
        .collect()
}
