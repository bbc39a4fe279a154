//! `--in-diff FILE`: what a pull request's unified diff asks a run to evaluate.
//!
//! A mutant's verdict depends on its own function and on everything that judges it: the
//! specification, the finitization, the abstraction compared, the glue, the types, the
//! manifest, and on the functions it calls and is called by. So a diff that changes a mutated
//! function selects every mutant of that function (a change anywhere in it can make any of its
//! mutants equivalent or killable), of the mutated functions it calls and that call it,
//! transitively, and of those a changed line names (a call the change removed: the helper it
//! inlined may be dead now; `related`), a diff that
//! changes anything else the verdicts depend on selects every mutant (weakening the oracle is
//! the regression a gate exists for), and a diff of files nothing depends on (tests, a
//! README, another crate) selects none: nothing to gate ([`Selection`]).
//!
//! The diff's paths are matched against the crate's files by their last components, so a
//! diff made at the root of a repository and one made inside the crate both work, and however
//! git prefixed them: `a/`, `b/` (the default), `i/`, `w/`, `c/`, `o/` (`diff.mnemonicPrefix`),
//! none (`--no-prefix`) or any `--src-prefix`/`--dst-prefix`. A prefix is recognised as what the
//! old and the new path of a changed file differ by in their first component; for a new file
//! (no old path) both readings are kept. A changed line is one the diff adds, or the line
//! where it removed some.
//!
//! The diff's text is read by [`parser`].

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use ferastrau_mutator::Mutant;

mod parser;
#[cfg(test)]
mod tests;

/// The new-side lines a diff touches, per file path as the diff names it.
#[derive(Debug, Default)]
pub struct ChangedLines {
    /// Per file, each new-side line the diff touches with the identifiers of the lines it
    /// adds or removes there (a call the change removed names its callee).
    files: BTreeMap<PathBuf, BTreeMap<usize, BTreeSet<String>>>,
    /// Files the diff deletes, by their old path (every reading of it); a renamed file's old
    /// path too: it is gone from the crate.
    deleted: BTreeSet<PathBuf>,
    /// Files (among `files`) whose every line is new to the crate though the diff numbers none:
    /// binary files, and the new paths of renames and copies.
    whole: BTreeSet<PathBuf>,
}

/// What a diff asks a run to evaluate, and why: the verdicts of a mutant depend on its own
/// function and on the whole specification side, so a change to a mutated function selects
/// that function's mutants, and a change anywhere else the verdicts depend on selects all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// The diff changes nothing the run depends on (files outside the library: its tests,
    /// README, other crates): nothing to evaluate, nothing to gate.
    Nothing { why: String },
    /// Every mutant of these mutated functions (by catalog name, each with why it is
    /// selected), and only them.
    Functions(BTreeMap<String, String>),
    /// Every mutant: the diff changes what all of them are judged by.
    Everything { why: String },
}

impl Selection {
    /// Whether the run keeps mutant `m`.
    pub fn keeps(&self, m: &Mutant) -> bool {
        match self {
            Selection::Nothing { .. } => false,
            Selection::Functions(f) => f.contains_key(&m.function),
            Selection::Everything { .. } => true,
        }
    }
}

/// Whether a crate file (relative path) is one the verdicts depend on: the library's sources,
/// the manifest (its metadata declares what is mutated and what judges), the lock file (the
/// dependencies' code) and a build script. Tests, examples, benches and documents are not.
fn depended_on(rel: &str) -> bool {
    rel.starts_with("src/") || ["Cargo.toml", "Cargo.lock", "build.rs"].contains(&rel)
}

impl ChangedLines {
    /// Whether the diff names no file at all (an empty diff: nothing changed).
    pub fn is_empty(&self) -> bool {
        self.files.is_empty() && self.deleted.is_empty()
    }

    /// Whether some file the diff names is one of `files` (paths of the crate's files, e.g.
    /// [`crate::fingerprint::crate_files`] joined to the crate's directory).
    pub fn names_any(&self, files: &[PathBuf]) -> bool {
        self.named()
            .any(|name| files.iter().any(|f| f.ends_with(name)))
    }

    /// The file paths as the diff names them (after its prefixes), for messages.
    pub fn names(&self) -> Vec<String> {
        let names: BTreeSet<String> = self.named().map(|p| p.display().to_string()).collect();
        names.into_iter().collect()
    }

    /// Whether every file the diff changes (not deletes) exists in `crate_dir` or in a
    /// directory above it (the repository's other files: a README, another crate): a diff of
    /// this checkout, placed, even when it names none of the crate's files.
    pub fn placeable(&self, crate_dir: &Path) -> bool {
        self.files
            .keys()
            .all(|name| crate_dir.ancestors().any(|d| d.join(name).exists()))
    }

    fn named(&self) -> impl Iterator<Item = &PathBuf> {
        self.files.keys().chain(&self.deleted)
    }

