//! `--compare structural` (issue 32, item 2): a mutant that leaves the same abstract value in
//! another shape survives the default comparison and dies under the structural one, which
//! names both structures; a crate without a structure, a resumed run of the other comparison
//! and a gate of a structural run are refused, not run.

use std::path::Path;

use crate::common::{evaluate, ferastrau, fixture, text};
use serde_json::Value;

const USAGE: i32 = 2;

/// The status at `scope` of the mutant whose key is `key`.
fn verdict<'a>(mutants: &'a Value, key: &str, scope: &str) -> &'a Value {
    let m = mutants["mutants"]
        .as_array()
        .expect("mutants")
        .iter()
        .find(|m| m["key"] == key)
        .unwrap_or_else(|| panic!("no mutant {key}"));
    &m["scopes"][scope]
}

#[test]
fn another_shape_of_the_same_value_is_killed_only_when_compared_structurally() {
    let shapes = fixture("shapes");
    let root = tempfile::tempdir().unwrap();
    let path = shapes.to_str().unwrap();
    let args = ["--benchmark-path", path, "--scopes", "1..2"];
    let (ev_abstract, mu_abstract) = evaluate(&args, &root.path().join("abstract"));
    let mut structural = args.to_vec();
    structural.extend(["--compare", "structural"]);
    let (ev_structural, mu_structural) = evaluate(&structural, &root.path().join("structural"));

    // `x < first` → `x > first`: a new value goes to the other end, the set is the same.
    let key = "Bag::add operator: < -> > #0";
    assert_eq!(verdict(&mu_abstract, key, "2")["status"], "survived");
    let killed = verdict(&mu_structural, key, "2");
    assert_eq!(killed["status"], "killed", "{killed}");
    assert_eq!(killed["reason"], "output");
    let detail = killed["detail"].as_str().unwrap();
    assert!(
        detail.contains("structure [0, 1]") && detail.contains("structure [1, 0]"),
        "{detail}"
    );

    // Whatever abstract values kill, structures kill too: no mutant is saved by the change.
    for m in mu_abstract["mutants"].as_array().unwrap() {
        if m["scopes"]["2"]["status"] == "killed" {
            assert_eq!(
                verdict(&mu_structural, m["key"].as_str().unwrap(), "2")["status"],
                "killed"
            );
        }
    }
    assert!(
        ev_abstract.get("comparison").is_none(),
        "abstract is the default, left out"
    );
    assert_eq!(ev_structural["comparison"], "structural");
    let rate = |ev: &Value| ev["scopes"][1]["kill_rate"].as_f64().unwrap();
    assert!(rate(&ev_structural) > rate(&ev_abstract));

    // A resumed run must compare as it began.
    let o = ferastrau(&[
        "evaluate",
        "--benchmark-path",
        path,
        "--scopes",
        "1..2",
        "--resume",
        "--out",
        root.path().join("abstract").to_str().unwrap(),
        "--compare",
        "structural",
    ]);
    let err = text(&o.stderr);
    assert!(
        !o.status.success(),
        "resumed with another comparison: {err}"
    );
    assert!(
        err.contains("the comparison (--compare abstract then, structural now)"),
        "{err}"
    );

    // The gate and its baselines compare abstract values: a structural run is refused.
    let baseline = root.path().join("baseline.json");
    let o = ferastrau(&[
        "gate",
        "--baseline",
        baseline.to_str().unwrap(),
        "--current",
        root.path().join("structural").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(USAGE), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("--compare structural"),
        "{}",
        text(&o.stderr)
    );
    // ...and so is a gate that would run one.
    let o = ferastrau(&[
        "gate",
        "--baseline",
        baseline.to_str().unwrap(),
        "--benchmark-path",
        path,
        "--compare",
        "structural",
    ]);
    assert_eq!(o.status.code(), Some(USAGE), "{}", text(&o.stderr));
    assert!(!baseline.exists());
}

#[test]
fn a_crate_without_a_structure_is_refused_before_any_run() {
    let out = tempfile::tempdir().unwrap();
    let o = ferastrau(&[
        "evaluate",
        "--benchmark-path",
        fixture("chain").to_str().unwrap(),
        "--scopes",
        "1",
        "--compare",
        "structural",
        "--out",
        out.path().join("run").to_str().unwrap(),
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(USAGE), "{err}");
    assert!(err.contains("defines no structure"), "{err}");
    assert!(!Path::new(&out.path().join("run").join("evaluation.json")).exists());
    // An absurd value is refused by name.
    let o = ferastrau(&["evaluate", "--compare", "shape"]);
    assert_eq!(o.status.code(), Some(USAGE));
    assert!(
        text(&o.stderr).contains("abstract or structural"),
        "{}",
        text(&o.stderr)
    );
}
