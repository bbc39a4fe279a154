//! `ferastrau evaluate` end to end: kill reasons on a fault-injection crate, determinism
//! across `--jobs`, and the paper's observations on SearchTree. (What must never give a
//! wrong result is in `trust.rs`.)

mod common;

use std::collections::BTreeMap;

use common::{evaluate, fixture, statuses, untimed};
use serde_json::Value;

#[test]
fn every_way_of_dying_gets_its_own_reason_and_the_rest_stay_intact() {
    let out = tempfile::tempdir().unwrap();
    let path = fixture("faulty");
    let (evaluation, mutants) = evaluate(
        &[
            "--benchmark-path",
            path.to_str().unwrap(),
            "--scopes",
            "1..2",
            "--timeout-floor",
            "300ms",
            "--memory-limit",
            "256M",
        ],
        out.path(),
    );
    let by_replacement: BTreeMap<String, &Value> = mutants["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["replacement"].as_str().unwrap().to_string(), m))
        .collect();
    let expect = [
        ("spin", "timeout", Some("clock")),
        ("recurse", "crash", None),
        ("hog", "memory", None),
        ("die", "crash", None),
        ("boom", "output", None),
        ("quit", "crash", None),
        ("chatter", "output", None),
        ("forge", "crash", None),
    ];
    for (callee, reason, detail) in expect {
        let m = by_replacement
            .get(callee)
            .unwrap_or_else(|| panic!("no call mutant to {callee}: {mutants}"));
        for scope in ["1", "2"] {
            let r = &m["scopes"][scope];
            assert_eq!(r["status"], "killed", "{callee} at {scope}: {r}");
            assert_eq!(r["reason"], reason, "{callee} at {scope}: {r}");
            if let Some(limit) = detail {
                assert_eq!(r["limit"], limit, "{callee}: {r}");
            }
            // The killing input is named, even when the process died.
            assert_eq!(r["input"], "bump() on 0", "{callee}: {r}");
        }
    }
    assert_eq!(
        by_replacement["recurse"]["scopes"]["1"]["detail"],
        "stack overflow"
    );
    // Every mutant has a result at every scope, the well-behaved ones included.
    let all = statuses(&mutants);
    let n = mutants["mutants"].as_array().unwrap().len();
    assert_eq!(all.len(), 2 * n);
    assert!(n > expect.len(), "the fixture has other mutants too");
    assert_eq!(
        evaluation["scopes"][1]["mutants"].as_u64().unwrap() as usize,
        n
    );
}

#[test]
fn search_tree_results_do_not_depend_on_jobs_and_match_the_paper_observations() {
    let one = tempfile::tempdir().unwrap();
    let two = tempfile::tempdir().unwrap();
    let scopes = ["--benchmark", "search_tree", "--scopes", "1..6"];
    let (e1, m1) = evaluate(&[&scopes[..], &["--jobs", "1"]].concat(), one.path());
    let (e2, m2) = evaluate(&[&scopes[..], &["--jobs", "2"]].concat(), two.path());
    assert_eq!(statuses(&m1), statuses(&m2));
    assert_eq!(untimed(&e1), untimed(&e2));

    let rows = e1["scopes"].as_array().unwrap();
    let inputs: Vec<u64> = rows.iter().map(|r| r["inputs"].as_u64().unwrap()).collect();
    assert_eq!(inputs, [4, 20, 90, 408, 1880, 8772]);
    assert!(rows[0]["mutants"].as_u64().unwrap() >= 200);
    // Coverage is weaker than mutation adequacy: complete at scope 5, while the kill rate
    // still grows from 5 to 6.
    let full = |r: &Value| r["statement_coverage"] == 100.0 && r["branch_coverage"] == 100.0;
    let first_full = rows
        .iter()
        .position(full)
        .expect("full coverage is reached");
    let rate = |i: usize| rows[i]["kill_rate"].as_f64().unwrap();
    assert!(first_full < 5, "coverage complete before scope 6");
    // What a scope short of full coverage misses is listed, place by place.
    let uncovered = |i: usize| rows[i]["uncovered"].as_array().unwrap().len();
    assert_eq!(uncovered(first_full), 0);
    assert!(uncovered(0) > 0);
    assert!(rows[0]["uncovered"][0]
        .as_str()
        .unwrap()
        .starts_with("src/tree.rs:"));
    assert!(
        rate(first_full) < rate(5),
        "kill rate still grows after full coverage"
    );
    for w in rows.windows(2) {
        assert!(w[0]["kill_rate"].as_f64() <= w[1]["kill_rate"].as_f64());
    }

    // Sec. 8.3's mutant: `temp = left.right` in remove_node's loop survives the small scopes
    // and loops forever once the loop runs twice, which takes six nodes (see the README).
    let temp = m1["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| {
            m["function"] == "SearchTree::remove_node"
                && m["original"] == "temp"
                && m["replacement"] == "left"
                && m["edit"]["new"].as_str().unwrap_or("").contains("left")
                && m["scopes"]["1"]["status"] == "survived"
                && m["scopes"]["6"]["reason"] == "timeout"
        })
        .expect("the temp = left.right mutant");
    for s in ["1", "2", "3", "4", "5"] {
        assert_eq!(temp["scopes"][s]["status"], "survived", "scope {s}");
    }
    assert_eq!(temp["scopes"]["6"]["limit"], "ticks");
}
