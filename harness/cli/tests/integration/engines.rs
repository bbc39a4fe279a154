//! A benchmark whose inputs are described two ways (issue 33, item 4): SearchTree, SortedList,
//! HeapArray and TreeMap have a Korat finitization and a generator program
//! (`benchmarks/<b>/src/program.rs`, `engines = ["korat", "generator"]`). `--engine` picks
//! one; every verdict must be the same under both (each crate's `tests/generator_style.rs`
//! shows the inputs are, at every paper scope; here two of them are evaluated both ways), and
//! the reports say which made the inputs.

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
        "by_family",
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

/// Two of the four benchmarks with both engines (a tree and a list: HeapArray's and TreeMap's
/// programs give exactly their finitizations' inputs at every paper scope in their crates'
/// tests, and the same inputs make the same verdicts), each evaluated at scopes 1..3 under each
/// engine: the same inputs per scope, the same status for every mutant at every scope, the
/// same kill rates and code coverage. `generate` names the engine and counts the same inputs;
/// `--resume` of a Korat run under the generator is refused, naming the engine.
#[test]
fn both_engines_give_every_mutant_the_same_verdict() {
    for bench in ["search_tree", "sorted_list"] {
        let out = tempfile::tempdir().unwrap();
        let base = ["--benchmark", bench, "--scopes", "1..3"];
        let run = |engine: &str| {
            let mut args = base.to_vec();
            args.extend_from_slice(&["--engine", engine]);
            evaluate(&args, &out.path().join(engine))
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
        if bench != "sorted_list" {
            continue;
        }
        // `generate` under the generator: the engine named, the evaluation's inputs.
        let mut args = vec!["generate", "--engine", "generator", "--format", "json"];
        args.extend_from_slice(&base);
        let o = command(&args).output().unwrap();
        assert!(o.status.success(), "{}", text(&o.stderr));
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(doc["engine"], "generator");
        let counts = |rows: &serde_json::Value| -> Vec<u64> {
            let rows = rows.as_array().unwrap().iter();
            rows.map(|s| s["inputs"].as_u64().unwrap()).collect()
        };
        assert_eq!(counts(&doc["scopes"]), counts(&korat["scopes"]));
        // The Korat run resumed under the generator: refused, naming the engine.
        let korat_out = out.path().join("korat");
        let mut args = vec!["evaluate", "--resume", "--out", korat_out.to_str().unwrap()];
        args.extend_from_slice(&base);
        args.extend_from_slice(&["--engine", "generator"]);
        let o = command(&args).output().unwrap();
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(USAGE), "{err}");
        assert!(
            err.contains("the engine that makes the inputs (--engine korat then, generator now)"),
            "{err}"
        );
    }
}

/// An engine the crate does not declare, and options only a finitization has, are refused
/// with exit status 2 and one message before any build.
#[test]
fn an_engine_the_crate_lacks_or_a_finitization_s_option_is_refused() {
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
}

/// A structure linked by `Option<Box<Node>>` (`testdata/boxed`) under both engines: Korat's
/// search over the finitization `#[derive(Korat)]` writes from the types' attributes
/// (`#[korat(pool(Node, n))]` on the tree), its candidates decoded into `Box`es and its
/// post-states read through `view::Boxed`, against the crate's generator program: the same
/// inputs per scope (8, 30, 120), the same status for every mutant, the same kill rates and
/// code coverage.
#[test]
fn a_box_linked_structure_gets_the_same_verdicts_from_korat_as_from_its_program() {
    let out = tempfile::tempdir().unwrap();
    let path = crate::common::fixture("boxed");
    let run = |engine: &str| {
        let args = [
            "--benchmark-path",
            path.to_str().unwrap(),
            "--scopes",
            "1..3",
            "--engine",
            engine,
        ];
        evaluate(&args, &out.path().join(engine))
    };
    let (korat, korat_mutants) = run("korat");
    let (generator, generator_mutants) = run("generator");
    assert!(
        korat.get("engine").is_none(),
        "Korat's reports name no engine"
    );
    assert_eq!(generator["engine"], "generator");
    let inputs: Vec<u64> = korat["scopes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["inputs"].as_u64().unwrap())
        .collect();
    assert_eq!(inputs, [8, 30, 120]);
    assert_eq!(engine_free(&korat), engine_free(&generator));
    let (k, g) = (statuses(&korat_mutants), statuses(&generator_mutants));
    assert!(k.len() > 50, "{} (mutant, scope) pairs", k.len());
    assert!(k.values().any(|s| s["status"] == "killed"));
    for (key, status) in &k {
        assert_eq!(
            g[key]["status"], status["status"],
            "mutant {} at scope {}",
            key.0, key.1
        );
    }
}
