//! DESIGN.md's module map names every source file of the engine's crates: every package under
//! `korat/`, `mutator/` and `harness/` (the benchmarks and `testdata/` are documented in their
//! own READMEs). A file added without its line in the map fails here, so the map cannot fall
//! behind the code again (it once missed ten files and a whole crate).
//!
//! The map's convention: a crate's section starts with a line `**`<dir>/`**` and lists its
//! files by their path under `<dir>/src/`, in backticks.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ferastrau_harness::locate::workspace_root;

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
