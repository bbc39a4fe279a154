//! Reach selection (a mutant runs only on the inputs whose original run reaches its mutation
//! point; one no input reaches runs no process) gives exactly the results of a run on every
//! input (`--no-reach`): on all ten benchmarks at small scopes, and on the `reach` fixture,
//! whose code is reached by the last input only or by no input at all.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::workspace_root;
use crate::common::{fixture, json, statuses, text, untimed};
use serde_json::Value;

/// `evaluate --format json` with `args` into `out`: (evaluation.json, mutants.json, the
/// printed document's `runner`).
fn evaluate(args: &[&str], out: &Path) -> (Value, Value, Value) {
    evaluate_in(args, out, &[])
}

/// [`evaluate`] with `env` added to the environment.
fn evaluate_in(args: &[&str], out: &Path, env: &[(&str, String)]) -> (Value, Value, Value) {
    let mut all = vec!["evaluate", "--format", "json", "--jobs", "2", "--out"];
    all.push(out.to_str().expect("utf-8 path"));
    all.extend_from_slice(args);
    let o = crate::common::command(&all)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "evaluate {args:?} failed: {}",
        text(&o.stderr)
    );
    let printed: Value = serde_json::from_slice(&o.stdout).expect("one JSON document");
    (
        json(&out.join("evaluation.json")),
        json(&out.join("mutants.json")),
        printed["runner"].clone(),
    )
}

/// Statuses per (mutant, scope) without what selection changes on purpose (the executions)
/// and what the clock decides (a clock timeout's detail names its measured limit).
fn results(mutants: &Value) -> BTreeMap<(u64, String), Value> {
    let mut all = statuses(mutants);
    for r in all.values_mut() {
        let o = r.as_object_mut().unwrap();
        o.remove("executions");
        if o.get("limit").is_some_and(|l| l == "clock") {
            o.remove("detail");
        }
    }
    all
}

/// Executions per (mutant, scope).
fn executions(mutants: &Value) -> BTreeMap<(u64, String), u64> {
    statuses(mutants)
        .into_iter()
        .map(|(k, r)| (k, r["executions"].as_u64().unwrap_or(0)))
        .collect()
}

/// Both modes on `args`; returns (executions with selection, executions without). The run
/// without selection also runs each mutant alone (`FERASTRAU_COHORTS=0`), as every run did
/// before cohorts: the run with selection, in cohorts of a mutation point's mutants, must
/// give the same verdicts, executions included.
fn same_both_ways(args: &[&str], root: &Path, name: &str) -> (Value, Value) {
    same_both_ways_in(args, root, name, &[])
}

/// [`same_both_ways`], the run with selection under `env` as well.
fn same_both_ways_in(
    args: &[&str],
    root: &Path,
    name: &str,
    env: &[(&str, String)],
) -> (Value, Value) {
    let (ev_on, mu_on, run_on) = evaluate_in(args, &root.join(format!("{name}-reach")), env);
    let mut no = args.to_vec();
    no.push("--no-reach");
    let alone = [("FERASTRAU_COHORTS", "0".to_string())];
    let (ev_off, mu_off, run_off) = evaluate_in(&no, &root.join(format!("{name}-all")), &alone);
    let (on, off) = (results(&mu_on), results(&mu_off));
    let differ: Vec<_> = off
        .iter()
        .filter(|(k, r)| on.get(*k) != Some(*r))
        .map(|(k, r)| format!("{k:?}: with selection {:?}, without {r}", on.get(k)))
        .collect();
    assert!(
        differ.is_empty(),
        "{name}: mutants.json differs:\n{}",
        differ.join("\n")
    );
    assert_eq!(
        on.len(),
        off.len(),
        "{name}: mutants.json lists other mutants"
    );
    assert_eq!(
        untimed(&ev_on),
        untimed(&ev_off),
        "{name}: evaluation.json differs"
    );
    assert_eq!(run_off["skipped"], 0, "{name}: --no-reach skips nothing");
    // Every execution the full run made is either made or counted as skipped.
    assert_eq!(
        run_on["executions"].as_u64().unwrap() + run_on["skipped"].as_u64().unwrap(),
        run_off["executions"].as_u64().unwrap(),
        "{name}: executions + skipped with selection = executions without"
    );
    let (on, off) = (executions(&mu_on), executions(&mu_off));
    for (k, n) in &on {
        assert!(
            *n <= off[k],
            "{name}: mutant {k:?} ran more inputs with selection"
        );
    }
    (run_on, run_off)
}

