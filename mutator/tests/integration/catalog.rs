//! The mutant catalog on small crates written inline: each family of operators, stable ids,
//! test code and specification left alone, clear errors, diffs, sampling, JSON and table.

use ferastrau_mutator::{
    diff, discover, mutated_source, sample, single_mutant_crate, Catalog, Family, Mutant,
};
use tempfile::TempDir;

use crate::common::{changes, krate, syn_check};

const TREE: &str = r#"
pub type NodeId = usize;

#[derive(Clone, Copy)]
pub struct Node {
    pub left: Option<NodeId>,
    pub right: Option<NodeId>,
    pub key: i64,
    pub weight: i64,
}

pub struct Tree {
    pub root: Option<NodeId>,
    pub size: i64,
    pub nodes: Vec<Node>,
}

pub fn compare(a: i64, b: i64) -> i64 {
    a - b
}

pub fn other_compare(a: i64, b: i64) -> i64 {
    b - a
}

impl Tree {
    pub fn node(&self, n: Option<NodeId>) -> &Node {
        &self.nodes[n.unwrap()]
    }

    pub fn rotate_left(&mut self, n: Option<NodeId>) -> Option<NodeId> {
        n
    }

    pub fn rotate_right(&mut self, n: Option<NodeId>) -> Option<NodeId> {
        n
    }

    pub fn find(&self, key: i64) -> Option<NodeId> {
        let mut current = self.root;
        while current != None {
            let c = compare(key, self.node(current).key);
            if c < 0 && key > 0 {
                current = self.node(current).left;
            } else {
                current = self.node(current).right;
            }
        }
        current
    }

    pub fn balance(&mut self, n: Option<NodeId>) -> Option<NodeId> {
        self.size += 1;
        if self.root == n {
            return n;
        }
        self.rotate_left(n)
    }

    pub fn rep_ok(&self) -> bool {
        self.size >= 0 && self.root != None
    }
}

#[cfg(test)]
mod tests {
    impl super::Tree {
        pub fn test_helper(&self, a: i64) -> bool {
            a < 3
        }
    }

    #[test]
    fn t() {
        assert!(1 + 1 == 2);
    }
}
"#;

fn tree_catalog() -> (TempDir, Catalog) {
    let dir = krate(TREE, &["Tree::find", "Tree::balance"], &["Tree::rep_ok"]);
    let c = discover(dir.path()).unwrap();
    (dir, c)
}

#[test]
fn every_family_of_operators() {
    let dir = krate(
        TREE,
        &["Tree::find", "Tree::balance", "compare"],
        &["Tree::rep_ok"],
    );
    let c = discover(dir.path()).unwrap();
    let ops = changes(&c, Family::Operator);
    // Relational on integers: all the others; on Option: only the equality swap.
    for want in [
        "< -> <=", "< -> >", "< -> >=", "< -> ==", "< -> !=", "!= -> ==",
    ] {
        assert!(
            ops.contains(&want.to_string()),
            "{want} missing from {ops:?}"
        );
    }
    assert!(
        !ops.contains(&"!= -> <".to_string()),
        "Option is only compared for equality"
    );
    for want in ["&& -> ||", "+= -> -=", "- -> +", "- -> *"] {
        assert!(
            ops.contains(&want.to_string()),
            "{want} missing from {ops:?}"
        );
    }
    // `self.size += 1` is Java's `size++`: its operator becomes `-=` only, and its `1` is no
    // constant to mutate.
    assert!(!ops.contains(&"+= -> %=".to_string()), "{ops:?}");
    let increment = TREE
        .lines()
        .position(|l| l.contains("self.size += 1"))
        .unwrap()
        + 1;
    let at_increment: Vec<String> = c
        .mutants
        .iter()
        .filter(|m| m.line == increment)
        .map(|m| format!("{:?} {} -> {}", m.family, m.original, m.replacement))
        .collect();
    assert!(
        at_increment
            .iter()
            .all(|m| m == "Operator += -> -=" || m.starts_with("Variable ")),
        "{at_increment:?}"
    );
    assert!(at_increment.contains(&"Operator += -> -=".to_string()));
    let vars = changes(&c, Family::Variable);
    for want in [
        "left -> right",
        "right -> left",
        "current -> self.root",
        "self.root -> n",
        "n -> self.root",
        "key -> c",
        "c -> key",
        "key -> self.size",
    ] {
        assert!(
            vars.contains(&want.to_string()),
            "{want} missing from {vars:?}"
        );
    }
    // Same-type fields only: `key` and `weight` are both i64, `left` is not.
    assert!(vars.contains(&"key -> weight".to_string()));
    assert!(!vars.iter().any(|v| v == "key -> left" || v == "n -> key"));
    let calls = changes(&c, Family::Call);
    assert!(
        calls.contains(&"compare -> other_compare".to_string()),
        "{calls:?}"
    );
    assert!(
        calls.contains(&"rotate_left -> rotate_right".to_string()),
        "{calls:?}"
    );
    // `node` has no compatible sibling; `unwrap` is special.
    assert!(!calls
        .iter()
        .any(|c| c.starts_with("node") || c.starts_with("unwrap")));
    // Every mutant is located on its own text.
    let text = std::fs::read_to_string(dir.path().join("src/lib.rs")).unwrap();
    for m in &c.mutants {
        let line = text.lines().nth(m.line - 1).unwrap();
        let at: String = line.chars().skip(m.column - 1).collect();
        let original = m.original.trim_start_matches("self.");
        assert!(
            at.starts_with(&m.original) || at.starts_with(original) || at.starts_with("self."),
            "mutant {} {:?} not at {}:{} ({line:?})",
            m.id,
            m.original,
            m.line,
            m.column
        );
    }
}

