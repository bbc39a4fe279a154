//! `#[derive(Korat)]`'s finitization (`#[korat(ints(lo, hi))]`, `#[korat(pool(count))]`): the
//! same classes, fields, domains and declaration order as the `FinitizationBuilder` calls a
//! benchmark author would write, so Korat's counts and candidates are the hand-written ones';
//! and a field without a domain is named when the finitization is asked for.

use std::ops::ControlFlow;

use ferastrau_sdk::korat::view::{Root, View};
use ferastrau_sdk::korat::{self, Domain, Finitization, FinitizationBuilder, ROOT};

pub type NodeId = usize;
pub type LeafId = usize;

/// Two arenas, links of both kinds, and every kind of value: an integer, a nullable integer,
/// a `bool` with and without a range.
#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Node {
    pub left: Option<NodeId>,
    pub leaf: LeafId,
    #[korat(ints(1, n))]
    pub key: i64,
    #[korat(ints(-1, n - 1))]
    pub tag: Option<i32>,
    pub red: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Leaf {
    #[korat(ints(0, 0))]
    pub mark: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Forest {
    pub root: Option<NodeId>,
    #[korat(ints(0, n))]
    pub size: i64,
    #[korat(pool(n))]
    pub nodes: Vec<Node>,
    #[korat(pool(n + 1))]
    pub leaves: Vec<Leaf>,
    #[korat(skip)]
    pub cache: Vec<String>,
}

/// What an author writes by hand for `Forest` with the argument `x`.
fn by_hand(n: u32) -> Finitization {
    let n64 = i64::from(n);
    let mut b = FinitizationBuilder::new("Forest_add");
    let node = b.class("Node", n);
    let leaf = b.class("Leaf", n + 1);
    b.field(ROOT, "root", Domain::nullable(node));
    b.field(ROOT, "size", Domain::ints(0, n64));
    b.field(ROOT, "x", Domain::ints(1, n64));
    b.field(node, "left", Domain::nullable(node));
    b.field(node, "leaf", Domain::objects(leaf));
    b.field(node, "key", Domain::ints(1, n64));
    b.field(node, "tag", Domain::null().or(Domain::ints(-1, n64 - 1)));
    b.field(node, "red", Domain::ints(0, 1));
    b.field(leaf, "mark", Domain::ints(0, 0));
    b.build()
}

/// The forests whose nodes' `left` links are acyclic and `size` counts them (reads every
/// field, so that the counts are small).
fn valid(v: &mut impl ForestView) -> bool {
    let mut seen = korat::Visited::new();
    let mut at = v.root();
    while let Some(n) = at {
        if !seen.insert(n) {
            return false;
        }
        let _ = (v.leaf(n), v.key(n), v.tag(n), v.red(n));
        at = v.left(n);
    }
    v.size() == seen.len() as i64
}

#[test]
fn the_derived_finitization_is_the_hand_written_one() {
    for n in 1..=3u32 {
        let args = [("x", Domain::ints(1, i64::from(n)))];
        let (derived, f) = Forest::finitization("Forest_add", n, &args);
        assert_eq!(
            format!("{derived:?}"),
            format!("{:?}", by_hand(n)),
            "scope {n}"
        );
        assert!(f.extra("x").is_some());
        let count = |fin: &Finitization| {
            let f = Forest::fields(fin);
            korat::search(
                fin,
                |c| valid(&mut View::new(c, &f)),
                |_| ControlFlow::Continue(()),
            )
        };
        let (a, b) = (count(&derived), count(&by_hand(n)));
        assert_eq!((a.valid, a.explored), (b.valid, b.explored), "scope {n}");
        assert!(a.valid > 0);
    }
}

/// A structure whose node type has an integer without a domain: its own finitization can be
/// written by hand (the derive's view and decoder work on it), the derived one panics naming
/// the field.
#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Cell {
    pub next: Option<CellId>,
    pub value: i64,
}

pub type CellId = usize;

#[derive(Clone, Debug, Default, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Chain {
    pub head: Option<CellId>,
    #[korat(pool(n))]
    pub cells: Vec<Cell>,
}

#[test]
fn a_field_without_a_domain_is_named() {
    let panic = std::panic::catch_unwind(|| Chain::finitization("Chain", 2, &[]))
        .expect_err("a derived finitization without value's domain");
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(
        message.contains("Cell") && message.contains("`value`") && message.contains("ints"),
        "{message}"
    );
}
