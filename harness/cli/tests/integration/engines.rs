//! A benchmark whose inputs are described two ways (issue 33, item 4): SearchTree, SortedList,
//! HeapArray and TreeMap have a Korat finitization and a generator program
//! (`benchmarks/<b>/src/program.rs`, `engines = ["korat", "generator"]`). `--engine` picks
//! one; every verdict must be the same under both (each crate's `tests/generator_style.rs`
//! shows the inputs are, at every paper scope), and the reports say which made the inputs.

use crate::common::{command, evaluate, statuses, text, untimed};

const USAGE: i32 = 2;

/// The figures of an evaluation's rows that must not depend on the engine: inputs, kill rates
/// and the code's coverage. Left out: the candidates (each engine searches its own space), how
/// the mutants died (the first killing input decides, and the engines give the inputs in
/// different orders: a mutant that times out on one input and fails its output on another
/// dies of whichever comes first) and the specification's coverage, which counts the
/// invariant's runs during generation too (a finitization's candidates, a program's paths).
fn engine_free(evaluation: &serde_json::Value) -> Vec<serde_json::Value> {
    const KEPT: [&str; 11] = [
        "scope",
        "inputs",
        "mutants",
        "killed",
        "kill_rate",
        "paper_kill_rate",
        "skipped",
        "statement_coverage",
        "branch_coverage",
        "uncovered",
        "violations",
    ];
    untimed(evaluation)
        .into_iter()
        .map(|row| KEPT.iter().map(|k| row[*k].clone()).collect())
        .collect()
}

/// The four benchmarks with both engines, each evaluated at scopes 1..3 under each engine:
/// the same inputs per scope, the same status for every mutant at every scope, the same kill
/// rates and code coverage.
#[test]
fn both_engines_give_every_mutant_the_same_verdict() {
    for bench in ["search_tree", "sorted_list", "heap_array", "tree_map"] {
        let out = tempfile::tempdir().unwrap();
        let run = |engine: &str| {
            evaluate(
                &["--benchmark", bench, "--engine", engine, "--scopes", "1..3"],
                &out.path().join(engine),
            )
        };
        let (korat, korat_mutants) = run("korat");
        let (generator, generator_mutants) = run("generator");
        assert!(
            korat.get("engine").is_none(),
            "{bench}: Korat is the default, left out"
        );
        assert_eq!(generator["engine"], "generator", "{bench}");
        assert_eq!(
            engine_free(&generator),
            engine_free(&korat),
            "{bench}: the rows"
        );
        let (k, g) = (statuses(&korat_mutants), statuses(&generator_mutants));
        assert!(k.len() > 100, "{bench}: {} (mutant, scope) pairs", k.len());
        for (key, status) in &k {
            assert_eq!(
                g[key]["status"], status["status"],
                "{bench}: mutant {} at scope {}",
                key.0, key.1
            );
        }
    }
}

#[test]
fn generate_names_the_engine_and_finds_the_same_counts() {
    let counts = |engine: &str| {
        let o = command(&[
            "generate",
            "--benchmark",
            "sorted_list",
            "--engine",
            engine,
            "--scopes",
            "1..4",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
        assert!(o.status.success(), "{}", text(&o.stderr));
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let inputs: Vec<u64> = doc["scopes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["inputs"].as_u64().unwrap())
            .collect();
        (doc.get("engine").cloned(), inputs)
    };
    let (k_engine, korat) = counts("korat");
    let (g_engine, generator) = counts("generator");
    assert_eq!(k_engine, None);
    assert_eq!(g_engine, Some("generator".into()));
    assert_eq!(generator, korat);
    assert_eq!(korat.len(), 4);
}

/// An engine the crate does not declare, and options only a finitization has, are refused
/// with exit status 2 and one message before any build; so is resuming a run under the other
/// engine, which names it.
#[test]
fn an_engine_the_crate_lacks_or_a_switch_of_engine_on_resume_is_refused() {
    for args in [
        &[
            "generate",
            "--benchmark",
            "linked_list",
            "--engine",
            "generator",
        ][..],
        &[
            "evaluate",
            "--benchmark",
            "av_tree",
            "--engine",
            "generator",
        ],
        &[
            "generate",
            "--benchmark",
            "search_tree",
            "--engine",
            "udita",
        ],
        &[
            "generate",
            "--benchmark",
            "search_tree",
            "--engine",
            "generator",
            "--structure",
        ],
    ] {
        let o = command(args).output().unwrap();
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(USAGE), "{args:?}: {err}");
        assert!(err.contains("engine"), "{args:?}: {err}");
        assert!(!err.contains("Building"), "{args:?} built something: {err}");
    }

    let out = tempfile::tempdir().unwrap();
    let base = ["--benchmark", "heap_array", "--scopes", "1..2"];
    evaluate(&base, out.path());
    let mut resume = vec![
        "evaluate",
        "--resume",
        "--out",
        out.path().to_str().unwrap(),
    ];
    resume.extend_from_slice(&base);
    resume.extend_from_slice(&["--engine", "generator"]);
    let o = command(&resume).output().unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(USAGE), "{err}");
    assert!(
        err.contains("the engine that makes the inputs (--engine korat then, generator now)"),
        "{err}"
    );
}
