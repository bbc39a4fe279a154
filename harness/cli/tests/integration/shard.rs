//! Sharded runs: `evaluate --shard k/n` on every share, then `merge`, gives the reports of one
//! unsharded run (timings aside), on the `faulty` fixture and on SearchTree; `merge` refuses
//! shards of different runs, a share given twice or missing, and a directory that is no
//! shard; `gate` refuses a lone shard.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{ferastrau, fixture, json, statuses, text, untimed, FAULTY_LIMITS};
use serde_json::Value;

const USAGE: i32 = 2;

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// `evaluate` with `args` into `out`.
fn evaluate(args: &[&str], out: &Path) -> Output {
    let mut all = vec!["evaluate", "--out", s(out)];
    all.extend_from_slice(args);
    ferastrau(&all)
}

fn merge(shards: &[&Path], out: &Path) -> Output {
    let mut all = vec!["merge", "--out", s(out)];
    all.extend(shards.iter().map(|p| s(p)));
    ferastrau(&all)
}

/// Statuses per (mutant, scope), the clock's own words left out: a clock timeout's detail
/// names the limit, which depends on the original's measured time.
fn untimed_statuses(mutants: &Value) -> BTreeMap<(u64, String), Value> {
    let mut all = statuses(mutants);
    for r in all.values_mut() {
        // A clock timeout's detail holds times; a memory kill's, the size of the allocation
        // that hit the limit first, which depends on what else the process allocated by then
        // (its watchdog thread, its output): seen 1048576 in one run, 5795635 in another.
        if r["limit"] == "clock" || r["reason"] == "memory" {
            r.as_object_mut().unwrap().remove("detail");
        }
    }
    all
}

/// The mutants.json entries without their results.
fn listed(mutants: &Value) -> Vec<Value> {
    mutants["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let mut m = m.clone();
            m.as_object_mut().unwrap().remove("scopes");
            m
        })
        .collect()
}

/// The mutants `mutation-testing-report.json` in `dir` shows as not yet run.
fn pending(dir: &Path) -> usize {
    let doc = json(&dir.join("mutation-testing-report.json"));
    doc["files"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|f| f["mutants"].as_array().unwrap())
        .filter(|m| m["status"] == "Pending")
        .count()
}

/// The top-level fields of an evaluation.json but its scopes.
fn marks(evaluation: &Value) -> Vec<String> {
    evaluation.as_object().unwrap().keys().cloned().collect()
}

/// Runs `args` unsharded and as `n` shards, merges the shards, and checks that the merged
/// reports are the unsharded ones; returns the shard directories.
fn sharded_equals_unsharded(args: &[&str], n: u32, root: &Path) -> Vec<PathBuf> {
    let whole = root.join("whole");
    let o = evaluate(args, &whole);
    assert!(o.status.success(), "unsharded: {}", text(&o.stderr));
    let mut shards = Vec::new();
    for k in 1..=n {
        let dir = root.join(format!("shard-{k}"));
        let spec = format!("{k}/{n}");
        let o = evaluate(&[args, &["--shard", &spec]].concat(), &dir);
        assert!(o.status.success(), "shard {spec}: {}", text(&o.stderr));
        assert!(text(&o.stdout).contains(&format!("shard {spec}")));
        let e = json(&dir.join("evaluation.json"));
        assert_eq!(e["shard"], spec.as_str(), "a shard's reports say so");
        // Its schema JSON shows the other shards' mutants as Pending, and only those.
        let others = json(&dir.join("mutants.json"))["mutants"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["viable"] == true && m.get("skipped").is_none())
            .filter(|m| m["scopes"].as_object().unwrap().is_empty())
            .count();
        assert!(others > 0, "shard {spec} ran every mutant");
        assert_eq!(pending(&dir), others, "shard {spec}");
        shards.push(dir);
    }
    let merged = root.join("merged");
    let refs: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    let o = merge(&refs, &merged);
    assert!(o.status.success(), "merge: {}", text(&o.stderr));
    let (e1, m1) = (
        json(&whole.join("evaluation.json")),
        json(&whole.join("mutants.json")),
    );
    let (e2, m2) = (
        json(&merged.join("evaluation.json")),
        json(&merged.join("mutants.json")),
    );
    assert_eq!(untimed(&e1), untimed(&e2));
    assert_eq!(pending(&merged), 0, "the merged run ran every mutant");
    assert_eq!(marks(&e1), marks(&e2));
    assert_eq!(e1["benchmark"], e2["benchmark"]);
    assert_eq!(listed(&m1), listed(&m2));
    assert_eq!(untimed_statuses(&m1), untimed_statuses(&m2));
    assert!(!statuses(&m1).is_empty());
    // The CSV too, its timing columns aside.
    let csv = |dir: &Path| -> Vec<Vec<String>> {
        let text = std::fs::read_to_string(dir.join("evaluation.csv")).unwrap();
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        lines
            .map(|l| {
                l.split(',')
                    .zip(&header)
                    .filter(|(_, h)| !h.ends_with("_seconds"))
                    .map(|(v, _)| v.to_string())
                    .collect()
            })
            .collect()
    };
    assert_eq!(csv(&whole), csv(&merged));
    shards
}

