//! Issue 17: the finitization's value can no longer pass for a comparison result, and
//! `deleteEntry` is JDK 1.3's (an inner entry swaps places with its successor).
//!
//! With the value 0, every entry mapped to what `compare` returns for equal keys, so three
//! mutants of `put` that put `cmp` for a value (`cmp == 0` → `cmp == value`, `t.value = value`
//! → `t.value = cmp`, `Some(old_value)` → `Some(cmp)`) behaved like the original on every
//! input.
//! Each is hand-written below from its change: with the value now used they are killed, with 0
//! they would not be.

use ferastrau_sdk::testing;
use ferastrau_sdk::Benchmark;
use tree_map::space::VALUE;
use tree_map::tree_map::{compare, EntryId};
use tree_map::{Call, Outcome, TreeMap, TreeMapBench};

const BENCH: TreeMapBench = TreeMapBench;
const PUT: usize = 0;
const REMOVE: usize = 1;

/// A change to `put` that puts `cmp` where the original has the value or 0.
#[derive(Clone, Copy, Debug)]
enum Change {
    /// No change: the hand-written `put` is the original.
    None,
    /// `if cmp == 0` → `if cmp == value`.
    EqualsValue,
    /// `self.entry_mut(t).value = value` → `= cmp`.
    StoresCmp,
    /// `return Some(old_value)` → `return Some(cmp)`.
    ReturnsCmp,
}

/// `put`, with `change` applied.
fn put_changed(map: &mut TreeMap, key: i64, value: i64, change: Change) -> Option<i64> {
    let mut t = map.root;
    if t.is_none() {
        map.size += 1;
        map.root = map.new_entry(key, value, None);
        return None;
    }
    loop {
        let cmp = compare(key, map.entry(t).key);
        let equal = match change {
            Change::EqualsValue => cmp == value,
            _ => cmp == 0,
        };
        if equal {
            let old_value = map.entry(t).value;
            map.entry_mut(t).value = match change {
                Change::StoresCmp => cmp,
                _ => value,
            };
            return Some(match change {
                Change::ReturnsCmp => cmp,
                _ => old_value,
            });
        }
        let next = if cmp < 0 {
            map.entry(t).left
        } else {
            map.entry(t).right
        };
        if next.is_some() {
            t = next;
            continue;
        }
        map.size += 1;
        let e = map.new_entry(key, value, t);
        if cmp < 0 {
            map.entry_mut(t).left = e;
        } else {
            map.entry_mut(t).right = e;
        }
        map.fix_after_insertion(e);
        return None;
    }
}

/// What the harness compares after a put: the outcome, the invariant and the mappings.
fn observe(call: &Call, result: Option<i64>) -> (Outcome, bool, Vec<(i64, i64)>) {
    let outcome = Outcome {
        result,
        contains_after: call.map.contains_key(call.key),
        get_after: call.map.get(call.key),
    };
    (outcome, BENCH.invariant(call), BENCH.abstraction(call))
}

/// Whether some put input of scopes 1..=3, with every entry mapping to `value` and `value`
/// put, tells the changed `put` from the original.
fn killed(change: Change, value: i64) -> bool {
    (1..=3).any(|n| {
        testing::method_inputs(&BENCH, PUT, n)
            .into_iter()
            .any(|mut call| {
                for e in &mut call.map.entries {
                    e.value = value;
                }
                let mut original = call.clone();
                let r = original.map.put(original.key, value);
                let mut mutated = call.clone();
                let m = put_changed(&mut mutated.map, mutated.key, value, change);
                observe(&original, r) != observe(&mutated, m)
            })
    })
}

#[test]
fn mutants_that_put_cmp_for_the_value_are_killed() {
    for change in [Change::EqualsValue, Change::StoresCmp, Change::ReturnsCmp] {
        assert!(killed(change, VALUE), "{change:?} survives");
        assert!(!killed(change, 0), "{change:?} with the value 0");
    }
}

