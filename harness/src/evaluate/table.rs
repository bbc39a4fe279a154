//! The terminal's table of an evaluation: a row per scope under 100 columns, its kill rates
//! coloured by Stryker's thresholds ([`GOOD_KILL_RATE`], [`POOR_KILL_RATE`]). Apart from the
//! reports on disk ([`super::report`]), whose rows it prints.

use ferastrau_artifacts::EvaluationScope;
use ferastrau_protocol::Reason;

/// The kill rate from which a rate is painted green (good), and the one below which it is
/// red (poor); yellow between. Stryker's default thresholds ("high" and "low"), so that the
/// terminal and the page agree with what users of mutation testing already read.
pub const GOOD_KILL_RATE: f64 = 80.0;
/// See [`GOOD_KILL_RATE`].
pub const POOR_KILL_RATE: f64 = 60.0;

/// A kill rate's cell, coloured by [`GOOD_KILL_RATE`] and [`POOR_KILL_RATE`] (the escapes go
/// around the padded text, so columns stay aligned).
pub fn rate_cell(rate: f64, mutants: u32, text: String) -> String {
    use ferastrau_console::term::{paint, style};
    match rate {
        _ if mutants == 0 => text,
        r if r >= GOOD_KILL_RATE => paint(style::GOOD, text),
        r if r >= POOR_KILL_RATE => paint(style::WARN, text),
        _ => paint(style::BAD, text),
    }
}

/// The stdout table, a row per scope, under 100 columns (coloured: print it with
/// `anstream`). Timings, candidates and the kills by reason of every scope are in
/// `evaluation.json` and `--format json`; under the table, the reasons at the largest scope and
/// whether the compiler's equivalents are `counted` in the kill rate.
pub fn table(benchmark: &str, rows: &[EvaluationScope], counted: bool) -> String {
    let mutants = rows.first().map_or(0, |r| r.mutants);
    let mut t = format!(
        "{}: {mutants} mutants\n{}\n",
        ferastrau_console::term::paint(ferastrau_console::term::style::HEAD, benchmark),
        ferastrau_console::term::paint(
            ferastrau_console::term::style::HEAD,
            format!(
                "{:>5} {:>9} {:>10} {:>12} {:>10} {:>12} {:>9} {:>10}",
                "scope",
                "inputs",
                "spec stmt%",
                "spec branch%",
                "code stmt%",
                "code branch%",
                "killed",
                "kill rate%",
            )
        )
    );
    for r in rows {
        t.push_str(&format!(
            "{:>5} {:>9} {:>10.2} {:>12.2} {:>10.2} {:>12.2} {:>9} {}\n",
            r.scope,
            r.inputs,
            r.spec_statement_coverage,
            r.spec_branch_coverage,
            r.statement_coverage,
            r.branch_coverage,
            format!("{}/{}", r.killed, r.mutants),
            rate_cell(r.kill_rate, r.mutants, format!("{:>10.2}", r.kill_rate)),
        ));
    }
    t.push_str(
        "stmt%/branch%: statement and branch coverage of the specification and of the code\n",
    );
    if let Some(r) = rows.last() {
        let reasons: Vec<String> = Reason::ALL
            .iter()
            .zip([
                r.killed_invariant,
                r.killed_output,
                r.killed_timeout,
                r.killed_memory,
                r.killed_crash,
            ])
            .filter(|(_, n)| *n > 0)
            .map(|(name, n)| format!("{name} {n}"))
            .collect();
        if !reasons.is_empty() {
            t.push_str(&format!(
                "killed at scope {} by: {}\n",
                r.scope,
                reasons.join(", ")
            ));
        }
        if r.compiler_equivalent + r.compiler_duplicate > 0 {
            t.push_str(&format!(
                "{} equivalent and {} duplicate mutant(s) by their compiled code: {}\n",
                r.compiler_equivalent,
                r.compiler_duplicate,
                match counted {
                    false => "left out of the kill rate (--count-equivalents counts them)",
                    true => "counted in the kill rate (--count-equivalents)",
                }
            ));
        }
        if r.skipped > 0 {
            t.push_str(&format!(
                "{} mutant(s) skipped by the crate's skip list (not counted)\n",
                r.skipped
            ));
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferastrau_console::term::style;

    #[test]
    fn kill_rates_are_coloured_by_the_documented_thresholds() {
        let colour = |rate: f64| {
            let cell = rate_cell(rate, 10, "x".into());
            [style::GOOD, style::WARN, style::BAD]
                .into_iter()
                .position(|s| cell.starts_with(&s.to_string()))
        };
        assert_eq!(colour(100.0), Some(0));
        assert_eq!(colour(GOOD_KILL_RATE), Some(0));
        assert_eq!(colour(79.99), Some(1));
        assert_eq!(colour(POOR_KILL_RATE), Some(1));
        assert_eq!(colour(59.99), Some(2));
        assert_eq!(colour(0.0), Some(2));
        // No mutant, no judgement.
        assert_eq!(rate_cell(0.0, 0, "x".into()), "x");
    }
}
