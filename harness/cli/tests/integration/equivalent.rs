//! Every committed report's survivors are argued: for each `reports/<b>/`, the mutants that
//! survive its largest scope in `mutants.json` are exactly those `EQUIVALENT.md` lists (by
//! content key), each entry's diff is the mutant's, and each has a verdict and a reason.
//!
//! `FERASTRAU_BLESS=1 cargo test --release -p ferastrau --test integration equivalent::` rewrites the
//! generated part of every document (creating missing ones; `FERASTRAU_BLESS=b1,b2` only
//! those of `reports/b1/`, `reports/b2/`): entries of mutants that no longer
//! survive go, new survivors get a placeholder argument, which this test then refuses until a
//! person replaces it.

use crate::support::equivalent_doc;

use std::path::{Path, PathBuf};

use equivalent_doc::{
    check, new_head, parse, read_run, references, render, Doc, Run, FILE, PLACEHOLDER,
};

fn repo() -> PathBuf {
    crate::common::workspace_root()
}

/// Every committed report: each directory under `reports/` named after a benchmark is one (a
/// report that lost its `mutants.json` fails the test rather than dropping out of it).
fn report_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(repo().join("reports"))
        .unwrap()
        .map(|e| e.unwrap().path())
        // A benchmark's report, not `reports/paper/` (the paper's tables).
        .filter(|p| {
            p.is_dir()
                && repo()
                    .join("benchmarks")
                    .join(p.file_name().unwrap())
                    .is_dir()
        })
        .collect();
    dirs.sort();
    dirs
}

fn run_of(report: &Path) -> anyhow::Result<Run> {
    let name = report.file_name().unwrap();
    read_run(report, &repo().join("benchmarks").join(name))
}

/// Whether to rewrite `report`'s document: `FERASTRAU_BLESS=1` (or `all`) for every report,
/// otherwise a comma-separated list of report directory names.
fn blessing(report: &Path) -> bool {
    let Some(v) = std::env::var_os("FERASTRAU_BLESS") else {
        return false;
    };
    let v = v.to_string_lossy();
    let name = report.file_name().unwrap().to_string_lossy();
    v == "1" || v == "all" || v.split(',').any(|b| b == name)
}

