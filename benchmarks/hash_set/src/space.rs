//! Korat's side: the finitization (receiver and argument as fields of one root object), the
//! candidate view, decoding a valid candidate and rendering.

use ferastrau_sdk::korat::{Candidate, Domain, FieldId, Finitization, FinitizationBuilder, ROOT};

use crate::invariant::{threshold_for, SetView};
use crate::set::{Entry, HashMap, HashSet, Key, KeyId, LOAD_FACTOR};

/// Field ids of a hash-set finitization.
pub struct Fields {
    pub map: FieldId,
    pub table: FieldId,
    pub count: FieldId,
    pub length: FieldId,
    /// `table[k]`, for k < n.
    pub buckets: Vec<FieldId>,
    pub key: FieldId,
    pub next: FieldId,
    pub hash: FieldId,
    /// The argument `o` of `add(o)` / `remove(o)`; absent for the bare set.
    pub arg: Option<FieldId>,
}

/// `finHashSet(n)`: the set (the root) holds its map; the map holds a table (an array of
/// length 1..n whose slots are null or one of n entries) and a count 0..n; an entry holds a
/// key (null or one of n key objects) and its next entry (or null); a key object holds its
/// hash code, 0..n−1. Entries and key objects are objects, so they take part in isomorphism
/// breaking. With `with_arg`, the root also holds `o` over null and the same key objects,
/// declared last: the invariant never reads it, so Korat appends it after the structure and
/// canonicalises it jointly with the keys — `o` is null, a key of the set, or one fresh key
/// whose hash code Korat then enumerates.
pub fn finitization(root_name: &str, n: u32, with_arg: bool) -> (Finitization, Fields) {
    let n64 = i64::from(n);
    let mut b = FinitizationBuilder::new(root_name);
    let map = b.class("HashMap", 1);
    let entry = b.class("Entry", n);
    let key = b.class("Key", n);
    let table = b.array(
        "Entry[]",
        1,
        Domain::ints(1, n64),
        n,
        &[("table", Domain::nullable(entry))],
    );
    b.field(ROOT, "map", Domain::objects(map));
    if with_arg {
        b.field(ROOT, "o", Domain::nullable(key));
    }
    b.field(map, "table", Domain::objects(table));
    b.field(map, "count", Domain::ints(0, n64));
    b.field(entry, "key", Domain::nullable(key));
    b.field(entry, "next", Domain::nullable(entry));
    b.field(key, "hash", Domain::ints(0, n64 - 1));
    let fin = b.build();
    let fields = Fields {
        map: fin.field(ROOT, "map"),
        table: fin.field(map, "table"),
        count: fin.field(map, "count"),
        length: fin.field(table, "length"),
        buckets: (0..n).map(|k| fin.element(table, k, 0)).collect(),
        key: fin.field(entry, "key"),
        next: fin.field(entry, "next"),
        hash: fin.field(key, "hash"),
        arg: with_arg.then(|| fin.field(ROOT, "o")),
    };
    (fin, fields)
}

/// A candidate seen as a set; every first read of a field is recorded by Korat.
pub struct CandidateSet<'c, 'a> {
    pub c: &'c mut Candidate<'a>,
    pub f: &'c Fields,
}

impl SetView for CandidateSet<'_, '_> {
    fn map(&mut self) -> Option<u32> {
        self.c.obj(self.f.map, 0)
    }
    fn table(&mut self, map: u32) -> Option<u32> {
        self.c.obj(self.f.table, map)
    }
    fn count(&mut self, map: u32) -> i64 {
        self.c.int(self.f.count, map)
    }
    fn threshold(&mut self, _map: u32) -> Option<i64> {
        None
    }
    fn length(&mut self, table: u32) -> i64 {
        self.c.int(self.f.length, table)
    }
    fn bucket(&mut self, table: u32, i: i64) -> Option<u32> {
        self.c.obj(self.f.buckets[i as usize], table)
    }
    fn key(&mut self, e: u32) -> Option<u32> {
        self.c.obj(self.f.key, e)
    }
    fn next(&mut self, e: u32) -> Option<u32> {
        self.c.obj(self.f.next, e)
    }
    fn cached_hash(&mut self, _e: u32) -> Option<i64> {
        None
    }
    fn hash(&mut self, k: u32) -> i64 {
        self.c.int(self.f.hash, k)
    }
}

