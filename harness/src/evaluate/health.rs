//! Broken-run detection: results that say more about the machine or the limits than about the
//! test suite. Such a run exits with
//! [`Exit::Broken`](ferastrau_console::exit_code::Exit::Broken) and never reads as a pass,
//! whatever its kill rate.
//!
//! The first line of defence is the control run (the metamutant with no mutant active, under
//! the mutants' limits, must survive every scope); these checks catch what it cannot.

use std::collections::BTreeMap;

use ferastrau_protocol::Reason;

use super::ScopeRun;
use ferastrau_artifacts::ScopeResult;

/// Share of a scope's mutants killed by their process's ending (timeout, memory, crash, all
/// together) above which the run is taken for broken: no test suite kills nine in ten mutants
/// by running out of time or crashing, whatever the mix (70% crashes and 25% timeouts is as
/// suspect as 95% of either).
const INFRASTRUCTURE_SHARE: f64 = 0.9;
/// Below this many mutants a scope is too small to judge by shares.
const MIN_MUTANTS: usize = 10;

/// Why the run is broken, or `None` if it looks sound.
pub fn verdict(scopes: &[ScopeRun], results: &[ScopeResult], mutants: usize) -> Option<String> {
    if mutants == 0 {
        return Some("no mutant was evaluated (the crate has no viable mutant)".into());
    }
    if scopes.iter().all(|s| s.inputs == 0) {
        return Some("nothing was executed: no scope has a valid input".into());
    }
    if scopes.iter().all(|s| s.code_probes.is_empty()) {
        return Some(
            "the original never reached the mutated code on any input (0% coverage): every mutant survives by construction"
                .into(),
        );
    }
    for s in scopes {
        let here: Vec<&ScopeResult> = results.iter().filter(|r| r.scope == s.scope).collect();
        if here.len() < MIN_MUTANTS {
            continue;
        }
        let mut by: BTreeMap<Reason, usize> = BTreeMap::new();
        for r in here.iter().filter(|r| r.killed()) {
            if let Some(reason) = r.reason.filter(|r| r.is_infrastructure()) {
                *by.entry(reason).or_default() += 1;
            }
        }
        let n: usize = by.values().sum();
        if n as f64 > INFRASTRUCTURE_SHARE * here.len() as f64 {
            let mix: Vec<String> = by.iter().map(|(r, k)| format!("{k} {r}")).collect();
            return Some(format!(
                "{n} of {} mutants were killed by their process's ending at scope {} ({}): the limits or the machine killed them, not the tests",
                here.len(),
                s.scope,
                mix.join(", ")
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferastrau_artifacts::Status;

    fn scope(code: &[u32]) -> ScopeRun {
        ScopeRun {
            scope: 1,
            inputs: 5,
            code_probes: code.to_vec(),
            ..ScopeRun::default()
        }
    }

    fn result(m: u32, reason: Option<Reason>) -> ScopeResult {
        let mut r = ScopeResult::survived(m, 1, 1);
        if reason.is_some() {
            r.status = Status::Killed;
            r.reason = reason;
        }
        r
    }

    #[test]
    fn timeouts_everywhere_are_broken_and_a_normal_mix_is_not() {
        let all_timeouts: Vec<_> = (1..=20).map(|m| result(m, Some(Reason::Timeout))).collect();
        let v = verdict(&[scope(&[1])], &all_timeouts, 20).expect("broken");
        assert!(
            v.contains("20 of 20 mutants were killed by their process's ending"),
            "{v}"
        );
        assert!(v.contains("(20 timeout)"), "{v}");

        let mixed: Vec<_> = (1..=20)
            .map(|m| {
                let reason = match m % 4 {
                    0 => Some(Reason::Timeout),
                    1 => Some(Reason::Output),
                    2 => Some(Reason::Invariant),
                    _ => None,
                };
                result(m, reason)
            })
            .collect();
        assert_eq!(verdict(&[scope(&[1])], &mixed, 20), None);
    }

    #[test]
    fn no_inputs_no_coverage_or_no_mutants_are_broken() {
        let empty = ScopeRun {
            scope: 1,
            ..ScopeRun::default()
        };
        assert!(verdict(&[empty], &[], 3)
            .unwrap()
            .contains("nothing was executed"));
        assert!(verdict(&[scope(&[])], &[], 3)
            .unwrap()
            .contains("0% coverage"));
        assert!(verdict(&[scope(&[1])], &[], 0)
            .unwrap()
            .contains("no mutant"));
    }

    /// The mix counts together: 14 crashes and 5 timeouts of 20 (95%) are broken, though
    /// neither reason alone passes 90%.
    #[test]
    fn infrastructure_reasons_count_together() {
        let mixed: Vec<_> = (1..=20)
            .map(|m| match m {
                1..=14 => result(m, Some(Reason::Crash)),
                15..=19 => result(m, Some(Reason::Timeout)),
                _ => result(m, Some(Reason::Output)),
            })
            .collect();
        let v = verdict(&[scope(&[1])], &mixed, 20).expect("broken");
        assert!(v.contains("19 of 20"), "{v}");
        assert!(
            v.contains("5 timeout, 14 crash") || v.contains("14 crash, 5 timeout"),
            "{v}"
        );
        // 17 of 20 (85%) is a weak suite's business, not a broken run.
        let fewer: Vec<_> = mixed
            .iter()
            .enumerate()
            .map(|(i, r)| {
                if i < 3 {
                    result(r.mutant, None)
                } else {
                    r.clone()
                }
            })
            .collect();
        assert_eq!(verdict(&[scope(&[1])], &fewer, 20), None);
    }
}