fn faulty_args(path: &Path) -> Vec<String> {
    ["--benchmark-path", s(path)]
        .iter()
        .chain(&FAULTY_LIMITS)
        .map(|a| a.to_string())
        .collect()
}

#[test]
fn three_shards_of_faulty_merge_into_the_unsharded_run_and_bad_merges_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let path = fixture("faulty");
    let args = faulty_args(&path);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let shards = sharded_equals_unsharded(&args, 3, root.path());
    let shards = [&shards[0], &shards[1], &shards[2]].map(PathBuf::as_path);
    // The checks below share the one sharded run, the costly part.
    merges_of_shards_that_make_no_run_are_refused(root.path(), shards, &args);
    merges_are_refused_into_a_shard_and_indifferent_to_order(root.path(), shards);
    reports_that_disagree_are_refused_after_a_merge(root.path(), shards);
    a_lone_shard_is_not_a_run(root.path(), shards[0], &args);
}

/// `merge` refused (status 2, no reports in `out`); its stderr.
fn refused(o: Output, out: &Path, what: &str) -> String {
    assert_eq!(o.status.code(), Some(USAGE), "{what}: {}", text(&o.stderr));
    assert!(!out.join("evaluation.json").exists(), "{what}: no reports");
    text(&o.stderr)
}

/// Shards that are not every share of one run, once each, are refused: a share missing or
/// given twice, an unsharded run's directory, shards of another run (other scopes, another
/// split); shards that agree on the run but not on what they generated are a broken run,
/// never averaged.
fn merges_of_shards_that_make_no_run_are_refused(root: &Path, shards: [&Path; 3], args: &[&str]) {
    let [one, two, three] = shards;
    let out = root.join("refused");
    let e = refused(merge(&[one, two], &out), &out, "missing");
    assert!(e.contains("shard(s) 3/3 of the run missing"), "{e}");
    let e = refused(merge(&[one, two, two, three], &out), &out, "twice");
    assert!(e.contains("shard 2/3 is given twice"), "{e}");
    let whole = root.join("whole");
    let e = refused(merge(&[one, two, &whole], &out), &out, "not a shard");
    assert!(e.contains("is not a shard's directory"), "{e}");
    let other = root.join("other-3");
    let o = evaluate(
        &[
            &args[..2],
            &["--scopes", "1..1", "--shard", "3/3"],
            &args[4..],
        ]
        .concat(),
        &other,
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let e = refused(merge(&[one, two, &other], &out), &out, "other scopes");
    assert!(
        e.contains("is not of the same run") && e.contains("the scopes"),
        "{e}"
    );
    let split = root.join("split-2");
    let o = evaluate(&[args, &["--shard", "2/2"]].concat(), &split);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let e = refused(merge(&[one, &split], &out), &out, "other split");
    assert!(e.contains("split the same way"), "{e}");

    let odd = root.join("odd-3");
    std::fs::create_dir_all(&odd).unwrap();
    let mut record = json(&three.join("shard.json"));
    let inputs = record["scopes"][1]["inputs"].as_u64().unwrap();
    record["scopes"][1]["inputs"] = (inputs + 1).into();
    std::fs::write(odd.join("shard.json"), record.to_string()).unwrap();
    let o = merge(&[one, two, &odd], &out);
    assert_eq!(o.status.code(), Some(4), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("disagree at scope 2 on inputs"),
        "{}",
        text(&o.stderr)
    );
    assert!(!out.join("evaluation.json").exists());
}

/// `merge` never writes into a shard's own directory, and the order of the shards given does
/// not change the reports.
fn merges_are_refused_into_a_shard_and_indifferent_to_order(root: &Path, shards: [&Path; 3]) {
    let [one, two, three] = shards;
    let o = merge(&[one, two, three], two);
    assert_eq!(o.status.code(), Some(USAGE), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("is one of the shards"));
    assert!(two.join("shard.json").exists());
    let o = merge(&[three, one, two], &root.join("reordered"));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        json(&root.join("reordered/evaluation.json")),
        json(&root.join("merged/evaluation.json")),
        "the same reports, timings included (shard 1's)"
    );
}

