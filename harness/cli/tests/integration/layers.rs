//! The pipeline's modules import downward only: no top-level module of `ferastrau-harness`
//! (`harness/src/<module>.rs` or `harness/src/<module>/`) uses, directly or through others, a
//! module that uses it back. (Once 22 files imported each other in one circle: the report
//! writer knew every reader.) The same holds in the crates beside it that have modules of
//! their own to order: the readers (`ferastrau-report`: the page, the gate, a suite's page)
//! and the console. A use is a `crate::<module>` path outside the `#[cfg(test)]` tail of a
//! file, doc links included: a doc link is a dependency a reader follows.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::common::workspace_root;

/// Top-level module → the top-level modules it names through `crate::`.
type Graph = BTreeMap<String, BTreeSet<String>>;

/// The modules each file of the crate rooted at `src` names.
fn graph(src: &Path) -> Graph {
    graph_through(src, &["crate::"])
}

/// The modules each file under `src` names through any of `paths` (`crate::` for a crate's
/// top-level modules; `super::` for the files of one module's directory, whose `mod.rs` is
/// their parent and no module of its own).
fn graph_through(src: &Path, paths: &[&str]) -> Graph {
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    collect(src, src, &mut texts);
    let modules: BTreeSet<String> = texts
        .keys()
        .map(|f| module_of(f))
        .filter(|m| m != "lib" && m != "main" && m != "mod")
        .collect();
    let mut g = Graph::new();
    for (file, text) in &texts {
        let from = module_of(file);
        if !modules.contains(&from) {
            continue;
        }
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let uses = g.entry(from.clone()).or_default();
        for (i, path) in paths.iter().flat_map(|p| code.match_indices(p)) {
            let name: String = code[i + path.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            // `ferastrau_harness::x` from a doc of this crate is not a `crate::` path.
            let before = &code[..i];
            if before.ends_with('_') || before.ends_with(|c: char| c.is_ascii_alphanumeric()) {
                continue;
            }
            if name != from && modules.contains(&name) {
                uses.insert(name);
            }
        }
    }
    g
}

fn collect(src: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(src, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path
                .strip_prefix(src)
                .unwrap()
                .to_str()
                .unwrap()
                .to_string();
            out.insert(rel, std::fs::read_to_string(&path).unwrap());
        }
    }
}

/// `evaluate/report.rs` → `evaluate`, `shard.rs` → `shard`.
fn module_of(file: &str) -> String {
    let first = file.split('/').next().unwrap();
    first.strip_suffix(".rs").unwrap_or(first).to_string()
}

/// Every circle of `g`, each as a path that starts and ends at the same module.
fn circles(g: &Graph) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for start in g.keys() {
        // Breadth-first from `start`'s uses back to `start`: the shortest circle through it.
        let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
        let mut frontier: Vec<&str> = vec![start];
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        'search: while !frontier.is_empty() {
            let mut next = Vec::new();
            for m in frontier {
                for u in g.get(m).into_iter().flatten() {
                    if u == start {
                        let mut path = vec![start.clone(), m.to_string()];
                        let mut at = m;
                        while at != start {
                            at = came_from[at];
                            path.push(at.to_string());
                        }
                        path.reverse();
                        path.pop();
                        path.push(start.clone());
                        found.push(path);
                        break 'search;
                    }
                    if seen.insert(u) {
                        came_from.insert(u, m);
                        next.push(u.as_str());
                    }
                }
            }
            frontier = next;
        }
    }
    found
}

