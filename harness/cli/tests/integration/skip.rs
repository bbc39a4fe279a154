//! Suppression: `skip` entries in `[package.metadata.ferastrau]` of a copy of the `faulty`
//! fixture. Skipped mutants are not run, are listed with their reason in mutants.json and
//! counted apart in evaluation.json (outside the kill rate's denominator); a changed skip list
//! refuses `--resume`; the gate lists a baseline-killed mutant that is skipped now; an entry
//! without a reason, or matching nothing, is refused.

use std::path::Path;
use std::process::Output;

use crate::common::{command, copy_fixture, edit, json, text, FAULTY_LIMITS};
use serde_json::Value;

const USAGE: i32 = 2;
/// Killed by a clock timeout at every scope.
const KILLED: &str = "Counter::bump call: fine -> spin #0";
/// Survives every scope.
const SURVIVOR: &str = "Counter::bump operator: > -> >= #0";

fn evaluate(krate: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["evaluate", "--benchmark-path", krate.to_str().unwrap()];
    args.extend_from_slice(&FAULTY_LIMITS);
    args.extend_from_slice(&["--out", out.to_str().unwrap()]);
    args.extend_from_slice(extra);
    command(&args).output().unwrap()
}

fn gate(out: &Path, baseline: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "gate",
        "--baseline",
        baseline.to_str().unwrap(),
        "--current",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    command(&args).output().unwrap()
}

/// Sets the crate's skip list to `entries` (TOML inline tables).
fn set_skips(krate: &Path, entries: &str) {
    let manifest = krate.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with("skip =")).collect();
    std::fs::write(&manifest, kept.join("\n") + "\n").unwrap();
    edit(
        &manifest,
        "specification = [\"rep_ok\"]",
        &format!("specification = [\"rep_ok\"]\nskip = [{entries}]"),
    );
}

fn entry(kind: &str, name: &str, reason: &str) -> String {
    format!(
        "{{ {kind} = {}, reason = {} }}",
        serde_json::to_string(name).unwrap(),
        serde_json::to_string(reason).unwrap()
    )
}

#[test]
fn skipped_mutants_are_listed_with_their_reason_and_left_out_of_the_kill_rate() {
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("faulty");
    copy_fixture("faulty", &krate);
    let (before, after) = (dir.path().join("before"), dir.path().join("after"));
    let baseline = dir.path().join("baseline.json");

    let o = evaluate(&krate, &before, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = gate(&before, &baseline, &["--update-baseline"]);
    assert!(o.status.success(), "{}", text(&o.stderr));

    let skips = [
        entry("mutant", KILLED, "loops by design"),
        entry(
            "mutant",
            SURVIVOR,
            "equivalent: the counter never equals the limit",
        ),
    ]
    .join(", ");
    set_skips(&krate, &skips);
    let o = evaluate(&krate, &after, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("2 mutant(s) skipped by the crate's skip list (not counted)"),
        "{}",
        text(&o.stdout)
    );
    the_named_mutants_are_listed_skipped_with_their_reasons(&json(&after.join("mutants.json")));
    the_skipped_are_left_out_of_the_kill_rate(
        &json(&before.join("evaluation.json")),
        &json(&after.join("evaluation.json")),
    );

    // The gate lists the baseline-killed mutant that is skipped now; it does not fail on it.
    let o = gate(&after, &baseline, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.contains(&format!(
            "scopes 1..2: killed in the baseline, skipped now (loops by design): {KILLED}"
        )),
        "{out}"
    );

    // A changed skip list is another run: no resume.
    set_skips(&krate, &entry("mutant", KILLED, "loops by design"));
    let o = evaluate(&krate, &after, &["--resume"]);
    assert_eq!(o.status.code(), Some(USAGE), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("the skip list"),
        "{}",
        text(&o.stderr)
    );
}

/// The mutants.json `m` of a run with `KILLED` and `SURVIVOR` skipped lists both, each with
/// its reason and `skipped` at every scope, and skips no other mutant.
fn the_named_mutants_are_listed_skipped_with_their_reasons(m: &Value) {
    let by_key = |k: &str| {
        m["mutants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["key"] == k)
            .unwrap_or_else(|| panic!("{k} is listed"))
            .clone()
    };
    let (killed, survivor) = (by_key(KILLED), by_key(SURVIVOR));
    assert_eq!(killed["skipped"], "loops by design");
    assert!(survivor["skipped"]
        .as_str()
        .unwrap()
        .starts_with("equivalent"));
    for s in ["1", "2"] {
        assert_eq!(
            killed["scopes"][s],
            serde_json::json!({"status": "skipped"})
        );
        assert_eq!(survivor["scopes"][s]["status"], "skipped");
    }
    let others = m["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m.get("skipped").is_some())
        .count();
    assert_eq!(others, 2, "only the named mutants are skipped");
}

/// Each scope of the evaluation.json `e` of that run counts the two apart, outside the kill
/// rate's denominator: two mutants fewer and one kill fewer than `e0`, the run without the
/// skip list, and a kill rate that rose accordingly.
fn the_skipped_are_left_out_of_the_kill_rate(e0: &Value, e: &Value) {
    for (r0, r) in e0["scopes"]
        .as_array()
        .unwrap()
        .iter()
        .zip(e["scopes"].as_array().unwrap())
    {
        let n = |r: &Value, f: &str| r[f].as_u64().unwrap();
        assert_eq!(n(r, "skipped"), 2);
        assert_eq!(n(r, "mutants"), n(r0, "mutants") - 2);
        assert_eq!(n(r, "killed"), n(r0, "killed") - 1);
        let rate = 100.0 * n(r, "killed") as f64 / n(r, "mutants") as f64;
        assert_eq!(
            r["kill_rate"].as_f64().unwrap(),
            (rate * 100.0).round() / 100.0
        );
        assert!(r["kill_rate"].as_f64() > r0["kill_rate"].as_f64());
    }
}

#[test]
fn a_skip_without_a_reason_or_matching_nothing_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("faulty");
    copy_fixture("faulty", &krate);
    let out = dir.path().join("out");
    for (skips, says) in [
        (
            format!("{{ mutant = {} }}", serde_json::to_string(KILLED).unwrap()),
            "gives no reason: every skip must say why",
        ),
        (
            entry("mutant", "Counter::bump call: fine -> nowhere #0", "stale"),
            "skip matches nothing: no mutant has the key \"Counter::bump call: fine -> nowhere #0\"",
        ),
        (
            entry("function", "Counter::reset", "renamed"),
            "skip matches nothing: function \"Counter::reset\" has no mutant",
        ),
    ] {
        set_skips(&krate, &skips);
        let o = evaluate(&krate, &out, &[]);
        assert_eq!(o.status.code(), Some(USAGE), "{skips}: {}", text(&o.stderr));
        assert!(text(&o.stderr).contains(says), "{skips}: {}", text(&o.stderr));
        assert!(!out.join("evaluation.json").exists());
    }
}
