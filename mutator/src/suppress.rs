//! Suppression: mutants (by content key) or whole functions that a crate declares not to
//! evaluate, each with its reason. A skip that matches no mutant is an error: a stale skip
//! (the function renamed, the mutant's code rewritten) must not go unnoticed, nor silently
//! start skipping something else.

use std::collections::BTreeMap;

use anyhow::{bail, Result};

use crate::catalog::Mutant;
use crate::key::keys;
use crate::manifest::{Skip, SkipTarget};

/// The mutants among `mutants` (a whole catalog: keys are ranked over it) that `skips` match,
/// with the reason of the first entry that matches each; refuses an entry that matches none.
pub fn skipped(mutants: &[Mutant], skips: &[Skip]) -> Result<BTreeMap<u32, String>> {
    let keys = keys(mutants);
    let mut out = BTreeMap::new();
    let mut stale = Vec::new();
    for s in skips {
        let mut matched = false;
        for (m, key) in mutants.iter().zip(&keys) {
            let hit = match &s.target {
                SkipTarget::Function(f) => &m.function == f,
                SkipTarget::Mutant(k) => key == k,
            };
            if hit {
                matched = true;
                out.entry(m.id).or_insert_with(|| s.reason.clone());
            }
        }
        if !matched {
            stale.push(match &s.target {
                SkipTarget::Function(f) => format!("function {f:?} has no mutant"),
                SkipTarget::Mutant(k) => format!("no mutant has the key {k:?}"),
            });
        }
    }
    if !stale.is_empty() {
        bail!(
            "[package.metadata.ferastrau] skip matches nothing: {} (a stale skip; keys are those of mutants.json and `ferastrau gate`)",
            stale.join("; ")
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{Edit, Family, Pos};

    fn mutant(id: u32, function: &str, replacement: &str) -> Mutant {
        let at = Pos {
            line: id as usize,
            column: 1,
        };
        Mutant {
            id,
            family: Family::Operator,
            function: function.into(),
            file: "src/lib.rs".into(),
            line: id as usize,
            column: 1,
            original: "<".into(),
            replacement: replacement.into(),
            viable: Some(true),
            edit: Edit {
                start: at,
                end: at,
                old: "<".into(),
                new: replacement.into(),
            },
        }
    }

    fn skip(target: SkipTarget, reason: &str) -> Skip {
        Skip {
            target,
            reason: reason.into(),
        }
    }

    #[test]
    fn functions_and_keys_match_and_stale_entries_are_refused() {
        let all = [
            mutant(1, "f", "<="),
            mutant(2, "f", ">"),
            mutant(3, "g", "<="),
        ];
        let got = skipped(
            &all,
            &[
                skip(SkipTarget::Function("f".into()), "slow"),
                skip(
                    SkipTarget::Mutant("g operator: < -> <= #0".into()),
                    "equivalent",
                ),
                // Overlaps the function entry: the first reason stays.
                skip(SkipTarget::Mutant("f operator: < -> > #0".into()), "other"),
            ],
        )
        .unwrap();
        assert_eq!(
            got,
            BTreeMap::from([
                (1, "slow".to_string()),
                (2, "slow".to_string()),
                (3, "equivalent".to_string())
            ])
        );
        let e = skipped(&all, &[skip(SkipTarget::Function("h".into()), "gone")])
            .unwrap_err()
            .to_string();
        assert!(e.contains("function \"h\" has no mutant"), "{e}");
    }
}