#[test]
fn every_committed_report_has_an_argued_list_of_exactly_its_survivors() {
    let dirs = report_dirs();
    assert!(!dirs.is_empty(), "no committed reports found");
    let mut failures = Vec::new();
    for dir in dirs {
        let run = match run_of(&dir) {
            Ok(run) => run,
            Err(e) => {
                failures.push(format!("{}: {e:#}", dir.display()));
                continue;
            }
        };
        let path = dir.join(FILE);
        if blessing(&dir) {
            let doc = match std::fs::read_to_string(&path) {
                Ok(text) => parse(&text).unwrap_or_else(|e| panic!("{}: {e:#}", path.display())),
                Err(_) => Doc {
                    head: new_head(&run),
                    arguments: Vec::new(),
                },
            };
            std::fs::write(&path, render(&doc, &run)).unwrap();
        }
        match std::fs::read_to_string(&path) {
            Err(_) => failures.push(format!("{}: missing", path.display())),
            Ok(text) => {
                for p in check(&text, &run) {
                    failures.push(format!("{}: {p}", path.display()));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n(`FERASTRAU_BLESS=1 cargo test --release -p ferastrau --test integration equivalent::` regenerates the lists; arguments are written by hand)",
        failures.join("\n")
    );
}

/// The checker itself, on a small report made up here: it must reject each way a document can
/// fall behind its report.
mod checker {
    use super::*;
    use serde_json::json;

    const SOURCE: &str =
        "fn f(a: i32) -> i32 {\n    if a > 0 {\n        a + 1\n    } else {\n        0\n    }\n}\n";

    fn mutant(
        id: u32,
        line: usize,
        column: usize,
        old: &str,
        new: &str,
        status: &str,
    ) -> serde_json::Value {
        let end = column + old.chars().count();
        json!({
            "id": id, "key": format!("f operator: {old} -> {new} #0"), "family": "operator",
            "function": "f", "file": "src/lib.rs", "line": line, "column": column,
            "original": old, "replacement": new, "viable": true,
            "edit": {"start": {"line": line, "column": column}, "end": {"line": line, "column": end},
                     "old": old, "new": format!("{new}/*{old}*/")},
            "scopes": {"1": {"status": "killed"}, "2": {"status": status}},
        })
    }

    /// A report where mutant 1 (`>` → `>=`) survives scope 2 and mutant 2 (`+` → `-`) does not.
    fn report(second: &str) -> (tempfile::TempDir, Run) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/lib.rs"), SOURCE).unwrap();
        let survivors = 1 + u64::from(second == "survived");
        let mutants = json!({"benchmark": "toy", "schema_version": 1, "mutants": [
            mutant(1, 2, 10, ">", ">=", "survived"), mutant(2, 3, 11, "+", "-", second)]});
        // A whole evaluation.json (the reader takes nothing less): a committed report's, with
        // the figures this toy's two mutants give.
        use ferastrau_artifacts::{Artifact as _, Evaluation};
        let mut evaluation =
            Evaluation::read(&repo().join("reports/search_tree/evaluation.json")).unwrap();
        let template = evaluation.scopes[0].clone();
        let row = |scope: u32, killed: u32| {
            let mut r = template.clone();
            r.scope = scope;
            r.mutants = 2;
            r.killed = killed;
            r.kill_rate = f64::from(killed) * 50.0;
            r.by_family = [(
                ferastrau_artifacts::Family::Operator,
                ferastrau_artifacts::FamilyKills {
                    kill_rate: r.kill_rate,
                    killed,
                    mutants: 2,
                },
            )]
            .into();
            r
        };
        evaluation.benchmark = "toy".into();
        evaluation.scopes = vec![row(1, 2), row(2, 2 - survivors as u32)];
        std::fs::write(dir.path().join("mutants.json"), mutants.to_string()).unwrap();
        evaluation
            .write(&dir.path().join("evaluation.json"))
            .unwrap();
        let run = read_run(dir.path(), dir.path()).unwrap();
        (dir, run)
    }

    fn argued(run: &Run) -> String {
        let doc = Doc {
            head: "# Toy\n\nHow it was run.\n".into(),
            arguments: run
                .survivors
                .iter()
                .map(|s| (s.key.clone(), "**Equivalent.** a reason".to_string()))
                .collect(),
        };
        render(&doc, run)
    }

    #[test]
    fn survivors_are_those_of_the_largest_scope_with_their_diffs() {
        let (_dir, run) = report("killed");
        assert_eq!(run.largest.scope, 2);
        assert_eq!(run.survivors.len(), 1);
        assert_eq!(run.survivors[0].key, "f operator: > -> >= #0");
        assert_eq!(
            run.survivors[0].diff,
            "-    if a > 0 {\n+    if a >=/*>*/ 0 {\n"
        );
    }

    #[test]
    fn a_current_document_passes_and_survives_a_reparse() {
        let (_dir, run) = report("killed");
        let text = argued(&run);
        assert_eq!(check(&text, &run), Vec::<String>::new());
        assert_eq!(render(&parse(&text).unwrap(), &run), text);
        assert!(text.contains("| Equivalent | 1 |"), "{text}");
        assert!(text.contains("1 of 2 mutants killed (50.00%;"), "{text}");
    }

    #[test]
    fn a_new_survivor_without_an_entry_fails_and_blessing_leaves_a_placeholder() {
        let (_dir, before) = report("killed");
        let text = argued(&before);
        let (_dir2, after) = report("survived");
        let problems = check(&text, &after);
        assert!(
            problems
                .iter()
                .any(|p| p.contains("`f operator: + -> - #0` survives but has no entry")),
            "{problems:?}"
        );
        let blessed = render(&parse(&text).unwrap(), &after);
        assert!(blessed.contains(PLACEHOLDER));
        let problems = check(&blessed, &after);
        assert!(
            problems
                .iter()
                .any(|p| p.contains("does not start with a verdict")),
            "{problems:?}"
        );
    }

    #[test]
    fn a_reference_to_a_mutant_without_an_entry_fails() {
        let (_dir, run) = report("killed");
        let text = argued(&run).replace("a reason", "as 1 is (see 1)");
        assert_eq!(check(&text, &run), Vec::<String>::new());
        let text = argued(&run).replace("a reason", "as 7 is (see 1 and 7)");
        let problems = check(&text, &run);
        assert!(
            problems
                .iter()
                .any(|p| p.contains("refers to mutant 7, which has no entry here")),
            "{problems:?}"
        );
        assert_eq!(
            references("see 12, 14 and 20; see also 3"),
            vec![12, 14, 20, 3]
        );
    }

    /// The report of `report("killed")`, with mutant 1's `next_scope` set to `mark`.
    fn with_next_scope(mark: serde_json::Value) -> (tempfile::TempDir, Run) {
        let (dir, _) = report("killed");
        let path = dir.path().join("mutants.json");
        let mut doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        doc["mutants"][0]["next_scope"] = mark;
        std::fs::write(&path, doc.to_string()).unwrap();
        let run = read_run(dir.path(), dir.path()).unwrap();
        (dir, run)
    }

    #[test]
    fn scope_plus_one_shows_under_the_key_and_a_kill_there_refutes_equivalence() {
        let (_dir, run) = with_next_scope(json!({"status": "survived", "scope": 3}));
        let text = argued(&run);
        assert!(text.contains("Scope 3: survives s+1."), "{text}");
        assert!(
            text.contains("1 survive s+1, 0 killed at s+1, 0 not run"),
            "{text}"
        );
        assert_eq!(check(&text, &run), Vec::<String>::new());
        assert_eq!(render(&parse(&text).unwrap(), &run), text);

        let (_dir, killed) =
            with_next_scope(json!({"status": "killed", "scope": 3, "reason": "output"}));
        let text = argued(&killed);
        assert!(text.contains("Scope 3: killed at s+1 (output)."), "{text}");
        let problems = check(&text, &killed);
        assert!(
            problems
                .iter()
                .any(|p| p.contains("is argued \"Equivalent\" but scope 3 kills it")),
            "{problems:?}"
        );
        let mut doc = parse(&text).unwrap();
        doc.arguments[0].1 = "**Not equivalent.** scope 3 kills it".into();
        assert_eq!(check(&render(&doc, &killed), &killed), Vec::<String>::new());
    }

    #[test]
    fn an_entry_for_a_killed_mutant_fails() {
        let (_dir, before) = report("survived");
        let text = argued(&before);
        let (_dir2, after) = report("killed");
        let problems = check(&text, &after);
        assert!(
            problems
                .iter()
                .any(|p| p.contains("`f operator: + -> - #0` has an entry but does not survive")),
            "{problems:?}"
        );
    }

    #[test]
    fn stale_figures_or_diffs_fail() {
        let (_dir, run) = report("killed");
        let text = argued(&run);
        for (from, to) in [
            ("(50.00%;", "(49.00%;"),
            ("+    if a >=/*>*/ 0 {", "+    if a >= 0 {"),
        ] {
            let edited = text.replacen(from, to, 1);
            assert_ne!(edited, text);
            let problems = check(&edited, &run);
            assert!(
                problems.iter().any(|p| p.contains("stale")),
                "{from}: {problems:?}"
            );
        }
    }

    #[test]
    fn an_argument_needs_a_known_verdict_and_a_reason() {
        let (_dir, run) = report("killed");
        let text = argued(&run);
        for bad in ["**Equivalent.**", "**Probably fine.** a reason", "a reason"] {
            let edited = text.replace("**Equivalent.** a reason", bad);
            let problems = check(&edited, &run);
            assert!(!problems.is_empty(), "{bad} accepted");
        }
    }

    #[test]
    fn an_unknown_status_is_refused() {
        let (dir, _) = report("killed");
        let path = dir.path().join("mutants.json");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replacen("\"survived\"", "\"skipped\"", 1)).unwrap();
        assert!(read_run(dir.path(), dir.path()).is_err());
    }

    #[test]
    fn a_report_whose_source_changed_is_refused() {
        let (dir, _) = report("killed");
        std::fs::write(
            dir.path().join("src/lib.rs"),
            SOURCE.replace("a > 0", "a < 0"),
        )
        .unwrap();
        let err = read_run(dir.path(), dir.path()).unwrap_err();
        assert!(format!("{err:#}").contains("no longer reads"), "{err:#}");
    }
}
