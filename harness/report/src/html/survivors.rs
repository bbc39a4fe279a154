//! The mutants that survive a run's largest scope, as `evaluate` names them at its end and
//! `survivors.txt` lists them: a survivor is what a user acts on (a missing input or check, or
//! an equivalent mutant to argue and record in `EQUIVALENT.md`), so the terminal shows them
//! where the eye lands, each with why it survived, not only a rate. Taken from the [`Report`]
//! the page is written from: the same survivors in the same (source) order, with the same
//! mutated line, from the source the run evaluated.

use std::fmt;
use std::path::Path;

use super::model::{Listed, Report};

/// How many survivors the terminal lists; the rest are counted and found in [`FILE`].
pub const SHOWN: usize = 20;

/// The file beside the reports that lists every survivor of the largest scope, one a line
/// (place, key, mutated line), as cargo-mutants' `missed.txt` does: for `grep`, a diff
/// between two runs, or a script.
pub const FILE: &str = "survivors.txt";

/// One survivor: its key, its place, the mutated line and why it survived ([`why`]); a type
/// of the artifacts, as `evaluate --format json` prints it.
pub use ferastrau_artifacts::Survivor;

/// The survivors of `scope` in `report`, in source order.
pub fn at_scope(report: &Report, scope: u32) -> Vec<Survivor> {
    report
        .survivors(scope)
        .into_iter()
        .map(|m| Survivor {
            id: m.mutant.id,
            key: m
                .key
                .clone()
                .unwrap_or_else(|| format!("mutant {}", m.mutant.id)),
            file: m.mutant.file.clone(),
            line: m.mutant.line as u32,
            column: m.mutant.column as u32,
            mutated_line: report.mutated_line(m),
            why: why(m, report, scope),
            next_scope: m.next_scope.clone(),
        })
        .collect()
}

/// Why `m` survived `scope`, in a line under 90 characters: no input reached its mutation
/// point, or every input that did gave the original's results under what the run compares
/// (the return value, the abstraction of the post-state, the structure too with `--compare
/// structural`; the invariant held and the limits too). The compiler's verdict comes first
/// (`equivalent (compiler)`, `duplicate of #17`): it explains the survivor outright.
pub fn why(m: &Listed, report: &Report, scope: u32) -> String {
    // With a verdict, what reached it in short: the line stays under 90 characters.
    match (m.compiler, m.scopes.get(&scope).and_then(|o| o.executions)) {
        (Some(v), Some(0)) => format!("{}; no input of scope {scope} reaches it", v.words()),
        (Some(v), Some(n)) => format!("{}; {n} input(s) reach it", v.words()),
        (Some(v), None) => v.words(),
        (None, _) => reached(m, report, scope),
    }
}

/// [`why`] without the compiler's verdict.
fn reached(m: &Listed, report: &Report, scope: u32) -> String {
    let compared = match report.evaluation.comparison {
        ferastrau_protocol::Comparison::Abstract => "return value, abstraction, invariant",
        ferastrau_protocol::Comparison::Structural => {
            "return value, abstraction, structure, invariant"
        }
    };
    match m.scopes.get(&scope).and_then(|o| o.executions) {
        Some(0) => format!(
            "no input of scope {scope} executes line {}: it never ran (a larger scope may reach it)",
            m.mutant.line
        ),
        Some(n) => format!("{n} input(s) reach it; {compared}: as the original's"),
        None => format!("every input: {compared} as the original's"),
    }
}

/// `survivors.txt`: every survivor, one a line: `file:line:column  key  mutated line`.
pub fn text(survivors: &[Survivor]) -> String {
    survivors
        .iter()
        .map(|s| {
            format!(
                "{}:{}:{}  {}  {}\n",
                s.file,
                s.line,
                s.column,
                s.key,
                s.mutated_line.as_deref().unwrap_or("")
            )
            .replace("  \n", "\n")
        })
        .collect()
}

/// The terminal's list: `n survive scope s:`, up to [`SHOWN`] survivors with why each
/// survived, and where the rest are.
pub struct Listing<'a> {
    pub survivors: &'a [Survivor],
    pub scope: u32,
    /// The run's `survivors.txt`, named when the list is cut.
    pub file: &'a Path,
}

impl fmt::Display for Listing<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.survivors.len();
        if n == 0 {
            return writeln!(f, "no mutant survives scope {}", self.scope);
        }
        writeln!(
            f,
            "{n} mutant{} survive{} scope {}:",
            if n == 1 { "" } else { "s" },
            if n == 1 { "s" } else { "" },
            self.scope
        )?;
        for s in self.survivors.iter().take(SHOWN) {
            writeln!(f, "  {}:{}:{}  {}", s.file, s.line, s.column, s.key)?;
            if let Some(l) = &s.mutated_line {
                writeln!(f, "      {}", clip(l, 90))?;
            }
            match &s.next_scope {
                Some(next) => writeln!(f, "      why: {}; {next}", s.why)?,
                None => writeln!(f, "      why: {}", s.why)?,
            }
        }
        if n > SHOWN {
            writeln!(
                f,
                "  and {} more: every survivor is in {}",
                n - SHOWN,
                self.file.display()
            )?;
        }
        Ok(())
    }
}

/// `s` cut to `max` characters, with an ellipsis when cut.
fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn survivor(id: u32) -> Survivor {
        Survivor {
            id,
            key: format!("k{id}"),
            file: "src/lib.rs".into(),
            line: id,
            column: 1,
            mutated_line: Some(format!("x + {id}")),
            why: format!("why {id}"),
            next_scope: None,
        }
    }

    #[test]
    fn the_listing_shows_twenty_with_why_and_names_the_file_for_the_rest() {
        let all: Vec<Survivor> = (1..=22).map(survivor).collect();
        let file = Path::new("out/survivors.txt");
        let text = Listing {
            survivors: &all,
            scope: 3,
            file,
        }
        .to_string();
        assert!(text.starts_with("22 mutants survive scope 3:\n"), "{text}");
        assert!(text.contains("src/lib.rs:20:1  k20\n      x + 20\n      why: why 20\n"));
        assert!(!text.contains("k21"), "{text}");
        assert!(
            text.ends_with("and 2 more: every survivor is in out/survivors.txt\n"),
            "{text}"
        );
        let one = Listing {
            survivors: &all[..1],
            scope: 1,
            file,
        };
        assert!(one.to_string().starts_with("1 mutant survives scope 1:"));
        assert_eq!(
            super::text(&all[..2]),
            "src/lib.rs:1:1  k1  x + 1\nsrc/lib.rs:2:1  k2  x + 2\n"
        );
    }
}
