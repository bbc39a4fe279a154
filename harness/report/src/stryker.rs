//! `mutation-testing-report.json`, typed: the mutation-testing-report-schema format (Stryker's
//! `mutation-testing-elements`; also written by PIT's plugin, Stryker4s, Stryker.NET,
//! Infection), the part of it Ferastrau writes and reads back. One definition for both writers
//! (`evaluate`'s in `html/schema.rs`, a suite's in `suite_html/schema.rs`, which use this module
//! and not the other way round) and for the gate, which reads each file's `source` back; the
//! tests validate what they write against the published schema.
//!
//! The fields are declared in the byte order of their JSON names, the order the files have
//! always had (they were built as `serde_json::Value`s, whose keys sort): the committed reports
//! stay byte for byte the same.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

/// The schema version written (the schema's `schemaVersion` pattern allows majors 1 and 2).
pub const SCHEMA_VERSION: &str = "2";

/// The file's name in a run's directory.
pub const FILE: &str = "mutation-testing-report.json";

/// The whole document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Document {
    pub config: Config,
    /// Each mutated file (its path in the crate) with its source and mutants.
    pub files: BTreeMap<String, SourceFile>,
    pub framework: Framework,
    #[serde(rename = "schemaVersion")]
    pub schema_version: String,
    /// The tests, by file: Korat's inputs (`korat inputs`), or a suite's tests (its path).
    #[serde(rename = "testFiles")]
    pub test_files: BTreeMap<String, TestFile>,
    pub thresholds: Thresholds,
}

impl Document {
    /// A document of `framework`'s version and Stryker's default thresholds (a viewer colours
    /// a score by them).
    pub fn new(
        config: Config,
        files: BTreeMap<String, SourceFile>,
        test_files: BTreeMap<String, TestFile>,
    ) -> Document {
        Document {
            config,
            files,
            framework: Framework {
                name: "ferastrau".into(),
                version: env!("CARGO_PKG_VERSION").into(),
            },
            schema_version: SCHEMA_VERSION.into(),
            test_files,
            thresholds: Thresholds { high: 80, low: 60 },
        }
    }

    /// Writes the document at `path` (pretty, no final newline), atomically.
    pub fn write(&self, path: &Path) -> Result<()> {
        ferastrau_artifacts::write_atomically(path, serde_json::to_string_pretty(self)?.as_bytes())
    }

    /// Reads the document at `path`: one that is not this format is an error naming it.
    pub fn read(path: &Path) -> Result<Document> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        serde_json::from_str(&text).with_context(|| {
            format!(
                "{} is not a mutation-testing-report document",
                path.display()
            )
        })
    }
}

/// What the run was: Ferastrau's own keys (the schema leaves `config` free).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Config {
    pub benchmark: String,
    /// Why the run is broken, when it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broken: Option<String>,
    /// The diff an `--in-diff` run was of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_diff: Option<String>,
    /// The scope whose fates the document shows (an evaluation's largest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<u32>,
    /// The share of a sharded run (`k/n`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// The test suite a suite's run measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suite: Option<String>,
}

/// One mutated file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SourceFile {
    pub language: String,
    pub mutants: Vec<Mutant>,
    /// The file's text as the run mutated it.
    pub source: String,
}

impl SourceFile {
    /// A Rust file.
    pub fn rust(source: String, mutants: Vec<Mutant>) -> SourceFile {
        SourceFile {
            language: "rust".into(),
            mutants,
            source,
        }
    }
}

/// One mutant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mutant {
    /// Its content key (what the gate matches it by), or its function and edit.
    pub description: String,
    pub id: String,
    /// The tests (ids) that killed it.
    #[serde(rename = "killedBy", default, skip_serializing_if = "Option::is_none")]
    pub killed_by: Option<Vec<String>>,
    pub location: Location,
    /// Its family (`operator`, `variable`, `call`, `constant`).
    #[serde(rename = "mutatorName")]
    pub mutator_name: String,
    pub replacement: String,
    pub status: Status,
    #[serde(
        rename = "statusReason",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub status_reason: Option<String>,
    /// The inputs it ran on at the document's scope.
    #[serde(
        rename = "testsCompleted",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub tests_completed: Option<u64>,
}

/// A mutant's status, as the schema names them (the ones Ferastrau writes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    Killed,
    Survived,
    Timeout,
    NoCoverage,
    CompileError,
    RuntimeError,
    Ignored,
    Pending,
}

/// Where the mutation is: 1-based line and column, the end exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Location {
    pub end: Position,
    pub start: Position,
}

/// A point in a source file.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Position {
    pub column: usize,
    pub line: usize,
}

/// The tool that wrote the document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Framework {
    pub name: String,
    pub version: String,
}

/// One file of tests.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestFile {
    pub tests: Vec<Test>,
}

/// One test: an input (named by its rendering) or a suite's test.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Test {
    pub id: String,
    pub name: String,
}

/// The kill rates from which a viewer colours a score high, and below which low.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    pub high: u32,
    pub low: u32,
}