    /// What the run evaluates for this diff, given the crate in `crate_dir`, its files
    /// (relative paths, as [`crate::fingerprint::crate_files`] lists them) and its mutated
    /// functions. A changed line inside a mutated function selects that function's mutants
    /// (all of them: a change anywhere in a function can make any of its mutants equivalent
    /// or killable); a changed line of the library outside them (the specification, the
    /// finitization, the glue, a type), the manifest, the lock file, a build script or a
    /// deleted source selects every mutant; anything else (tests, README, other crates) none.
    pub fn select(
        &self,
        crate_dir: &Path,
        crate_files: &[String],
        functions: &[ferastrau_mutator::FnPlace],
    ) -> Selection {
        let of_crate = |name: &Path| -> Option<&String> {
            crate_files
                .iter()
                .find(|rel| crate_dir.join(rel.as_str()).ends_with(name))
        };
        // The mutated functions the diff changes, and those a changed line names (a call it
        // added or removed: a helper inlined), each with the function that names it.
        let mut changed = BTreeSet::new();
        let mut named: BTreeMap<&str, &str> = BTreeMap::new();
        // A deleted file is no longer among the crate's: placed by the suffixes of its path,
        // read with and without a prefix (`a/`: nothing tells it apart for a deleted file).
        for name in &self.deleted {
            let parts: Vec<_> = name.components().collect();
            let unprefixed: PathBuf = parts.iter().skip(1).collect();
            for i in 0..parts.len() {
                let rel: PathBuf = parts[i..].iter().collect();
                let rel = rel.to_string_lossy().into_owned();
                let path = crate_dir.join(&rel);
                if depended_on(&rel) && (path.ends_with(name) || path.ends_with(&unprefixed)) {
                    return Selection::Everything {
                        why: format!("the diff deletes {rel}"),
                    };
                }
            }
        }
        for (name, lines) in &self.files {
            let Some(rel) = of_crate(name) else { continue };
            if !depended_on(rel) {
                continue;
            }
            if !rel.ends_with(".rs") || rel == "build.rs" {
                return Selection::Everything {
                    why: format!("the diff changes {rel}, which every verdict depends on"),
                };
            }
            if self.whole.contains(name) {
                return Selection::Everything {
                    why: format!(
                        "the diff brings {rel} in whole (renamed, copied or binary), which every verdict depends on"
                    ),
                };
            }
            for (&line, words) in lines {
                match functions.iter().find(|f| f.holds(rel, line)) {
                    Some(f) => {
                        changed.insert(f.function.as_str());
                        for g in functions.iter().filter(|g| words.contains(&g.name)) {
                            named.entry(&g.function).or_insert(&f.function);
                        }
                    }
                    None => {
                        return Selection::Everything {
                            why: format!(
                                "the diff changes {rel}:{line}, outside the mutated functions (the specification, the finitization, the glue or a type), which every verdict depends on"
                            ),
                        }
                    }
                }
            }
        }
        if changed.is_empty() {
            return Selection::Nothing {
                why: format!(
                    "the diff changes nothing the crate's verdicts depend on (it names {})",
                    self.names().join(", ")
                ),
            };
        }
        Selection::Functions(related(functions, &changed, &named))
    }
}

/// The functions whose mutants' verdicts a change to `changed` can move, each with why: the
/// changed ones; those a changed line names (a call added or removed); and, from all of
/// these, the mutated functions they call and those that call them, transitively (a callee's
/// mutants are judged through its callers' inputs, a caller's through what its callees
/// return). Calls are known by name ([`FnPlace::calls`]): a name two functions share selects
/// both, more than needed and never less.
///
/// [`FnPlace::calls`]: ferastrau_mutator::FnPlace::calls
fn related(
    functions: &[ferastrau_mutator::FnPlace],
    changed: &BTreeSet<&str>,
    named: &BTreeMap<&str, &str>,
) -> BTreeMap<String, String> {
    let mut why: BTreeMap<String, String> = BTreeMap::new();
    for f in changed {
        why.insert(f.to_string(), "changed".to_string());
    }
    for (g, f) in named {
        why.entry(g.to_string())
            .or_insert_with(|| format!("named by a line the diff changes in {f}"));
    }
    let seeds: Vec<String> = why.keys().cloned().collect();
    let by_name = |name: &str| -> Vec<&ferastrau_mutator::FnPlace> {
        functions.iter().filter(|g| g.function == name).collect()
    };
    // Callees, then callers, each a breadth-first walk from the seeds.
    for callees in [true, false] {
        let mut queue: std::collections::VecDeque<String> = seeds.iter().cloned().collect();
        let mut seen: BTreeSet<String> = queue.iter().cloned().collect();
        while let Some(f) = queue.pop_front() {
            let next: Vec<&ferastrau_mutator::FnPlace> = match callees {
                true => by_name(&f)
                    .into_iter()
                    .flat_map(|place| functions.iter().filter(|g| place.calls.contains(&g.name)))
                    .collect(),
                false => {
                    let names: BTreeSet<&str> =
                        by_name(&f).iter().map(|p| p.name.as_str()).collect();
                    functions
                        .iter()
                        .filter(|g| g.calls.iter().any(|c| names.contains(c.as_str())))
                        .collect()
                }
            };
            for g in next {
                if seen.insert(g.function.clone()) {
                    why.entry(g.function.clone())
                        .or_insert_with(|| match callees {
                            true => format!("called by {f}"),
                            false => format!("calls {f}"),
                        });
                    queue.push_back(g.function.clone());
                }
            }
        }
    }
    why
}
