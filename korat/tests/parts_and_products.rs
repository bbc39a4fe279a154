//! The parallel search and the free product change no count and no order: a binary search
//! tree over a node pool (with an argument in the root object, as a method's input has), its
//! valid candidates compared in order between one thread, several threads, and a search that
//! judges every argument value with the predicate; and counting the free product gives the
//! figures of listing it.

use std::cell::Cell;
use std::ops::ControlFlow;

use korat::{
    Candidate, Domain, FieldId, Finitization, FinitizationBuilder, SearchSwitches, Visited, ROOT,
};

struct F {
    root: FieldId,
    size: FieldId,
    x: FieldId,
    left: FieldId,
    right: FieldId,
    info: FieldId,
}

/// The fields of a tree finitization; `x` names the root field the tests read as `x`.
fn fields_of(fin: &Finitization, node: korat::ClassId, x: &str) -> F {
    F {
        root: fin.field(ROOT, "root"),
        size: fin.field(ROOT, "size"),
        x: fin.field(ROOT, x),
        left: fin.field(node, "left"),
        right: fin.field(node, "right"),
        info: fin.field(node, "info"),
    }
}

fn tree(n: u32) -> (Finitization, F) {
    let n64 = i64::from(n);
    let mut b = FinitizationBuilder::new("Tree_add");
    let node = b.class("Node", n);
    b.field(ROOT, "root", Domain::nullable(node));
    b.field(ROOT, "size", Domain::ints(0, n64));
    b.field(ROOT, "x", Domain::ints(1, n64));
    b.field(node, "left", Domain::nullable(node));
    b.field(node, "right", Domain::nullable(node));
    b.field(node, "info", Domain::ints(1, n64));
    let fin = b.build();
    let f = fields_of(&fin, node, "x");
    (fin, f)
}

/// A binary search tree with a correct size; never reads `x`.
fn bst(c: &mut Candidate<'_>, f: &F) -> bool {
    let Some(root) = c.obj(f.root, 0) else {
        return c.int(f.size, 0) == 0;
    };
    let mut seen = Visited::new();
    seen.insert(root);
    let mut i = 0;
    while i < seen.len() {
        let n = seen.get(i);
        i += 1;
        for link in [f.left, f.right] {
            if let Some(m) = c.obj(link, n) {
                if !seen.insert(m) {
                    return false;
                }
            }
        }
    }
    if seen.len() as i64 != c.int(f.size, 0) {
        return false;
    }
    fn ordered(c: &mut Candidate<'_>, f: &F, n: u32, lo: i64, hi: i64) -> bool {
        let v = c.int(f.info, n);
        if v <= lo || v >= hi {
            return false;
        }
        let l = c.obj(f.left, n);
        if l.is_some_and(|l| !ordered(c, f, l, lo, v)) {
            return false;
        }
        let r = c.obj(f.right, n);
        r.is_none_or(|r| ordered(c, f, r, v, hi))
    }
    ordered(c, f, root, i64::MIN, i64::MAX)
}