/// A valid candidate as a real set and argument: entries renumbered bucket by bucket along
/// the chains, key objects renumbered in order of first appearance (the set's keys, then a
/// fresh `o`), each entry caching its key's hash and the threshold set from the length.
pub fn decode(c: &mut Candidate<'_>, f: &Fields) -> (HashSet, Option<KeyId>) {
    let mut v = CandidateSet { c, f };
    let map = v.map().expect("a valid set has a map");
    let table = v.table(map).expect("a valid map has a table");
    let length = v.length(table);
    let mut key_ids: Vec<u32> = Vec::new();
    let mut keys: Vec<Key> = Vec::new();
    let mut intern = |v: &mut CandidateSet<'_, '_>, k: Option<u32>| -> Option<KeyId> {
        let k = k?;
        if let Some(i) = key_ids.iter().position(|&x| x == k) {
            return Some(KeyId(i));
        }
        key_ids.push(k);
        keys.push(Key { hash: v.hash(k) });
        Some(KeyId(keys.len() - 1))
    };
    let mut entries: Vec<Entry> = Vec::new();
    let mut buckets = Vec::with_capacity(length as usize);
    for i in 0..length {
        let mut e = v.bucket(table, i);
        buckets.push(e.map(|_| entries.len()));
        while let Some(x) = e {
            let k = v.key(x);
            let key = intern(&mut v, k);
            let hash = k.map_or(0, |k| v.hash(k));
            e = v.next(x);
            let next = e.map(|_| entries.len() + 1);
            entries.push(Entry { hash, key, next });
        }
    }
    let o = match f.arg {
        Some(arg) => {
            let o = v.c.obj(arg, 0);
            intern(&mut v, o)
        }
        None => None,
    };
    let set = HashSet {
        map: HashMap {
            table: buckets,
            count: v.count(map),
            threshold: threshold_for(length),
            load_factor: LOAD_FACTOR,
            entries,
            keys,
        },
    };
    (set, o)
}

/// The keys of a set, bucket by bucket along the chains (the set satisfies the invariant).
pub fn keys(set: &HashSet) -> Vec<Option<KeyId>> {
    let m = &set.map;
    let mut out = Vec::new();
    for &b in &m.table {
        let mut e = b;
        while let Some(x) = e {
            if out.len() >= m.entries.len() {
                return out;
            }
            out.push(m.entries[x].key);
            e = m.entries[x].next;
        }
    }
    out
}

/// Renders a key as `null` or `k0#1` (key object 0, hash code 1).
pub fn render_key(set: &HashSet, k: Option<KeyId>) -> String {
    match k {
        None => "null".to_string(),
        Some(KeyId(k)) => format!("k{k}#{}", set.map.keys[k].hash),
    }
}

/// Renders a set's table bucket by bucket: `[k0#0 -> null | _ | k1#2]` (`_` for an empty
/// bucket).
pub fn render_set(set: &HashSet) -> String {
    let m = &set.map;
    let mut buckets = Vec::new();
    for &b in &m.table {
        let mut chain = Vec::new();
        let mut e = b;
        while let Some(x) = e {
            if chain.len() >= m.entries.len() {
                break;
            }
            chain.push(render_key(set, m.entries[x].key));
            e = m.entries[x].next;
        }
        buckets.push(if chain.is_empty() {
            "_".to_string()
        } else {
            chain.join(" -> ")
        });
    }
    format!("[{}]", buckets.join(" | "))
}
