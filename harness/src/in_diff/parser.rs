//! Reading a unified diff. The parser is `--in-diff`'s own, over bytes, because what it reads
//! decides what a gate compares: it reads every form `git diff` writes (extended headers: modes,
//! new and deleted files, renames and copies, similarity and index lines; `Binary files ... differ`
//! and `GIT binary patch`; `\ No newline at end of file`; C-quoted paths, whose bytes need not be
//! UTF-8; a tab after a path with a space; contents in any encoding) and GNU `diff -u`/`-ruN`
//! output, counting each hunk's lines by its header as `git apply` does. Anything else is refused
//! with the line it stopped at, never skipped: a word diff, a coloured diff, text after the diff or
//! a truncated hunk, read leniently, would evaluate less than the change touched and pass a gate it
//! should fail (the `patch` crate used before panicked on some of them and skipped others). Text
//! before the first file (`git show`'s commit header, `--stat`) is skipped, and so is `git
//! format-patch`'s signature with what follows it up to the next patch's diff.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use ferastrau_console::exit_code::usage;

use super::ChangedLines;

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
pub(super) fn path(bytes: &[u8]) -> PathBuf {
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
