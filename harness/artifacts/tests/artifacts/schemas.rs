//! The committed JSON Schemas (`schemas/`) are the ones the types generate, and every file
//! validates against its schema.
//!
//! `FERASTRAU_BLESS=1 cargo test --release -p ferastrau-artifacts` rewrites the committed
//! schemas from the types (after a deliberate change of a type: review the diff).
//!
//! The validator is `jsonschema` (draft 2020-12, what schemars generates), with the features
//! the harness's tests already build it with: the workspace compiles it once for both.

use std::path::{Path, PathBuf};

use ferastrau_artifacts::journal;
use ferastrau_artifacts::Artifact;

use crate::support::{each_file, fixture, EachFile};

fn schemas_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas")
}

fn bless() -> bool {
    std::env::var_os("FERASTRAU_BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

#[test]
fn the_committed_schemas_are_the_types() {
    let dir = schemas_dir();
    let mut stale = Vec::new();
    let generated = ferastrau_artifacts::schemas();
    for (name, text) in &generated {
        let path = dir.join(name);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != *text {
            if bless() {
                std::fs::write(&path, text).unwrap();
            } else {
                stale.push(name.clone());
            }
        }
    }
    // A schema file no type generates any more.
    for e in std::fs::read_dir(&dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if !generated.iter().any(|(n, _)| *n == name) {
            if bless() {
                std::fs::remove_file(dir.join(&name)).unwrap();
            } else {
                stale.push(format!("{name} (no type generates it)"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "schemas/ differs from the types: {} (`FERASTRAU_BLESS=1 cargo test --release -p ferastrau-artifacts` rewrites them; review the diff)",
        stale.join(", ")
    );
}

fn committed_schema(name: &str) -> serde_json::Value {
    let path = schemas_dir().join(format!("{name}.schema.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    if let Err(e) = jsonschema::meta::validate(&schema) {
        panic!("{} is not a valid JSON Schema: {e}", path.display());
    }
    schema
}

/// The errors of `instance` against `schema`, for people.
fn errors(schema: &serde_json::Value, instance: &serde_json::Value) -> Vec<String> {
    let validator = jsonschema::validator_for(schema).expect("the schema compiles");
    validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .take(5)
        .collect()
}

struct Validate {
    failures: Vec<String>,
}

impl EachFile for Validate {
    fn file<T: Artifact>(&mut self, path: &Path) {
        let schema = committed_schema(T::SCHEMA_NAME);
        let instance: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let e = errors(&schema, &instance);
        if !e.is_empty() {
            self.failures
                .push(format!("{}: {}", path.display(), e.join("; ")));
        }
        // What this build writes validates too (the committed files have no version yet).
        let written: serde_json::Value =
            serde_json::from_str(&T::read(path).unwrap().to_text().unwrap()).unwrap();
        let e = errors(&schema, &written);
        if !e.is_empty() {
            self.failures
                .push(format!("{} as written: {}", path.display(), e.join("; ")));
        }
    }
}

#[test]
fn every_committed_report_and_fixture_validates_against_its_schema() {
    let mut v = Validate {
        failures: Vec::new(),
    };
    each_file(&mut v);
    assert!(v.failures.is_empty(), "{}", v.failures.join("\n"));
}

#[test]
fn the_journal_lines_validate_against_the_line_schema() {
    let schema = committed_schema(journal::SCHEMA_NAME);
    let text = std::fs::read_to_string(fixture("journal.jsonl")).unwrap();
    for line in text.lines() {
        let instance: serde_json::Value = serde_json::from_str(line).unwrap();
        let e = errors(&schema, &instance);
        assert!(e.is_empty(), "{line}: {}", e.join("; "));
    }
}

#[test]
fn the_schemas_refuse_what_the_types_refuse() {
    let schema = committed_schema("evaluation");
    let ok = serde_json::json!({"benchmark": "b", "scopes": []});
    assert!(errors(&schema, &ok).is_empty());
    for bad in [
        serde_json::json!({"benchmark": "b", "scopes": [], "surprise": 1}),
        serde_json::json!({"scopes": []}),
        serde_json::json!({"benchmark": "b", "scopes": [], "shard": "0/2"}),
    ] {
        assert!(!errors(&schema, &bad).is_empty(), "{bad}");
    }
    let schema = committed_schema(journal::SCHEMA_NAME);
    let bad = serde_json::json!({"kind": "result", "mutant": 1, "scope": 1, "status": "dead"});
    assert!(!errors(&schema, &bad).is_empty());
    let text = std::fs::read_to_string(fixture("journal.jsonl")).unwrap();
    let mut header: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert!(errors(&schema, &header).is_empty());
    header["surprise"] = 1.into();
    assert!(
        !errors(&schema, &header).is_empty(),
        "the header is closed too"
    );
}
