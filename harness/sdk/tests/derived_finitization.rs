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

/// Java arrays: an `int[]` of the structure and an arena the root lists as a `Slot[]`, each
/// with `#[korat(array(lo, hi))]` (its length), as HeapArray and DisjSet declare them.
#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Slot {
    #[korat(ints(0, n - 1))]
    pub parent: i64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Arrays {
    #[korat(pool(n), array(0, n))]
    pub slots: Vec<Slot>,
    #[korat(ints(0, n))]
    pub size: i64,
    #[korat(ints(-1, n), array(1, n))]
    pub values: Vec<i64>,
}

#[test]
fn derived_arrays_are_the_hand_written_ones() {
    for n in 1..=3u32 {
        let n64 = i64::from(n);
        let mut b = FinitizationBuilder::new("Arrays");
        let slot = b.class("Slot", n);
        let slots = b.array(
            "Slot[]",
            1,
            Domain::ints(0, n64),
            n,
            &[("e", Domain::objects(slot))],
        );
        let values = b.array(
            "int[]",
            1,
            Domain::ints(1, n64),
            n,
            &[("v", Domain::ints(-1, n64))],
        );
        b.field(ROOT, "slots", Domain::objects(slots));
        b.field(ROOT, "size", Domain::ints(0, n64));
        b.field(ROOT, "values", Domain::objects(values));
        b.field(slot, "parent", Domain::ints(0, n64 - 1));
        let (derived, f) = Arrays::finitization("Arrays", n, &[]);
        assert_eq!(
            format!("{derived:?}"),
            format!("{:?}", b.build()),
            "scope {n}"
        );
        assert!(
            f.slots_listed.is_some(),
            "the arena is read through its array"
        );
    }
}

/// Opaque objects (`#[korat(objects(Elem, n))]`): a class without a Rust type or an arena,
/// linked by `ElemId`, declared after the arenas, as LinkedList's elements.
/// A newtype id: the derive implements `Id` for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct ElemId(pub usize);

#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Cell2 {
    pub element: Option<ElemId>,
    pub next: Option<Cell2Id>,
}

pub type Cell2Id = usize;

#[derive(Clone, Debug, Default, PartialEq, Eq, ferastrau_sdk::Korat)]
#[korat(objects(Elem, n))]
pub struct Bag {
    pub first: Option<Cell2Id>,
    #[korat(pool(n + 1))]
    pub cells: Vec<Cell2>,
}

#[test]
fn opaque_objects_are_a_class_after_the_arenas() {
    for n in 1..=3u32 {
        let mut b = FinitizationBuilder::new("Bag");
        let cell = b.class("Cell2", n + 1);
        let elem = b.class("Elem", n);
        b.field(ROOT, "first", Domain::nullable(cell));
        b.field(ROOT, "o", Domain::nullable(elem));
        b.field(cell, "element", Domain::nullable(elem));
        b.field(cell, "next", Domain::nullable(cell));
        let args = [("o", Domain::nullable(Bag::class_id("Elem")))];
        let (derived, _) = Bag::finitization("Bag", n, &args);
        assert_eq!(
            format!("{derived:?}"),
            format!("{:?}", b.build()),
            "scope {n}"
        );
    }
}

/// `class_id` names the classes as the derived finitization numbers them, for an argument
/// that is an object of the structure (SortedList's `merge(other)` takes the other list's
/// header among the same entries).
#[test]
fn class_ids_are_the_derived_finitization_s() {
    let (fin, _) = Forest::finitization("Forest", 2, &[]);
    for name in ["Node", "Leaf"] {
        assert_eq!(fin.class_name(Forest::class_id(name)), name);
    }
    let args = [("other", Domain::nullable(Forest::class_id("Leaf")))];
    let (fin, f) = Forest::finitization("Forest", 2, &args);
    let other = f.extra("other").expect("the argument");
    assert_eq!(other, fin.field(ROOT, "other"));
    let m = panic_message(|| {
        Forest::class_id("Tree");
    });
    assert!(m.contains("no class Tree") && m.contains("\"Leaf\""), "{m}");
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
    #[korat(pool(n - 2))]
    pub cells: Vec<Cell>,
}

#[test]
fn a_field_without_a_domain_is_named() {
    let message = panic_message(|| {
        Chain::finitization("Chain", 2, &[]);
    });
    // A pool that comes out negative is named too.
    let pool = panic_message(|| {
        Chain::finitization("Chain", 1, &[]);
    });
    assert!(
        pool.contains("pool of class Cell at scope 1 is -1"),
        "{pool}"
    );
    assert!(
        message.contains("Cell") && message.contains("`value`") && message.contains("ints"),
        "{message}"
    );
}

/// A link whose id type is not named after its class: to the derive, `Option<usize>` is null
/// or an integer.
#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Link {
    pub next: Option<usize>,
}

pub type LinkId = usize;

#[derive(Clone, Debug, Default, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Links {
    pub first: Option<LinkId>,
    pub links: Vec<Link>,
}

fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let panic = std::panic::catch_unwind(f).expect_err("a panic");
    panic.downcast_ref::<String>().cloned().unwrap_or_default()
}

#[test]
fn a_domain_the_rust_type_cannot_hold_is_refused_when_the_fields_are_looked_up() {
    // Objects for a field the type reads as an integer: the view would read every link as
    // null and Korat would count wrongly; refused instead, with the remedy.
    let mut b = FinitizationBuilder::new("Links");
    let link = b.class("Link", 2);
    b.field(ROOT, "first", Domain::nullable(link));
    b.field(link, "next", Domain::nullable(link));
    let fin = b.build();
    let m = panic_message(|| {
        Links::fields(&fin);
    });
    assert!(
        m.contains("`next` of class Link")
            && m.contains("null or an integer")
            && m.contains("objects of class Link")
            && m.contains("type NodeId = usize"),
        "{m}"
    );
    // Null for a link that cannot be null (`LeafId`), integers for a link.
    let with = |leaf: fn(ferastrau_sdk::korat::ClassId) -> Domain, left: Domain| {
        let mut b = FinitizationBuilder::new("Forest");
        let node = b.class("Node", 1);
        let leaf_class = b.class("Leaf", 1);
        b.field(ROOT, "root", Domain::nullable(node));
        b.field(ROOT, "size", Domain::ints(0, 1));
        b.field(node, "left", left.clone());
        b.field(node, "leaf", leaf(leaf_class));
        b.field(node, "key", Domain::ints(1, 1));
        b.field(node, "tag", Domain::null());
        b.field(node, "red", Domain::ints(0, 1));
        b.field(leaf_class, "mark", Domain::ints(0, 0));
        b.build()
    };
    let fin = with(Domain::nullable, Domain::null());
    let m = panic_message(|| {
        Forest::fields(&fin);
    });
    assert!(
        m.contains("`leaf`") && m.contains("never null") && m.contains("null;"),
        "{m}"
    );
    let fin = with(Domain::objects, Domain::ints(0, 1));
    let m = panic_message(|| {
        Forest::fields(&fin);
    });
    assert!(
        m.contains("`left`") && m.contains("the integers 0..=1"),
        "{m}"
    );
    // The same declarations with domains the types hold are accepted.
    let fin = with(Domain::objects, Domain::null());
    Forest::fields(&fin);
}