/// A refused merge into the directory of an earlier one leaves no report behind: the earlier
/// merge's reports once stayed, and the gate passed them. Merged reports that disagree with
/// each other (a killed mutant turned survivor in mutants.json only) are refused by the gate,
/// as `report` refuses them.
fn reports_that_disagree_are_refused_after_a_merge(root: &Path, shards: [&Path; 3]) {
    let [one, two, three] = shards;
    let again = root.join("again");
    let o = merge(&[one, two, three], &again);
    assert!(o.status.success(), "{}", text(&o.stderr));
    refused_into(merge(&[one, two], &again), &again);
    let o = merge(&[one, two, three], &again);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut m = json(&again.join("mutants.json"));
    let r = m["mutants"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .flat_map(|m| m["scopes"].as_object_mut().unwrap().values_mut())
        .find(|r| r["status"] == "killed")
        .expect("a kill");
    *r = serde_json::json!({"status": "survived", "executions": 1});
    std::fs::write(again.join("mutants.json"), m.to_string()).unwrap();
    let o = ferastrau(&["report", s(&again)]);
    assert!(!o.status.success(), "report took disagreeing reports");
    let o = ferastrau(&[
        "gate",
        "--baseline",
        s(&root.join("b.json")),
        "--current",
        s(&again),
        "--update-baseline",
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(err.contains("disagree"), "{err}");
}

/// A lone shard is not a run: the gate refuses it, and refuses to run one; a shard does not
/// resume as another shard; shard numbers are checked on the command line.
fn a_lone_shard_is_not_a_run(root: &Path, one: &Path, args: &[&str]) {
    let out = root.join("refused");
    let baseline = root.join("baseline.json");
    let o = ferastrau(&[
        "gate",
        "--baseline",
        s(&baseline),
        "--current",
        s(one),
        "--update-baseline",
    ]);
    assert_eq!(o.status.code(), Some(USAGE), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("one shard of a run"));
    assert!(!baseline.exists());
    let mut gated = vec!["gate", "--baseline", s(&baseline)];
    gated.extend_from_slice(args);
    gated.extend_from_slice(&["--shard", "1/3", "--out", s(&out)]);
    let o = ferastrau(&gated);
    assert_eq!(o.status.code(), Some(USAGE), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("gate takes a whole run"));
    let o = evaluate(&[args, &["--shard", "2/3", "--resume"]].concat(), one);
    assert_eq!(o.status.code(), Some(USAGE), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("the shard (1/3 then, 2/3 now)"),
        "{}",
        text(&o.stderr)
    );
    for bad in ["0/3", "4/3", "1/0", "two"] {
        let o = evaluate(&[args, &["--shard", bad]].concat(), &out);
        assert_eq!(o.status.code(), Some(USAGE), "--shard {bad}");
    }
}

/// A refused merge: status 2, and no report left in `out`.
fn refused_into(o: Output, out: &Path) {
    assert_eq!(o.status.code(), Some(USAGE), "{}", text(&o.stderr));
    for f in ["evaluation.json", "mutants.json", "report.html"] {
        assert!(!out.join(f).exists(), "{f} left behind");
    }
}

#[test]
fn three_shards_of_search_tree_merge_into_the_unsharded_run_and_gate_as_it() {
    let root = tempfile::tempdir().unwrap();
    let args = ["--benchmark", "search_tree", "--scopes", "1..3"];
    sharded_equals_unsharded(&args, 3, root.path());
    // The merged directory is a run the gate takes: as a baseline, and against it.
    let baseline = root.path().join("baseline.json");
    let merged = root.path().join("merged");
    for extra in [&["--update-baseline"][..], &[]] {
        let mut all = vec!["gate", "--baseline", s(&baseline), "--current", s(&merged)];
        all.extend_from_slice(extra);
        let o = ferastrau(&all);
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    let o = ferastrau(&[
        "gate",
        "--baseline",
        s(&baseline),
        "--current",
        s(&root.path().join("whole")),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("gate passed"));
}