/// The hand-written `put` is faithful: unchanged, the same check sees no difference.
#[test]
fn the_hand_written_put_is_the_original() {
    assert!(!killed(Change::None, VALUE));
    assert!(!killed(Change::None, 0));
}

#[test]
fn the_value_is_no_comparison_result_key_or_size() {
    assert!(![-1, 0, 1].contains(&VALUE));
    for n in 1..=7 {
        for call in testing::method_inputs(&BENCH, PUT, n) {
            assert!(call
                .map
                .entries
                .iter()
                .all(|e| e.value == VALUE && e.key != VALUE));
            assert_ne!(call.map.size, VALUE);
        }
    }
}

/// The entries of `map` in key order.
fn in_order(map: &TreeMap) -> Vec<EntryId> {
    fn go(map: &TreeMap, e: Option<EntryId>, out: &mut Vec<EntryId>) {
        if let Some(id) = e {
            go(map, map.entries[id].left, out);
            out.push(id);
            go(map, map.entries[id].right, out);
        }
    }
    let mut out = Vec::new();
    go(map, map.root, &mut out);
    out
}

/// JDK 1.3's `deleteEntry` moves an inner entry to its successor's place instead of copying
/// the successor's key and value into it: every entry left in the tree keeps its own mapping.
#[test]
fn removing_an_inner_entry_moves_entries_not_mappings() {
    let mut inner = 0;
    for n in 1..=6 {
        for call in testing::method_inputs(&BENCH, REMOVE, n) {
            let before = call.map.clone();
            let mut after = call.clone();
            BENCH.run(REMOVE, &mut after);
            for id in in_order(&after.map) {
                let (was, is) = (&before.entries[id], &after.map.entries[id]);
                assert_eq!((was.key, was.value), (is.key, is.value));
            }
            let p = before.get_entry(call.key);
            if p.is_some() && before.entry(p).left.is_some() && before.entry(p).right.is_some() {
                inner += 1;
            }
        }
    }
    assert!(inner > 0);
}

/// The tree by places: for each entry in pre-order, its path from the root (`L`/`R`), its
/// id, its colour, and whether its children's `parent` links name it.
fn places(map: &TreeMap) -> Vec<(String, EntryId, bool, bool)> {
    fn go(
        map: &TreeMap,
        e: Option<EntryId>,
        path: String,
        out: &mut Vec<(String, EntryId, bool, bool)>,
    ) {
        if let Some(id) = e {
            let entry = &map.entries[id];
            let linked = [entry.left, entry.right]
                .into_iter()
                .flatten()
                .all(|c| map.entries[c].parent == Some(id));
            out.push((path.clone(), id, entry.color, linked));
            go(map, entry.left, format!("{path}L"), out);
            go(map, entry.right, format!("{path}R"), out);
        }
    }
    let mut out = Vec::new();
    go(map, map.root, String::new(), &mut out);
    out
}

/// `swapPosition` is general, as the JDK's: for every pair of entries of every tree up to
/// scope 5 — parent and child either way round, the root, unrelated entries — the two
/// exchange places (links and colours) and nothing else moves.
#[test]
fn swap_position_exchanges_any_two_entries() {
    let mut adjacent = 0;
    for n in 1..=5 {
        for call in testing::method_inputs(&BENCH, PUT, n) {
            let ids: Vec<EntryId> = in_order(&call.map);
            for &x in &ids {
                for &y in &ids {
                    if x == y {
                        continue;
                    }
                    let mut map = call.map.clone();
                    map.swap_position(Some(x), Some(y));
                    let rename = |id| match id {
                        _ if id == x => y,
                        _ if id == y => x,
                        _ => id,
                    };
                    let expected: Vec<_> = places(&call.map)
                        .into_iter()
                        .map(|(path, id, color, linked)| (path, rename(id), color, linked))
                        .collect();
                    assert_eq!(places(&map), expected, "swap {x} {y}");
                    assert_eq!(map.entry(map.root).parent, None);
                    if call.map.entries[x].parent == Some(y) {
                        adjacent += 1;
                    }
                }
            }
        }
    }
    assert!(adjacent > 0);
}