/// Fails naming every circle among the top-level modules of the crate whose sources are
/// `src` (relative to the workspace root), which has at least `modules` of them (so that a
/// moved directory is not checked as an empty one).
fn assert_no_circles(src: &str, modules: usize) {
    let g = graph(&workspace_root().join(src));
    assert!(
        g.len() >= modules,
        "the modules of {src} were not found: {g:?}"
    );
    let found = circles(&g);
    assert!(
        found.is_empty(),
        "import circles in {src} (move what both need to a lower module):\n{}",
        found
            .iter()
            .map(|c| c.join(" -> "))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn no_module_of_the_pipeline_imports_one_that_imports_it_back() {
    assert_no_circles("harness/src", 16);
}

/// The CLI's commands (`harness/cli/src/cli/*.rs`): what prints (`show`) and what draws
/// (`page`) sit below every command, so that no command imports another that imports it back
/// (once `commands`, `evaluate` and `suite` did, in a circle).
#[test]
fn no_command_of_the_cli_imports_one_that_imports_it_back() {
    let dir = workspace_root().join("harness/cli/src/cli");
    let g = graph_through(&dir, &["super::", "crate::cli::"]);
    assert!(g.len() >= 10, "the CLI's commands were not found: {g:?}");
    let found = circles(&g);
    assert!(
        found.is_empty(),
        "import circles among the CLI's commands: {found:?}"
    );
}

#[test]
fn no_module_of_the_readers_or_the_console_imports_one_that_imports_it_back() {
    assert_no_circles("harness/report/src", 3);
    assert_no_circles("harness/console/src", 2);
}

/// Every other crate of the workspace with modules to order (`harness/speed` and the
/// benchmarks have one file each, the CLI is checked above): no circle anywhere.
#[test]
fn no_module_of_any_other_crate_imports_one_that_imports_it_back() {
    for (src, modules) in [
        ("korat/src", 10),
        ("korat/choice/src", 3),
        ("korat/derive/src", 7),
        ("mutator/src", 16),
        ("mutator/probes/src", 1),
        ("harness/artifacts/src", 12),
        ("harness/protocol/src", 6),
        ("harness/sdk/src", 9),
        ("harness/worker/src", 12),
        ("harness/paper/src", 8),
    ] {
        assert_no_circles(src, modules);
    }
}

/// The crates whose code may name the paper's tables: the paper's own.
const PAPER_CRATE: &str = "harness/paper";

/// The words of `code` outside comments that name one of the paper's tables (`table3`,
/// `Table3Row`, `table3.json`) or a figure named after the paper (`paper_kill_rate`).
/// Comments may cite the paper ("the paper's Table 1"): a citation is no dependency.
fn paper_names(code: &str) -> Vec<String> {
    code.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .flat_map(|l| l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
        .filter(|w| {
            let lower = w.to_ascii_lowercase();
            let table = lower
                .strip_prefix("table")
                .is_some_and(|rest| rest.starts_with(['1', '2', '3', '4']));
            table || lower.starts_with("paper_")
        })
        .map(str::to_string)
        .collect()
}

/// `paper_names` of every source file under `dir` (relative paths).
fn paper_names_under(dir: &Path) -> Vec<String> {
    let mut texts = BTreeMap::new();
    collect(dir, dir, &mut texts);
    texts
        .iter()
        .flat_map(|(file, text)| {
            paper_names(text)
                .into_iter()
                .map(move |w| format!("{file}: {w}"))
        })
        .collect()
}

/// The paper lives behind its wall: the tool's crates (`korat/`, `mutator/`, `harness/`) know
/// operator families, scopes and random subsets, and only `harness/paper` names the paper's
/// tables and the figures it compares (Table 3 is its reading of `subsets.json`, its kill rate
/// over three families its sum of `by_family`).
#[test]
fn no_crate_but_the_papers_names_the_papers_tables() {
    let root = workspace_root();
    let mut found = Vec::new();
    for top in ["korat", "mutator", "harness"] {
        for manifest in manifests(&root.join(top)) {
            let package = manifest.parent().unwrap();
            if package.ends_with(PAPER_CRATE) {
                continue;
            }
            for dir in ["src", "build.rs"] {
                let path = package.join(dir);
                if path.is_dir() {
                    found.extend(paper_names_under(&path));
                } else if path.is_file() {
                    found.extend(paper_names(&std::fs::read_to_string(&path).unwrap()));
                }
            }
        }
    }
    assert!(found.len() < 1000 && !manifests(&root.join("harness")).is_empty());
    assert!(
        found.is_empty(),
        "the paper's tables named outside {PAPER_CRATE}:\n{}",
        found.join("\n")
    );
}

/// Every `Cargo.toml` under `dir`, but none under a `target/` or a test's `tests/`.
fn manifests(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() && !["target", "tests", "src", "node_modules"].contains(&name.as_str()) {
            out.extend(manifests(&path));
        } else if name == "Cargo.toml" {
            out.push(path);
        }
    }
    out
}

#[test]
fn a_table_of_the_paper_named_in_code_is_found_and_a_citation_is_not() {
    let code = "//! As the paper's Table 3 has it.\n\
                pub struct Row { pub paper_kill_rate: f64 }\n\
                const F: &str = \"table3.json\"; // Table 4\n\
                fn subsets(t: Table3Row) {}\n\
                let tables = 4; let table = 1;";
    assert_eq!(
        paper_names(code),
        ["paper_kill_rate", "table3", "Table3Row"],
        "a comment line is a citation; a trailing comment is read as code, so keep citations on their own lines"
    );
}

#[test]
fn a_circle_through_a_third_module_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("report")).unwrap();
    std::fs::write(
        src.join("lib.rs"),
        "pub mod run; pub mod report; pub mod html;",
    )
    .unwrap();
    std::fs::write(src.join("run.rs"), "use crate::report::Row;").unwrap();
    std::fs::write(src.join("report/mod.rs"), "/// See [`crate::html`].").unwrap();
    std::fs::write(
        src.join("html.rs"),
        "use crate::run::X;\n#[cfg(test)]\nmod t { use crate::report::Y; }",
    )
    .unwrap();
    let found = circles(&graph(src));
    assert!(
        found.contains(&vec![
            "html".to_string(),
            "run".to_string(),
            "report".to_string(),
            "html".to_string()
        ]),
        "{found:?}"
    );
    // A use only under `#[cfg(test)]` is not an edge; without the doc link there is no circle.
    std::fs::write(src.join("report/mod.rs"), "pub struct Row;").unwrap();
    assert!(circles(&graph(src)).is_empty());
}
