//! Test-suite reduction from a kill matrix: a greedy set cover choosing a subset of T(s) that
//! kills every mutant T(s) kills, and its honest evaluation on mutants it was not chosen on.
//!
//! Greedy: repeatedly take the input that kills the most mutants not yet killed (ties: the
//! lowest global index), until every mutant with a known killing input is killed. Counts are
//! kept per input and lowered as mutants get killed, so the work is twice the number of kill
//! entries plus one scan of the index space per chosen input.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::matrix::Row;

/// The greedy cover of `rows` over `n` inputs: chosen global indices, in the order chosen.
pub fn greedy_cover(rows: &[&Row], n: u64) -> Vec<u64> {
    let mut counts = vec![0u32; n as usize];
    let mut open: Vec<&Row> = rows
        .iter()
        .copied()
        .filter(|r| !r.kills.is_empty())
        .collect();
    for r in &open {
        for g in &r.kills {
            counts[g as usize] += 1;
        }
    }
    let mut chosen = Vec::new();
    while !open.is_empty() {
        // The first maximum: the lowest index among the best.
        let (best, &most) =
            counts
                .iter()
                .enumerate()
                .fold((0, &0u32), |acc, x| if x.1 > acc.1 { x } else { acc });
        assert!(most > 0, "an open mutant with a kill has a positive count");
        chosen.push(best as u64);
        let (killed, rest): (Vec<&Row>, Vec<&Row>) = open
            .into_iter()
            .partition(|r| r.kills.contains(best as u32));
        for r in killed {
            for g in &r.kills {
                counts[g as usize] -= 1;
            }
        }
        open = rest;
    }
    chosen
}

/// A seeded split of `ids` in two halves (the first gets the odd one): mutant ids are
/// shuffled with ChaCha8 from `seed`, so the same seed gives the same halves.
pub fn split(ids: &[u32], seed: u64) -> (Vec<u32>, Vec<u32>) {
    let mut v = ids.to_vec();
    v.sort_unstable();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    v.shuffle(&mut rng);
    let b = v.split_off(v.len().div_ceil(2));
    let (mut a, mut b) = (v, b);
    a.sort_unstable();
    b.sort_unstable();
    (a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use roaring::RoaringBitmap;

    fn row(mutant: u32, kills: &[u32]) -> Row {
        Row::killed_by(mutant, kills)
    }

    #[test]
    fn cover_kills_every_killed_mutant_greedily_lowest_index_first() {
        let rows = [
            row(0, &[1, 4]),
            row(1, &[4, 5]),
            row(2, &[2, 5]),
            row(3, &[]),
            row(4, &[7]),
            row(5, &[2, 5, 7]),
        ];
        let refs: Vec<&Row> = rows.iter().collect();
        let c = greedy_cover(&refs, 8);
        // 5 kills three (1, 2, 5); then 1, 4 and 7 kill one each: 1 (the lowest) kills 0; then 7.
        assert_eq!(c, vec![5, 1, 7]);
        let suite: RoaringBitmap = c.iter().map(|&g| g as u32).collect();
        for r in &rows {
            assert_eq!(
                r.kills.is_empty(),
                r.kills.is_disjoint(&suite),
                "mutant {}",
                r.mutant
            );
        }
    }

    #[test]
    fn split_is_seeded_and_halves() {
        let ids: Vec<u32> = (10..21).collect();
        let (a, b) = split(&ids, 3);
        assert_eq!((a.len(), b.len()), (6, 5));
        assert_eq!(split(&ids, 3), (a.clone(), b.clone()));
        let mut all = [a.clone(), b].concat();
        all.sort_unstable();
        assert_eq!(all, ids);
        assert_ne!(split(&ids, 4).0, a);
    }
}
