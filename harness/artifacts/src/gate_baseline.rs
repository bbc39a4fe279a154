//! `reports/gate-baseline.json`: per benchmark, each gated scope's figures and each mutant's
//! key with the scopes that killed it — what `ferastrau gate` compares a run with.
//!
//! Written by `harness/report/src/gate/baseline.rs` (`write_baseline`, through `render`) by
//! hand, one line per mutant so that a change of baseline reads as a short diff;
//! [`GateBaseline::to_text`] writes the same bytes. Read by `gate::baseline::read_baseline`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use anyhow::Result;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Artifact, Layout};

/// The version of the baseline this build reads and writes (the file's own `version`: 1 since
/// the gate exists, 2 since it keeps each mutant's place and each mutated function's lines).
pub const SCHEMA_VERSION: u32 = 2;

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
    /// Where each mutant of `mutants` was, by key: what a later run's mutants are matched
    /// through, with `regions` (`harness/report/src/gate/identity.rs`).
    #[serde(default)]
    pub places: BTreeMap<String, MutantPlace>,
    /// Each mutated function's lines from its first mutant to its last, by
    /// `"<file> <function>"`.
    #[serde(default)]
    pub regions: BTreeMap<String, Region>,
    /// The sample the baseline's run evaluated (`--max-mutants`), if it was one: a run of
    /// another sample, or of all mutants, is compared mutant by mutant, and never replaces a
    /// baseline with a sample of another.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample: Option<crate::SampleMark>,
    /// The crate's public functions that nothing exercised (`evaluation.json`'s `untested`):
    /// a later run's others are new, and noted. Absent in baselines made before it was kept:
    /// then none is noted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub untested: Option<Vec<String>>,
    /// Set when the kill rates leave out mutants the compiler found equivalent or duplicate
    /// (`evaluation.json` without `equivalents_counted`, some mutant marked). Absent: every
    /// mutant counts, as in every baseline made before the comparison. A run whose rates
    /// follow the other rule is refused: the same mutants' rates under two rules differ
    /// without any test changing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub leaves_out_compiler_verdicts: bool,
}

/// Where a mutant is: its file and function, and its edit's first line, last line and column
/// (1-based, as `mutants.json` has them).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MutantPlace {
    pub file: String,
    pub function: String,
    pub line: u32,
    pub end_line: u32,
    pub column: u32,
}

/// Consecutive source lines of a file: `lines[0]` is line `first` (1-based).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Region {
    pub first: u32,
    pub lines: Vec<String>,
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

    /// Pretty JSON but for each mutant's lines, which hold its key and its compact list of
    /// killing scopes (`"SearchTree::add call: contains -> add #0": [1,2,3]`) or its place,
    /// and each source line of a region, one per line.
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
            t.push_str("\n      },\n      \"places\": {");
            for (j, (key, place)) in b.places.iter().enumerate() {
                let _ = write!(
                    t,
                    "{}\n        {}: {}",
                    if j > 0 { "," } else { "" },
                    serde_json::to_string(key)?,
                    serde_json::to_string(place)?
                );
            }
            t.push_str("\n      },\n      \"regions\": {");
            for (j, (id, region)) in b.regions.iter().enumerate() {
                let _ = write!(
                    t,
                    "{}\n        {}: {{\n          \"first\": {},\n          \"lines\": [",
                    if j > 0 { "," } else { "" },
                    serde_json::to_string(id)?,
                    region.first
                );
                for (k, line) in region.lines.iter().enumerate() {
                    let _ = write!(
                        t,
                        "{}\n            {}",
                        if k > 0 { "," } else { "" },
                        serde_json::to_string(line)?
                    );
                }
                t.push_str("\n          ]\n        }");
            }
            t.push_str("\n      }");
            if let Some(sample) = &b.sample {
                let _ = write!(t, ",\n      \"sample\": {}", serde_json::to_string(sample)?);
            }
            if let Some(untested) = &b.untested {
                let _ = write!(
                    t,
                    ",\n      \"untested\": {}",
                    serde_json::to_string(untested)?
                );
            }
            if b.leaves_out_compiler_verdicts {
                t.push_str(",\n      \"leaves_out_compiler_verdicts\": true");
            }
            t.push_str("\n    }");
        }
        t.push_str("\n  }\n}\n");
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file is laid out by hand ([`GateBaseline::to_text`]): a field it forgets is lost
    /// at the next `--update-baseline` without a word. Every field set, written, read back.
    #[test]
    fn a_baseline_with_every_field_set_round_trips() {
        let b = BenchmarkBaseline {
            scopes: BTreeMap::from([(
                2,
                ScopeFigures {
                    mutants: 4,
                    killed: 3,
                    kill_rate: 75.0,
                    statement_coverage: 90.0,
                    branch_coverage: 80.0,
                },
            )]),
            mutants: BTreeMap::from([("f operator: < -> <= #0".into(), vec![2])]),
            places: BTreeMap::from([(
                "f operator: < -> <= #0".into(),
                MutantPlace {
                    file: "src/lib.rs".into(),
                    function: "f".into(),
                    line: 3,
                    end_line: 3,
                    column: 7,
                },
            )]),
            regions: BTreeMap::from([(
                "src/lib.rs f".into(),
                Region {
                    first: 3,
                    lines: vec!["if a < b {".into()],
                },
            )]),
            sample: Some(crate::SampleMark {
                max_mutants: 10,
                seed: 7,
            }),
            untested: Some(vec!["g".into()]),
            leaves_out_compiler_verdicts: true,
        };
        let file = GateBaseline {
            schema_version: SCHEMA_VERSION,
            benchmarks: BTreeMap::from([("crate".into(), b)]),
        };
        let text = file.to_text().unwrap();
        let back = GateBaseline::from_text(&text, std::path::Path::new("b.json")).unwrap();
        assert_eq!(back, file, "{text}");
    }
}
