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
//! The parser is this module's own, over bytes, because what it reads decides what a gate
//! compares: it reads every form `git diff` writes (extended headers: modes, new and deleted
//! files, renames and copies, similarity and index lines; `Binary files ... differ` and `GIT
//! binary patch`; `\ No newline at end of file`; C-quoted paths, whose bytes need not be UTF-8;
//! a tab after a path with a space; contents in any encoding) and GNU `diff -u`/`-ruN` output,
//! counting each hunk's lines by its header as `git apply` does. Anything else is refused with
//! the line it stopped at, never skipped: a word diff, a coloured diff, text after the diff or a
//! truncated hunk, read leniently, would evaluate less than the change touched and pass a gate
//! it should fail (the `patch` crate used before panicked on some of them and skipped others).
//! Text before the first file (`git show`'s commit header, `--stat`) is skipped, and so is
//! `git format-patch`'s signature with what follows it up to the next patch's diff.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use ferastrau_mutator::Mutant;

use ferastrau_console::exit_code::usage;

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

/// What every refusal of a diff adds: the form `--in-diff` reads.
const FORM: &str = "--in-diff takes the output of `git diff` (a unified diff, e.g. \
                    `git diff origin/main > pr.diff`; not --word-diff, --color or a combined \
                    diff of a merge)";

/// The path git writes for the missing side of a new or deleted file.
const DEV_NULL: &[u8] = b"/dev/null";

/// A refusal of the diff at its 1-based `line` (status 2).
fn unreadable(line: usize, why: impl std::fmt::Display) -> anyhow::Error {
    usage(format!("line {line}: {why}; {FORM}"))
}

/// `line` for a message: lossy, at most 60 characters, quoted.
fn show(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let short: String = text.chars().take(60).collect();
    match short.len() < text.len() {
        true => format!("{short:?}..."),
        false => format!("{short:?}"),
    }
}

