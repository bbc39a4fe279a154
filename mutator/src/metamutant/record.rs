//! The build record beside a metamutant (`ferastrau-build.json`): the cache key of the build,
//! and what the next build of an edited crate carries from it (the mutants compile-pruning
//! dropped and the compiler's verdicts, of the functions the edit did not touch).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Metamutant, BUILD_FILE};
use crate::catalog::{Catalog, Mutant};
use crate::equivalence::Verdict;

#[derive(Serialize, Deserialize)]
pub(super) struct BuildRecord {
    pub fingerprint: String,
    /// What the next build of the crate may carry from this one (absent in older records).
    #[serde(default)]
    pub shape: Shape,
    pub metamutant: Metamutant,
}

/// The crate as compile-pruning sees it, to carry what an edit did not touch from one build to
/// the next: everything but the mutated functions' bodies (the skeleton), and each mutated
/// function whole. A mutant's compile error depends on its own function and on what type
/// checking reads outside it (signatures, types, traits, constants: the skeleton), not on the
/// bodies of other functions, so when the skeleton is the same a function whose text is the
/// same keeps its mutants' viability. Hashed over tokens, so an edit that moves a function or
/// changes only comments and layout changes neither.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(super) struct Shape {
    pub skeleton: String,
    /// Each mutated function's hash (attributes, signature and body), by its catalog name.
    pub functions: BTreeMap<String, String>,
}

/// The last build recorded in `out_dir`, if it can be read.
pub(super) fn last_build(out_dir: &Path) -> Option<BuildRecord> {
    let text = std::fs::read_to_string(out_dir.join(BUILD_FILE)).ok()?;
    serde_json::from_str(&text).ok()
}

/// The mutants of the functions that neither the edit nor the skeleton around them changed
/// since the `last` build (see [`Shape`]), as (then, now) pairs: a function's mutants are
/// matched in order, and only when their count and their edits are the same. None when
/// there is no last build, or its skeleton differs.
fn unchanged<'a>(
    last: Option<&'a BuildRecord>,
    shape: &Shape,
    mutants: &'a [Mutant],
) -> Vec<(&'a Mutant, &'a Mutant)> {
    let Some(last) =
        last.filter(|l| !l.shape.skeleton.is_empty() && l.shape.skeleton == shape.skeleton)
    else {
        return Vec::new();
    };
    let by_function = |list: &'a [Mutant]| -> BTreeMap<&'a str, Vec<&'a Mutant>> {
        let mut map: BTreeMap<&str, Vec<&Mutant>> = BTreeMap::new();
        for m in list {
            map.entry(m.function.as_str()).or_default().push(m);
        }
        map
    };
    let before = by_function(&last.metamutant.catalog.mutants);
    let mut pairs = Vec::new();
    for (function, now) in by_function(mutants) {
        let same_text = shape.functions.contains_key(function)
            && shape.functions.get(function) == last.shape.functions.get(function);
        let Some(then) = before.get(function).filter(|_| same_text) else {
            continue;
        };
        let same_edits = then.len() == now.len()
            && then.iter().zip(&now).all(|(a, b)| {
                (a.family, &a.original, &a.replacement) == (b.family, &b.original, &b.replacement)
            });
        if same_edits {
            pairs.extend(then.iter().copied().zip(now.iter().copied()));
        }
    }
    pairs
}

/// The ids of the mutants in `mutants` (the new catalog) that the `last` build dropped, in
/// functions the edit did not touch ([`unchanged`]).
pub(super) fn carried_drops(
    last: Option<&BuildRecord>,
    shape: &Shape,
    mutants: &[Mutant],
) -> BTreeSet<u32> {
    unchanged(last, shape, mutants)
        .into_iter()
        .filter(|(then, _)| then.viable == Some(false))
        .map(|(_, now)| now.id)
        .collect()
}

/// The compiler's verdicts the `last` build found for the functions the edit did not touch
/// ([`unchanged`]), under the new catalog's ids, with the mutants they cover: a function is
/// carried whole, when its mutants' viability is the same as then and the last comparison
/// compared them all. A verdict is sound whatever the other functions became (a copy's
/// callees are the same for every copy of its function), so only the functions an edit
/// changed are copied and compiled again.
pub(super) fn carried_verdicts(
    last: Option<&BuildRecord>,
    shape: &Shape,
    catalog: &Catalog,
) -> (BTreeMap<u32, Verdict>, BTreeSet<u32>) {
    let Some(then) = last
        .and_then(|l| l.metamutant.equivalence.as_ref())
        .filter(|e| e.failed.is_none())
    else {
        return Default::default();
    };
    let mut by_function: BTreeMap<&str, Vec<(&Mutant, &Mutant)>> = BTreeMap::new();
    for (a, b) in unchanged(last, shape, &catalog.mutants) {
        by_function
            .entry(b.function.as_str())
            .or_default()
            .push((a, b));
    }
    let (mut verdicts, mut compared) = (BTreeMap::new(), BTreeSet::new());
    for pairs in by_function.values() {
        let viable = |m: &Mutant| m.viable == Some(true);
        let whole = pairs
            .iter()
            .all(|(a, b)| viable(a) == viable(b) && (!viable(a) || then.compared.contains(&a.id)));
        if !whole || !pairs.iter().any(|(a, _)| viable(a)) {
            continue;
        }
        let id_now: BTreeMap<u32, u32> = pairs.iter().map(|(a, b)| (a.id, b.id)).collect();
        let mut these = BTreeMap::new();
        let mapped =
            pairs
                .iter()
                .filter(|(a, _)| viable(a))
                .all(|(a, b)| match then.verdict(a.id) {
                    None => true,
                    Some(Verdict::Equivalent) => these.insert(b.id, Verdict::Equivalent).is_none(),
                    Some(Verdict::Duplicate { of }) => id_now
                        .get(&of)
                        .is_some_and(|&of| these.insert(b.id, Verdict::Duplicate { of }).is_none()),
                });
        if mapped {
            verdicts.extend(these);
            compared.extend(pairs.iter().filter(|(a, _)| viable(a)).map(|(_, b)| b.id));
        }
    }
    (verdicts, compared)
}

pub(super) fn cached(out_dir: &Path, fingerprint: &str) -> Option<Metamutant> {
    let text = std::fs::read_to_string(out_dir.join(BUILD_FILE)).ok()?;
    let record: BuildRecord = serde_json::from_str(&text).ok()?;
    (record.fingerprint == fingerprint && out_dir.join("Cargo.toml").exists()).then(|| {
        let mut m = record.metamutant;
        m.cached = true;
        m
    })
}
