//! README.md and the book under `docs/` against what they describe.
//!
//! - The README is a front door: at most [`README_LINES`] lines, no measurements (those are
//!   the speed script's, `docs/src/speed.md`), and its quick start is the book's.
//! - Every relative link and `#anchor` of the README, of the book's chapters (`docs/src/`) and of
//!   `reports/*.md` resolves: the file exists, and the anchor is a heading of that file by the
//!   slug rule GitHub and mdBook share. CI cannot install mdBook in its time, so this test is
//!   its link check.
//! - `docs/src/SUMMARY.md` lists every chapter once, under its own title, and nothing else.
//! - Every signature of the `Benchmark` trait (`harness/sdk/src/benchmark.rs`) appears in the
//!   chapter on adding a benchmark as written there.
//!
//! (The book's "Figures" and `reports/index.html`, generated from the committed reproduction,
//! are checked by the paper crate's tests, `harness/paper/tests/integration/readme_figures.rs`:
//! they read the paper's tables. `scripts/speed-figures.sh --check`, which CI runs, checks the
//! speed chapter's figures against what the script measures.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The README's length at most: what it is, install, a quick start, the two commands, a
/// picture of the report, links into the book.
const README_LINES: usize = 250;
/// The book's sources, from the checkout's root.
const BOOK: &str = "docs/src";
/// The chapter that shows the `Benchmark` trait.
const TRAIT_CHAPTER: &str = "docs/src/adding-a-benchmark.md";
/// The chapter that repeats the README's quick start.
const QUICK_START_CHAPTER: &str = "docs/src/quick-start.md";

fn repo() -> PathBuf {
    crate::common::workspace_root()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The lines outside fenced code blocks, with their numbers (from 1).
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push((i + 1, line));
        }
    }
    out
}

/// The headings (`#` to `######`) outside code blocks, with their levels.
fn headings(text: &str) -> Vec<(usize, String)> {
    prose(text)
        .into_iter()
        .filter_map(|(_, line)| {
            let level = line.chars().take_while(|c| *c == '#').count();
            ((1..=6).contains(&level) && line[level..].starts_with(' '))
                .then(|| (level, line[level + 1..].trim().to_string()))
        })
        .collect()
}

/// The anchor of a heading, as GitHub and mdBook make it: lower case, spaces to `-`,
/// punctuation other than `-` and `_` dropped (so `` `code` `` keeps its text).
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Every anchor of a Markdown file: its headings' (a repeated one gets `-1`, `-2`, ... as on
/// GitHub and in mdBook).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for (_, heading) in headings(text) {
        let base = anchor(&heading);
        let n = seen.entry(base.clone()).or_insert(0);
        out.insert(match *n {
            0 => base.clone(),
            k => format!("{base}-{k}"),
        });
        *n += 1;
    }
    out
}

/// A line without its inline code spans (a link inside backticks is no link).
fn without_code(line: &str) -> String {
    let mut out = String::new();
    let mut code = false;
    for c in line.chars() {
        if c == '`' {
            code = !code;
        } else if !code {
            out.push(c);
        }
    }
    out
}

/// The targets of a Markdown file's links and images (`[text](target)`, `![alt](target)`,
/// `[label]: target`), with their line numbers, outside code. A link's text may run over
/// lines: the target is found after `](`, which does not.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in prose(text) {
        let line = without_code(line);
        let mut rest = line.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("");
            out.push((n, target.to_string()));
            rest = &after[end..];
        }
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') {
            if let Some(i) = trimmed.find("]: ") {
                out.push((n, trimmed[i + 3..].trim().to_string()));
            }
        }
    }
    out
}

/// Every Markdown file under `dir`, at any depth.
fn markdown_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files
}

