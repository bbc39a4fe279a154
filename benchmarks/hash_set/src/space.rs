//! Korat's side: `add`'s and `remove`'s finitization (the map's derived one, `#[korat]` in
//! `crate::set`, and the argument `o`), decoding a valid candidate, and rendering.

use ferastrau_sdk::korat::view::Root;
use ferastrau_sdk::korat::{Candidate, Domain, Finitization};

use crate::invariant::threshold_for;
use crate::set::{HashMap, HashSet, KeyId, LOAD_FACTOR};

pub use crate::set::HashMapFields as Fields;

/// `finHashSet(n)`: the map's table (an array of length 1..n whose slots are null or one of n
/// entries) and count 0..n; an entry's key (null or one of n key objects) and next entry (or
/// null); a key object's hash code, 0..n−1. Entries and key objects are objects, so they take
/// part in isomorphism breaking. With `with_arg`, the root also holds `o` over null and the
/// same key objects, declared last: the invariant never reads it, so Korat appends it after
/// the structure and canonicalises it jointly with the keys — `o` is null, a key of the set,
/// or one fresh key whose hash code Korat then enumerates.
pub fn finitization(root_name: &str, n: u32, with_arg: bool) -> (Finitization, Fields) {
    let o = [("o", Domain::nullable(HashMap::class_id("Key")))];
    HashMap::finitization(root_name, n, if with_arg { &o } else { &[] })
}

/// A valid candidate as a real set and argument: entries numbered bucket by bucket along the
/// chains and key objects in order of first appearance (the derived decoder's pre-order; a
/// fresh `o` after them); the threshold follows from the length, each entry's hash from its key.
pub fn decode(c: &mut Candidate<'_>, f: &Fields) -> (HashSet, Option<KeyId>) {
    let o: &[_] = if f.extra("o").is_some() {
        &[("o", "Key")]
    } else {
        &[]
    };
    let (mut map, linked) = HashMap::decode_with(c, f, o);
    map.threshold = threshold_for(map.table.len() as i64);
    map.load_factor = LOAD_FACTOR;
    for e in 0..map.entries.len() {
        map.entries[e].hash = map.entries[e].key.map_or(0, |k| map.keys[k.0].hash);
    }
    (
        HashSet { map },
        linked.first().copied().flatten().map(KeyId),
    )
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
