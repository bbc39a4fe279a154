//! `EQUIVALENT.md`: a hand-argued list of the mutants that survive a run at its largest scope,
//! placed beside the run's reports (the committed `reports/<benchmark>/EQUIVALENT.md`). The
//! page shows each survivor's verdict and argument from it; the tests that keep the committed
//! documents current (`equivalent.rs`) parse them with the same [`parse`].
//!
//! A document is a hand-written head (title, what the outputs are, how the run was made)
//! followed by a generated part: `## Summary` (the kill rates of the largest scope and a count
//! of verdicts) and `## Survivors`, one entry per surviving mutant: a `### ` heading, its
//! content key on a line `` Key: `…` `` (the stable identity: ids move when the source
//! changes), optionally a line saying what scope + 1 did, a ```` ```diff ```` block, and after
//! it the argument, which starts with a bold verdict (`**Equivalent.** …`). An entry a user
//! writes by hand may leave the diff out: its argument then follows the key line. A user's
//! crate keeps its document in the crate's directory; the page reads the one beside the
//! reports first, then the crate's.

use std::path::Path;

use anyhow::{bail, Context, Result};

/// The document's name in a report directory.
pub const FILE: &str = "EQUIVALENT.md";
/// The argument a new survivor gets until a person writes one: it has no verdict.
pub const PLACEHOLDER: &str = "**TODO.** Argue why this mutant survives.";
pub const SUMMARY: &str = "## Summary";
pub const SURVIVORS: &str = "## Survivors";
pub const KEY_PREFIX: &str = "Key: `";

/// What an argument concludes about its mutant, the bold first words of the argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Conclusion {
    /// No input of any scope can tell the mutant from the original.
    Equivalent,
    /// No input the finitization can produce tells them apart (e.g. argument domains).
    EquivalentOnInputs,
    /// The mutant computes something else, but nothing the oracle compares shows it.
    NotEquivalentUnobservable,
    /// A larger scope (or another input domain) kills it; the argument says which.
    NotEquivalent,
}

impl Conclusion {
    pub const ALL: [Conclusion; 4] = [
        Conclusion::Equivalent,
        Conclusion::EquivalentOnInputs,
        Conclusion::NotEquivalentUnobservable,
        Conclusion::NotEquivalent,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Conclusion::Equivalent => "Equivalent",
            Conclusion::EquivalentOnInputs => "Equivalent on the inputs",
            Conclusion::NotEquivalentUnobservable => "Not equivalent, unobservable",
            Conclusion::NotEquivalent => "Not equivalent",
        }
    }

    /// The page's class name: `equivalent`, `equivalent-on-inputs`, ...
    pub fn class(self) -> &'static str {
        match self {
            Conclusion::Equivalent => "equivalent",
            Conclusion::EquivalentOnInputs => "equivalent-on-inputs",
            Conclusion::NotEquivalentUnobservable => "not-equivalent-unobservable",
            Conclusion::NotEquivalent => "not-equivalent",
        }
    }

    /// The verdict an argument starts with (`**Equivalent.** …`), if any.
    pub fn of(argument: &str) -> Option<Conclusion> {
        let rest = argument.strip_prefix("**")?;
        let (label, after) = rest.split_once(".**")?;
        if after.trim().is_empty() {
            return None; // a verdict with no argument
        }
        Conclusion::ALL.into_iter().find(|v| v.label() == label)
    }

    /// The argument without its bold verdict.
    pub fn strip(argument: &str) -> &str {
        match Conclusion::of(argument) {
            Some(v) => argument[v.label().len() + 5..].trim_start(),
            None => argument,
        }
    }
}

/// A parsed document: its hand-written head and arguments by key, in document order.
#[derive(Clone, Debug, Default)]
pub struct Doc {
    pub head: String,
    pub arguments: Vec<(String, String)>,
}

impl Doc {
    /// The argument of the entry for `key`, if the document has one.
    pub fn argument(&self, key: &str) -> Option<&str> {
        self.arguments
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, a)| a.as_str())
    }
}

