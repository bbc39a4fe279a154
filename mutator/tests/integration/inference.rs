//! Types the mutator infers (signatures, `?`, constants, literals settled later), integer
//! operators of every kind, and writes, field accesses and constants as mutants, on small
//! crates written inline.

use ferastrau_mutator::{build_metamutant, discover, mutated_source, Catalog, Family, Mutant};
use tempfile::TempDir;

use crate::common::{changes, krate};

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
        self.count += 3;
        self.count <<= 1;
        self.count -= 1;
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
    assert_eq!(at("self.count += 3", "+="), compound("+="));
    // An increment (Java's `count--`) becomes its opposite only.
    assert_eq!(at("self.count -= 1", "-="), ["+="]);
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
        let m = build_metamutant(dir.path(), &out, &crate::common::probes()).unwrap();
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
            self.recs[y as usize].rank += 2;
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
        "2 -> 3",
        "2 -> 1",
        "2 -> x",
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
    let m = build_metamutant(dir.path(), work.path(), &crate::common::probes()).unwrap();
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
        .find(|m| m.original == "rank" && m.line == line_of("rank += 2"))
        .unwrap();
    let (_, text) = mutated_source(dir.path(), swap).unwrap();
    assert!(
        text.contains("self.recs[y as usize].parent/*rank*/ += 2;"),
        "{text}"
    );
}
