//! Exact expectations over uniformly random subsets, in log space.
//!
//! A mutant killed by `k` of `n` inputs survives a uniformly random `r`-subset when the subset
//! avoids all `k`: with probability C(n−k, r) / C(n, r). The binomials overflow any float at
//! large scopes (n = 2.58 M, r = 160 k), so the ratio is computed as a sum of logs:
//! C(n−k, r)/C(n, r) = Π_{i<k} (n−r−i)/(n−i) = Π_{i<r} (n−k−i)/(n−i), whichever product is
//! shorter, each factor taken as `ln_1p` of a small negative number (no cancellation).

/// The probability that a uniformly random `r`-subset of `n` inputs contains none of `k`
/// given ones.
pub fn survival(n: u64, k: u64, r: u64) -> f64 {
    assert!(k <= n && r <= n, "survival({n}, {k}, {r}): more than n");
    if k == 0 || r == 0 {
        return 1.0;
    }
    if k + r > n {
        return 0.0;
    }
    // Π over the shorter of the two products; both are the same ratio.
    let (terms, other) = if k <= r { (k, r) } else { (r, k) };
    let mut log = 0.0f64;
    for i in 0..terms {
        // ln((n − other − i)/(n − i)) = ln(1 − other/(n − i))
        log += (-(other as f64) / (n - i) as f64).ln_1p();
        if log < -745.0 {
            // exp underflows to 0 from here on.
            return 0.0;
        }
    }
    log.exp()
}

/// The expected number of mutants a random `r`-subset of `n` inputs kills, given each
/// mutant's number of killing inputs.
pub fn expected_killed(n: u64, r: u64, kills: impl IntoIterator<Item = u64>) -> f64 {
    kills.into_iter().map(|k| 1.0 - survival(n, k, r)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every r-subset of 0..n as a bit mask.
    fn subsets(n: u32, r: u32) -> impl Iterator<Item = u32> {
        (0u32..1 << n).filter(move |s| s.count_ones() == r)
    }

    #[test]
    fn survival_equals_enumeration_of_every_subset() {
        for n in 0..=10u32 {
            for r in 0..=n {
                for k in 0..=n {
                    let killing = (1u32 << k) - 1;
                    let all: Vec<u32> = subsets(n, r).collect();
                    let avoiding = all.iter().filter(|s| *s & killing == 0).count();
                    let exact = avoiding as f64 / all.len() as f64;
                    let got = survival(u64::from(n), u64::from(k), u64::from(r));
                    assert!(
                        (got - exact).abs() < 1e-12,
                        "n={n} k={k} r={r}: {got} vs {exact}"
                    );
                }
            }
        }
    }

    #[test]
    fn expectation_equals_enumeration_on_a_tiny_matrix() {
        // Five mutants over eight inputs (bit i: input i kills).
        let rows = [0b0000_0001u32, 0b1000_0001, 0b0111_0000, 0, 0b1111_1111];
        let n = 8;
        for r in 0..=n {
            let all: Vec<u32> = subsets(n, r).collect();
            let total: usize = all
                .iter()
                .map(|s| rows.iter().filter(|m| *m & s != 0).count())
                .sum();
            let exact = total as f64 / all.len() as f64;
            let got = expected_killed(
                u64::from(n),
                u64::from(r),
                rows.iter().map(|m| u64::from(m.count_ones())),
            );
            assert!((got - exact).abs() < 1e-12, "r={r}: {got} vs {exact}");
        }
    }

    #[test]
    fn large_scopes_stay_finite_and_ordered() {
        let (n, r) = (2_577_984, 159_642);
        let mut last = 1.0;
        for k in [
            0,
            1,
            2,
            10,
            100,
            1_000,
            100_000,
            2_000_000,
            n - r,
            n - r + 1,
        ] {
            let p = survival(n, k, r);
            assert!(p.is_finite() && (0.0..=1.0).contains(&p), "k={k}: {p}");
            assert!(p <= last, "k={k}: not decreasing");
            last = p;
        }
        // One killing input: survives unless it is drawn, (n − r)/n.
        let one = survival(n, 1, r);
        assert!((one - (n - r) as f64 / n as f64).abs() < 1e-12);
        assert_eq!(survival(n, n - r + 1, r), 0.0);
    }
}
