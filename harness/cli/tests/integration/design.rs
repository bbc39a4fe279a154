//! DESIGN.md's module map names every source file of the engine's crates: every package under
//! `korat/`, `mutator/` and `harness/` (the benchmarks and `testdata/` are documented in their
//! own READMEs). A file added without its line in the map fails here, so the map cannot fall
//! behind the code again (it once missed ten files and a whole crate).
//!
//! The map's convention: a crate's section starts with a line `**`<dir>/`**` and lists its
//! files by their path under `<dir>/src/`, in backticks.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::workspace_root;

/// The package directories under `korat/`, `mutator/` and `harness/`, relative to the root
/// (`harness/worker`, ...), found by their `Cargo.toml`.
fn packages(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for top in ["korat", "mutator", "harness"] {
        walk(root, &root.join(top), &mut found);
    }
    found.sort();
    found
}

fn walk(root: &Path, dir: &Path, found: &mut Vec<String>) {
    if dir.join("Cargo.toml").is_file() {
        found.push(relative(root, dir));
    }
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap();
        // A crate's own sources, tests and generated files are not packages of the workspace.
        if path.is_dir() && !["src", "tests", "target", "benches", "examples"].contains(&name) {
            walk(root, &path, found);
        }
    }
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap()
        .to_str()
        .unwrap()
        .replace('\\', "/")
}

/// Every `.rs` file under `<package>/src`, as its path under `src/`.
fn sources(package: &Path) -> Vec<String> {
    fn collect(src: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path: PathBuf = entry.unwrap().path();
            if path.is_dir() {
                collect(src, &path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(relative(src, &path));
            }
        }
    }
    let mut out = Vec::new();
    let src = package.join("src");
    if src.is_dir() {
        collect(&src, &src, &mut out);
    }
    out.sort();
    out
}

/// DESIGN.md's text per crate section, keyed by the section's directory.
fn sections(design: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::<String, String>::new();
    let mut current: Option<String> = None;
    for line in design.lines() {
        if let Some(rest) = line.strip_prefix("**`") {
            current = rest.split_once("/`**").map(|(dir, _)| dir.to_string());
        } else if line.starts_with("## ") {
            current = None;
        }
        if let Some(dir) = &current {
            let text = map.entry(dir.clone()).or_default();
            text.push_str(line);
            text.push('\n');
        }
    }
    map
}

/// The files of `package` (paths under its `src/`) that its section of `design` does not name,
/// as paths from the workspace root.
fn unnamed(design: &str, package: &str, files: &[String]) -> Vec<String> {
    let sections = sections(design);
    let section = sections.get(package).map(String::as_str).unwrap_or("");
    files
        .iter()
        .filter(|f| !section.contains(&format!("`{f}`")))
        .map(|f| format!("{package}/src/{f}"))
        .collect()
}

#[test]
fn design_md_names_every_source_file_of_korat_the_mutator_and_the_harness() {
    let root = workspace_root();
    let design = std::fs::read_to_string(root.join("DESIGN.md")).unwrap();
    let packages = packages(&root);
    for expected in [
        "korat",
        "mutator",
        "mutator/probes",
        "harness",
        "harness/cli",
        "harness/paper",
        "harness/worker",
        "harness/sdk",
        "harness/protocol",
        "harness/artifacts",
        "harness/console",
        "harness/report",
    ] {
        assert!(packages.iter().any(|p| p == expected), "{packages:?}");
    }
    let missing: Vec<String> = packages
        .iter()
        .flat_map(|p| unnamed(&design, p, &sources(&root.join(p))))
        .collect();
    assert!(
        missing.is_empty(),
        "DESIGN.md's module map does not name {missing:?}: add each under its crate's heading \
         (a line starting **`<dir>/`**) as its path under src/, in backticks"
    );
}

#[test]
fn a_file_missing_from_its_section_is_found_even_if_another_section_names_it() {
    let design = "**`korat/`** (crate `korat`)\n\n- `lib.rs` — the surface.\n\n\
                  **`harness/`** (crate `ferastrau`)\n\n- `search.rs` — elsewhere.\n\n## Stages\n\
                  `search.rs` again, outside every section.\n";
    let files = ["lib.rs".to_string(), "search.rs".to_string()];
    assert_eq!(unnamed(design, "korat", &files), ["korat/src/search.rs"]);
    assert_eq!(unnamed(design, "harness", &files), ["harness/src/lib.rs"]);
    assert_eq!(
        unnamed(design, "mutator", &files),
        ["mutator/src/lib.rs", "mutator/src/search.rs"],
        "a crate without a section names nothing"
    );
}

