//! What `--format json` prints is what its committed schema says
//! (`harness/artifacts/schemas/*-stdout.schema.json`, generated from the types that
//! `harness/artifacts/src/printed.rs` defines): `evaluate` (a run, with `--next-scope`, a shard's
//! share, and an `--in-diff` that selects nothing), `merge`, `gate` and `evaluate --suite`, on
//! a sample of `testdata/chain`'s mutants at scopes 1..2. The schemas are closed: a key added to
//! a document, or one renamed, at the top or in the objects it nests, makes it invalid, so a
//! document cannot change its keys without its schema (and the schema's diff) saying so.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common::{command, fixture, text, workspace_root};

/// A sample small enough for a cheap run, large enough to leave survivors at scope 2.
const SAMPLE: [&str; 4] = ["--max-mutants", "24", "--seed", "7"];

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// The committed schema `harness/artifacts/schemas/<name>.schema.json`.
fn schema(name: &str) -> Value {
    crate::common::json(
        &workspace_root()
            .join("harness/artifacts/schemas")
            .join(format!("{name}.schema.json")),
    )
}

/// Stdout of a command that succeeded, as its one JSON document.
fn document(o: &Output) -> Value {
    assert!(o.status.success(), "failed: {}", text(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON document ({e}):\n{}",
            text(&o.stdout)
        )
    })
}

/// `doc` is valid against the schema `name`, and invalid once any key of the objects at
/// `nested` (JSON pointers; `""` is the document) is renamed or a key is added to one.
fn assert_strictly_valid(name: &str, doc: &Value, nested: &[&str]) {
    let validator = jsonschema::validator_for(&schema(name)).expect("the schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{name}: {errors:?}\n{doc:#}");
    for pointer in nested {
        let object = doc
            .pointer(pointer)
            .and_then(Value::as_object)
            .unwrap_or_else(|| panic!("{name}: no object at {pointer:?} in {doc:#}"));
        let changed = |edit: &dyn Fn(&mut serde_json::Map<String, Value>)| {
            let mut d = doc.clone();
            edit(d.pointer_mut(pointer).unwrap().as_object_mut().unwrap());
            d
        };
        let added = changed(&|o| {
            o.insert("surprise".into(), Value::Null);
        });
        assert!(
            !validator.is_valid(&added),
            "{name}: a key added at {pointer:?} is valid"
        );
        for key in object.keys() {
            let renamed = changed(&|o| {
                let v = o.remove(key).unwrap();
                o.insert(format!("{key}_renamed"), v);
            });
            assert!(
                !validator.is_valid(&renamed),
                "{name}: {key:?} renamed at {pointer:?} is valid"
            );
        }
    }
}

#[test]
fn evaluate_merge_gate_and_suite_print_what_their_schemas_say() {
    let dir = tempfile::tempdir().unwrap();
    let evaluate = |out: &str, extra: &[&str]| evaluate_json(&dir.path().join(out), extra);

    // A whole run, its survivors run at scope 3 too: every optional part is there.
    let (_, o) = evaluate("whole", &["--next-scope"]);
    let doc = document(&o);
    assert_eq!(doc["next_scope"]["offered"], false, "{doc:#}");
    assert!(
        doc["survivors"]["mutants"][0]["next_scope"].is_object(),
        "{doc:#}"
    );
    assert_strictly_valid(
        "evaluate-stdout",
        &doc,
        &[
            "",
            "/scopes/0",
            "/scopes/0/killed_by",
            "/runner",
            "/survivors",
            "/survivors/mutants/0",
            "/next_scope",
        ],
    );

    // A diff that selects nothing: the other document `evaluate` prints.
    let diff = dir.path().join("readme.diff");
    std::fs::write(
        &diff,
        "diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-old\n+new\n",
    )
    .unwrap();
    let (_, o) = evaluate("nothing", &["--in-diff", s(&diff)]);
    let doc = document(&o);
    assert_eq!(doc["evaluated"], false, "{doc:#}");
    assert_strictly_valid("evaluate-stdout", &doc, &[""]);

    // Two shards, merged, then gated against the merge as its own baseline.
    let (one, o) = evaluate("shard-1", &["--shard", "1/2"]);
    let doc = document(&o);
    assert_eq!(doc["shard"], "1/2");
    assert_strictly_valid("evaluate-stdout", &doc, &["", "/scopes/0", "/runner"]);
    let (two, o) = evaluate("shard-2", &["--shard", "2/2"]);
    document(&o);
    merge_and_gate_print_what_their_schemas_say(dir.path(), &one, &two);
    a_suite_prints_what_its_schema_says(dir.path());
}

/// `evaluate --format json` of the sample of `chain` at scopes 1..2 into `out`, with `extra`:
/// the out directory and what the run printed.
fn evaluate_json(out: &Path, extra: &[&str]) -> (PathBuf, Output) {
    let chain = fixture("chain");
    let mut args = vec![
        "evaluate",
        "--benchmark-path",
        s(&chain),
        "--scopes",
        "1..2",
        "--format",
        "json",
        "--out",
        s(out),
    ];
    args.extend(SAMPLE);
    args.extend(extra);
    (out.to_path_buf(), command(&args).output().unwrap())
}

/// The two shards `one` and `two` merged into `dir/merged`, then gated against the merge as
/// its own baseline: `merge` and both of `gate`'s verdicts print what their schemas say.
fn merge_and_gate_print_what_their_schemas_say(dir: &Path, one: &Path, two: &Path) {
    let merged = dir.join("merged");
    let o = command(&[
        "merge",
        s(one),
        s(two),
        "--out",
        s(&merged),
        "--format",
        "json",
    ])
    .output()
    .unwrap();
    let doc = document(&o);
    assert_eq!(doc["shards"], 2);
    assert_strictly_valid("merge-stdout", &doc, &["", "/scopes/0"]);

    let baseline = dir.join("baseline.json");
    let gate = |extra: &[&str]| {
        let mut args = vec![
            "gate",
            "--baseline",
            s(&baseline),
            "--current",
            s(&merged),
            "--format",
            "json",
        ];
        args.extend(extra);
        document(&command(&args).output().unwrap())
    };
    let made = gate(&["--update-baseline"]);
    assert_eq!(made["verdict"], "updated");
    assert_strictly_valid("gate-stdout", &made, &["", "/scopes/0", "/scopes/0/now"]);
    let doc = gate(&[]);
    assert_eq!(doc["verdict"], "passed");
    assert_strictly_valid(
        "gate-stdout",
        &doc,
        &[
            "",
            "/scopes/0",
            "/scopes/0/now",
            "/scopes/0/baseline",
            "/scopes/0/changes",
        ],
    );
}

/// A test file measured against the same sample prints what `suite-stdout`'s schema says.
fn a_suite_prints_what_its_schema_says(dir: &Path) {
    let chain = fixture("chain");
    let suite = fixture("suites").join("chain_few.rs");
    let out = dir.join("suite");
    let mut args = vec![
        "evaluate",
        "--benchmark-path",
        s(&chain),
        "--suite",
        s(&suite),
        "--timeout-floor",
        "150ms",
        "--format",
        "json",
        "--out",
        s(&out),
    ];
    args.extend(SAMPLE);
    let doc = document(&command(&args).output().unwrap());
    assert_strictly_valid("suite-stdout", &doc, &["", "/verdicts/0"]);
}
