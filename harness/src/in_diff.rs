//! `--in-diff FILE`: what a pull request's unified diff asks a run to evaluate.
//!
//! A mutant's verdict depends on its own function and on everything that judges it: the
//! specification, the finitization, the abstraction compared, the glue, the types, the
//! manifest. So a diff that changes a mutated function selects every mutant of that function
//! (a change anywhere in it can make any of its mutants equivalent or killable), a diff that
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

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use ferastrau_mutator::Mutant;

use crate::exit_code::usage;

/// The new-side lines a diff touches, per file path as the diff names it.
#[derive(Debug, Default)]
pub struct ChangedLines {
    files: BTreeMap<PathBuf, BTreeSet<usize>>,
    /// Files the diff deletes, by their old path (every reading of it).
    deleted: BTreeSet<PathBuf>,
}

/// What a diff asks a run to evaluate, and why: the verdicts of a mutant depend on its own
/// function and on the whole specification side, so a change to a mutated function selects
/// that function's mutants, and a change anywhere else the verdicts depend on selects all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// The diff changes nothing the run depends on (files outside the library: its tests,
    /// README, other crates): nothing to evaluate, nothing to gate.
    Nothing { why: String },
    /// Every mutant of these mutated functions (by catalog name), and only them.
    Functions(BTreeSet<String>),
    /// Every mutant: the diff changes what all of them are judged by.
    Everything { why: String },
}

impl Selection {
    /// Whether the run keeps mutant `m`.
    pub fn keeps(&self, m: &Mutant) -> bool {
        match self {
            Selection::Nothing { .. } => false,
            Selection::Functions(f) => f.contains(&m.function),
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
    /// Reads the unified diff in `path`.
    pub fn read(path: &Path) -> Result<ChangedLines> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| usage(format!("cannot read --in-diff {}: {e}", path.display())))?;
        Self::parse(&text).with_context(|| format!("--in-diff {}", path.display()))
    }