/// The packages `package` depends on, directly or not, through normal dependencies (what a
/// user of it compiles), from `cargo metadata`'s resolve graph.
///
/// Resolved for the host only (`--filter-platform`): offline, cargo cannot resolve the
/// dependencies of other platforms (e.g. Android's of `iana-time-zone`) on a machine that never
/// downloaded them, and they are not what a user here compiles.
fn normal_dependencies(package: &str) -> Vec<String> {
    let rustc = std::process::Command::new("rustc")
        .arg("-vV")
        .output()
        .unwrap();
    let rustc = String::from_utf8(rustc.stdout).unwrap();
    let host = rustc
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names the host");
    let o = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--offline"])
        .args(["--filter-platform", host, "--manifest-path"])
        .arg(workspace_root().join("Cargo.toml"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let name_of = |id: &str| -> String {
        let p = meta["packages"].as_array().unwrap().iter();
        let mut p = p.filter(|p| p["id"] == id);
        p.next().unwrap()["name"].as_str().unwrap().to_string()
    };
    let nodes = meta["resolve"]["nodes"].as_array().unwrap();
    let start = nodes
        .iter()
        .find(|n| name_of(n["id"].as_str().unwrap()) == package)
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut seen = std::collections::BTreeSet::new();
    let mut todo = vec![start];
    while let Some(id) = todo.pop() {
        let node = nodes.iter().find(|n| n["id"] == id.as_str()).unwrap();
        for dep in node["deps"].as_array().unwrap() {
            let normal = dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k["kind"].is_null());
            let id = dep["pkg"].as_str().unwrap().to_string();
            if normal && seen.insert(id.clone()) {
                todo.push(id);
            }
        }
    }
    let mut names: Vec<String> = seen.iter().map(|id| name_of(id)).collect();
    names.sort();
    names
}

/// A benchmark crate compiles the SDK (the trait, Korat, the probes its metamutant calls) and
/// nothing of the worker process or the protocol: what it depends on says what it is for.
#[test]
fn a_benchmark_depends_on_the_sdk_and_not_on_the_worker_process() {
    let ours = |deps: Vec<String>| -> Vec<String> {
        deps.into_iter()
            .filter(|d| d.starts_with("ferastrau") || d == "korat")
            .collect()
    };
    assert_eq!(
        ours(normal_dependencies("search_tree")),
        ["ferastrau-probes", "ferastrau-sdk", "korat"]
    );
    let worker = normal_dependencies("ferastrau-worker");
    for needed in ["ferastrau-sdk", "ferastrau-protocol"] {
        assert!(worker.iter().any(|d| d == needed), "{worker:?}");
    }
}

/// The published `ferastrau` depends on no unpublished crate: `cargo package` refuses a
/// dependency that is never published, so the paper's commands are `ferastrau-paper`'s, built
/// on `ferastrau`, never the other way.
#[test]
fn the_published_cli_does_not_depend_on_the_paper() {
    let deps = normal_dependencies("ferastrau");
    assert!(deps.iter().any(|d| d == "ferastrau-harness"), "{deps:?}");
    assert!(!deps.iter().any(|d| d == "ferastrau-paper"), "{deps:?}");
    assert!(normal_dependencies("ferastrau-paper")
        .iter()
        .any(|d| d == "ferastrau"));
}

/// The `ferastrau` binary builds workers; it never runs Korat or a benchmark itself. It reads
/// what workers leave behind (stored inputs, reach sets, the cursor, progress) through the
/// protocol crate, which defines those files, and links neither the worker runtime nor what
/// the runtime links: building the binary compiles no Korat, no derive and no SDK.
#[test]
fn the_cli_does_not_link_the_worker_runtime() {
    let deps = normal_dependencies("ferastrau");
    assert!(deps.iter().any(|d| d == "ferastrau-protocol"), "{deps:?}");
    for runtime in [
        "ferastrau-worker",
        "ferastrau-sdk",
        "korat",
        "korat-derive",
        "korat-choice",
    ] {
        assert!(
            !deps.iter().any(|d| d == runtime),
            "the CLI links {runtime}: {deps:?}"
        );
    }
}

/// The readers (`ferastrau-report`: the page, the Stryker JSON, the gate, a suite's page) read
/// what runs wrote and never run anything: they depend on the files' types and not on the run
/// code, nor on what only a worker links, and the run code does not depend on them: the
/// binary calls both.
#[test]
fn the_readers_do_not_depend_on_the_run_code_nor_it_on_them() {
    let readers = normal_dependencies("ferastrau-report");
    assert!(
        readers.iter().any(|d| d == "ferastrau-artifacts"),
        "{readers:?}"
    );
    for run in [
        "ferastrau-harness",
        "ferastrau-worker",
        "ferastrau-sdk",
        "korat",
    ] {
        assert!(
            !readers.iter().any(|d| d == run),
            "ferastrau-report depends on {run}: {readers:?}"
        );
    }
    let harness = normal_dependencies("ferastrau-harness");
    assert!(
        !harness.iter().any(|d| d == "ferastrau-report"),
        "ferastrau-harness depends on the readers: {harness:?}"
    );
    let cli = normal_dependencies("ferastrau");
    for both in ["ferastrau-harness", "ferastrau-report"] {
        assert!(cli.iter().any(|d| d == both), "{cli:?}");
    }
}

/// DESIGN.md's layer rules name the tests that check them (`layers::x`, `design::x`, or a
/// prefix ending in `*`): each name must be a test of that file, so that a renamed or deleted
/// check cannot leave a rule in the document that nothing enforces.
#[test]
fn the_layer_rules_of_design_md_name_tests_that_exist() {
    let root = workspace_root();
    let design = std::fs::read_to_string(root.join("DESIGN.md")).unwrap();
    let mut cited = 0;
    for (i, _) in design.match_indices('`') {
        let rest = &design[i + 1..];
        let Some(end) = rest.find('`') else { continue };
        let name = &rest[..end];
        let Some((file, test)) = name
            .split_once("::")
            .filter(|(f, _)| ["layers", "design"].contains(f))
        else {
            continue;
        };
        let text = std::fs::read_to_string(
            root.join("harness/cli/tests/integration")
                .join(format!("{file}.rs")),
        )
        .unwrap();
        let found = match test.strip_suffix('*') {
            Some(prefix) => text.contains(&format!("fn {prefix}")),
            None => text.contains(&format!("fn {test}()")),
        };
        assert!(
            found,
            "DESIGN.md cites `{name}`, which is no test of {file}.rs"
        );
        cited += 1;
    }
    assert!(cited >= 5, "DESIGN.md cites {cited} layer tests");
}
