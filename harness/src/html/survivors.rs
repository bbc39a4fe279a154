//! The mutants that survive a run's largest scope, as `evaluate` names them at its end: a
//! survivor is what a user acts on (a missing input or check, or an equivalent mutant to argue
//! and skip), so the terminal shows the first few where the eye lands, not only a rate. Taken
//! from the [`Report`] the page is written from: the same survivors in the same (source)
//! order, with the same mutated line, from the source the run evaluated.

use std::fmt;

use super::model::Report;

/// How many survivors the terminal lists; the rest are counted ("and N more").
pub const SHOWN: usize = 10;

/// One survivor: its key, its place and the mutated line.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Survivor {
    pub id: u32,
    /// The content key (`mutants.json`'s `key`): its identity across edits.
    pub key: String,
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// The source line with the mutant's edit applied (trimmed).
    pub mutated_line: Option<String>,
}

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
        })
        .collect()
}

/// The terminal's list: `n survive scope s:`, up to [`SHOWN`] survivors, "and N more".
pub struct Listing<'a> {
    pub survivors: &'a [Survivor],
    pub scope: u32,
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
        }
        if n > SHOWN {
            writeln!(f, "  and {} more (all in mutants.json)", n - SHOWN)?;
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

    #[test]
    fn the_listing_shows_ten_and_counts_the_rest() {
        let s = |id| Survivor {
            id,
            key: format!("k{id}"),
            file: "src/lib.rs".into(),
            line: id,
            column: 1,
            mutated_line: None,
        };
        let all: Vec<Survivor> = (1..=12).map(s).collect();
        let text = Listing {
            survivors: &all,
            scope: 3,
        }
        .to_string();
        assert!(text.starts_with("12 mutants survive scope 3:\n"), "{text}");
        assert!(text.contains("src/lib.rs:10:1  k10\n"), "{text}");
        assert!(!text.contains("k11"), "{text}");
        assert!(
            text.ends_with("and 2 more (all in mutants.json)\n"),
            "{text}"
        );
        let one = Listing {
            survivors: &all[..1],
            scope: 1,
        };
        assert!(one.to_string().starts_with("1 mutant survives scope 1:"));
    }
}