fn collect(
    fin: &Finitization,
    opts: SearchSwitches,
    jobs: usize,
    pred: impl Fn(&mut Candidate<'_>) -> bool + Sync,
) -> (korat::Stats, Vec<Vec<u32>>) {
    let (stats, parts) = korat::search_parallel(
        fin,
        opts,
        jobs,
        pred,
        Vec::new,
        |out: &mut Vec<Vec<u32>>, c| {
            out.push(c.state().to_vec());
            ControlFlow::Continue(())
        },
    );
    (stats, parts.concat())
}

#[test]
fn the_free_product_gives_korats_candidates_in_korats_order_without_judging_them() {
    for n in 1..=5 {
        let (fin, f) = tree(n);
        // Reading `x` last, only on an otherwise valid tree, lists it where Korat appends an
        // unread field: the same search, with every argument value judged by the predicate.
        let judged_all = |c: &mut Candidate<'_>| bst(c, &f) && c.int(f.x, 0) >= 1;
        let calls = Cell::new(0u64);
        let mut joint = Vec::new();
        let j = korat::search(&fin, judged_all, |c| {
            joint.push(c.state().to_vec());
            ControlFlow::Continue(())
        });
        let mut product = Vec::new();
        let p = korat::search(
            &fin,
            |c| {
                calls.set(calls.get() + 1);
                bst(c, &f)
            },
            |c| {
                product.push(c.state().to_vec());
                ControlFlow::Continue(())
            },
        );
        assert_eq!(product, joint, "scope {n}: same inputs, same order");
        assert_eq!((p.valid, p.explored), (j.valid, j.explored), "scope {n}");
        assert_eq!(p.judged, calls.get());
        // Each structure's first argument value is judged, the other n − 1 are not.
        assert_eq!(
            p.judged,
            j.explored - p.structures * (u64::from(n) - 1),
            "scope {n}"
        );
        assert_eq!(p.valid, p.structures * u64::from(n));
    }
}

#[test]
fn counting_the_free_product_gives_the_figures_of_listing_it() {
    let two_args = [("y", Domain::ints(0, 2)), ("x", Domain::ints(1, 4))];
    for n in 1..=5 {
        for (fin, f) in [tree(n), tree_with(n, &two_args), tree_with(n, &[])] {
            for jobs in [1, 2] {
                let (listed, _) = collect(&fin, SearchSwitches::default(), jobs, |c| bst(c, &f));
                let counted =
                    korat::count_parallel(&fin, SearchSwitches::default(), jobs, |c| bst(c, &f));
                let figures = |s: &korat::Stats| (s.valid, s.explored, s.judged, s.structures);
                assert_eq!(
                    figures(&counted),
                    figures(&listed),
                    "scope {n}, {jobs} threads, {} slots",
                    fin.slots()
                );
            }
        }
    }
}

#[test]
fn every_thread_count_finds_the_sequential_inputs_in_the_sequential_order() {
    for opts in [
        SearchSwitches::default(),
        SearchSwitches {
            pruning: true,
            isomorphism_breaking: false,
        },
        SearchSwitches {
            pruning: false,
            isomorphism_breaking: false,
        },
    ] {
        let n = if opts.pruning { 5 } else { 2 };
        let (fin, f) = tree(n);
        let (one, seq) = collect(&fin, opts, 1, |c| bst(c, &f));
        for jobs in [2, 3, 8] {
            let (many, par) = collect(&fin, opts, jobs, |c| bst(c, &f));
            assert_eq!(par, seq, "{opts:?}, {jobs} threads");
            assert_eq!(
                (many.valid, many.explored, many.judged, many.structures),
                (one.valid, one.explored, one.judged, one.structures),
                "{opts:?}, {jobs} threads"
            );
        }
    }
}

#[test]
fn the_split_makes_many_parts_that_partition_the_space() {
    let (fin, f) = tree(6);
    let parts = korat::split(&fin, SearchSwitches::default(), &mut |c| bst(c, &f), 128);
    assert!(parts.len() >= 128, "{} parts", parts.len());
    // Parts are distinct prefixes none of which extends another (a partition).
    for (i, a) in parts.iter().enumerate() {
        for b in &parts[i + 1..] {
            let k = a.len().min(b.len());
            assert_ne!(a[..k], b[..k], "{a:?} and {b:?} overlap");
        }
    }
}

#[test]
fn a_stop_in_one_part_stops_the_parallel_search() {
    let (fin, f) = tree(6);
    let (all, _) = collect(&fin, SearchSwitches::default(), 2, |c| bst(c, &f));
    let (stats, parts) = korat::search_parallel(
        &fin,
        SearchSwitches::default(),
        2,
        |c| bst(c, &f),
        || 0u64,
        |seen: &mut u64, _| {
            *seen += 1;
            ControlFlow::Break(())
        },
    );
    assert!(stats.valid < all.valid);
    assert!(parts.iter().all(|&p| p <= 1));
}

#[test]
fn the_structure_only_search_is_the_judged_part_of_the_method_search() {
    let (fin, f) = tree(6);
    let method = korat::search(&fin, |c| bst(c, &f), |_| ControlFlow::Continue(()));
    for jobs in [1, 2] {
        let (s, _) = korat::search_structures(
            &fin,
            SearchSwitches::default(),
            jobs,
            |c| bst(c, &f),
            || (),
            |_, _| ControlFlow::Continue(()),
        );
        assert_eq!((s.valid, s.explored), (method.structures, method.judged));
        assert_eq!((s.structures, s.judged), (s.valid, s.explored));
    }
    // And it is the search of the bare structure: the same tree without the argument field.
    let mut b = FinitizationBuilder::new("Tree");
    let node = b.class("Node", 6);
    b.field(ROOT, "root", Domain::nullable(node));
    b.field(ROOT, "size", Domain::ints(0, 6));
    b.field(node, "left", Domain::nullable(node));
    b.field(node, "right", Domain::nullable(node));
    b.field(node, "info", Domain::ints(1, 6));
    let bare = b.build();
    let g = fields_of(&bare, node, "size");
    let s = korat::search(&bare, |c| bst(c, &g), |_| ControlFlow::Continue(()));
    assert_eq!((s.valid, s.explored), (method.structures, method.judged));
}

/// The tree with the root fields `root`, `size`, then `args` (name, domain), then the nodes.
fn tree_with(n: u32, args: &[(&str, Domain)]) -> (Finitization, F) {
    let n64 = i64::from(n);
    let mut b = FinitizationBuilder::new("Tree_method");
    let node = b.class("Node", n);
    b.field(ROOT, "root", Domain::nullable(node));
    b.field(ROOT, "size", Domain::ints(0, n64));
    for (name, d) in args {
        b.field(ROOT, name, d.clone());
    }
    b.field(node, "left", Domain::nullable(node));
    b.field(node, "right", Domain::nullable(node));
    b.field(node, "info", Domain::ints(1, n64));
    let fin = b.build();
    let f = fields_of(&fin, node, "size");
    (fin, f)
}

#[test]
fn a_transferred_structure_gives_the_other_methods_own_inputs_in_order() {
    let n = 4;
    let (a, fa) = tree(n);
    // Another method: two arguments, one of them not in the first method.
    let (b, fb) = tree_with(n, &[("y", Domain::ints(0, 2)), ("x", Domain::ints(1, 4))]);
    let mut own = Vec::new();
    let own_stats = korat::search(
        &b,
        |c| bst(c, &fb),
        |c| {
            own.push(c.state().to_vec());
            ControlFlow::Continue(())
        },
    );
    for jobs in [1, 2] {
        let (s, parts) = korat::search_structures(
            &a,
            SearchSwitches::default(),
            jobs,
            |c| bst(c, &fa),
            || {
                (
                    korat::Transfer::new(&a, &b).expect("same classes"),
                    Vec::new(),
                )
            },
            |(t, out): &mut (korat::Transfer<'_>, Vec<Vec<u32>>), c| {
                let k = t.products(c, |input| {
                    out.push(input.state().to_vec());
                    ControlFlow::Continue(())
                });
                assert_eq!(k, Some(12), "3 values of y times 4 of x");
                assert_eq!(t.count(c), k, "counted as listed");
                ControlFlow::Continue(())
            },
        );
        let carried: Vec<Vec<u32>> = parts.into_iter().flat_map(|(_, o)| o).collect();
        assert_eq!(carried, own, "{jobs} threads");
        assert_eq!(s.valid, own_stats.structures);
        assert_eq!(s.explored, own_stats.judged);
    }
    // A free field the source lacks on every node, not only on the root: the count walks the
    // structure (no root-only shortcut) and still counts what is listed.
    let mut nb = FinitizationBuilder::new("Tree_tagged");
    let node = nb.class("Node", n);
    nb.field(ROOT, "root", Domain::nullable(node));
    nb.field(ROOT, "size", Domain::ints(0, i64::from(n)));
    nb.field(ROOT, "x", Domain::ints(1, i64::from(n)));
    nb.field(node, "left", Domain::nullable(node));
    nb.field(node, "right", Domain::nullable(node));
    nb.field(node, "info", Domain::ints(1, i64::from(n)));
    nb.field(node, "tag", Domain::ints(0, 1));
    let tagged = nb.build();
    let ft = fields_of(&tagged, node, "x");
    let own_tagged = korat::search(&tagged, |c| bst(c, &ft), |_| ControlFlow::Continue(()));
    let (_, counted) = korat::search_structures(
        &a,
        SearchSwitches::default(),
        1,
        |c| bst(c, &fa),
        || {
            (
                korat::Transfer::new(&a, &tagged).expect("same classes"),
                0u64,
            )
        },
        |(t, total), found| {
            let listed = t.products(found, |_| ControlFlow::Continue(()));
            assert_eq!(t.count(found), listed, "counted as listed");
            *total += listed.expect("carries over");
            ControlFlow::Continue(())
        },
    );
    let total: u64 = counted.iter().map(|(_, k)| k).sum();
    assert_eq!(total, own_tagged.valid, "the tagged tree's own inputs");
    // An argument that is an object can change what is reachable: no transfer.
    let node = korat::ClassId(1);
    let (c, _) = tree_with(n, &[("x", Domain::nullable(node))]);
    let (_, refused) = korat::search_structures(
        &a,
        SearchSwitches::default(),
        1,
        |c| bst(c, &fa),
        || korat::Transfer::new(&a, &c).expect("same classes"),
        |t, found| {
            assert_eq!(t.products(found, |_| ControlFlow::Continue(())), None);
            assert_eq!(t.count(found), None);
            ControlFlow::Continue(())
        },
    );
    assert_eq!(refused.len(), 1);
}