/// The Markdown files whose links must resolve: the README, every file of the book, and the
/// reports' documents at `reports/*.md`.
fn documents() -> Vec<PathBuf> {
    let root = repo();
    let mut files = vec![root.join("README.md")];
    files.extend(markdown_under(&root.join(BOOK)));
    for entry in std::fs::read_dir(root.join("reports")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// Why a link of `from` to `target` does not resolve, if it does not.
fn broken(from: &Path, target: &str) -> Option<String> {
    if target.is_empty() {
        return Some("an empty target".into());
    }
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, fragment) = match target.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (target, None),
    };
    let file = match path {
        "" => from.to_path_buf(),
        p if p.starts_with('/') => {
            return Some("an absolute path (GitHub and mdBook differ)".into())
        }
        p => from.parent().unwrap().join(p),
    };
    if !file.exists() {
        return Some(format!("{} does not exist", file.display()));
    }
    let fragment = fragment?;
    if file.extension().is_none_or(|e| e != "md") {
        return Some(format!(
            "an anchor into {}, which is not Markdown",
            file.display()
        ));
    }
    let known = anchors(&read(&file));
    (!known.contains(fragment)).then(|| {
        format!(
            "no heading of {} has the anchor #{fragment} (it has: {})",
            file.display(),
            known.into_iter().collect::<Vec<_>>().join(", ")
        )
    })
}

#[test]
fn every_link_and_anchor_of_the_readme_the_book_and_the_reports_resolves() {
    let root = repo();
    let mut checked = 0;
    let mut failures = Vec::new();
    for file in documents() {
        for (line, target) in links(&read(&file)) {
            checked += 1;
            if let Some(why) = broken(&file, &target) {
                let shown = file
                    .strip_prefix(&root)
                    .unwrap_or(&file)
                    .display()
                    .to_string();
                failures.push(format!("{shown}:{line}: ({target}): {why}"));
            }
        }
    }
    assert!(
        checked > 100,
        "found only {checked} links: is the parser right?"
    );
    assert!(
        failures.is_empty(),
        "links that do not resolve:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_link_check_finds_a_missing_file_and_a_missing_anchor() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.md");
    std::fs::write(
        &a,
        "# Title\n\n## What `evaluate` prints\n\n## Twice\n\n## Twice\n",
    )
    .unwrap();
    let text =
        "See [b](b.md), [a](a.md#what-evaluate-prints), [it](#twice-1), [no](a.md#nowhere)\n\
                and `[code](nowhere.md)`, and a [text\nover lines](a.md#title).\n\
                ```\n[fenced](nowhere.md)\n```\n[label]: a.md#twice\n";
    std::fs::write(dir.path().join("c.md"), "# C\n").unwrap();
    let from = dir.path().join("c.md");
    let found: Vec<String> = links(text).into_iter().map(|(_, t)| t).collect();
    assert_eq!(
        found,
        [
            "b.md",
            "a.md#what-evaluate-prints",
            "#twice-1",
            "a.md#nowhere",
            "a.md#title",
            "a.md#twice"
        ]
    );
    assert!(broken(&from, "b.md").is_some(), "a missing file");
    assert!(broken(&from, "a.md#nowhere").is_some(), "a missing anchor");
    assert!(broken(&from, "a.md#what-evaluate-prints").is_none());
    assert!(
        broken(&from, "a.md#twice-1").is_none(),
        "a repeated heading"
    );
    assert!(broken(&from, "#c").is_none(), "an anchor of the same file");
    assert!(broken(&from, "https://example.org/x#y").is_none());
}

/// The README of before the book (1,907 lines, a manual and a lab notebook) fails here.
#[test]
fn the_readme_is_a_front_door() {
    let readme = read(&repo().join("README.md"));
    let lines = readme.lines().count();
    assert!(
        lines <= README_LINES,
        "README.md has {lines} lines, more than {README_LINES}: the manual is the book under docs/"
    );
    // No measurements: timings are the speed script's (docs/src/speed.md), report figures the
    // book's generated ones.
    for (n, line) in prose(&readme) {
        let line = without_code(line).to_lowercase();
        let timing = line
            .split_whitespace()
            .collect::<Vec<_>>()
            .windows(2)
            .any(|w| {
                w[0].trim_start_matches(['(', '~'])
                    .replace(',', "")
                    .parse::<f64>()
                    .is_ok()
                    && [
                        "s", "s,", "s;", "s)", "ms", "min", "minutes", "cpu-s", "seconds",
                    ]
                    .contains(&w[1])
            });
        assert!(
            !timing && !line.contains("load average"),
            "README.md:{n} gives a measurement, which belongs in docs/src/speed.md: {line}"
        );
    }
    // It links into the book.
    let targets: Vec<String> = links(&readme).into_iter().map(|(_, t)| t).collect();
    for chapter in [
        "quick-start.md",
        "adding-a-benchmark.md",
        "gate.md",
        "reports.md",
        "speed.md",
    ] {
        assert!(
            targets
                .iter()
                .any(|t| t.starts_with(&format!("{BOOK}/{chapter}"))),
            "README.md does not link {BOOK}/{chapter}"
        );
    }
}