/// The ten benchmarks in name order, in two halves: two tests, so that the test threads run
/// the halves side by side (as one, this was the integration tests' longest, started late in
/// libtest's name order and ended the run alone).
fn benchmarks(half: usize) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(workspace_root().join("benchmarks"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 10, "the paper's ten benchmarks: {names:?}");
    names.split_off(5 * half).into_iter().take(5).collect()
}

#[test]
fn the_first_five_benchmarks_give_the_same_results_with_and_without_reach_selection() {
    same_results_on(&benchmarks(0));
}

#[test]
fn the_last_five_benchmarks_give_the_same_results_with_and_without_reach_selection() {
    same_results_on(&benchmarks(1));
}

fn same_results_on(names: &[String]) {
    let root = tempfile::tempdir().unwrap();
    let mut skipped_somewhere = false;
    for name in names {
        let (on, _) = same_both_ways(
            &["--benchmark", name, "--scopes", "1..2"],
            root.path(),
            name,
        );
        skipped_somewhere |= on["skipped"].as_u64().unwrap() > 0;
    }
    assert!(
        skipped_somewhere,
        "selection skipped nothing on any benchmark"
    );
}

/// Mutants of `mutants.json` on the source line holding `text` in the fixture.
fn on_line(mutants: &Value, text: &str) -> Vec<u64> {
    let source = std::fs::read_to_string(fixture("reach").join("src/lib.rs")).unwrap();
    let line = source
        .lines()
        .position(|l| l.contains(text))
        .expect("the line")
        + 1;
    mutants["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["line"] == line as u64)
        .map(|m| m["id"].as_u64().unwrap())
        .collect()
}

#[test]
fn code_only_the_last_input_reaches_kills_there_and_code_no_input_reaches_runs_no_process() {
    let root = tempfile::tempdir().unwrap();
    let path = fixture("reach");
    // A process per mutant, so that the count of processes says which mutants got one.
    let args = [
        "--benchmark-path",
        path.to_str().unwrap(),
        "--scopes",
        "1..3",
        "--mutants-per-process",
        "1",
    ];
    let (run_on, _) = same_both_ways(&args, root.path(), "reach");
    let mutants = json(&root.path().join("reach-reach").join("mutants.json"));
    let all = json(&root.path().join("reach-all").join("mutants.json"));
    let (on, off) = (statuses(&mutants), statuses(&all));

    // `self.level = self.level + 1` runs on the last input (x = top = scope) only.
    let last = on_line(&mutants, "self.level + 1");
    assert!(last.len() >= 5, "mutants on the full-scale line: {last:?}");
    let plus_to_minus = mutants["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| last.contains(&m["id"].as_u64().unwrap()) && m["replacement"] == "-")
        .expect("`+ -> -`");
    let id = plus_to_minus["id"].as_u64().unwrap();
    for scope in 1..=3u64 {
        let r = &on[&(id, scope.to_string())];
        assert_eq!(r["status"], "killed");
        assert_eq!(
            r["index"],
            scope,
            "the last of the scope's {} inputs",
            scope + 1
        );
        assert_eq!(r["executions"], 1, "only the last input ran");
        assert_eq!(off[&(id, scope.to_string())]["executions"], scope + 1);
    }
    for m in &last {
        for scope in 1..=3u64 {
            let n = on[&(*m, scope.to_string())]["executions"].as_u64().unwrap();
            assert!(n <= 1, "mutant {m} at scope {scope} ran {n} inputs");
        }
    }

    // `self.level = self.level * 3` runs on no input: survivors that no process ran.
    let none = on_line(&mutants, "self.level * 3");
    assert!(none.len() >= 10, "mutants on the unreached line: {none:?}");
    for m in &none {
        for scope in 1..=3u64 {
            let k = (*m, scope.to_string());
            assert_eq!(on[&k]["status"], "survived");
            assert_eq!(on[&k]["executions"], 0);
            assert_eq!(off[&k]["executions"], scope + 1);
        }
    }
    // `self.level * 10` runs only in the abstraction, on every input: reached by all.
    let judging = on_line(&mutants, "self.level * 10");
    assert!(judging.len() >= 5, "mutants of `reading`: {judging:?}");
    let mut killed = 0;
    for m in &judging {
        for scope in 1..=3u64 {
            let k = (*m, scope.to_string());
            assert_eq!(on[&k]["executions"], off[&k]["executions"], "mutant {m}");
            killed += usize::from(on[&k]["status"] == "killed");
        }
    }
    assert!(killed > 0, "mutants reached only while judging are killed");

    assert_eq!(run_on["unreached_mutants"], none.len() as u64);
    let viable = mutants["mutants"].as_array().unwrap().len() as u64;
    assert_eq!(
        run_on["processes"].as_u64().unwrap(),
        viable - none.len() as u64,
        "one process per reached mutant"
    );
}

/// The reach sets the original's run records are Ferastrau's bookkeeping: they do not count
/// against `--memory-limit`. At 7 MiB, BinomialHeap's original once "ran out of memory" on
/// input #53213 of scope 6 (the same run passed with `--no-reach`); now both pass, alike.
///
/// The limit sits where the test can fail both ways: with the reach sets counted against it
/// (the original's limit without its room, tried by hand), the original runs out of memory
/// on delete input #5615 of scope 5 at 8 MiB, and fits at 10 MiB; at 7 MiB the worker's own
/// footprint (its binary and stacks, which grow a little with every change of the runtime)
/// no longer leaves the metamutant room for its control run, whatever reach does.
#[test]
fn reach_bookkeeping_does_not_eat_the_memory_limit() {
    let root = tempfile::tempdir().unwrap();
    let args = [
        "--benchmark",
        "binomial_heap",
        "--scopes",
        "1..6",
        "--memory-limit",
        "8M",
        "--max-mutants",
        "5",
    ];
    // The run with selection under 12 KB more of environment than the other: the workers'
    // environment is their own, so it cannot eat the limit either (mutant 19 used to die of
    // memory at scopes 3 and 5 so).
    let big = |c: char| std::iter::repeat_n(c, 6000).collect::<String>();
    let env = [("BULK_1", big('x')), ("BULK_2", big('y'))];
    same_both_ways_in(&args, root.path(), "binomial_heap", &env);
}

/// Cohorts under a structural comparison, where a cohort computes the original's structure
/// once for all of its mutants: the verdicts, their evidence and the executions of each
/// mutant are those it gets alone. And under `--no-reach`, where every mutant of a process
/// takes every input and one cohort holds them all.
#[test]
fn a_cohort_judges_each_mutant_as_it_is_judged_alone() {
    let root = tempfile::tempdir().unwrap();
    for (name, extra) in [
        ("search_tree", &["--compare", "structural"][..]),
        ("binomial_heap", &["--no-reach"][..]),
    ] {
        let mut args = vec!["--benchmark", name, "--scopes", "1..3"];
        args.extend_from_slice(extra);
        let (_, together, run_together) = evaluate(&args, &root.path().join(format!("{name}-c")));
        let alone = [("FERASTRAU_COHORTS", "0".to_string())];
        let (_, apart, run_apart) =
            evaluate_in(&args, &root.path().join(format!("{name}-a")), &alone);
        assert_eq!(statuses(&together), statuses(&apart), "{name} {extra:?}");
        // Not `processes`: a process that dies inside a cohort (a mutant's crash) is one
        // process more, the rest of its list then run alone.
        for k in ["executions", "skipped"] {
            assert_eq!(run_together[k], run_apart[k], "{name} {extra:?}: {k}");
        }
    }
}
