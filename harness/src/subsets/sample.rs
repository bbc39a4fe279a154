//! Seeded random subsets drawn from a kill matrix, and the statistics of their kill counts.
//!
//! Draw `i` of a seed uses its own ChaCha8 stream (`set_stream(i)`), so draws run in
//! parallel and the same seed gives the same draws on any machine and any number of threads
//! (rand and rand_chacha are pinned: a release of either may change a seed's sequence).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use roaring::RoaringBitmap;

use crate::matrix::Row;

/// What one random subset kills among some rows: `low` counts the rows it kills for sure
/// (a known killing input drawn); `high` also those whose unknown inputs it draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draw {
    pub low: u64,
    pub high: u64,
}

/// A uniformly random `r`-subset of `0..n`: draw `i` of `seed`.
pub fn subset(n: u64, r: u64, seed: u64, i: u64) -> RoaringBitmap {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(i);
    let picked = rand::seq::index::sample(&mut rng, n as usize, r as usize);
    let mut v: Vec<u32> = picked.into_iter().map(|x| x as u32).collect();
    v.sort_unstable();
    RoaringBitmap::from_sorted_iter(v).expect("sorted and distinct")
}

/// What `subset` kills among `rows`.
pub fn judge(rows: &[&Row], subset: &RoaringBitmap) -> Draw {
    let low = rows.iter().filter(|r| !r.kills.is_disjoint(subset)).count() as u64;
    let high = rows
        .iter()
        .filter(|r| !r.kills.is_disjoint(subset) || !r.unknown.is_disjoint(subset))
        .count() as u64;
    Draw { low, high }
}

/// `k` draws of `r` of the `n` inputs (seeded), each judged on `rows`.
pub fn draws(rows: &[&Row], n: u64, r: u64, k: u64, seed: u64) -> Vec<Draw> {
    (0..k)
        .into_par_iter()
        .map(|i| judge(rows, &subset(n, r, seed, i)))
        .collect()
}

/// Mean, minimum, quartiles and maximum of a sample, as percentages of `of`; how draws
/// compare with a reference suite's kill count (`<`, `=`, `>`, and `undetermined` when a
/// draw's unknown inputs could put it on either side); the verdict symbols. As `table3.json` holds them.
pub use ferastrau_artifacts::{Comparison, Relation, Summary};

/// The quantile `q` of sorted `v` (linear interpolation between order statistics).
fn quantile(v: &[f64], q: f64) -> f64 {
    let pos = q * (v.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    v[lo] + (v[hi] - v[lo]) * (pos - lo as f64)
}

/// The summary of `counts` as percentages of `of` (`None` for an empty sample).
pub fn summary(counts: &[u64], of: u64) -> Option<Summary> {
    if counts.is_empty() || of == 0 {
        return None;
    }
    let mut v: Vec<f64> = counts
        .iter()
        .map(|&c| 100.0 * c as f64 / of as f64)
        .collect();
    v.sort_by(f64::total_cmp);
    Some(Summary {
        mean: v.iter().sum::<f64>() / v.len() as f64,
        min: v[0],
        q1: quantile(&v, 0.25),
        median: quantile(&v, 0.5),
        q3: quantile(&v, 0.75),
        max: v[v.len() - 1],
    })
}

/// The verdict symbols, written and read.
pub trait Symbol: Sized {
    fn symbol(self) -> &'static str;
    fn parse(s: &str) -> Option<Self>;
}

impl Symbol for Relation {
    fn symbol(self) -> &'static str {
        match self {
            Relation::Worse => "<",
            Relation::Equal => "=",
            Relation::Better => ">",
        }
    }

    fn parse(s: &str) -> Option<Relation> {
        match s.trim() {
            "<" => Some(Relation::Worse),
            "=" => Some(Relation::Equal),
            ">" => Some(Relation::Better),
            _ => None,
        }
    }
}

/// Draws compared with a reference suite.
pub trait Compare: Sized {
    /// Compares every draw with a reference that kills `reference` mutants.
    fn of(draws: &[Draw], reference: u64) -> Self;
    /// What most draws say (ties: the order `<`, `=`, `>`); `None` when most are
    /// undetermined or there are none.
    fn verdict(&self) -> Option<Relation>;
}

impl Compare for Comparison {
    fn of(draws: &[Draw], reference: u64) -> Comparison {
        let mut c = Comparison::default();
        for d in draws {
            if d.high < reference {
                c.worse += 1;
            } else if d.low > reference {
                c.better += 1;
            } else if d.low == reference && d.high == reference {
                c.equal += 1;
            } else {
                c.undetermined += 1;
            }
        }
        c
    }

    fn verdict(&self) -> Option<Relation> {
        let best = [
            (self.worse, Relation::Worse),
            (self.equal, Relation::Equal),
            (self.better, Relation::Better),
        ]
        .into_iter()
        .fold(None, |acc: Option<(u64, Relation)>, (n, v)| match acc {
            Some((m, _)) if m >= n => acc,
            _ => Some((n, v)),
        })?;
        (best.0 > self.undetermined).then_some(best.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(mutant: u32, kills: &[u32]) -> Row {
        Row::killed_by(mutant, kills)
    }

    #[test]
    fn same_seed_same_draws_and_other_seed_others() {
        let a = subset(1000, 100, 7, 3);
        assert_eq!(a, subset(1000, 100, 7, 3));
        assert_eq!(a.len(), 100);
        assert!(a.max().unwrap() < 1000);
        assert_ne!(a, subset(1000, 100, 8, 3));
        assert_ne!(a, subset(1000, 100, 7, 4));
    }

    #[test]
    fn sample_mean_converges_to_the_exact_expectation() {
        let rows = [
            row(0, &[0]),
            row(1, &[1, 2, 3]),
            row(2, &(0..50).collect::<Vec<_>>()),
            row(3, &[]),
            row(4, &[99, 199, 299, 399]),
        ];
        let refs: Vec<&Row> = rows.iter().collect();
        let (n, r) = (400, 40);
        let exact = super::super::expect::expected_killed(n, r, rows.iter().map(|r| r.kills.len()));
        let d = draws(&refs, n, r, 4000, 1);
        let mean = d.iter().map(|d| d.low as f64).sum::<f64>() / d.len() as f64;
        // The standard error of the mean is under 0.02 mutants here.
        assert!((mean - exact).abs() < 0.08, "mean {mean}, exact {exact}");
    }

    #[test]
    fn comparisons_and_verdicts() {
        let d = |low, high| Draw { low, high };
        let c = Comparison::of(&[d(3, 3), d(4, 4), d(5, 5), d(4, 5), d(2, 2)], 4);
        assert_eq!(
            c,
            Comparison {
                worse: 2,
                equal: 1,
                better: 1,
                undetermined: 1
            }
        );
        assert_eq!(c.verdict(), Some(Relation::Worse));
        assert_eq!(Comparison::default().verdict(), None);
        let s = summary(&[1, 2, 3, 4, 5], 10).unwrap();
        assert_eq!(
            (s.min, s.q1, s.median, s.q3, s.max),
            (10.0, 20.0, 30.0, 40.0, 50.0)
        );
        assert_eq!(s.mean, 30.0);
    }
}