/// A header line without the `\r` of a diff saved with CRLF line ends.
fn header(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// A path of the diff as a path (its bytes, which a quoted name may make non-UTF-8).
fn path(bytes: &[u8]) -> PathBuf {
    PathBuf::from(OsStr::from_bytes(bytes))
}

/// What one file's part of a diff says.
#[derive(Default)]
struct FilePart {
    /// The line it starts at (0-based), for messages.
    start: usize,
    /// The two paths of `diff --git`'s line, when that line could be split.
    git: Option<(Vec<u8>, Vec<u8>)>,
    /// The paths of `---` and `+++` (or of a `Binary files` line).
    old: Option<Vec<u8>>,
    new: Option<Vec<u8>>,
    /// `rename from`/`copy from` and `rename to`/`copy to`: paths without a prefix.
    from: Option<Vec<u8>>,
    to: Option<Vec<u8>>,
    renamed: bool,
    copied: bool,
    deleted: bool,
    binary: bool,
    /// New-side lines the hunks touch, with the identifiers of the lines added or removed.
    lines: BTreeMap<usize, BTreeSet<String>>,
}

impl ChangedLines {
    /// Reads the unified diff in `path`.
    pub fn read(path: &Path) -> Result<ChangedLines> {
        let text = std::fs::read(path)
            .map_err(|e| usage(format!("cannot read --in-diff {}: {e}", path.display())))?;
        Self::parse(&text).with_context(|| format!("--in-diff {}", path.display()))
    }

    /// Parses a unified diff (an empty one touches nothing); a refusal names the line.
    pub fn parse(text: impl AsRef<[u8]>) -> Result<ChangedLines> {
        let text = text.as_ref();
        let mut out = ChangedLines::default();
        if text.iter().all(u8::is_ascii_whitespace) {
            return Ok(out);
        }
        let mut lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
        if text.ends_with(b"\n") {
            lines.pop();
        }
        let mut i = preamble(&lines, 0)?;
        if i == lines.len() {
            return Err(unreadable(
                1,
                "no file header (`diff --git ...`, or `--- ...` then `+++ ...`) in the text",
            ));
        }
        while i < lines.len() {
            if header(lines[i]).iter().all(u8::is_ascii_whitespace) {
                i += 1;
            } else if starts_part(&lines, i) {
                i = file_part(&lines, i, &mut out)?;
            } else if header(lines[i]) == b"-- " && lines.get(i + 1).is_some_and(|l| version(l)) {
                // `git format-patch`'s signature (`-- `, then git's version), and after it
                // the next patch's mail header, if any: text between diffs, as before the
                // first. (Only that: a `-- ` line a hunk did not count is refused below.)
                i = preamble(&lines, i + 2)?;
            } else {
                return Err(unreadable(
                    i + 1,
                    format!(
                        "{} is no part of the diff (text after it, or a line the hunk above does not count)",
                        show(lines[i])
                    ),
                ));
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

/// Whether `line` is a version as git signs a patch with (`2.43.0`, `2.39.5 (Apple Git-154)`).
fn version(line: &[u8]) -> bool {
    let line = header(line);
    line.first().is_some_and(u8::is_ascii_digit)
        && line
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b" .-+()_".contains(b))
}

/// Skips text that is no diff from line `i` (`git show`'s commit, `--stat`, `--raw`, a mail
/// header or signature of `git format-patch`) up to the next file's part; the line it starts
/// at. A hunk there is one whose file header is missing (a diff cut short): refused, not
/// skipped.
fn preamble(lines: &[&[u8]], mut i: usize) -> Result<usize> {
    while i < lines.len() && !starts_part(lines, i) {
        if lines[i].starts_with(b"@@") {
            return Err(unreadable(i + 1, "a hunk before any file header"));
        }
        i += 1;
    }
    Ok(i)
}

/// Whether line `i` starts a file's part of a diff: `diff ...` (git's `diff --git`, GNU's
/// command line), `---` followed by `+++`, or GNU's `Binary files ... differ`.
fn starts_part(lines: &[&[u8]], i: usize) -> bool {
    let l = header(lines[i]);
    l.starts_with(b"diff ")
        || (l.starts_with(b"--- ") && lines.get(i + 1).is_some_and(|n| n.starts_with(b"+++ ")))
        || binary_files(l).is_some()
}

/// Reads the file's part of the diff starting at line `i` into `out`; the line after it.
fn file_part(lines: &[&[u8]], mut i: usize, out: &mut ChangedLines) -> Result<usize> {
    let mut part = FilePart {
        start: i,
        ..FilePart::default()
    };
    let first = header(lines[i]);
    if first.starts_with(b"diff --cc ") || first.starts_with(b"diff --combined ") {
        return Err(unreadable(
            i + 1,
            "a combined diff (of a merge's parents) cannot be placed on one side",
        ));
    }
    if let Some(names) = first.strip_prefix(b"diff --git ") {
        part.git = split_names(names, b" ");
        i += 1;
        // Git's extended header lines, in any order.
        while let Some(&l) = lines.get(i) {
            let l = header(l);
            if let Some(p) = l.strip_prefix(b"rename from ") {
                (part.from, part.renamed) = (Some(bare_name(p, i)?), true);
            } else if let Some(p) = l.strip_prefix(b"rename to ") {
                (part.to, part.renamed) = (Some(bare_name(p, i)?), true);
            } else if let Some(p) = l.strip_prefix(b"copy from ") {
                (part.from, part.copied) = (Some(bare_name(p, i)?), true);
            } else if let Some(p) = l.strip_prefix(b"copy to ") {
                (part.to, part.copied) = (Some(bare_name(p, i)?), true);
            } else if l.starts_with(b"deleted file mode ") {
                part.deleted = true;
            } else if ![
                &b"old mode "[..],
                b"new mode ",
                b"new file mode ",
                b"similarity index ",
                b"dissimilarity index ",
                b"index ",
            ]
            .iter()
            .any(|h| l.starts_with(h))
            {
                break;
            }
            i += 1;
        }
    } else if first.starts_with(b"diff ") {
        // GNU's command line (`diff -ruN a/x b/x`): the paths follow as `---` and `+++`.
        i += 1;
    }
    match lines.get(i).map(|l| header(l)) {
        Some(l) if binary_files(l).is_some() => {
            (part.old, part.new) = binary_files(l).unzip();
            part.binary = true;
            i += 1;
        }
        Some(b"GIT binary patch") => {
            i = binary_patch(lines, i + 1)?;
            part.binary = true;
        }
        Some(l) if l.starts_with(b"--- ") => {
            let Some(plus) = lines
                .get(i + 1)
                .and_then(|n| header(n).strip_prefix(b"+++ "))
            else {
                return Err(unreadable(i + 1, "a `---` line without its `+++` line"));
            };
            part.old = Some(header_name(&l[4..], i)?);
            part.new = Some(header_name(plus, i + 1)?);
            i += 2;
            if !lines.get(i).is_some_and(|l| l.starts_with(b"@@ ")) {
                return Err(unreadable(
                    i + 1,
                    "no hunk (`@@ -a,b +c,d @@`) after `---` and `+++`",
                ));
            }
            while lines.get(i).is_some_and(|l| l.starts_with(b"@@ ")) {
                i = hunk(lines, i, &mut part.lines)?;
            }
        }
        _ => {}
    }
    part.record(out)?;
    Ok(i)
}

impl FilePart {
    /// Adds what the part changes to `out`.
    fn record(self, out: &mut ChangedLines) -> Result<()> {
        // The most exact paths it has: rename and copy lines carry no prefix.
        let (old, new, bare) = match (self.from, self.to, self.old, self.new, self.git) {
            (Some(from), Some(to), ..) => (from, to, true),
            (_, _, Some(old), Some(new), _) => (old, new, false),
            (.., Some((old, new))) => (old, new, false),
            _ => {
                return Err(unreadable(
                    self.start + 1,
                    "cannot tell which file this part of the diff changes",
                ))
            }
        };
        if self.deleted || new == DEV_NULL {
            // No mutants left in it, but what used it changed.
            out.deleted.insert(path(&old));
            return Ok(());
        }
        if self.renamed {
            out.deleted.insert(path(&old));
        }
        let names = match bare {
            true => vec![path(&new)],
            false => readings(&old, &new),
        };
        for name in names {
            if self.binary || self.renamed || self.copied {
                out.whole.insert(name.clone());
            }
            let lines = out.files.entry(name).or_default();
            for (line, words) in &self.lines {
                lines
                    .entry(*line)
                    .or_default()
                    .extend(words.iter().cloned());
            }
        }
        Ok(())
    }
}

/// The hunk whose header is line `i`: its new-side changed lines into `changed`, its lines
/// counted by the header; the line after it.
fn hunk(
    lines: &[&[u8]],
    i: usize,
    changed: &mut BTreeMap<usize, BTreeSet<String>>,
) -> Result<usize> {
    let Some((mut old_left, new_start, mut new_left)) = hunk_header(header(lines[i])) else {
        return Err(unreadable(
            i + 1,
            format!(
                "{} is not a hunk header (`@@ -a,b +c,d @@`)",
                show(lines[i])
            ),
        ));
    };
    let header_line = i;
    let mut n = new_start;
    let mut changes = false;
    let mut i = i + 1;
    let too_many = |i: usize| {
        unreadable(
            i + 1,
            format!(
                "more lines than the hunk header at line {} counts",
                header_line + 1
            ),
        )
    };
    while old_left > 0 || new_left > 0 {
        let Some(&l) = lines.get(i) else {
            return Err(unreadable(
                i,
                format!(
                    "the diff ends inside the hunk of line {} ({old_left} old and {new_left} new lines missing)",
                    header_line + 1
                ),
            ));
        };
        // An empty line is a context line whose space an editor removed.
        let kind = match header(l).first() {
            None => b' ',
            Some(&k) => k,
        };
        match kind {
            b' ' => {
                old_left = old_left.checked_sub(1).ok_or_else(|| too_many(i))?;
                new_left = new_left.checked_sub(1).ok_or_else(|| too_many(i))?;
                n = n.saturating_add(1);
            }
            b'-' => {
                old_left = old_left.checked_sub(1).ok_or_else(|| too_many(i))?;
                changed.entry(n).or_default().extend(identifiers(&l[1..]));
                changes = true;
            }
            b'+' => {
                new_left = new_left.checked_sub(1).ok_or_else(|| too_many(i))?;
                changed.entry(n).or_default().extend(identifiers(&l[1..]));
                n = n.saturating_add(1);
                changes = true;
            }
            // `\ No newline at end of file`, after the line it is about.
            b'\\' => {}
            _ => {
                return Err(unreadable(
                    i + 1,
                    format!(
                        "{} is not a line of a hunk (` `, `-` or `+` first)",
                        show(l)
                    ),
                ))
            }
        }
        i += 1;
    }
    if lines.get(i).is_some_and(|l| l.starts_with(b"\\")) {
        i += 1;
    }
    if !changes {
        // Git writes no such hunk; a word diff's indented lines read as one.
        return Err(unreadable(
            header_line + 1,
            "a hunk that adds and removes no line",
        ));
    }
    Ok(i)
}

/// The identifiers of a line of code (ASCII words starting with a letter or `_`): what could
/// name a function.
fn identifiers(line: &[u8]) -> impl Iterator<Item = String> + '_ {
    line.split(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .filter(|w| w.first().is_some_and(|b| !b.is_ascii_digit()))
        .map(|w| String::from_utf8_lossy(w).into_owned())
}

/// `@@ -a[,b] +c[,d] @@...`: the old side's line count, the new side's first line and count.
fn hunk_header(l: &[u8]) -> Option<(usize, usize, usize)> {
    let rest = l.strip_prefix(b"@@ -")?;
    let (_, old_count, rest) = range(rest)?;
    let rest = rest.strip_prefix(b" +")?;
    let (new_start, new_count, rest) = range(rest)?;
    rest.starts_with(b" @@")
        .then_some((old_count, new_start, new_count))
}

/// `start[,count]` (a count of 1 when absent), and what follows.
fn range(s: &[u8]) -> Option<(usize, usize, &[u8])> {
    let (start, rest) = number(s)?;
    match rest.strip_prefix(b",") {
        Some(rest) => {
            let (count, rest) = number(rest)?;
            Some((start, count, rest))
        }
        None => Some((start, 1, rest)),
    }
}

/// The decimal number `s` starts with (none past `usize`), and what follows.
fn number(s: &[u8]) -> Option<(usize, &[u8])> {
    let end = s
        .iter()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(s.len());
    let n = std::str::from_utf8(&s[..end]).ok()?.parse().ok()?;
    Some((n, &s[end..]))
}

/// The paths of `Binary files A and B differ`.
fn binary_files(l: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let names = l.strip_prefix(b"Binary files ")?.strip_suffix(b" differ")?;
    split_names(names, b" and ")
}

/// Skips the data of `GIT binary patch` (from line `i`): one or two blocks, each a `literal N`
/// or `delta N` line, base-85 lines, and an empty line. The line after it.
fn binary_patch(lines: &[&[u8]], mut i: usize) -> Result<usize> {
    for block in 0..2 {
        let starts = |l: &[u8]| l.starts_with(b"literal ") || l.starts_with(b"delta ");
        match lines.get(i).map(|l| header(l)) {
            Some(l) if starts(l) => {}
            // The second block (the reverse patch) is optional.
            _ if block == 1 => break,
            _ => {
                return Err(unreadable(
                    i + 1,
                    "`GIT binary patch` without its `literal` or `delta` block",
                ))
            }
        }
        i += 1;
        while lines.get(i).is_some_and(|l| !header(l).is_empty()) {
            i += 1;
        }
        i += 1;
    }
    Ok(i.min(lines.len()))
}

/// A path of a `---` or `+++` line: C-quoted, or up to a tab (git adds one after a path with a
/// space; GNU diff, before the time).
fn header_name(s: &[u8], i: usize) -> Result<Vec<u8>> {
    let name = match s.first() {
        Some(b'"') => unquote(s).map(|(name, _)| name),
        _ => s.split(|&b| b == b'\t').next().map(<[u8]>::to_vec),
    };
    name.filter(|n| !n.is_empty())
        .ok_or_else(|| unreadable(i + 1, format!("no path in {}", show(s))))
}

/// The path of a `rename`/`copy` line: C-quoted or as it is.
fn bare_name(s: &[u8], i: usize) -> Result<Vec<u8>> {
    let name = match s.first() {
        Some(b'"') => unquote(s)
            .filter(|(_, rest)| rest.is_empty())
            .map(|(n, _)| n),
        _ => Some(s.to_vec()),
    };
    name.filter(|n| !n.is_empty())
        .ok_or_else(|| unreadable(i + 1, format!("no path in {}", show(s))))
}

/// A C-quoted path as git writes one (`"a/t\303\251st.rs"`): its bytes, and what follows the
/// closing quote.
fn unquote(s: &[u8]) -> Option<(Vec<u8>, &[u8])> {
    let mut name = Vec::new();
    let mut rest = s.strip_prefix(b"\"")?;
    loop {
        let (&c, after) = rest.split_first()?;
        rest = after;
        match c {
            b'"' => return Some((name, rest)),
            b'\\' => {
                let (&e, after) = rest.split_first()?;
                rest = after;
                name.push(match e {
                    b'a' => 7,
                    b'b' => 8,
                    b't' => b'\t',
                    b'n' => b'\n',
                    b'v' => 11,
                    b'f' => 12,
                    b'r' => b'\r',
                    b'"' | b'\\' => e,
                    b'0'..=b'3' => {
                        let digits = rest.get(..2)?;
                        if !digits.iter().all(|d| (b'0'..=b'7').contains(d)) {
                            return None;
                        }
                        rest = &rest[2..];
                        (e - b'0') << 6 | (digits[0] - b'0') << 3 | (digits[1] - b'0')
                    }
                    _ => return None,
                });
            }
            _ => name.push(c),
        }
    }
}

/// The two paths of `A<sep>B` (`diff --git`'s line, `Binary files`'): either one quoted, or
/// split where both sides are equal, or equal past their first components (the prefixes), or
/// one is `/dev/null` (a path may hold `sep` itself). `None` when no split is such.
fn split_names(s: &[u8], sep: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    if s.first() == Some(&b'"') {
        let (old, rest) = unquote(s)?;
        let rest = rest.strip_prefix(sep)?;
        let new = match rest.first() {
            Some(b'"') => unquote(rest).filter(|(_, r)| r.is_empty())?.0,
            _ => rest.to_vec(),
        };
        return Some((old, new));
    }
    (0..s.len().saturating_sub(sep.len()))
        .filter(|&at| s[at..].starts_with(sep))
        .find_map(|at| {
            let (old, new) = (&s[..at], &s[at + sep.len()..]);
            if new.first() == Some(&b'"') {
                let (new, rest) = unquote(new)?;
                return rest.is_empty().then(|| (old.to_vec(), new));
            }
            let same = old == new
                || old == DEV_NULL
                || new == DEV_NULL
                || past_prefix(old).is_some_and(|o| !o.is_empty() && Some(o) == past_prefix(new));
            (same && !old.is_empty() && !new.is_empty()).then(|| (old.to_vec(), new.to_vec()))
        })
}

/// A path past its first component (its prefix, if it has one): `x/y` of `a/x/y`.
fn past_prefix(p: &[u8]) -> Option<&[u8]> {
    p.iter().position(|&b| b == b'/').map(|i| &p[i + 1..])
}

/// The readings of a changed file's new path: without the prefix the old and new paths
/// differ by (`a/x` and `b/x`, `i/x` and `w/x`: `x`), as it is when they are equal
/// (`--no-prefix`), and both for a new file, whose old path (`/dev/null`) says nothing.
fn readings(old: &[u8], new: &[u8]) -> Vec<PathBuf> {
    if old == new {
        return vec![path(new)];
    }
    match (past_prefix(old), past_prefix(new)) {
        (Some(o), Some(n)) if o == n && old != DEV_NULL => vec![path(n)],
        (_, Some(n)) if !n.is_empty() => vec![path(new), path(n)],
        _ => vec![path(new)],
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
@@ -10,5 +10,4 @@ fn f() {
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
        assert_eq!(lines.keys().copied().collect::<Vec<_>>(), [11, 13]);
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

    /// `git diff --cached` of a commit with every kind of change git writes (made by git 2.47:
    /// a binary file, a deletion, a mode change, an empty file renamed, a new file without a
    /// final newline, a path with a space, a change, a pure rename, a non-ASCII path).
    const EVERY_FORM: &str = "\
diff --git a/data.bin b/data.bin
index 88768ef..3e3315e 100644
Binary files a/data.bin and b/data.bin differ
diff --git a/gone.rs b/gone.rs
deleted file mode 100644
index 286c5f5..0000000
--- a/gone.rs
+++ /dev/null
@@ -1 +0,0 @@
-gone
diff --git a/mode.sh b/mode.sh
old mode 100644
new mode 100755
diff --git a/emptygone b/newempty
similarity index 100%
rename from emptygone
rename to newempty
diff --git a/nonl.rs b/nonl.rs
new file mode 100644
index 0000000..f2ba8f8
--- /dev/null
+++ b/nonl.rs
@@ -0,0 +1 @@
+abc
\\ No newline at end of file
diff --git a/sp ace.rs b/sp ace.rs
index 2fa992c..a09deca 100644
--- a/sp ace.rs\t
+++ b/sp ace.rs\t
@@ -1 +1 @@
-keep
+keep2
diff --git a/src/lib.rs b/src/lib.rs
index 428f925..e00079b 100644
--- a/src/lib.rs
+++ b/src/lib.rs
@@ -1,5 +1,5 @@
 fn a() {
-    1
+    10
 }
 fn b() {
     2
diff --git a/src/old.rs b/src/new.rs
similarity index 100%
rename from src/old.rs
rename to src/new.rs
diff --git \"a/t\\303\\251st.rs\" \"b/t\\303\\251st.rs\"
index 4ae8ef0..967e095 100644
--- \"a/t\\303\\251st.rs\"
+++ \"b/t\\303\\251st.rs\"
@@ -1 +1 @@
-u
+u2
";

    #[test]
    fn every_form_git_diff_writes_is_read() {
        let c = ChangedLines::parse(EVERY_FORM).unwrap();
        let lines = |name: &str| c.files[Path::new(name)].keys().copied().collect::<Vec<_>>();
        assert_eq!(lines("src/lib.rs"), [2]);
        assert_eq!(lines("sp ace.rs"), [1]);
        assert_eq!(lines("tést.rs"), [1]);
        assert_eq!(lines("nonl.rs"), [1]);
        assert!(lines("mode.sh").is_empty());
        let set = |s: &BTreeSet<PathBuf>| -> Vec<String> {
            s.iter().map(|p| p.display().to_string()).collect()
        };
        // A rename's old path is gone from the crate; its new one is new to it, whole.
        assert_eq!(set(&c.deleted), ["a/gone.rs", "emptygone", "src/old.rs"]);
        assert_eq!(set(&c.whole), ["data.bin", "newempty", "src/new.rs"]);
        let functions = [place("S::add", 10, 20)];
        let crate_files = ["src/lib.rs", "src/new.rs"].map(String::from);
        let why = |c: &ChangedLines| match c.select(Path::new("/r"), &crate_files, &functions) {
            Selection::Everything { why } => why,
            other => panic!("{other:?}"),
        };
        assert!(why(&c).contains("deletes src/old.rs"), "{}", why(&c));
        // A file renamed into the library from elsewhere is new code of it.
        let moved = "diff --git a/tests/h.rs b/src/h.rs\nsimilarity index 100%\nrename from tests/h.rs\nrename to src/h.rs\n";
        let crate_files = ["src/lib.rs", "src/h.rs", "tests/x.rs"].map(String::from);
        let c = ChangedLines::parse(moved).unwrap();
        match c.select(Path::new("/r"), &crate_files, &functions) {
            Selection::Everything { why } => assert!(why.contains("src/h.rs in whole"), "{why}"),
            other => panic!("{other:?}"),
        }
        // `--binary`, GNU `diff -ruN`, CRLF line ends: read alike.
        let binary = "diff --git a/d.bin b/d.bin\nindex 88768ef..3e3315e 100644\nGIT binary patch\nliteral 5\nMcmZQzO3KUw00MIXJOBUy\n\nliteral 5\nMcmZQzOv=my00M6TI{*Lx\n\n";
        let gnu = "Binary files d1/b.bin and d2/b.bin differ\ndiff -ruN d1/src/x.rs d2/src/x.rs\n--- d1/src/x.rs\t2026-12-02 04:05:10.812266033 +0000\n+++ d2/src/x.rs\t2026-12-02 04:05:10.812266033 +0000\n@@ -1 +1 @@\n-a\n+b\n";
        let crlf = hunk("src/x.rs", 3).replace('\n', "\r\n");
        for (diff, name) in [(binary, "d.bin"), (gnu, "src/x.rs"), (&crlf, "src/x.rs")] {
            let c = ChangedLines::parse(diff).unwrap_or_else(|e| panic!("{e:#}\n{diff}"));
            assert!(c.files.contains_key(Path::new(name)), "{:?}", c.files);
        }
        // A path of non-UTF-8 bytes, as git quotes it.
        let c = ChangedLines::parse(
            hunk("\\377.rs", 1)
                .replace("a/\\", "\"a/\\")
                .replace("b/\\", "\"b/\\")
                .replace(".rs\n", ".rs\"\n"),
        )
        .unwrap();
        assert!(c.files.contains_key(&path(b"\xff.rs")), "{:?}", c.files);
    }

    /// What is not `git diff` output is refused (status 2) with the line and the form
    /// `--in-diff` takes, never read in part: a word diff whose first file reads as a hunk of
    /// context, text after a diff, a coloured diff, a hunk cut short, a combined diff. (The
    /// `patch` crate panicked on the first two.)
    #[test]
    fn what_is_not_git_diff_output_is_refused_with_its_line() {
        let word = "\
diff --git a/src/lib.rs b/src/lib.rs
index 428f925..e00079b 100644
--- a/src/lib.rs
+++ b/src/lib.rs
@@ -2 +2 @@
    [-1-]{+10+}
diff --git a/src/b.rs b/src/b.rs
--- a/src/b.rs
+++ b/src/b.rs
@@ -1 +1 @@
fn [-b-]{+c+}() {}
";
        let after = hunk("src/lib.rs", 3) + "\nThanks for the review!\n";
        let colour = "\u{1b}[1mdiff --git a/x b/x\u{1b}[m\n\u{1b}[1m--- a/x\u{1b}[m\n";
        let cut = "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n";
        let combined = "diff --cc src/lib.rs\nindex 1,2..3\n--- a/src/lib.rs\n+++ b/src/lib.rs\n@@@ -1,1 -1,1 +1,1 @@@\n- a\n +b\n";
        let headless = "@@ -1 +1 @@\n-a\n+b\n";
        // A `-- ` line the hunk did not count, not followed by git's version: no signature.
        let stray = hunk("src/lib.rs", 3) + "-- \n+c\n";
        for (diff, line) in [
            (stray.as_str(), "line 6:"),
            (word, "line 5:"),
            (&after, "line 7:"),
            (colour, "line 1:"),
            (cut, "line 5:"),
            (combined, "line 1:"),
            (headless, "line 1:"),
        ] {
            let e = ChangedLines::parse(diff).unwrap_err();
            let message = format!("{e:#}");
            assert!(message.starts_with(line), "{message}\n{diff}");
            assert!(
                message.contains("takes the output of `git diff`"),
                "{message}"
            );
            assert_eq!(
                ferastrau_console::exit_code::of(&e),
                ferastrau_console::exit_code::Exit::Usage
            );
        }
    }

    /// Arbitrary bytes ([`crate::fuzz`]): a refusal or a reading, never a panic; what is read
    /// is selected from as a run would.
    #[test]
    fn fuzz_a_diff_never_panics_its_reader() {
        let binary = "diff --git a/d.bin b/d.bin\nnew file mode 100644\nindex 0000000..3e3315e\nGIT binary patch\nliteral 5\nMcmZQzO3KUw00MIXJOBUy\n\nliteral 0\nHcmV?d00001\n\n";
        let gnu = "Binary files d1/b.bin and d2/b.bin differ\ndiff -ruN d1/src/x.rs d2/src/x.rs\n--- d1/src/x.rs\t2026-12-02 04:05:10.812266033 +0000\n+++ d2/src/x.rs\t2026-12-02 04:05:10.812266033 +0000\n@@ -1,2 +1 @@\n-a\n b\n";
        let seeds = [EVERY_FORM.as_bytes(), binary.as_bytes(), gnu.as_bytes()];
        let tokens: &[&[u8]] = &[
            b"diff --git ",
            b"diff --cc ",
            b"--- ",
            b"+++ ",
            b"@@ -",
            b" +",
            b" @@",
            b",",
            b"\n",
            b"\r\n",
            b" ",
            b"-",
            b"+",
            b"\\ No newline at end of file\n",
            b"/dev/null",
            b"a/",
            b"b/",
            b"\"",
            b"\\",
            b"\\377",
            b"\t",
            b"Binary files ",
            b" and ",
            b" differ",
            b"GIT binary patch\n",
            b"literal 5\n",
            b"rename from ",
            b"rename to ",
            b"copy to ",
            b"deleted file mode 100644\n",
            b"new file mode 100644\n",
            b"-- \n2.43.0\n",
        ];
        let functions = [place("S::add", 1, 3), place("S::remove", 4, 9)];
        let files = ["Cargo.toml", "src/lib.rs", "src/new.rs", "nonl.rs"].map(String::from);
        crate::fuzz::no_panic("--in-diff", 0, &seeds, tokens, |bytes| {
            if let Ok(c) = ChangedLines::parse(bytes) {
                c.names();
                c.select(Path::new("/r"), &files, &functions);
            }
        });
    }

    /// What `git diff` writes for a pull request of every kind of entry (a patch, a pure
    /// rename, a copy, a deletion, a mode change, a binary file, an empty new file, a file
    /// without a final newline, paths with spaces and non-ASCII bytes), under every option that
    /// changes its form (rename and copy detection, binary patches, prefixes, context, diff
    /// algorithms, reversal, `git show`, `git format-patch`): read without a refusal or a
    /// panic, and the patched line found wherever the options put it.
    #[test]
    fn every_diff_git_writes_for_a_pull_request_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path();
        let git = |args: &[&str]| -> Vec<u8> {
            let o = std::process::Command::new("git")
                .arg("-C")
                .arg(repo)
                .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
                .args(["-c", "core.quotepath=true", "-c", "diff.noprefix=false"])
                .args(args)
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "git {args:?}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            o.stdout
        };
        let write = |rel: &str, bytes: &[u8]| {
            let path = repo.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, bytes).unwrap();
        };
        let body: String = (1..=30).map(|i| format!("    let v{i} = {i};\n")).collect();
        let lib = format!("fn f() {{\n{body}}}\n");
        git(&["init", "-q"]);
        write("src/lib.rs", lib.as_bytes());
        write("src/a b.rs", b"fn spaced() {}\n");
        write("src/t\u{e9}st.rs", b"fn accented() {}\n");
        write("src/gone.rs", b"fn gone() {}\n");
        write("data.bin", b"\0\x01\x02binary\0");
        write("run.sh", b"true\n");
        write("src/copied.rs", lib.replace("fn f()", "fn g()").as_bytes());
        git(&["add", "-A"]);
        git(&["commit", "-q", "-m", "base"]);
        write(
            "src/lib.rs",
            lib.replace("let v15 = 15;", "let v15 = 16;").as_bytes(),
        );
        git(&["mv", "src/a b.rs", "src/c d.rs"]);
        std::fs::remove_file(repo.join("src/gone.rs")).unwrap();
        write("src/new copy.rs", lib.as_bytes());
        write("data.bin", b"\0\x01\x03binary\0");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(repo.join("run.sh"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        write("empty", b"");
        write("nonl.rs", b"fn nonl() {}");
        write("src/t\u{e9}st.rs", b"fn accented() { 1; }\n");
        git(&["add", "-A"]);
        git(&["commit", "-q", "-m", "pull request"]);
        let dimensions: [&[&[&str]]; 6] = [
            &[
                &[],
                &["--no-renames"],
                &["-C", "--find-copies-harder"],
                &["-M50%"],
            ],
            &[&[], &["--binary"], &["--text"]],
            &[
                &[],
                &["--no-prefix"],
                &["--src-prefix=x/", "--dst-prefix=y/"],
                &["--src-prefix=", "--dst-prefix="],
            ],
            &[&[], &["-U0"], &["-U12"], &["--function-context"]],
            &[&[], &["--patience"], &["--histogram"], &["--minimal"]],
            &[&[], &["--full-index"], &["-R"], &["--ignore-space-change"]],
        ];
        // Each option with the others at their defaults, then combinations of all of them.
        let mut runs: Vec<Vec<&str>> = Vec::new();
        for (d, options) in dimensions.iter().enumerate() {
            for o in options.iter() {
                let mut run = vec![];
                for (e, others) in dimensions.iter().enumerate() {
                    run.extend(if e == d { *o } else { others[0] });
                }
                runs.push(run);
            }
        }
        for k in 0..40usize {
            let mut run = vec![];
            for (d, options) in dimensions.iter().enumerate() {
                run.extend(options[(k * 7 + d * 3 + k / (d + 1)) % options.len()]);
            }
            runs.push(run);
        }
        let mut texts: Vec<(String, Vec<u8>)> = Vec::new();
        for run in &runs {
            let mut args = vec!["diff", "HEAD~1", "HEAD"];
            args.extend(run);
            texts.push((format!("{args:?}"), git(&args)));
        }
        for extra in [
            &["show", "HEAD"][..],
            &["format-patch", "-1", "--stdout", "HEAD"][..],
        ] {
            texts.push((format!("{extra:?}"), git(extra)));
        }
        let functions = [place("f", 1, 32)];
        let files = ["src/lib.rs", "src/c d.rs", "src/new copy.rs"].map(String::from);
        for (what, text) in &texts {
            let c = ChangedLines::parse(text)
                .unwrap_or_else(|e| panic!("{what}: {e:#}\n{}", String::from_utf8_lossy(text)));
            let lib = c
                .files
                .iter()
                .find(|(name, _)| name.ends_with("src/lib.rs"))
                .unwrap_or_else(|| panic!("{what}: {:?}", c.files.keys()));
            assert!(lib.1.contains_key(&16), "{what}: {:?}", lib.1.keys());
            // Deleted and renamed files make every mutant selected: never a panic.
            assert!(matches!(
                c.select(Path::new("/r"), &files, &functions),
                Selection::Everything { .. }
            ));
        }
    }

    fn place(function: &str, first: usize, last: usize) -> ferastrau_mutator::FnPlace {
        ferastrau_mutator::FnPlace {
            function: function.into(),
            name: function.rsplit("::").next().unwrap().into(),
            calls: BTreeSet::new(),
            file: "src/lib.rs".into(),
            first,
            last,
            lines: Vec::new(),
        }
    }

    fn functions(diff: &str, functions: &[ferastrau_mutator::FnPlace]) -> BTreeMap<String, String> {
        let files = ["src/lib.rs".to_string()];
        match ChangedLines::parse(diff)
            .unwrap()
            .select(Path::new("/repo"), &files, functions)
        {
            Selection::Functions(f) => f,
            other => panic!("{other:?}"),
        }
    }

    /// A change to one function selects what it calls and what calls it, transitively
    /// within the mutated functions, and a function a changed line names (a helper whose
    /// call the change removed: inlined, it may now be dead); not the callers of a callee.
    #[test]
    fn a_change_selects_its_callees_its_callers_and_what_it_stopped_calling() {
        let calls = |mut p: ferastrau_mutator::FnPlace, names: &[&str]| {
            p.calls = names.iter().map(|n| n.to_string()).collect();
            p
        };
        // top → mid → leaf; other → leaf; helper called by nobody now; lone alone.
        let fs = [
            calls(place("S::top", 1, 5), &["mid", "self", "x"]),
            calls(place("S::mid", 6, 10), &["leaf"]),
            place("S::leaf", 11, 15),
            calls(place("S::other", 16, 20), &["leaf"]),
            place("S::helper", 21, 25),
            place("S::lone", 26, 30),
        ];
        let got = functions(&hunk("src/lib.rs", 8), &fs);
        let want: BTreeMap<String, String> = [
            ("S::mid", "changed"),
            ("S::leaf", "called by S::mid"),
            ("S::top", "calls S::mid"),
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .into();
        assert_eq!(got, want, "S::other calls S::leaf, a callee: not selected");
        let inlined = "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -3,1 +3,1 @@\n-        self.helper(x)\n+        x + 1\n";
        let got = functions(inlined, &fs);
        assert_eq!(
            got["S::helper"],
            "named by a line the diff changes in S::top"
        );
        assert!(
            got.contains_key("S::leaf") && !got.contains_key("S::lone"),
            "{got:?}"
        );
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
        let changed = |names: &[&str]| {
            Selection::Functions(
                names
                    .iter()
                    .map(|n| (n.to_string(), "changed".to_string()))
                    .collect(),
            )
        };
        assert_eq!(select(&both), changed(&["S::add"]));
        let two = hunk("src/lib.rs", 12) + &hunk("src/lib.rs", 25);
        assert_eq!(select(&two), changed(&["S::add", "S::remove"]));
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
