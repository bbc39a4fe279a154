//! `#[derive(Korat)]` on a structure linked by `Option<Box<Node>>` (no arena): the finitization
//! from `#[korat(pool(Node, n))]` on the structure is the hand-written one; every valid
//! candidate decodes into the tree its view showed, and `view::Boxed` shows the decoded tree
//! the same way; a candidate that shares a node (an invariant too weak to reject it) stops the
//! decoder naming the node instead of copying a subtree; a chain longer than any thread's
//! stack could walk recursively is numbered all the same.

use std::cell::RefCell;
use std::ops::ControlFlow;

use ferastrau_sdk::korat::view::{Boxed, Root, View};
use ferastrau_sdk::korat::{self, Candidate, Domain, Finitization, FinitizationBuilder, ROOT};

#[derive(Clone, Debug, PartialEq, ferastrau_sdk::Korat)]
pub struct Node {
    #[korat(ints(1, n))]
    pub key: i64,
    pub left: Option<Box<Node>>,
    pub right: Option<Box<Node>>,
}

#[derive(Clone, Debug, PartialEq, ferastrau_sdk::Korat)]
#[korat(pool(Node, n))]
pub struct Tree {
    pub root: Option<Box<Node>>,
    #[korat(ints(0, n))]
    pub size: i64,
}

/// What an author writes by hand for `Tree` with the argument `x`.
fn by_hand(n: u32) -> Finitization {
    let n64 = i64::from(n);
    let mut b = FinitizationBuilder::new("Tree_add");
    let node = b.class("Node", n);
    b.field(ROOT, "root", Domain::nullable(node));
    b.field(ROOT, "size", Domain::ints(0, n64));
    b.field(ROOT, "x", Domain::ints(1, n64));
    b.field(node, "key", Domain::ints(1, n64));
    b.field(node, "left", Domain::nullable(node));
    b.field(node, "right", Domain::nullable(node));
    b.build()
}

/// The tree as the view shows it, in pre-order: `(key left right)`, `-` for null, `!` where a
/// node is reached a second time.
fn shape(v: &mut impl TreeView, checked: bool) -> Option<String> {
    fn go(v: &mut impl TreeView, n: Option<u32>, seen: &mut Vec<u32>, out: &mut String) -> bool {
        let Some(n) = n else {
            out.push('-');
            return true;
        };
        if seen.contains(&n) {
            out.push('!');
            return false;
        }
        seen.push(n);
        out.push_str(&format!("({} ", v.key(n)));
        let (left, right) = (v.left(n), v.right(n));
        let ok = go(v, left, seen, out);
        out.push(' ');
        let ok = go(v, right, seen, out) && ok;
        out.push(')');
        ok
    }
    let (mut seen, mut out) = (Vec::new(), String::new());
    let root = v.root();
    let tree = go(v, root, &mut seen, &mut out);
    // Checked: a tree whose `size` counts it. Unchecked (too weak an invariant): `size` counts
    // the distinct nodes, a node reached twice let through.
    let counted = v.size() == seen.len() as i64;
    (counted && (tree || !checked)).then_some(out)
}

/// Σₖ Catalan(k) · nᵏ: the trees of at most n nodes, each key any of n values.
fn expected(n: u32) -> u64 {
    let catalan = [1u64, 1, 2, 5, 14];
    (0..=n)
        .map(|k| catalan[k as usize] * u64::from(n).pow(k))
        .sum()
}

#[test]
fn the_derived_finitization_is_the_hand_written_one_and_candidates_decode_into_their_trees() {
    for n in 1..=3u32 {
        let args = [("x", Domain::ints(1, i64::from(n)))];
        let (derived, f) = Tree::finitization("Tree_add", n, &args);
        assert_eq!(
            format!("{derived:?}"),
            format!("{:?}", by_hand(n)),
            "scope {n}"
        );
        let decoded = RefCell::new(0u64);
        let stats = korat::search(
            &derived,
            |c| shape(&mut View::new(c, &f), true).is_some(),
            |found| {
                let c = &mut Candidate::new(found.finitization(), found.state());
                let seen = shape(&mut View::new(c, &f), true).expect("a valid candidate");
                let tree = Tree::decode(c, &f);
                let real = shape(&mut Boxed::new(&tree), true).expect("a valid tree");
                assert_eq!(real, seen, "scope {n}: the decoded tree is the candidate's");
                *decoded.borrow_mut() += 1;
                ControlFlow::Continue(())
            },
        );
        // Every structure once per argument value (`x` is never read).
        assert_eq!(stats.valid, expected(n) * u64::from(n), "scope {n}");
        assert_eq!(*decoded.borrow(), stats.valid);
        let hand = by_hand(n);
        let hf = Tree::fields(&hand);
        let by_hand_stats = korat::search(
            &hand,
            |c| shape(&mut View::new(c, &hf), true).is_some(),
            |_| ControlFlow::Continue(()),
        );
        assert_eq!(
            (stats.valid, stats.explored),
            (by_hand_stats.valid, by_hand_stats.explored)
        );
    }
}

