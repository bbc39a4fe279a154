//! The mutants that survive a run's largest scope, as `evaluate` names them at its end: a
//! survivor is what a user acts on (a missing input or check, or an equivalent mutant to argue
//! and skip), so the terminal shows the first few where the eye lands, not only a rate.

use std::fmt;
use std::path::Path;

use ferastrau_artifacts::ListedMutant;

use crate::runner::results::{ScopeResult, Status};

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
    /// The source line with the mutant's edit applied (trimmed), when the file is readable.
    pub mutated_line: Option<String>,
}

/// The survivors of `scope` among `results`, in the catalog's order, with their source lines
/// read from `crate_dir`.
pub fn at_scope(
    listed: &[ListedMutant],
    results: &[ScopeResult],
    scope: u32,
    crate_dir: &Path,
) -> Vec<Survivor> {
    let mut texts = std::collections::BTreeMap::<&str, Option<String>>::new();
    let mut out: Vec<Survivor> = results
        .iter()
        .filter(|r| r.scope == scope && r.status == Status::Survived)
        .filter_map(|r| listed.iter().find(|m| m.id == r.mutant))
        .map(|m| {
            let text = texts
                .entry(m.file.as_str())
                .or_insert_with(|| std::fs::read_to_string(crate_dir.join(&m.file)).ok());
            Survivor {
                id: m.id,
                key: m.key.clone().unwrap_or_else(|| format!("mutant {}", m.id)),
                file: m.file.clone(),
                line: m.line,
                column: m.column,
                mutated_line: text.as_deref().and_then(|t| mutated_line(t, m)),
            }
        })
        .collect();
    out.sort_by_key(|s| s.id);
    out
}

/// The line of `m`'s edit in `text` with the edit applied (its first line, when the edit spans
/// several), or `None` when the text no longer has what the edit replaces there.
fn mutated_line(text: &str, m: &ListedMutant) -> Option<String> {
    let e = &m.edit;
    let line = text.lines().nth(e.start.line.checked_sub(1)? as usize)?;
    // Columns are 1-based character positions.
    let at = |col: u32| {
        line.char_indices()
            .map(|(i, _)| i)
            .chain([line.len()])
            .nth(col.checked_sub(1)? as usize)
    };
    let start = at(e.start.column)?;
    let old_first = e.old.lines().next().unwrap_or("");
    let rest = line.get(start..)?;
    if !rest.starts_with(old_first) {
        return None;
    }
    let after = if e.old.contains('\n') {
        ""
    } else {
        &rest[old_first.len()..]
    };
    let new_first = e.new.lines().next().unwrap_or("");
    Some(
        format!("{}{new_first}{after}", &line[..start])
            .trim()
            .to_string(),
    )
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
    use ferastrau_artifacts::{Edit, Family, Pos};

    fn mutant(line: u32, column: u32, old: &str, new: &str) -> ListedMutant {
        let pos = |line, column| Pos { line, column };
        ListedMutant {
            column,
            edit: Edit {
                start: pos(line, column),
                end: pos(line, column + old.chars().count() as u32),
                old: old.into(),
                new: new.into(),
            },
            family: Family::Operator,
            file: "src/lib.rs".into(),
            function: "f".into(),
            id: 7,
            key: Some("f operator: < -> <= #0".into()),
            line,
            original: old.into(),
            replacement: new.into(),
            viable: Some(true),
        }
    }

    #[test]
    fn the_mutated_line_is_the_source_line_with_the_edit() {
        let text = "fn f(a: i32) -> bool {\n    a < 3 // é\n}\n";
        let m = mutant(2, 7, "<", "<=");
        assert_eq!(mutated_line(text, &m).as_deref(), Some("a <= 3 // é"));
        // A source that moved on since the run: no line rather than a wrong one.
        let m = mutant(2, 7, ">", "<=");
        assert_eq!(mutated_line(text, &m), None);
        let m = mutant(9, 1, "<", "<=");
        assert_eq!(mutated_line(text, &m), None);
    }

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
