//! `--in-diff FILE`: only the mutants on lines a unified diff adds or changes, for fast checks
//! of a pull request (the code a change touches is where its new survivors are).
//!
//! The diff's paths are matched against the mutants' files by their last components, so a
//! diff made at the root of a repository and one made inside the crate both work, and however
//! git prefixed them: `a/`, `b/` (the default), `i/`, `w/`, `c/`, `o/` (`diff.mnemonicPrefix`),
//! none (`--no-prefix`) or any `--src-prefix`/`--dst-prefix`. A prefix is recognised as what the
//! old and the new path of a changed file differ by in their first component; for a new file
//! (no old path) both readings are kept. A mutant is kept when its edit spans a line the diff
//! adds, or the line where the diff removed some. A diff that names files but none of the
//! crate's is refused: it was made for another crate, or its paths cannot be placed, and
//! running nothing would pass any gate.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use ferastrau_mutator::Mutant;

use crate::exit_code::usage;

/// The new-side lines a diff touches, per file path as the diff names it.
#[derive(Debug, Default)]
pub struct ChangedLines {
    files: BTreeMap<PathBuf, BTreeSet<usize>>,
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
                continue; // a deleted file has no mutants left
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
        self.files.is_empty()
    }

    /// Whether some file the diff names is one of `files` (paths of the crate's files, e.g.
    /// [`crate::fingerprint::crate_files`] joined to the crate's directory).
    pub fn names_any(&self, files: &[PathBuf]) -> bool {
        self.files
            .keys()
            .any(|name| files.iter().any(|f| f.ends_with(name)))
    }

    /// The file paths as the diff names them (after its prefixes), for messages.
    pub fn names(&self) -> Vec<String> {
        self.files.keys().map(|p| p.display().to_string()).collect()
    }

    /// Whether `m` (of the crate in `crate_dir`) lies on a changed line.
    pub fn touches(&self, crate_dir: &Path, m: &Mutant) -> bool {
        let file = crate_dir.join(&m.file);
        self.files.iter().any(|(name, lines)| {
            file.ends_with(name)
                && lines
                    .range(m.edit.start.line..=m.edit.end.line)
                    .next()
                    .is_some()
        })
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
}