#[test]
fn boxed_numbers_the_owned_nodes_in_pre_order() {
    let leaf = |key| Node {
        key,
        left: None,
        right: None,
    };
    let tree = Tree {
        root: Some(Box::new(Node {
            key: 2,
            left: Some(Box::new(leaf(1))),
            right: Some(Box::new(leaf(3))),
        })),
        size: 3,
    };
    let mut v = Boxed::new(&tree);
    assert_eq!(v.root(), Some(0));
    assert_eq!((v.left(0), v.right(0)), (Some(1), Some(2)));
    assert_eq!((v.key(0), v.key(1), v.key(2)), (2, 1, 3));
    assert_eq!((v.left(1), v.right(2)), (None, None));
    assert_eq!(shape(&mut v, true).as_deref(), Some("(2 (1 - -) (3 - -))"));
}

#[test]
fn a_candidate_sharing_a_node_stops_the_decoder_naming_it() {
    let (fin, f) = Tree::finitization("Tree", 2, &[]);
    let shared = RefCell::new(Vec::new());
    korat::search(
        &fin,
        // Too weak: a node reached twice is let through.
        |c| shape(&mut View::new(c, &f), false).is_some(),
        |found| {
            let c = &mut Candidate::new(found.finitization(), found.state());
            let seen = shape(&mut View::new(c, &f), false).expect("valid");
            if seen.contains('!') {
                let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    Tree::decode(c, &f);
                }))
                .expect_err("a shared node cannot be decoded into Boxes");
                let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
                shared.borrow_mut().push((seen, message));
            } else {
                Tree::decode(c, &f);
            }
            ControlFlow::Continue(())
        },
    );
    let shared = shared.into_inner();
    assert!(!shared.is_empty(), "scope 2 has a node shared by two links");
    for (seen, message) in &shared {
        assert!(
            message.contains("object Node#") && message.contains("reached twice through Box links"),
            "{seen}: {message}"
        );
    }
}

#[test]
fn a_chain_longer_than_a_recursive_walk_could_follow_is_numbered() {
    const LENGTH: u32 = 300_000;
    let mut root = None;
    for key in (0..i64::from(LENGTH)).rev() {
        root = Some(Box::new(Node {
            key,
            left: root,
            right: None,
        }));
    }
    let mut tree = Tree {
        root,
        size: i64::from(LENGTH),
    };
    // A test thread's 2 MiB stack: a recursive walk of 300,000 frames would overflow it.
    let last = std::thread::scope(|s| {
        s.spawn(|| {
            let mut v = Boxed::new(&tree);
            let mut at = v.root();
            let mut last = None;
            while let Some(n) = at {
                assert_eq!(v.key(n), i64::from(n), "pre-order numbering");
                last = Some(n);
                at = v.left(n);
            }
            last
        })
        .join()
        .unwrap()
    });
    assert_eq!(last, Some(LENGTH - 1));
    // Dropped link by link: `Box`'s own drop is recursive.
    let mut at = tree.root.take();
    while let Some(mut n) = at {
        at = n.left.take();
    }
}

/// A root that always owns a node (`Box<Node>`, never null): its domain has no null, and every
/// valid candidate decodes into a tree of at least one node, read back the same through `Boxed`.
#[derive(Clone, Debug, PartialEq, ferastrau_sdk::Korat)]
#[korat(pool(Node, n))]
pub struct Rooted {
    pub root: Box<Node>,
    #[korat(ints(1, n))]
    pub size: i64,
}

fn rooted_shape(v: &mut impl RootedView) -> Option<String> {
    fn go(v: &mut impl RootedView, n: Option<u32>, seen: &mut Vec<u32>, out: &mut String) -> bool {
        let Some(n) = n else {
            out.push('-');
            return true;
        };
        if seen.contains(&n) {
            return false;
        }
        seen.push(n);
        out.push_str(&format!("({} ", v.key(n)));
        let (left, right) = (v.left(n), v.right(n));
        let ok = go(v, left, seen, out) && {
            out.push(' ');
            go(v, right, seen, out)
        };
        out.push(')');
        ok
    }
    let (mut seen, mut out) = (Vec::new(), String::new());
    // Never null: the derived view reads a `Box` link as a `u32`.
    let root = v.root();
    (go(v, Some(root), &mut seen, &mut out) && v.size() == seen.len() as i64).then_some(out)
}

#[test]
fn a_root_that_always_owns_a_node_decodes_into_a_tree_of_one_node_or_more() {
    for n in 1..=3u32 {
        let (fin, f) = Rooted::finitization("Rooted", n, &[]);
        assert!(
            !format!("{fin:?}").contains("(\"root\", Domain([Null")
                && format!("{fin:?}").contains("(\"root\", Domain([Objects"),
            "no null root: {fin:?}"
        );
        let decoded = RefCell::new(0u64);
        let stats = korat::search(
            &fin,
            |c| rooted_shape(&mut View::new(c, &f)).is_some(),
            |found| {
                let c = &mut Candidate::new(found.finitization(), found.state());
                let seen = rooted_shape(&mut View::new(c, &f)).expect("valid");
                let tree = Rooted::decode(c, &f);
                assert_eq!(rooted_shape(&mut Boxed::new(&tree)), Some(seen));
                *decoded.borrow_mut() += 1;
                ControlFlow::Continue(())
            },
        );
        // The trees of 1..=n nodes, each key any of n values.
        assert_eq!(stats.valid, expected(n) - 1, "scope {n}");
        assert_eq!(*decoded.borrow(), stats.valid);
    }
}
