//! The mutator on small crates written inline: each family of operators, stable ids, test
//! code and specification left alone, clear errors, diffs, sampling, and compile-pruning.

use std::path::Path;

use ferastrau_mutator::{
    build_metamutant, default_probes_dir, diff, discover, mutated_source, sample,
    single_mutant_crate, Catalog, Family, Mutant,
};
use tempfile::TempDir;

/// A standalone crate with `src/lib.rs` = `lib` and the given declarations.
fn krate(lib: &str, mutate: &[&str], spec: &[&str]) -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    let list = |xs: &[&str]| {
        xs.iter()
            .map(|x| format!("{x:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        format!(
            "[package]\nname = \"inline_bench\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [package.metadata.ferastrau]\nmutate = [{}]\nspecification = [{}]\n\n[workspace]\n",
            list(mutate),
            list(spec)
        ),
    )
    .unwrap();
    std::fs::write(dir.path().join("src/lib.rs"), lib).unwrap();
    dir
}

fn changes(c: &Catalog, family: Family) -> Vec<String> {
    c.mutants
        .iter()
        .filter(|m| m.family == family)
        .map(|m| format!("{} -> {}", m.original, m.replacement))
        .collect()
}

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
    for want in ["&& -> ||", "+= -> -=", "+= -> %=", "- -> +", "- -> *"] {
        assert!(
            ops.contains(&want.to_string()),
            "{want} missing from {ops:?}"
        );
    }
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
fn diffs_show_the_paper_form_and_keep_precedence() {
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

fn syn_check(src: &str) {
    assert!(
        src.parse::<proc_macro2::TokenStream>().is_ok(),
        "the mutated source still tokenizes"
    );
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

/// `peek_mut` has `peek`'s signature up to `&mut self`: calling it where `self` is shared
/// does not compile, and holding its result while calling `peek` again does not borrow-check.
const BORROWS: &str = r#"
pub struct S {
    pub v: Vec<u32>,
    pub k: u32,
}

impl S {
    pub fn peek(&self, i: usize) -> &u32 {
        &self.v[i]
    }

    pub fn peek_mut(&mut self, i: usize) -> &u32 {
        self.v.push(0);
        &self.v[i]
    }

    pub fn shared(&self, i: usize) -> u32 {
        *self.peek(i)
    }

    pub fn twice(&mut self, i: usize, j: usize) -> u32 {
        let a = self.peek(i);
        let b = self.peek(j);
        *a + *b
    }
}
"#;

#[test]
fn compile_pruning_drops_what_does_not_compile_and_caches() {
    let dir = krate(BORROWS, &["S::shared", "S::twice"], &[]);
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("metamutant");
    let m = build_metamutant(dir.path(), &out, &default_probes_dir()).unwrap();
    assert!(!m.cached && m.catalog.pruned);
    let dropped: Vec<(&str, &str, &str)> = m
        .catalog
        .mutants
        .iter()
        .filter(|x| x.viable == Some(false))
        .map(|x| {
            (
                x.function.as_str(),
                x.original.as_str(),
                x.replacement.as_str(),
            )
        })
        .collect();
    // In `shared`, `self` is `&S`: `peek_mut` does not type-check. In `twice`, each
    // `peek_mut` keeps `*self` borrowed mutably while the other `peek` borrows it.
    assert!(
        dropped.contains(&("S::shared", "peek", "peek_mut")),
        "{dropped:?}"
    );
    assert!(
        dropped.contains(&("S::twice", "peek", "peek_mut")),
        "{dropped:?}"
    );
    assert!(m.catalog.mutants.iter().any(|x| x.viable == Some(true)));
    assert!(!m.rounds.is_empty() && m.rounds.iter().all(|r| r.seconds > 0.0));
    let lib = std::fs::read_to_string(out.join("src/lib.rs")).unwrap();
    assert!(lib.contains("match __ferastrau_active"));
    assert!(lib.contains("::ferastrau_probes::tick()"));
    assert!(out.join("ferastrau-probes.json").exists());
    assert!(out.join("ferastrau-mutants.json").exists());
    // A dropped mutant has no arm left in the code (`1 => ` not counting `11 => `).
    let has_arm = |id: u32| {
        let arm = format!("{id} => ");
        lib.match_indices(&arm)
            .any(|(at, _)| !lib[..at].ends_with(|c: char| c.is_ascii_digit()))
    };
    assert!(m
        .catalog
        .mutants
        .iter()
        .filter(|x| x.viable == Some(true))
        .all(|x| has_arm(x.id)));
    for x in m.catalog.mutants.iter().filter(|x| x.viable == Some(false)) {
        assert!(!has_arm(x.id), "arm of {} left", x.id);
    }

    let again = build_metamutant(dir.path(), &out, &default_probes_dir()).unwrap();
    assert!(again.cached);
    assert_eq!(again.catalog, m.catalog);

    // The benchmark's own sources are untouched.
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/lib.rs")).unwrap(),
        BORROWS
    );
}

#[test]
fn a_crate_that_does_not_compile_is_named_with_its_first_error() {
    let dir = krate(
        "pub fn f(a: u32, b: u32) -> u32 {\n    let s: u32 = \"text\";\n    a + b + s\n}\n",
        &["f"],
        &[],
    );
    let work = tempfile::tempdir().unwrap();
    let e = build_metamutant(
        dir.path(),
        &work.path().join("metamutant"),
        &default_probes_dir(),
    )
    .unwrap_err();
    let e = format!("{e:#}");
    assert!(e.contains("`inline_bench` does not compile"), "{e}");
    assert!(e.contains("mismatched types"), "{e}");
}

#[test]
fn probes_cover_statements_branches_and_the_specification() {
    let dir = krate(
        r#"
pub fn code(xs: &[u32], o: Option<u32>) -> Option<u32> {
    let mut n = 0;
    for x in xs {
        if *x > 2 && n < 10 {
            n += 1;
        }
    }
    while n > 100 {
        n -= 1;
    }
    let y = o?;
    match y {
        0 => None,
        _ => Some(n),
    }
}

pub fn spec(a: u32) -> bool {
    if let Some(b) = a.checked_sub(1) { b > 0 } else { false }
}
"#,
        &["code"],
        &["spec"],
    );
    let work = tempfile::tempdir().unwrap();
    let m = build_metamutant(dir.path(), &work.path().join("mm"), &default_probes_dir()).unwrap();
    let kinds: Vec<String> = m
        .probes
        .iter()
        .map(|p| {
            format!(
                "{} {} {} {}",
                p.role,
                p.kind,
                p.construct.as_deref().unwrap_or("-"),
                p.outcome.as_deref().unwrap_or("-")
            )
        })
        .collect();
    for want in [
        "code statement - -",
        "code branch for true",
        "code branch for false",
        "code branch if true",
        "code branch if false",
        "code branch && true",
        "code branch && false",
        "code branch while true",
        "code branch while false",
        "code branch ? continue",
        "code branch ? return",
        "code branch match arm 1",
        "code branch match arm 2",
        "spec statement - -",
        "spec branch if true",
        "spec branch if false",
    ] {
        assert!(
            kinds.contains(&want.to_string()),
            "{want} missing: {kinds:?}"
        );
    }
    let ids: Vec<u32> = m.probes.iter().map(|p| p.id).collect();
    assert_eq!(ids, (0..m.probes.len() as u32).collect::<Vec<_>>());
    assert!(m.catalog.mutants.iter().all(|x| x.function == "code"));
}

#[test]
fn a_directory_not_made_by_the_mutator_is_never_wiped() {
    let dir = krate("pub fn f(a: u32, b: u32) -> u32 { a + b }\n", &["f"], &[]);
    let work = tempfile::tempdir().unwrap();
    let precious = work.path().join("precious");
    std::fs::create_dir_all(&precious).unwrap();
    std::fs::write(precious.join("notes.txt"), "keep me").unwrap();
    let c = discover(dir.path()).unwrap();
    assert!(single_mutant_crate(dir.path(), &c.mutants[0], &precious).is_err());
    assert!(Path::new(&precious.join("notes.txt")).exists());
}

/// Types that only inference sees: a crate method's result (also through `?`), a method of
/// another crate type, a constant, and locals of a literal's type settled by a later use.
const INFER: &str = r#"
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Error {
    Bad,
}

pub struct Meter {
    pub w: u8,
}

impl Meter {
    pub fn weight(&self) -> u8 {
        self.w
    }
}

pub const LIMIT: usize = 4;

pub fn pick<T>(a: T, _b: T) -> T {
    a
}

pub fn take(v: i64) -> i64 {
    v
}

pub struct Set {
    pub size: i64,
}

impl Set {
    pub fn find(&mut self, a: i64) -> Result<i64, Error> {
        if a < 0 {
            return Err(Error::Bad);
        }
        Ok(a)
    }

    pub fn first(&self) -> Option<i64> {
        Some(self.size)
    }

    pub fn union(&mut self, a: i64) -> Result<i64, Error> {
        let x = self.find(a)?;
        Ok(x)
    }

    pub fn head(&self) -> Option<i64> {
        let h = self.first()?;
        Some(h)
    }

    pub fn weigh(&self, m: &Meter, base: u8) -> u8 {
        let k = m.weight();
        k + base
    }

    pub fn literals(&self, n: i64, cap: usize) -> i64 {
        let mut i = 0;
        let mut j = 0;
        let mut arg = 0;
        let mut free = 0;
        let mut idx = 0;
        let mut up = 0;
        while i < n {
            i += 1;
            free += 1;
        }
        j = n;
        take(arg);
        while idx < LIMIT {
            idx += 1;
        }
        if idx > cap || free > 3 {
            return j + i + arg;
        }
        return up;
    }

    pub fn generic(&self) -> i64 {
        let p = pick(1, 2);
        let s = pick(3, 4);
        let u: u8 = s;
        if p > 200 {
            return 1;
        }
        self.size
    }
}
"#;

fn infer_catalog() -> (TempDir, Catalog) {
    let dir = krate(
        INFER,
        &[
            "Set::union",
            "Set::head",
            "Set::weigh",
            "Set::literals",
            "Set::generic",
        ],
        &[],
    );
    let c = discover(dir.path()).unwrap();
    (dir, c)
}

#[test]
fn inference_sees_signatures_try_constants_and_settled_literals() {
    let (_dir, c) = infer_catalog();
    let vars = changes(&c, Family::Variable);
    for want in [
        // `self.find(a)?` on `Result<i64, Error>`: `x` is an i64.
        "x -> a",
        // `self.first()?` on `Option<i64>`.
        "h -> self.size",
        // A method of another crate type on a receiver of known type.
        "k -> base",
        "base -> k",
        // `i < n` settles `i`; `j = n` settles `j`; `take(arg)` settles `arg`.
        "i -> n",
        "j -> n",
        "arg -> n",
        "n -> i",
        // `idx < LIMIT` settles `idx` as a usize (the constant's declared type).
        "idx -> cap",
        "cap -> idx",
        // `return up` settles `up` as the function's i64: that read itself may change.
        "up -> n",
    ] {
        assert!(
            vars.contains(&want.to_string()),
            "{want} missing from {vars:?}"
        );
    }
    // `free` is only ever compared with literals: its type (i32 by default) is the
    // compiler's choice, and a swap would impose another one on the original.
    // `p` and `s` come from a generic function: their types are the caller's inference.
    for name in ["free", "p", "s"] {
        assert!(
            !c.mutants
                .iter()
                .any(|m| m.family == Family::Variable
                    && (m.original == name || m.replacement == name)),
            "`{name}` swapped: {vars:?}"
        );
    }
    // A read before the settling use is left alone: `i` in `i += 1` comes after `i < n`,
    // but `j` is read only after `j = n`, `up` nowhere before its `return`.
    let reads_of = |name: &str| {
        c.mutants
            .iter()
            .filter(|m| m.family == Family::Variable && m.original == name)
            .map(|m| m.line)
            .min()
    };
    let text_line = |needle: &str| INFER.lines().position(|l| l.contains(needle)).unwrap() + 1;
    assert_eq!(reads_of("up"), Some(text_line("return up;")));
}

/// Integer operators of every kind replace one another; shifts only where that imposes no
/// type on an operand.
const INT_OPS: &str = r#"
pub struct H {
    pub table: Vec<u8>,
    pub count: i64,
}

impl H {
    pub fn ops(&mut self, hash: i64, s: i64, flag: bool, f: f64) -> i64 {
        let index = (hash & 0x7FFFFFFF) % self.table.len() as i64;
        let k = 3;
        let half = self.count >> 1;
        let shifted = hash << s;
        let loose = hash << k;
        self.count += 1;
        self.count <<= 1;
        let g = f * 2.0;
        let both = flag && index > 0;
        let bits = flag & both;
        if g > 1.0 || bits {
            return index + half + shifted + loose;
        }
        index - 1
    }
}
"#;

#[test]
fn integer_operators_of_every_kind() {
    let dir = krate(INT_OPS, &["H::ops"], &[]);
    let c = discover(dir.path()).unwrap();
    let at = |needle: &str, op: &str| -> Vec<String> {
        let line = INT_OPS.lines().position(|l| l.contains(needle)).unwrap() + 1;
        let mut v: Vec<String> = c
            .mutants
            .iter()
            .filter(|m| m.family == Family::Operator && m.line == line && m.original == op)
            .map(|m| m.replacement.clone())
            .collect();
        v.sort();
        v
    };
    let all_but = |op: &str| -> Vec<String> {
        let mut v: Vec<String> = ["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"]
            .iter()
            .filter(|o| **o != op)
            .map(|o| o.to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(at("let index", "&"), all_but("&"));
    assert_eq!(at("let index", "%"), all_but("%"));
    // A settled left operand and a literal shift amount, or an amount of the same type.
    assert_eq!(at("let half", ">>"), all_but(">>"));
    assert_eq!(at("let shifted", "<<"), all_but("<<"));
    // `k` has a literal's type: `hash + k` would make it an i64 in the original too.
    assert_eq!(at("let loose", "<<"), [">>"]);
    let compound = |op: &str| -> Vec<String> {
        let mut v: Vec<String> = ["+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="]
            .iter()
            .filter(|o| **o != op)
            .map(|o| o.to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(at("self.count += 1", "+="), compound("+="));
    assert_eq!(at("self.count <<= 1", "<<="), compound("<<="));
    // Floats keep the arithmetic operators; booleans keep theirs.
    assert_eq!(at("let g", "*"), ["%", "+", "-", "/"]);
    assert_eq!(at("let both", "&&"), ["!=", "==", "||"]);
    assert_eq!(at("let bits", "&"), ["^", "|"]);
}

#[test]
fn inferred_types_and_integer_operators_compile() {
    // Every mutant the new inference and operator rules add type-checks: nothing is pruned.
    let work = tempfile::tempdir().unwrap();
    for (src, mutate) in [
        (
            INFER,
            &[
                "Set::union",
                "Set::head",
                "Set::weigh",
                "Set::literals",
                "Set::generic",
            ][..],
        ),
        (INT_OPS, &["H::ops"][..]),
    ] {
        let dir = krate(src, mutate, &[]);
        let out = work.path().join(format!("mm{}", mutate.len()));
        let m = build_metamutant(dir.path(), &out, &default_probes_dir()).unwrap();
        let dropped: Vec<String> = m
            .catalog
            .mutants
            .iter()
            .filter(|x| x.viable != Some(true))
            .map(|x| {
                format!(
                    "{}:{} {} -> {}",
                    x.line, x.column, x.original, x.replacement
                )
            })
            .collect();
        assert!(dropped.is_empty(), "pruned: {dropped:?}");
        assert!(m.catalog.mutants.len() > 20);
    }
}

/// Java's variables are written as well as read, and `n.key` is one as much as a local is;
/// integer constants move to their neighbours or to a variable of their type.
const WRITES: &str = r#"
pub struct Rec {
    pub parent: i64,
    pub rank: i64,
}

pub struct Forest {
    pub recs: Vec<Rec>,
    pub size: i64,
}

impl Forest {
    pub fn link(&mut self, x: i64, y: i64) -> i64 {
        let mut moved = 0;
        if self.recs[x as usize].rank > self.recs[y as usize].rank {
            self.recs[y as usize].parent = x;
        } else {
            self.recs[x as usize].parent = y;
            self.recs[y as usize].rank += 1;
            moved = y;
        }
        moved
    }

    pub fn peek(&self, x: i64) -> i64 {
        let found: i64;
        if x < 0 || x >= self.size {
            return -1;
        }
        found = self.recs[x as usize].parent;
        found
    }
}
"#;

#[test]
fn writes_field_accesses_and_constants_are_mutated() {
    let dir = krate(WRITES, &["Forest::link", "Forest::peek"], &[]);
    let c = discover(dir.path()).unwrap();
    let vars = changes(&c, Family::Variable);
    for want in [
        // A written field to its sibling, a written local to another `mut` binding or field.
        "parent -> rank",
        "rank -> parent",
        "moved -> self.size",
        // A field access read as a whole, to a parameter or a field of `self`.
        "self.recs[x as usize].rank -> y",
        "self.recs[y as usize].rank -> self.size",
        "self.recs[x as usize].parent -> x",
    ] {
        assert!(
            vars.contains(&want.to_string()),
            "{want} missing from {vars:?}"
        );
    }
    // Parameters are not `mut`: no write goes to one.
    let line_of = |needle: &str| WRITES.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let writes: Vec<String> = [line_of("moved = y;"), line_of(".parent = x;")]
        .iter()
        .flat_map(|&l| c.mutants.iter().filter(move |m| m.line == l))
        .filter(|m| !["x", "y"].contains(&m.original.as_str())) // the value written
        .map(|m| format!("{} -> {}", m.original, m.replacement))
        .collect();
    assert_eq!(
        writes,
        [
            "moved -> self.size",
            "parent -> rank",
            "self.recs[y as usize].parent -> self.size"
        ],
        "{writes:?}"
    );
    let consts = changes(&c, Family::Constant);
    for want in [
        "1 -> 2",
        "1 -> 0",
        "1 -> x",
        "0 -> 1",
        "0 -> -1",
        "0 -> self.size",
    ] {
        assert!(
            consts.contains(&want.to_string()),
            "{want} missing from {consts:?}"
        );
    }
    // `let mut moved = 0` has no type of its own to give the constant: left alone.
    let declared = WRITES
        .lines()
        .position(|l| l.contains("let mut moved"))
        .unwrap()
        + 1;
    assert!(c
        .mutants
        .iter()
        .all(|m| m.line != declared || m.family != Family::Constant));
    let ops = changes(&c, Family::Operator);
    for want in ["|| -> &&", "|| -> ==", "|| -> !="] {
        assert!(
            ops.contains(&want.to_string()),
            "{want} missing from {ops:?}"
        );
    }
    // Each of them compiles in the metamutant (`found`, initialised late but not `mut`, is
    // never written through a borrow), and a written place is written through.
    let work = tempfile::tempdir().unwrap();
    let m = build_metamutant(dir.path(), work.path(), &default_probes_dir()).unwrap();
    let dropped: Vec<&Mutant> = m
        .catalog
        .mutants
        .iter()
        .filter(|x| x.viable != Some(true))
        .collect();
    assert!(dropped.is_empty(), "pruned: {dropped:?}");
    let swap = c
        .mutants
        .iter()
        .find(|m| m.original == "rank" && m.line == line_of("rank += 1"))
        .unwrap();
    let (_, text) = mutated_source(dir.path(), swap).unwrap();
    assert!(
        text.contains("self.recs[y as usize].parent/*rank*/ += 1;"),
        "{text}"
    );
}
