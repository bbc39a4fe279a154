//! The class invariant (`repOk`), written once over the map's derived view (`HashMapView`).
//!
//! Korat runs it on candidates (through `View`, whose reads are recorded) and the runner runs
//! it on real post-states (through `Real`). It reads the table, its length and the count
//! (checked against the threshold at once), then walks the buckets in order and each chain
//! along `next`, reading every entry's key and, for a non-null key, the key's hash, and giving
//! up as soon as there are more entries than the count says — the order that lets Korat prune
//! early. Two checks only bite on real states, which carry fields the finitization leaves out
//! ([`Cached`]): the stored threshold and each entry's cached hash.

use ferastrau_sdk::korat::view::{Real, View};
use ferastrau_sdk::korat::Visited;

use crate::set::{HashMap, HashMapView, LOAD_FACTOR};
use crate::space::Fields;

/// What a real map caches beside the fields Korat generates (a candidate has neither: its
/// decoder derives them).
pub trait Cached: HashMapView {
    /// The stored threshold.
    fn threshold(&mut self) -> Option<i64>;
    /// The hash entry `e` caches.
    fn cached_hash(&mut self, e: u32) -> Option<i64>;
}

impl Cached for View<'_, '_, Fields> {
    #[inline(always)]
    fn threshold(&mut self) -> Option<i64> {
        None
    }
    #[inline(always)]
    fn cached_hash(&mut self, _e: u32) -> Option<i64> {
        None
    }
}

impl Cached for Real<'_, HashMap> {
    fn threshold(&mut self) -> Option<i64> {
        Some(self.0.threshold)
    }
    fn cached_hash(&mut self, e: u32) -> Option<i64> {
        Some(self.0.entries[e as usize].hash)
    }
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
pub fn rep_ok(v: &mut impl Cached) -> bool {
    // Java's `if (table == null) return false`: a `Vec` is never null, so the derived view
    // reads the table as an object, and the check would be a branch no input takes.
    let table = v.table();
    let length = i64::from(v.table_len(table));
    if length < 1 {
        return false;
    }
    let count = v.count();
    let limit = threshold_for(length);
    if count > limit || v.threshold().is_some_and(|t| t != limit) {
        return false;
    }
    let mut entries = Visited::new();
    let mut keys = Visited::new();
    let mut null_key = false;
    for i in 0..length {
        let mut e = v.table_at(table, i as u32);
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
