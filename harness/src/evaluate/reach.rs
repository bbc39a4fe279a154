//! Which mutants no input reaches: the harness's side of reach selection.
//!
//! The original's checking run writes, per scope and method, the inputs that reach each
//! mutation point (`ferastrau_protocol::reach`). A mutant process reads its own point's sets and
//! runs only those inputs; a mutant that no input reaches at any of its remaining scopes needs
//! no process at all: it survives each of them, since on every input it does what the original
//! does. This module finds those mutants, and how many executions they would have cost.

use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::path::Path;

use anyhow::{Context, Result};
use ferastrau_protocol::reach::ReachSets;

/// The reach sets of every scope and method of a run.
pub struct ReachIndex {
    /// Per scope, per method: the sets, or `None` where the original wrote none (a method
    /// with more inputs than a bitmap holds), which counts as reaching every mutant.
    scopes: BTreeMap<u32, Vec<Option<ReachSets>>>,
}

impl ReachIndex {
    /// Reads the sets of `scopes` × `methods` methods from the run's inputs directory.
    pub fn read(inputs_dir: &Path, scopes: RangeInclusive<u32>, methods: usize) -> Result<Self> {
        let mut index = BTreeMap::new();
        for scope in scopes {
            let sets = (0..methods)
                .map(|m| {
                    ReachSets::read(inputs_dir, scope, m).with_context(|| {
                        format!("cannot read the reach sets of scope {scope}, method {m}")
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            index.insert(scope, sets);
        }
        Ok(ReachIndex { scopes: index })
    }

    /// Whether the original's runs reached no mutation point at all, at any scope.
    pub fn is_empty(&self) -> bool {
        self.scopes
            .values()
            .flatten()
            .all(|sets| sets.as_ref().is_some_and(|s| s.points() == 0))
    }

    /// How many inputs of `scope` reach `mutant`'s point: what it runs there unless killed
    /// first. `None` when a method of the scope has no sets (every input reaches then).
    pub fn executions(&self, mutant: u32, scope: u32) -> Option<u64> {
        self.scopes
            .get(&scope)?
            .iter()
            .map(|sets| sets.as_ref().map(|s| s.count(mutant)))
            .sum()
    }

    /// If no input of any scope in `scopes` reaches `mutant`: the executions a run on every
    /// input would make (all inputs of those scopes, since it would survive them all).
    pub fn unreached(&self, mutant: u32, scopes: RangeInclusive<u32>) -> Option<u64> {
        let mut inputs = 0;
        for scope in scopes {
            for sets in self.scopes.get(&scope)? {
                let sets = sets.as_ref()?;
                if sets.count(mutant) > 0 {
                    return None;
                }
                inputs += sets.inputs;
            }
        }
        Some(inputs)
    }
}
