//! A crate's sources: the module tree from the library root, parsed with syn, test code
//! left out.
//!
//! Walking the module tree (rather than globbing `src/**/*.rs`) is what tells a file that
//! belongs to a `#[cfg(test)] mod tests;` apart from the code under test, and gives every
//! function its module path.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context, Result};
use syn::punctuated::Punctuated;
use syn::{Attribute, Item, Meta, Token};

/// One parsed source file of the crate.
pub struct SourceFile {
    /// Path relative to the crate directory, with `/` separators: `src/tree.rs`.
    pub rel: String,
    pub text: String,
    pub ast: syn::File,
    /// Module path of the file from the crate root (empty for the root).
    pub module: Vec<String>,
}

/// Every non-test source file of a library crate, in module-tree order.
pub struct Sources {
    pub files: Vec<SourceFile>,
}

impl Sources {
    /// Reads the module tree rooted at `lib` (relative to `crate_dir`).
    pub fn load(crate_dir: &Path, lib: &str) -> Result<Sources> {
        let mut files = Vec::new();
        let root = crate_dir.join(lib);
        let dir = root.parent().map(Path::to_path_buf).unwrap_or_default();
        load_file(crate_dir, &root, Vec::new(), dir, &mut files)?;
        Ok(Sources { files })
    }
}

/// Parses Rust source, turning a syntax error into `file:line:column: message`.
pub fn parse(rel: &str, text: &str) -> Result<syn::File> {
    syn::parse_file(text).map_err(|e| {
        let at = e.span().start();
        anyhow!("{rel}:{}:{}: cannot parse: {e}", at.line, at.column + 1)
    })
}

fn load_file(
    crate_dir: &Path,
    path: &Path,
    module: Vec<String>,
    child_dir: PathBuf,
    out: &mut Vec<SourceFile>,
) -> Result<()> {
    let rel = path
        .strip_prefix(crate_dir)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/");
    if out.iter().any(|f| f.rel == rel) {
        return Ok(()); // the same file reached twice through `#[path]`
    }
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let ast = parse(&rel, &text)?;
    let children = out_of_line_modules(&ast.items, &module, &child_dir, path);
    out.push(SourceFile {
        rel,
        text,
        ast,
        module,
    });
    for (module, file, dir) in children {
        load_file(crate_dir, &file, module, dir, out)?;
    }
    Ok(())
}

/// The `mod name;` declarations among `items` (and inside their inline modules): each
/// module's path, file, and the directory of its own children.
fn out_of_line_modules(
    items: &[Item],
    module: &[String],
    dir: &Path,
    current: &Path,
) -> Vec<(Vec<String>, PathBuf, PathBuf)> {
    let mut found = Vec::new();
    for item in items {
        let Item::Mod(m) = item else { continue };
        if !present_outside_tests(&m.attrs) {
            continue;
        }
        let name = m.ident.to_string();
        let mut path = module.to_vec();
        path.push(name.clone());
        match &m.content {
            Some((_, inner)) => {
                found.extend(out_of_line_modules(inner, &path, &dir.join(&name), current))
            }
            None => {
                let explicit = path_attr(&m.attrs).map(|p| {
                    current
                        .parent()
                        .map(|d| d.join(&p))
                        .unwrap_or_else(|| PathBuf::from(&p))
                });
                let file = explicit.unwrap_or_else(|| {
                    let flat = dir.join(format!("{name}.rs"));
                    if flat.exists() {
                        flat
                    } else {
                        dir.join(&name).join("mod.rs")
                    }
                });
                let child_dir = if file.file_name().is_some_and(|f| f == "mod.rs") {
                    file.parent().map(Path::to_path_buf).unwrap_or_default()
                } else {
                    dir.join(&name)
                };
                found.push((path, file, child_dir));
            }
        }
    }
    found
}

fn path_attr(attrs: &[Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

/// Whether an item with these attributes exists in a non-test build: false for `#[test]`
/// functions and for items under a `cfg` that needs `test` (`cfg(test)`, `cfg(all(test, …))`).
/// Other `cfg` predicates are assumed true.
pub fn present_outside_tests(attrs: &[Attribute]) -> bool {
    attrs.iter().all(|a| {
        let path = a.path();
        if path.segments.last().is_some_and(|s| s.ident == "test") {
            return false;
        }
        if !path.is_ident("cfg") {
            return true;
        }
        a.parse_args::<Meta>()
            .map(|m| cfg_holds(&m))
            .unwrap_or(true)
    })
}

fn cfg_holds(meta: &Meta) -> bool {
    let nested = |l: &syn::MetaList| {
        l.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
            .map(|p| p.into_iter().collect::<Vec<_>>())
            .unwrap_or_default()
    };
    match meta {
        Meta::Path(p) => !p.is_ident("test"),
        Meta::List(l) if l.path.is_ident("not") => !nested(l).iter().all(cfg_holds),
        Meta::List(l) if l.path.is_ident("all") => nested(l).iter().all(cfg_holds),
        Meta::List(l) if l.path.is_ident("any") => nested(l).iter().any(cfg_holds),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs(src: &str) -> Vec<Attribute> {
        let f: syn::ItemFn = syn::parse_str(&format!("{src} fn f() {{}}")).unwrap();
        f.attrs
    }

    #[test]
    fn test_only_items() {
        assert!(!present_outside_tests(&attrs("#[cfg(test)]")));
        assert!(!present_outside_tests(&attrs("#[test]")));
        assert!(!present_outside_tests(&attrs("#[cfg(all(test, unix))]")));
        assert!(present_outside_tests(&attrs("#[cfg(not(test))]")));
        assert!(present_outside_tests(&attrs("#[cfg(any(test, unix))]")));
        assert!(present_outside_tests(&attrs(
            "#[inline] #[cfg(feature = \"x\")]"
        )));
    }

    #[test]
    fn syntax_errors_name_the_place() {
        let e = parse("src/bad.rs", "fn f() {\n    let x = ;\n}\n").unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("src/bad.rs:2:"), "{msg}");
    }
}