#[test]
fn ids_are_stable_and_dense() {
    let (dir, a) = tree_catalog();
    let b = discover(dir.path()).unwrap();
    assert_eq!(a, b, "the same source gives the same catalog");
    let ids: Vec<u32> = a.mutants.iter().map(|m| m.id).collect();
    assert_eq!(ids, (1..=a.mutants.len() as u32).collect::<Vec<_>>());
    // A change inside one function leaves the ids of the functions before it alone.
    let path = dir.path().join("src/lib.rs");
    let changed = TREE.replace(
        "self.size += 1;",
        "self.size += 1;\n        self.size -= 2;",
    );
    std::fs::write(&path, changed).unwrap();
    let c = discover(dir.path()).unwrap();
    let find_a: Vec<&Mutant> = a
        .mutants
        .iter()
        .filter(|m| m.function == "Tree::find")
        .collect();
    let find_c: Vec<&Mutant> = c
        .mutants
        .iter()
        .filter(|m| m.function == "Tree::find")
        .collect();
    assert_eq!(find_a, find_c);
    assert!(c.mutants.len() > a.mutants.len());
}

#[test]
fn test_code_and_specification_are_never_mutated() {
    // `Tree::test_helper` only exists under cfg(test): naming it is an error.
    let dir = krate(TREE, &["Tree::find", "Tree::test_helper"], &[]);
    let e = format!("{:#}", discover(dir.path()).unwrap_err());
    assert!(e.contains("no function `Tree::test_helper`"), "{e}");
    let dir = krate(TREE, &["Tree::find", "Tree::balance"], &["Tree::rep_ok"]);
    let c = discover(dir.path()).unwrap();
    let test_line = TREE.lines().position(|l| l.contains("mod tests")).unwrap() + 1;
    assert!(c.mutants.iter().all(|m| m.line < test_line));
    assert!(c.mutants.iter().all(|m| m.function != "Tree::rep_ok"));
}

#[test]
fn a_misspelt_function_is_a_clear_error() {
    let dir = krate(TREE, &["Tree::fnd"], &[]);
    let e = format!("{:#}", discover(dir.path()).unwrap_err());
    assert!(e.contains("no function `Tree::fnd`"), "{e}");
    assert!(e.contains("did you mean `Tree::find`"), "{e}");
    assert!(
        e.contains("Tree::rotate_left") && e.contains("compare"),
        "{e}"
    );
    assert!(e.contains("inline_bench"), "names the crate: {e}");
    let dir = krate(TREE, &["Tree::find"], &["Tree::find"]);
    let e = format!("{:#}", discover(dir.path()).unwrap_err());
    assert!(e.contains("both"), "{e}");
}

#[test]
fn an_unparseable_source_is_an_error_with_its_place() {
    let dir = krate("pub mod inner;\npub fn f() {}\n", &["f"], &[]);
    std::fs::write(
        dir.path().join("src/inner.rs"),
        "pub fn g(x: u32) -> u32 {\n    x +\n}\n",
    )
    .unwrap();
    let e = format!("{:#}", discover(dir.path()).unwrap_err());
    assert!(e.contains("src/inner.rs:3:"), "{e}");
    assert!(e.contains("inline_bench"), "{e}");
}

