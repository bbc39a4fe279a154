//! `reports/gate-baseline.json`: per benchmark, each gated scope's figures and each mutant's
//! key with the scopes that killed it — what `ferastrau gate` compares a run with.
//!
//! Written by `harness/src/gate/baseline.rs` (`write_baseline`, through `render`) by hand, one
//! line per mutant so that a change of baseline reads as a short diff; [`GateBaseline::to_text`]
//! writes the same bytes. Read by `gate::baseline::read_baseline`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use anyhow::Result;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Artifact, Layout};

/// The version of the baseline this build reads and writes (the file's own `version`, 1 since
/// the gate exists).
pub const SCHEMA_VERSION: u32 = 1;

/// `reports/gate-baseline.json`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GateBaseline {
    /// Stored as `"version"`, the name it had before this crate (see the crate's "Versions").
    #[serde(rename = "version")]
    pub schema_version: u32,
    /// By benchmark crate name.
    pub benchmarks: BTreeMap<String, BenchmarkBaseline>,
}

/// One benchmark's baseline.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BenchmarkBaseline {
    /// By scope (JSON keys: the scopes' numbers).
    pub scopes: BTreeMap<u32, ScopeFigures>,
    /// Every evaluated mutant's key, with the scopes that killed it (empty: it survived all).
    pub mutants: BTreeMap<String, Vec<u32>>,
}

/// A scope's figures, as `evaluation.json` has them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScopeFigures {
    pub mutants: u32,
    pub killed: u32,
    pub kill_rate: f64,
    pub statement_coverage: f64,
    pub branch_coverage: f64,
}

impl Artifact for GateBaseline {
    const FILE_NAME: &'static str = "gate-baseline.json";
    const SCHEMA_NAME: &'static str = "gate-baseline";
    const SCHEMA_VERSION: u32 = SCHEMA_VERSION;
    const VERSION_KEY: &'static str = "version";
    const REMEDY: &'static str = "re-run ferastrau gate --update-baseline";
    /// Not used: [`GateBaseline::to_text`] lays the file out by hand.
    const LAYOUT: Layout = Layout::Pretty {
        trailing_newline: true,
    };

    fn schema_version(&self) -> u32 {
        self.schema_version
    }

    fn set_schema_version(&mut self, version: u32) {
        self.schema_version = version;
    }

    /// Pretty JSON but for each mutant's line, which holds its key and its compact list of
    /// killing scopes (`"SearchTree::add call: contains -> add #0": [1,2,3]`).
    fn to_text(&self) -> Result<String> {
        anyhow::ensure!(
            self.schema_version == SCHEMA_VERSION,
            "refusing to write gate-baseline.json with version {}: this build writes {SCHEMA_VERSION}",
            self.schema_version
        );
        let mut t = format!(
            "{{\n  \"version\": {},\n  \"benchmarks\": {{",
            self.schema_version
        );
        for (i, (name, b)) in self.benchmarks.iter().enumerate() {
            let scopes = serde_json::to_string_pretty(&b.scopes)?.replace('\n', "\n      ");
            let _ = write!(
                t,
                "{}\n    {}: {{\n      \"scopes\": {scopes},\n      \"mutants\": {{",
                if i > 0 { "," } else { "" },
                serde_json::to_string(name)?
            );
            for (j, (key, killed)) in b.mutants.iter().enumerate() {
                let _ = write!(
                    t,
                    "{}\n        {}: {}",
                    if j > 0 { "," } else { "" },
                    serde_json::to_string(key)?,
                    serde_json::to_string(killed)?
                );
            }
            t.push_str("\n      }\n    }");
        }
        t.push_str("\n  }\n}\n");
        Ok(t)
    }
}
