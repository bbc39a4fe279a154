//! The documents `--format json` prints on stdout: `evaluate`'s, `merge`'s, `gate`'s and
//! `evaluate --suite`'s. They are not files (nothing reads them back, they carry no version of
//! their own), but scripts and CI jobs read them, so each is a type with a committed schema
//! like the files, and an added or renamed key is a change the schema's diff shows.
//!
//! A document is printed as its `serde_json::Value` is ([`Printed::to_text`]): with every key of
//! every object in alphabetical order, as the commands printed them when they built `Value`s.
//! So the flattened parts (`evaluation.json`'s keys among `evaluate`'s) mix with the rest as
//! before, whatever the declaration order here.

use schemars::JsonSchema;
use serde::Serialize;

use crate::{Evaluation, NextScope, ScopeFigures, SuiteRun};

/// A document a command prints with `--format json`.
pub trait Printed: Serialize + JsonSchema {
    /// The committed schema is `schemas/<SCHEMA_NAME>.schema.json`.
    const SCHEMA_NAME: &'static str;

    /// The document as printed (without the final newline): pretty JSON, keys sorted.
    fn to_text(&self) -> anyhow::Result<String> {
        Ok(serde_json::to_string_pretty(&serde_json::to_value(self)?)?)
    }

    /// The JSON Schema of what is printed, as committed (pretty, final newline). Generated for
    /// serialization, unlike the files' (which are read back): every key that is always
    /// printed is required, `null` included (`runner`, `next_scope`), and only the keys left
    /// out when empty are optional.
    fn schema_text() -> String {
        let schema = schemars::generate::SchemaSettings::default()
            .for_serialize()
            .into_generator()
            .into_root_schema_for::<Self>();
        serde_json::to_string_pretty(&schema).expect("a schema serializes") + "\n"
    }
}

/// `evaluate --format json`: a run's summary, or why `--in-diff` left nothing to evaluate.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum EvaluateOutput {
    Evaluated(Box<EvaluateSummary>),
    Nothing(NothingToEvaluate),
}

impl Printed for EvaluateOutput {
    const SCHEMA_NAME: &'static str = "evaluate-stdout";
}

/// What `evaluate` and `merge` both print of a run: its `evaluation.json` as written, where the
/// reports are, and how many mutants it evaluated.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunReports {
    #[serde(flatten)]
    pub evaluation: Evaluation,
    /// The mutants evaluated (a shard's: its share).
    pub evaluated: u32,
    /// The reports' directory.
    pub reports: String,
}

/// `evaluate --format json` of a run that evaluated something.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvaluateSummary {
    #[serde(flatten)]
    pub run: RunReports,
    /// What the run says of its largest scope + 1: `null` when nothing (no survivor, a broken
    /// run, a shard, a scope too costly to offer).
    pub next_scope: Option<NextScopeStep>,
    /// The page's path.
    pub report_html: String,
    /// The mutant phase's figures; `null` when the run ran no mutant (every result came from
    /// the journal).
    pub runner: Option<RunnerFigures>,
    /// The whole command's time, builds and generation included.
    pub seconds: f64,
    /// The mutants that survive the largest scope.
    pub survivors: Survivors,
}

/// `evaluate --in-diff --format json` of a diff that selects no mutant.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NothingToEvaluate {
    pub benchmark: String,
    /// Always `false`: what tells this document from a run's.
    #[schemars(extend("const" = false))]
    pub evaluated: bool,
    /// Why the diff selects nothing.
    pub why: String,
}

/// `next_scope` of [`EvaluateSummary`]: the offer of `--next-scope`, or that it ran.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NextScopeStep {
    /// The estimate of the offer (absent when the survivors ran there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_seconds: Option<f64>,
    /// `true`: scope + 1 is cheap and `--next-scope` was not given; `false`: the survivors
    /// ran there (`mutants.json` and `survivors` hold the outcomes).
    pub offered: bool,
    pub scope: u32,
}

/// The mutant phase's figures (the table's `runner:` line).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunnerFigures {
    /// Mutant × input executions.
    pub executions: u64,
    /// The phase's time × jobs over the workers' own time on the inputs: the harness's cost
    /// against a bare loop; `null` when no process ran an input (every mutant unreached).
    pub harness_over_bare_loop: Option<f64>,
    pub jobs: u64,
    pub overhead_ms_per_process: f64,
    pub processes: u64,
    pub seconds: f64,
    /// Executions a run on every input would have made that reach selection skipped.
    pub skipped: u64,
    /// Mutants no input reached: they ran no process.
    pub unreached_mutants: u64,
}

/// The survivors of a run's largest scope, in source order.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Survivors {
    pub mutants: Vec<Survivor>,
    pub scope: u32,
}

/// One survivor: its key, its place, the mutated line and why it survived (what `evaluate`
/// lists at its end and `survivors.txt` holds, `harness/report/src/html/survivors.rs`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Survivor {
    pub id: u32,
    /// The content key (`mutants.json`'s `key`): its identity across edits.
    pub key: String,
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// The source line with the mutant's edit applied (trimmed); `null` when the source has
    /// no such line.
    pub mutated_line: Option<String>,
    /// Why it survived, in words.
    pub why: String,
    /// What scope + 1 said of it (`evaluate --next-scope`), if it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_scope: Option<NextScope>,
}

/// `merge --format json`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MergeSummary {
    #[serde(flatten)]
    pub run: RunReports,
    /// The shards merged.
    pub shards: u32,
}

impl Printed for MergeSummary {
    const SCHEMA_NAME: &'static str = "merge-stdout";
}

/// `gate --format json`: per scope the baseline's and the run's figures and what changed, the
/// failures in words, the notes, and the verdict.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GateSummary {
    /// The baseline file.
    pub baseline: String,
    pub benchmark: String,
    pub failures: Vec<String>,
    pub notes: Vec<String>,
    /// Every scope of the baseline or the run, in increasing order.
    pub scopes: Vec<GateScope>,
    pub verdict: GateVerdict,
}

impl Printed for GateSummary {
    const SCHEMA_NAME: &'static str = "gate-stdout";
}

/// One scope of [`GateSummary`]; `null` where the baseline or the run has no such scope (and
/// `changes` where the baseline has none).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GateScope {
    pub baseline: Option<ScopeFigures>,
    pub changes: Option<ScopeChanges>,
    pub now: Option<ScopeFigures>,
    pub scope: u32,
}

/// What changed at a scope, as mutant keys.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScopeChanges {
    /// In the baseline, no longer evaluated.
    pub gone: Vec<String>,
    /// New (unknown to the baseline), killed.
    pub new_killed: Vec<String>,
    /// New, surviving.
    pub new_surviving: Vec<String>,
    /// Surviving in the baseline, killed now.
    pub now_killed: Vec<String>,
    /// Killed in the baseline, skipped now by the crate's skip list.
    pub now_skipped: Vec<String>,
    /// Killed in the baseline, surviving now.
    pub now_surviving: Vec<String>,
}

/// How a gate ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GateVerdict {
    Passed,
    Failed,
    /// `--update-baseline`: the run is the baseline now.
    Updated,
    /// The baseline file has no section for the benchmark.
    NoBaseline,
}

/// `evaluate --suite FILE --format json`: `suite.json` as written, and where the reports are.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SuiteSummary {
    #[serde(flatten)]
    pub run: SuiteRun,
    /// The reports' directory.
    pub reports: String,
}

impl Printed for SuiteSummary {
    const SCHEMA_NAME: &'static str = "suite-stdout";
}
