//! The class invariant (`repOk`), written once over a read-only view.
//!
//! Korat runs it on candidates (through [`crate::space::CandidateSet`], whose reads are
//! recorded) and the runner runs it on real post-states (through [`RealSet`]). It reads the
//! map, its table, the table's length and the count (checked against the threshold at once),
//! then walks the buckets in order and each chain along `next`, reading every entry's key and,
//! for a non-null key, the key's hash, and giving up as soon as there are more entries than
//! the count says — the order that lets Korat prune early. Two checks only bite on real
//! states, which carry fields the finitization leaves out: the stored threshold and each
//! entry's cached hash.

use ferastrau_sdk::korat::Visited;

use crate::set::{HashSet, LOAD_FACTOR};

/// Read access to a set: the map, its table (by id), entries and keys (by id).
pub trait SetView {
    fn map(&mut self) -> Option<u32>;
    fn table(&mut self, map: u32) -> Option<u32>;
    fn count(&mut self, map: u32) -> i64;
    /// The stored threshold, if the state has one (candidates do not).
    fn threshold(&mut self, map: u32) -> Option<i64>;
    fn length(&mut self, table: u32) -> i64;
    fn bucket(&mut self, table: u32, i: i64) -> Option<u32>;
    fn key(&mut self, e: u32) -> Option<u32>;
    fn next(&mut self, e: u32) -> Option<u32>;
    /// The hash an entry caches, if the state has one (candidates do not).
    fn cached_hash(&mut self, e: u32) -> Option<i64>;
    fn hash(&mut self, k: u32) -> i64;
}

/// The bucket of a key with hash code `hash` in a table of `length` buckets.
pub fn index_for(hash: i64, length: i64) -> i64 {
    (hash & 0x7FFF_FFFF) % length
}

/// The threshold of a table of `length` buckets: `(int) (length · 0.75)`.
pub fn threshold_for(length: i64) -> i64 {
    (length as f32 * LOAD_FACTOR) as i64
}

/// The class invariant: a non-empty table whose chains are acyclic and disjoint; the null
/// key only in bucket 0, any other key in bucket `hash mod length`; no key twice (at most one
/// null); `count` = the number of entries; `count` ≤ the threshold.
pub fn rep_ok(v: &mut impl SetView) -> bool {
    let Some(map) = v.map() else {
        return false;
    };
    let Some(table) = v.table(map) else {
        return false;
    };
    let length = v.length(table);
    if length < 1 {
        return false;
    }
    let count = v.count(map);
    let limit = threshold_for(length);
    if count > limit || v.threshold(map).is_some_and(|t| t != limit) {
        return false;
    }
    let mut entries = Visited::new();
    let mut keys = Visited::new();
    let mut null_key = false;
    for i in 0..length {
        let mut e = v.bucket(table, i);
        while let Some(entry) = e {
            if entries.len() as i64 == count || !entries.insert(entry) {
                return false;
            }
            let hash = match v.key(entry) {
                None => {
                    if i != 0 || null_key {
                        return false;
                    }
                    null_key = true;
                    0
                }
                Some(k) => {
                    if !keys.insert(k) {
                        return false;
                    }
                    let hash = v.hash(k);
                    if index_for(hash, length) != i {
                        return false;
                    }
                    hash
                }
            };
            if v.cached_hash(entry).is_some_and(|h| h != hash) {
                return false;
            }
            e = v.next(entry);
        }
    }
    entries.len() as i64 == count
}

/// A real set seen through [`SetView`]: one map (id 0) with one table (id 0).
pub struct RealSet<'a>(pub &'a HashSet);

impl SetView for RealSet<'_> {
    fn map(&mut self) -> Option<u32> {
        Some(0)
    }
    fn table(&mut self, _map: u32) -> Option<u32> {
        Some(0)
    }
    fn count(&mut self, _map: u32) -> i64 {
        self.0.map.count
    }
    fn threshold(&mut self, _map: u32) -> Option<i64> {
        Some(self.0.map.threshold)
    }
    fn length(&mut self, _table: u32) -> i64 {
        self.0.map.table.len() as i64
    }
    fn bucket(&mut self, _table: u32, i: i64) -> Option<u32> {
        self.0.map.table[i as usize].map(|e| e as u32)
    }
    fn key(&mut self, e: u32) -> Option<u32> {
        self.0.map.entries[e as usize].key.map(|k| k.0 as u32)
    }
    fn next(&mut self, e: u32) -> Option<u32> {
        self.0.map.entries[e as usize].next.map(|e| e as u32)
    }
    fn cached_hash(&mut self, e: u32) -> Option<i64> {
        Some(self.0.map.entries[e as usize].hash)
    }
    fn hash(&mut self, k: u32) -> i64 {
        self.0.map.keys[k as usize].hash
    }
}
