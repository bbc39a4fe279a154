//! A brute-force oracle for testing searches: enumerate the *whole* state space (every
//! assignment, no pruning, no isomorphism breaking), keep the valid candidates and reduce each
//! to a canonical form that is independent of Korat's own symmetry-breaking rule.
//!
//! The canonical form is the sequence of reachable field values met by a depth-first walk from
//! the root (fields in declaration order), with every object renamed to the order in which the
//! walk first meets it within its class. Two candidates are isomorphic (the paper's
//! Definition 1) exactly when their canonical forms are equal, because the walk is
//! deterministic on the labelled graph and the renaming undoes any class-preserving permutation.

use std::collections::HashSet;

use crate::candidate::Candidate;
use crate::finitization::{Finitization, Value, ROOT};

/// A canonical form: equal for isomorphic candidates, different otherwise.
pub type Canonical = Vec<Value>;

/// The canonical form of a state vector.
pub fn canonical(fin: &Finitization, state: &[u32]) -> Canonical {
    let mut names: Vec<Vec<Option<u32>>> = (0..fin.class_count())
        .map(|c| vec![None; fin.count(crate::ClassId(c as u16)) as usize])
        .collect();
    let mut next_name = vec![0u32; fin.class_count()];
    let mut out = Vec::new();
    let mut work = vec![(ROOT.0, 0u32)];
    names[0][0] = Some(0);
    next_name[0] = 1;
    // Pre-order walk; the renaming follows first visits, so it is identical for isomorphic
    // candidates regardless of which concrete objects they use.
    while let Some((c, o)) = work.pop() {
        let mut children = Vec::new();
        for s in fin.live_fields(c, o, state) {
            let v = fin.tables[s][state[s] as usize].value;
            let renamed = match v {
                Value::Obj(k, i) => {
                    let slot = &mut names[k.0 as usize][i as usize];
                    let name = match *slot {
                        Some(n) => n,
                        None => {
                            let n = next_name[k.0 as usize];
                            next_name[k.0 as usize] += 1;
                            *slot = Some(n);
                            children.push((k.0, i));
                            n
                        }
                    };
                    Value::Obj(k, name)
                }
                other => other,
            };
            out.push(renamed);
        }
        work.extend(children.into_iter().rev());
    }
    out
}

/// What the brute force found: the canonical forms of all valid candidates and how many
/// candidates it enumerated.
pub struct BruteForce {
    /// One canonical form per isomorphism class of valid candidates: their number is what
    /// Korat must find.
    pub classes: HashSet<Canonical>,
    /// Every assignment of the slots tried, valid or not (the search space Korat prunes).
    pub enumerated: u64,
}

/// Enumerates every assignment of every slot, runs `pred` on each (without recording), and
/// collects the canonical forms of the valid ones. Exponential: for small scopes only.
pub fn enumerate<P>(fin: &Finitization, mut pred: P) -> BruteForce
where
    P: FnMut(&mut Candidate<'_>) -> bool,
{
    let n = fin.slots();
    let mut state = vec![0u32; n];
    let mut classes = HashSet::new();
    let mut enumerated = 0u64;
    loop {
        enumerated += 1;
        if pred(&mut Candidate::new(fin, &state)) {
            classes.insert(canonical(fin, &state));
        }
        // Odometer increment over all slots.
        let mut i = 0;
        loop {
            if i == n {
                return BruteForce {
                    classes,
                    enumerated,
                };
            }
            state[i] += 1;
            if (state[i] as usize) < fin.domain_size(i) {
                break;
            }
            state[i] = 0;
            i += 1;
        }
    }
}

/// Checks a search's output against the brute force: every output valid (sound), every
/// isomorphism class present (complete), none twice (optimal). Returns a description of the
/// first failure.
pub fn check_exact<P>(
    fin: &Finitization,
    mut pred: P,
    outputs: &[Vec<u32>],
    brute: &BruteForce,
) -> Result<(), String>
where
    P: FnMut(&mut Candidate<'_>) -> bool,
{
    let mut seen = HashSet::new();
    for st in outputs {
        if !pred(&mut Candidate::new(fin, st)) {
            return Err(format!("unsound: output {st:?} is not valid"));
        }
        let c = canonical(fin, st);
        if !brute.classes.contains(&c) {
            return Err(format!(
                "output {st:?} is in no class the brute force found"
            ));
        }
        if !seen.insert(c) {
            return Err(format!("not optimal: {st:?} repeats an isomorphism class"));
        }
    }
    if seen.len() != brute.classes.len() {
        return Err(format!(
            "incomplete: {} classes found, brute force has {}",
            seen.len(),
            brute.classes.len()
        ));
    }
    Ok(())
}