/// Parses a document's text.
pub fn parse(text: &str) -> Result<Doc> {
    let (head, generated) = match text.find(&format!("\n{SUMMARY}\n")) {
        Some(i) => (&text[..i + 1], &text[i + 1..]),
        None => bail!("no `{SUMMARY}` section"),
    };
    let Some(body) = generated.split_once(&format!("\n{SURVIVORS}\n")) else {
        bail!("no `{SURVIVORS}` section");
    };
    let mut arguments = Vec::new();
    for entry in body.1.split("\n### ").skip(1) {
        let key = entry
            .lines()
            .find_map(|l| l.strip_prefix(KEY_PREFIX)?.strip_suffix('`'))
            .with_context(|| format!("entry `### {}` has no key line", first_line(entry)))?;
        // The argument is what follows the diff block, or, in an entry written by hand
        // without one, what follows the key line.
        let argument = match entry.split_once("\n```diff\n") {
            Some((_, diff)) => diff
                .split_once("\n```\n")
                .map(|(_, rest)| rest.trim().to_string())
                .with_context(|| format!("entry `{key}`: its diff block is not closed"))?,
            None => entry
                .split_once(&format!("{KEY_PREFIX}{key}`"))
                .map_or("", |(_, rest)| rest)
                .trim()
                .to_string(),
        };
        arguments.push((key.to_string(), argument));
    }
    Ok(Doc {
        head: head.to_string(),
        arguments,
    })
}

/// The document in report directory `dir`, if there is one; a document that does not parse
/// is an error naming it.
pub fn read(dir: &Path) -> Result<Option<Doc>> {
    let path = dir.join(FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    parse(&text)
        .map(Some)
        .with_context(|| format!("{} does not parse", path.display()))
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "# X: the mutants alive at scope 2\n\nHow.\n\n## Summary\n\nfigures\n\n\
        ## Survivors\n\n### 3 · `f` 1:2 · operator: `<` → `<=`\n\nKey: `f operator: < -> <= #0`\n\n\
        Scope 3: survives s+1.\n\n```diff\n-a < b\n+a <= b\n```\n\n**Equivalent.** `a` is never `b`.\n\n\
        ### 4 · `f` 1:4 · constant: `0` → `1`\n\nKey: `f constant: 0 -> 1 #0`\n\n```diff\n-0\n+1\n```\n\n\
        **TODO.** Argue why this mutant survives.\n";

    #[test]
    fn entries_are_read_by_key_with_their_verdicts() {
        let doc = parse(DOC).unwrap();
        assert_eq!(doc.head, "# X: the mutants alive at scope 2\n\nHow.\n\n");
        let a = doc.argument("f operator: < -> <= #0").unwrap();
        assert_eq!(a, "**Equivalent.** `a` is never `b`.");
        assert_eq!(Conclusion::of(a), Some(Conclusion::Equivalent));
        assert_eq!(Conclusion::strip(a), "`a` is never `b`.");
        assert_eq!(doc.argument("f constant: 0 -> 1 #0"), Some(PLACEHOLDER));
        assert_eq!(Conclusion::of(PLACEHOLDER), None);
        assert_eq!(doc.argument("g"), None);
        assert!(parse("# no summary\n").is_err());
        let no_key = DOC.replace("Key: `f constant", "Kez: `f constant");
        assert!(parse(&no_key)
            .unwrap_err()
            .to_string()
            .contains("no key line"));
        // An entry written by hand, without a diff: the argument follows the key.
        let by_hand = "# mine\n\n## Summary\n\n## Survivors\n\n### insert's `<`\n\n\
                       Key: `S::insert operator: < -> <= #0`\n\n**Equivalent.** Never equal.\n";
        let doc = parse(by_hand).unwrap();
        assert_eq!(
            doc.argument("S::insert operator: < -> <= #0"),
            Some("**Equivalent.** Never equal.")
        );
        let unclosed = DOC.replace("+1\n```\n", "+1\n");
        assert!(parse(&unclosed).is_err());
    }
}
