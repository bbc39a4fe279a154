//! Where the crate's mutated functions lie, line by line: what a pull request's diff is placed
//! against (`--in-diff`), and what a gate baseline keeps of each function so that its mutants
//! are recognised after the code around them moved.

use std::path::Path;

use anyhow::Result;
use syn::spanned::Spanned;

use crate::items::{each_fn_mut, load_declared, Role};

/// One mutated function: its name as the catalog gives it (`Type::method`), its file
/// (relative to the crate, `/`-separated) and its lines, from its first attribute or doc
/// comment to its closing brace (1-based, inclusive), with their text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnPlace {
    pub function: String,
    pub file: String,
    pub first: usize,
    pub last: usize,
    /// The text of lines `first..=last`.
    pub lines: Vec<String>,
}

impl FnPlace {
    /// Whether 1-based `line` of `file` lies in the function.
    pub fn holds(&self, file: &str, line: usize) -> bool {
        self.file == file && (self.first..=self.last).contains(&line)
    }
}

/// Every function of the crate's `mutate` list (its code under test and helpers), in source
/// order. Functions of the specification and undeclared ones are not listed: a change to them
/// changes what every mutant is judged by.
pub fn mutated_functions(crate_dir: &Path) -> Result<Vec<FnPlace>> {
    let (sources, selection) = load_declared(crate_dir)?;
    let mut out = Vec::new();
    for file in &sources.files {
        let text: Vec<&str> = file.text.lines().collect();
        let mut items = file.ast.items.clone();
        each_fn_mut(&mut items, &file.module, &mut |site, parts| {
            if selection.role(site) != Some(Role::Code) {
                return;
            }
            let sig = parts.sig.span().start().line;
            let first = parts
                .attrs
                .iter()
                .map(|a| a.pound_token.span.start().line)
                .chain([sig])
                .min()
                .unwrap_or(sig);
            let last = parts.block.brace_token.span.close().end().line;
            out.push(FnPlace {
                function: site.display(),
                file: file.rel.clone(),
                first,
                last,
                lines: text
                    .get(first.saturating_sub(1)..last.min(text.len()))
                    .unwrap_or_default()
                    .iter()
                    .map(|l| l.to_string())
                    .collect(),
            });
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_function_spans_its_doc_comment_signature_and_body() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(
            dir.path().join("Cargo.toml"),
            "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [package.metadata.ferastrau]\nmutate = [\"S::add\"]\nspecification = [\"ok\"]\n",
        )
        .unwrap();
        let src = "pub struct S;\n\
                   impl S {\n\
                   \x20   /// Adds.\n\
                   \x20   pub fn add(&self, x: i32) -> i32 {\n\
                   \x20       x + 1\n\
                   \x20   }\n\
                   }\n\
                   pub fn ok() -> bool {\n\
                   \x20   true\n\
                   }\n";
        std::fs::write(dir.path().join("src/lib.rs"), src).unwrap();
        let places = mutated_functions(dir.path()).unwrap();
        assert_eq!(places.len(), 1, "the specification is not listed");
        let p = &places[0];
        assert_eq!(
            (p.function.as_str(), p.file.as_str()),
            ("S::add", "src/lib.rs")
        );
        assert_eq!((p.first, p.last), (3, 6));
        assert_eq!(p.lines[0].trim(), "/// Adds.");
        assert_eq!(p.lines[3].trim(), "}");
        assert!(p.holds("src/lib.rs", 5) && !p.holds("src/lib.rs", 7));
    }
}