/// The sh block after the install-test marker (the lines scripts/install-test.sh runs).
fn quick_start(text: &str) -> Vec<&str> {
    text.lines()
        .skip_while(|l| !l.starts_with("<!-- install-test"))
        .skip_while(|l| !l.starts_with("```sh"))
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .collect()
}

#[test]
fn the_book_s_quick_start_is_the_readme_s() {
    let readme = read(&repo().join("README.md"));
    let block = quick_start(&readme);
    assert!(
        block
            .first()
            .is_some_and(|l| l.starts_with("cargo install ")),
        "README.md's quick start after its install-test marker: {block:?}"
    );
    let chapter = read(&repo().join(QUICK_START_CHAPTER));
    let fenced = format!("```sh\n{}\n```\n", block.join("\n"));
    assert!(
        chapter.contains(&fenced),
        "{QUICK_START_CHAPTER} does not repeat README.md's quick start as it is:\n{fenced}"
    );
}

#[test]
fn the_summary_lists_every_chapter_once_under_its_title() {
    let book = repo().join(BOOK);
    let summary = read(&book.join("SUMMARY.md"));
    let mut listed = Vec::new();
    for (_, line) in prose(&summary) {
        let line = line.trim_start().trim_start_matches("- ");
        let (Some(open), Some(mid)) = (line.find('['), line.find("](")) else {
            continue;
        };
        let title = &line[open + 1..mid];
        let target = &line[mid + 2..line.rfind(')').expect("a link ends")];
        let chapter = read(&book.join(target));
        let first = headings(&chapter)
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("{target} has no heading"));
        assert_eq!(
            first,
            (1, title.to_string()),
            "{target}: its first heading is its title in SUMMARY.md"
        );
        listed.push(target.to_string());
    }
    let mut files: Vec<String> = markdown_under(&book)
        .iter()
        .map(|path| {
            path.strip_prefix(&book)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|relative| relative != "SUMMARY.md")
        .collect();
    files.sort();
    let mut sorted = listed.clone();
    sorted.sort();
    let mut unique = sorted.clone();
    unique.dedup();
    assert_eq!(sorted, unique, "SUMMARY.md lists a chapter twice");
    assert_eq!(
        sorted, files,
        "SUMMARY.md lists exactly the chapters under {BOOK}"
    );
}

/// Whitespace collapsed to single spaces.
fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_book_shows_every_signature_of_the_benchmark_trait() {
    let source = read(&repo().join("harness/sdk/src/benchmark.rs"));
    let start = source
        .find("pub trait Benchmark")
        .expect("the trait is in benchmark.rs");
    let end = start + source[start..].find("\n}\n").expect("the trait ends");
    // The trait's code without comments, as one line.
    let code: String = source[start..end]
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let code = squeeze(&code);
    // Each `fn …` or `type …` item up to its body or `;`.
    let mut signatures = Vec::new();
    for piece in code.split(" fn ").skip(1) {
        let end = piece.find([';', '{']).expect("a signature ends");
        signatures.push(format!("fn {}", piece[..end].trim()));
    }
    for piece in code.split(" type ").skip(1) {
        let end = piece.find(';').expect("an associated type ends");
        signatures.push(format!("type {}", piece[..end].trim()));
    }
    assert!(signatures.len() >= 16, "parsed the trait: {signatures:?}");
    let chapter = squeeze(&read(&repo().join(TRAIT_CHAPTER)));
    let missing: Vec<&String> = signatures
        .iter()
        .filter(|s| !chapter.contains(s.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "{TRAIT_CHAPTER} lacks these signatures of harness/sdk/src/benchmark.rs, as written there: {missing:#?}"
    );
}
