//! Mutants, coverage probes, and the catalog that lists them (a table for people, JSON for
//! tools).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

/// The families of mutation operators (the protocol's: the reports name them the same way).
pub use ferastrau_protocol::Family;

/// A position in a source file: 1-based line, 1-based column counted in characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

/// One textual replacement in the benchmark's source that turns it into the mutant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    pub start: Pos,
    /// Exclusive.
    pub end: Pos,
    /// The text being replaced, to detect a source that changed since the catalog was made.
    pub old: String,
    pub new: String,
}

/// One mutant: a single change to one mutated function.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mutant {
    /// Stable id: the same sources give the same ids. Ids start at 1 (0 is the original).
    pub id: u32,
    pub family: Family,
    /// `Type::method` or `function`.
    pub function: String,
    /// Relative to the crate directory.
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub original: String,
    pub replacement: String,
    /// `false` when compile-pruning dropped it, `null` before pruning.
    pub viable: Option<bool>,
    /// The source edit, in the paper's `left/*temp*/` form.
    pub edit: Edit,
}

/// A coverage probe: one statement, or one outcome of one branch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Probe {
    pub id: u32,
    /// `code` (mutated functions) or `spec` (specification functions).
    pub role: String,
    pub function: String,
    /// `statement` or `branch`.
    pub kind: String,
    /// For branches: `if`, `while`, `for`, `match`, `&&`, `||` or `?`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub construct: Option<String>,
    /// For branches: `true`/`false` (for `?`: `continue`/`return`; for `match`: `arm N`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub outcome: Option<String>,
    pub file: String,
    pub line: usize,
}

impl Probe {
    /// Where the probe is and what it sees, for people: `src/tree.rs:69 SearchTree::add: if
    /// true`, or `… : statement`.
    pub fn place(&self) -> String {
        let what = match (&self.construct, &self.outcome) {
            (Some(c), Some(o)) => format!("{c} {o}"),
            _ => self.kind.clone(),
        };
        format!("{}:{} {}: {what}", self.file, self.line, self.function)
    }
}

/// Every mutant of a crate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Catalog {
    #[serde(rename = "crate")]
    pub crate_name: String,
    /// Whether compile-pruning has run (so that `viable` is known).
    pub pruned: bool,
    pub mutants: Vec<Mutant>,
}

/// Counts per family.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub total: usize,
    pub viable: usize,
    pub not_viable: usize,
}

impl Catalog {
    pub fn get(&self, id: u32) -> Option<&Mutant> {
        self.mutants
            .binary_search_by_key(&id, |m| m.id)
            .ok()
            .map(|i| &self.mutants[i])
    }

    /// Mutants that survived compile-pruning (all of them before pruning).
    pub fn viable(&self) -> impl Iterator<Item = &Mutant> {
        self.mutants.iter().filter(|m| m.viable != Some(false))
    }

    /// Per-family counts, plus `all`: every family, those without mutants at 0 (a tool
    /// reading the JSON must not mistake a missing family for an unknown one).
    pub fn counts(&self) -> BTreeMap<String, Counts> {
        let mut out: BTreeMap<String, Counts> = Family::ALL
            .iter()
            .map(|f| f.as_str())
            .chain(["all"])
            .map(|k| (k.to_string(), Counts::default()))
            .collect();
        for m in &self.mutants {
            for key in [m.family.as_str(), "all"] {
                let c = out.entry(key.to_string()).or_default();
                c.total += 1;
                match m.viable {
                    Some(true) => c.viable += 1,
                    Some(false) => c.not_viable += 1,
                    None => {}
                }
            }
        }
        out
    }

    /// One document: the crate, whether pruning ran, the counts, and every mutant (fields in
    /// declaration order: `id`, `family`, `function`, `file`, `line`, `column`, `original`,
    /// `replacement`, `viable`, `edit`).
    pub fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct Doc<'a> {
            #[serde(rename = "crate")]
            crate_name: &'a str,
            pruned: bool,
            counts: BTreeMap<String, Counts>,
            mutants: &'a [Mutant],
        }
        let doc = Doc {
            crate_name: &self.crate_name,
            pruned: self.pruned,
            counts: self.counts(),
            mutants: &self.mutants,
        };
        serde_json::to_string_pretty(&doc).expect("a catalog is plain data")
    }

    /// A table for people: id, family, location, function, original → replacement, and
    /// whether the mutant compiles (`-` before pruning).
    pub fn table(&self) -> String {
        let loc = |m: &Mutant| format!("{}:{}:{}", m.file, m.line, m.column);
        let w_loc = self.mutants.iter().map(|m| loc(m).len()).max().unwrap_or(8);
        let w_fn = self
            .mutants
            .iter()
            .map(|m| m.function.len())
            .max()
            .unwrap_or(8);
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:>5}  {:<8}  {:<w_loc$}  {:<w_fn$}  {:<6}  change",
            "id", "family", "location", "function", "viable"
        );
        for m in &self.mutants {
            let viable = match m.viable {
                Some(true) => "yes",
                Some(false) => "no",
                None => "-",
            };
            let _ = writeln!(
                s,
                "{:>5}  {:<8}  {:<w_loc$}  {:<w_fn$}  {:<6}  {} → {}",
                m.id,
                m.family.as_str(),
                loc(m),
                m.function,
                viable,
                m.original,
                m.replacement
            );
        }
        let counts = self.counts();
        let _ = write!(s, "{} mutants", self.mutants.len());
        for f in Family::ALL {
            let c = counts.get(f.as_str()).cloned().unwrap_or_default();
            let _ = write!(s, ", {} {}", c.total, f.as_str());
        }
        if self.pruned {
            let all = counts.get("all").cloned().unwrap_or_default();
            let _ = write!(s, "; {} viable, {} not viable", all.viable, all.not_viable);
        }
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_counts_list_every_family_even_without_mutants() {
        let pos = Pos { line: 1, column: 1 };
        let catalog = Catalog {
            crate_name: "x".into(),
            pruned: true,
            mutants: vec![Mutant {
                id: 1,
                family: Family::Operator,
                function: "f".into(),
                file: "src/lib.rs".into(),
                line: 1,
                column: 1,
                original: "+".into(),
                replacement: "-".into(),
                viable: Some(true),
                edit: Edit {
                    start: pos,
                    end: pos,
                    old: "+".into(),
                    new: "-".into(),
                },
            }],
        };
        let doc: serde_json::Value = serde_json::from_str(&catalog.to_json()).unwrap();
        let counts = doc["counts"].as_object().unwrap();
        let keys: Vec<&str> = counts.keys().map(String::as_str).collect();
        assert_eq!(keys, ["all", "call", "constant", "operator", "variable"]);
        for zero in ["call", "constant", "variable"] {
            assert_eq!(counts[zero]["total"], 0, "{zero}");
        }
        assert_eq!(counts["operator"]["viable"], 1);
        assert_eq!(counts["all"]["total"], 1);
    }
}