#[test]
fn diffs_show_the_annotated_form_and_keep_precedence() {
    let dir = krate(
        "pub fn f(a: i64, b: i64, c: i64) -> i64 {\n    let t = a - b + c;\n    t\n}\n",
        &["f"],
        &[],
    );
    let c = discover(dir.path()).unwrap();
    let plus_to_times = c
        .mutants
        .iter()
        .find(|m| m.original == "+" && m.replacement == "*")
        .unwrap();
    let d = diff(dir.path(), plus_to_times).unwrap();
    assert!(d.starts_with("--- a/src/lib.rs\n+++ b/src/lib.rs\n"), "{d}");
    assert!(d.contains("-    let t = a - b + c;\n"), "{d}");
    assert!(d.contains("+    let t = ((a - b) */*+*/ c);\n"), "{d}");
    let var = c
        .mutants
        .iter()
        .find(|m| m.original == "b" && m.replacement == "c")
        .unwrap();
    let (_, text) = mutated_source(dir.path(), var).unwrap();
    assert!(text.contains("let t = a - c/*b*/ + c;"), "{text}");

    let out = tempfile::tempdir().unwrap();
    let single = single_mutant_crate(dir.path(), plus_to_times, &out.path().join("m")).unwrap();
    let lib = std::fs::read_to_string(single.join("src/lib.rs")).unwrap();
    assert!(lib.contains("((a - b) */*+*/ c)"));
    syn_check(&lib);
    let manifest = std::fs::read_to_string(single.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("[workspace]"));

    // A source that changed since the catalog was made is refused.
    std::fs::write(dir.path().join("src/lib.rs"), "pub fn f() {}\n").unwrap();
    assert!(diff(dir.path(), plus_to_times).is_err());
}
#[test]
fn samples_are_deterministic_and_stratified() {
    let (_dir, c) = tree_catalog();
    let a = sample(&c, 10, 7);
    assert_eq!(a, sample(&c, 10, 7));
    assert_eq!(a.mutants.len(), 10);
    assert_ne!(a, sample(&c, 10, 8), "another seed, another sample");
    for f in Family::ALL {
        assert!(a.mutants.iter().any(|m| m.family == f), "{f:?} represented");
    }
    assert_eq!(sample(&c, 10_000, 1).mutants.len(), c.mutants.len());
}

#[test]
fn the_catalog_as_json_and_as_a_table() {
    let (_dir, c) = tree_catalog();
    let doc: serde_json::Value = serde_json::from_str(&c.to_json()).unwrap();
    assert_eq!(doc["crate"], "inline_bench");
    assert_eq!(doc["pruned"], false);
    let mutants = doc["mutants"].as_array().unwrap();
    assert_eq!(mutants.len(), c.mutants.len());
    for key in [
        "id",
        "family",
        "function",
        "file",
        "line",
        "column",
        "original",
        "replacement",
        "viable",
    ] {
        assert!(mutants[0].get(key).is_some(), "{key}");
    }
    assert!(mutants[0]["viable"].is_null(), "unknown before pruning");
    assert!(mutants.iter().all(|m| Family::ALL
        .iter()
        .any(|f| f.as_str() == m["family"].as_str().unwrap())));
    assert_eq!(
        doc["counts"]["all"]["total"].as_u64(),
        Some(c.mutants.len() as u64)
    );
    let table = c.table();
    assert_eq!(table.lines().count(), c.mutants.len() + 2);
    assert!(table.contains("src/lib.rs:") && table.contains(" → "));
}

/// The paper's form sets the original off in a comment: an original starting with `!` or `*`
/// would open a doc comment (`==/*!=*/`, `+=/**=*/`), which does not parse inside an
/// expression, `/` would nest a comment (`-/*/*/`), and a replacement ending with `/` would
/// start a line comment (`//*-*/`). Every mutant of a crate full of them must still be a Rust
/// file.
#[test]
fn originals_that_would_open_a_doc_comment_still_parse() {
    let dir = krate(
        "pub fn f(mut a: i64, b: i64, p: bool, q: bool) -> bool {\n    a *= b - 1;\n    a /= b / 2;\n    \
         (a != b) != (p != q)\n}\n",
        &["f"],
        &[],
    );
    let c = discover(dir.path()).unwrap();
    for (original, replacement) in [
        ("!=", "=="),
        ("!=", "&&"),
        ("*=", "+="),
        ("-", "/"),
        ("/", "-"),
        ("/=", "*="),
    ] {
        assert!(
            c.mutants
                .iter()
                .any(|m| m.original == original && m.replacement == replacement),
            "{original} -> {replacement}: {:?}",
            changes(&c, Family::Operator)
        );
    }
    for m in &c.mutants {
        let (_, text) = mutated_source(dir.path(), m).unwrap();
        if let Err(e) = syn::parse_file(&text) {
            panic!("{} -> {}: {e}\n{text}", m.original, m.replacement);
        }
    }
}
