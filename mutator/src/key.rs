//! Content keys of mutants: names that survive unrelated edits.
//!
//! A mutant's id and line move whenever code above it changes. Its key does not: it is the
//! function, the family, the original and replacement text, and the occurrence — the rank of
//! the mutant among those of the same function with the same family and text, in source order.
//! An edit in another function, or one that shifts lines, leaves every key of a function
//! unchanged; an edit inside a function changes only the keys of the mutants it adds, removes
//! or reorders there. Baselines (`ferastrau gate`) compare runs by key.

use std::collections::BTreeMap;

use crate::catalog::Mutant;

/// What makes mutants interchangeable but for their place: function, family, texts.
type Group<'a> = (&'a str, &'a str, &'a str, &'a str);
/// A mutant's place (file, line, column) and its index in the catalog.
type Place<'a> = (&'a str, usize, usize, usize);

/// The key of every mutant in `mutants`, by id (see [`keys`]).
pub fn keys_by_id(mutants: &[Mutant]) -> BTreeMap<u32, String> {
    mutants.iter().map(|m| m.id).zip(keys(mutants)).collect()
}

/// The key of every mutant in `mutants`, in the same order. Keys are unique within a catalog.
pub fn keys(mutants: &[Mutant]) -> Vec<String> {
    // Rank within (function, family, original, replacement) by position.
    let mut groups: BTreeMap<Group, Vec<Place>> = BTreeMap::new();
    for (i, m) in mutants.iter().enumerate() {
        groups
            .entry((
                m.function.as_str(),
                m.family.as_str(),
                m.original.as_str(),
                m.replacement.as_str(),
            ))
            .or_default()
            .push((m.file.as_str(), m.line, m.column, i));
    }
    let mut out = vec![String::new(); mutants.len()];
    for ((function, family, original, replacement), mut places) in groups {
        places.sort();
        for (occurrence, (.., i)) in places.into_iter().enumerate() {
            out[i] = format!("{function} {family}: {original} -> {replacement} #{occurrence}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{Edit, Family, Pos};

    fn mutant(id: u32, function: &str, line: usize, original: &str, replacement: &str) -> Mutant {
        let at = Pos { line, column: 4 };
        Mutant {
            id,
            family: Family::Operator,
            function: function.into(),
            file: "src/lib.rs".into(),
            line,
            column: 4,
            original: original.into(),
            replacement: replacement.into(),
            viable: Some(true),
            edit: Edit {
                start: at,
                end: at,
                old: original.into(),
                new: replacement.into(),
            },
        }
    }

    #[test]
    fn keys_rank_repeated_edits_and_ignore_shifted_lines() {
        let before = [
            mutant(1, "f", 10, "<", "<="),
            mutant(2, "f", 12, "<", "<="),
            mutant(3, "g", 20, "+", "-"),
        ];
        let k = keys(&before);
        assert_eq!(k[0], "f operator: < -> <= #0");
        assert_eq!(k[1], "f operator: < -> <= #1");
        assert_eq!(k[2], "g operator: + -> - #0");
        // Five lines inserted above everything, ids renumbered: the same keys.
        let after = [
            mutant(7, "g", 25, "+", "-"),
            mutant(8, "f", 17, "<", "<="),
            mutant(9, "f", 15, "<", "<="),
        ];
        let k2 = keys(&after);
        assert_eq!(k2, [k[2].clone(), k[1].clone(), k[0].clone()]);
    }
}
