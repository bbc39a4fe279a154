//! `--in-diff FILE`: only the mutants on lines a unified diff adds or changes, for fast checks
//! of a pull request (the code a change touches is where its new survivors are).
//!
//! The diff's paths (`b/benchmarks/x/src/lib.rs`, or `src/lib.rs` from inside the crate) are
//! matched against the mutants' files by their last components, so a diff made at the root of
//! a repository and one made inside the crate both work. A mutant is kept when its edit spans
//! a line the diff adds, or the line where the diff removed some.

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
            let name = p.new.path.as_ref();
            if name == "/dev/null" {
                continue; // a deleted file has no mutants left
            }
            let name = name.strip_prefix("b/").unwrap_or(name).trim_matches('"');
            let lines = out.files.entry(PathBuf::from(name)).or_default();
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
        }
        Ok(out)
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
        let lines = &c.files[Path::new("b/x/src/lib.rs")];
        assert_eq!(lines.iter().copied().collect::<Vec<_>>(), [11, 13]);
        assert!(ChangedLines::parse("").unwrap().files.is_empty());
        assert!(ChangedLines::parse("@@ nonsense").is_err());
    }
}
