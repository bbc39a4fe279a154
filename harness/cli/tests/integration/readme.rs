//! README.md against what it describes.
//!
//! - Its table of contents lists exactly its `##` and `###` headings, in order, and "Adding a
//!   benchmark" starts in the first third of its lines (a newcomer's path: the two commands,
//!   then a benchmark of their own).
//! - Every signature of the `Benchmark` trait (`harness/sdk/src/benchmark.rs`) appears in it
//!   as written there.
//!
//! (Its "Figures", generated from the committed reproduction, are checked by the paper crate's
//! tests, `harness/paper/tests/integration/readme_figures.rs`: they read the paper's tables.)

use std::path::PathBuf;

fn repo() -> PathBuf {
    crate::common::workspace_root()
}

/// The `## ` and `### ` headings outside code blocks, with their line numbers (from 1).
fn headings(readme: &str) -> Vec<(usize, usize, String)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            let level = line.chars().take_while(|c| *c == '#').count();
            if (2..=3).contains(&level) && line[level..].starts_with(' ') {
                out.push((i + 1, level, line[level + 1..].trim().to_string()));
            }
        }
    }
    out
}

/// GitHub's anchor of a heading: lower case, spaces to `-`, punctuation other than `-` and `_`
/// dropped.
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

#[test]
fn the_table_of_contents_lists_every_heading_and_a_benchmark_comes_early() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let all = headings(&readme);
    let contents = all
        .iter()
        .position(|(_, _, h)| h == "Contents")
        .expect("README.md has a `## Contents` section");
    let want: Vec<String> = all[contents + 1..]
        .iter()
        .map(|(_, level, h)| {
            let indent = if *level == 3 { "  " } else { "" };
            format!("{indent}- [{h}](#{})", anchor(h))
        })
        .collect();
    let start = all[contents].0; // the line after the heading, counted from 0
    let got: Vec<String> = readme
        .lines()
        .skip(start)
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect();
    assert_eq!(
        got, want,
        "## Contents lists every ## and ### heading after it, in order"
    );

    let lines = readme.lines().count();
    let (line, _, _) = all
        .iter()
        .find(|(_, level, h)| *level == 2 && h == "Adding a benchmark")
        .expect("README.md has `## Adding a benchmark`");
    assert!(
        *line * 3 <= lines,
        "\"Adding a benchmark\" starts at line {line} of {lines}: not in the first third"
    );
}

/// Whitespace collapsed to single spaces.
fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_readme_shows_every_signature_of_the_benchmark_trait() {
    let source = std::fs::read_to_string(repo().join("harness/sdk/src/benchmark.rs")).unwrap();
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
    let readme = squeeze(&std::fs::read_to_string(repo().join("README.md")).unwrap());
    let missing: Vec<&String> = signatures
        .iter()
        .filter(|s| !readme.contains(s.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "README.md lacks these signatures of harness/sdk/src/benchmark.rs, as written there: {missing:#?}"
    );
}