    /// Parses a unified diff (an empty one touches nothing).
    pub fn parse(text: &str) -> Result<ChangedLines> {
        let mut out = ChangedLines::default();
        if text.trim().is_empty() {
            return Ok(out);
        }
        let patches = patch::Patch::from_multiple(text)
            .map_err(|e| usage(format!("not a unified diff: {e}")))?;
        for p in patches {
            let new = p.new.path.as_ref().trim_matches('"');
            if new == "/dev/null" {
                // No mutants left in it, but what used it changed.
                let old = p.old.path.as_ref().trim_matches('"');
                out.deleted.insert(PathBuf::from(old));
                continue;
            }
            let mut lines = BTreeSet::new();
            for h in &p.hunks {
                let mut n = h.new_range.start as usize;
                for l in &h.lines {
                    match l {
                        patch::Line::Context(_) => n += 1,
                        patch::Line::Add(_) => {
                            lines.insert(n);
                            n += 1;
                        }
                        patch::Line::Remove(_) => {
                            lines.insert(n);
                        }
                    }
                }
            }
            for name in readings(p.old.path.as_ref().trim_matches('"'), new) {
                out.files.entry(name).or_default().extend(&lines);
            }
        }
        Ok(out)
    }

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
        let mut chosen = BTreeSet::new();
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
            for &line in lines {
                match functions.iter().find(|f| f.holds(rel, line)) {
                    Some(f) => {
                        chosen.insert(f.function.clone());
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
        if chosen.is_empty() {
            return Selection::Nothing {
                why: format!(
                    "the diff changes nothing the crate's verdicts depend on (it names {})",
                    self.names().join(", ")
                ),
            };
        }
        Selection::Functions(chosen)
    }
}

/// The readings of a changed file's new path: without the prefix the old and new paths
/// differ by (`a/x` and `b/x`, `i/x` and `w/x`: `x`), as it is when they are equal
/// (`--no-prefix`), and both for a new file, whose old path (`/dev/null`) says nothing.
fn readings(old: &str, new: &str) -> Vec<PathBuf> {
    let rest = |p: &str| p.split_once('/').map(|(_, r)| r.to_string());
    if old == new {
        return vec![PathBuf::from(new)];
    }
    match (rest(old), rest(new)) {
        (Some(o), Some(n)) if o == n && old != "/dev/null" => vec![PathBuf::from(n)],
        (_, Some(n)) if !n.is_empty() => vec![PathBuf::from(new), PathBuf::from(n)],
        _ => vec![PathBuf::from(new)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn added_and_removed_lines_count_on_the_new_side() {
        let diff = "\
diff --git a/b/x/src/lib.rs b/b/x/src/lib.rs
--- a/b/x/src/lib.rs
+++ b/b/x/src/lib.rs
@@ -10,4 +10,4 @@ fn f() {
     let a = 1;
-    let b = a + 1;
+    let b = a - 1;
     let c = 2;
-    let d = 3;
     let e = 4;
";
        let c = ChangedLines::parse(diff).unwrap();
        // `a/` and `b/` are the prefixes; what follows is the path.
        let lines = &c.files[Path::new("b/x/src/lib.rs")];
        assert_eq!(lines.iter().copied().collect::<Vec<_>>(), [11, 13]);
        assert!(ChangedLines::parse("").unwrap().files.is_empty());
        assert!(ChangedLines::parse("@@ nonsense").is_err());
    }

    /// One change, as git writes it with every kind of prefix: each reads as `src/lib.rs`.
    #[test]
    fn every_prefix_git_writes_is_read_as_a_prefix() {
        let body = "@@ -1,2 +1,2 @@\n a\n-b\n+c\n";
        for (old, new) in [
            ("a/src/lib.rs", "b/src/lib.rs"),
            ("i/src/lib.rs", "w/src/lib.rs"),
            ("c/src/lib.rs", "w/src/lib.rs"),
            ("o/src/lib.rs", "w/src/lib.rs"),
            ("src/lib.rs", "src/lib.rs"),
            ("old/src/lib.rs", "new/src/lib.rs"),
        ] {
            let diff = format!("--- {old}\n+++ {new}\n{body}");
            let c = ChangedLines::parse(&diff).unwrap();
            assert_eq!(c.names(), ["src/lib.rs"], "{old} {new}");
            assert!(c.names_any(&[PathBuf::from("/home/u/crate/src/lib.rs")]));
            assert!(!c.names_any(&[PathBuf::from("/home/u/crate/src/tree.rs")]));
        }
        // A new file: both readings, so a prefixed and an unprefixed diff both place it.
        for new in ["w/src/new.rs", "src/new.rs"] {
            let diff = format!("--- /dev/null\n+++ {new}\n@@ -0,0 +1,1 @@\n+x\n");
            let c = ChangedLines::parse(&diff).unwrap();
            assert!(c.names_any(&[PathBuf::from("/c/src/new.rs")]), "{new}");
        }
    }

    fn place(function: &str, first: usize, last: usize) -> ferastrau_mutator::FnPlace {
        ferastrau_mutator::FnPlace {
            function: function.into(),
            file: "src/lib.rs".into(),
            first,
            last,
            lines: Vec::new(),
        }
    }

    fn select(diff: &str) -> Selection {
        let files = ["Cargo.toml", "README.md", "src/lib.rs", "tests/t.rs"].map(String::from);
        let functions = [place("S::add", 10, 20), place("S::remove", 22, 30)];
        ChangedLines::parse(diff)
            .unwrap()
            .select(Path::new("/repo/crates/s"), &files, &functions)
    }

    fn hunk(path: &str, line: usize) -> String {
        format!("--- a/{path}\n+++ b/{path}\n@@ -{line},1 +{line},1 @@\n-x\n+y\n")
    }

    #[test]
    fn a_change_in_a_mutated_function_selects_all_of_its_mutants_and_only_them() {
        let both = hunk("crates/s/src/lib.rs", 12) + &hunk("crates/s/src/lib.rs", 20);
        assert_eq!(
            select(&both),
            Selection::Functions(["S::add".to_string()].into())
        );
        let two = hunk("src/lib.rs", 12) + &hunk("src/lib.rs", 25);
        assert_eq!(
            select(&two),
            Selection::Functions(["S::add".to_string(), "S::remove".to_string()].into())
        );
    }

    #[test]
    fn a_change_the_verdicts_depend_on_selects_every_mutant() {
        // Between the functions (a type, the specification, the glue), the manifest, a
        // deleted module.
        for diff in [
            hunk("src/lib.rs", 21),
            hunk("src/lib.rs", 3),
            hunk("crates/s/Cargo.toml", 5),
            "--- a/crates/s/src/gone.rs\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-x\n".to_string(),
        ] {
            assert!(
                matches!(select(&diff), Selection::Everything { .. }),
                "{diff}"
            );
        }
        let Selection::Everything { why } = select(&hunk("src/lib.rs", 21)) else {
            unreachable!()
        };
        assert!(why.contains("src/lib.rs:21"), "{why}");
    }

    #[test]
    fn a_change_nothing_depends_on_selects_nothing() {
        for diff in [
            hunk("crates/s/README.md", 1),
            hunk("crates/s/tests/t.rs", 1),
            hunk("crates/other/src/lib.rs", 12),
            "--- a/crates/other/src/gone.rs\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-x\n".to_string(),
        ] {
            assert!(matches!(select(&diff), Selection::Nothing { .. }), "{diff}");
        }
    }
}
