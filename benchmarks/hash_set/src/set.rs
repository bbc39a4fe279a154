//! The code under test: `java.util.HashSet` backed by the JDK 1.3 `java.util.HashMap`, on an
//! arena, written from the JDK's documented behaviour and the textbook's chained hashing.
//!
//! The map is an array of buckets; each bucket is a singly linked chain of entries. A key `k`
//! lives in bucket `(k.hashCode() & 0x7FFFFFFF) % table.length`, the null key in bucket 0; an
//! entry caches its key's hash (0 for null) and is compared by hash first, then by `equals`.
//! New entries go to the front of their chain. A `put` of a new key at `count >= threshold`
//! first *rehashes*: capacity `2·old + 1`, threshold `(int) (capacity · loadFactor)` (0.75),
//! every entry to the front of its new bucket, old buckets from the last to the first. The set's
//! `add(o)` is `map.put(o, PRESENT) == null`, `remove(o)` is `map.remove(o) == PRESENT` and
//! `contains(o)` is `map.containsKey(o)`; as every value is `PRESENT`, the port leaves values
//! out and `put`/`remove` say whether the key had a mapping.
//!
//! Keys are objects with a hash code, equal only to themselves: `Option<KeyId>` into `keys`
//! (`None` is `null`). `Entry` references are `Option<EntryId>` into `entries`; `self.entry(e)`
//! panics on `None` where Java throws its NPE; references compare with `==`, mutated as in Java.
#![allow(clippy::partialeq_to_none)]

/// Index of an entry in the arena.
pub type EntryId = usize;

/// A key object by its index in `keys`: its own type, which the mutator never swaps with an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, ferastrau_sdk::Korat)]
pub struct KeyId(pub usize);

/// The load factor of every map (the JDK's default).
pub const LOAD_FACTOR: f32 = 0.75;

/// A key object: Java's `Object` with a fixed `hashCode()`.
#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Key {
    #[korat(ints(0, n - 1))]
    pub hash: i64,
}

/// A map entry (`HashMap.Entry` without its value); `hash` caches the key's (0 for null).
#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Entry {
    #[korat(skip)]
    pub hash: i64,
    pub key: Option<KeyId>,
    pub next: Option<EntryId>,
}

/// `java.util.HashMap` (JDK 1.3) with chained buckets; `keys`: the program's key objects.
#[derive(Clone, Debug, PartialEq, ferastrau_sdk::Korat)]
pub struct HashMap {
    #[korat(array(1, n))]
    pub table: Vec<Option<EntryId>>,
    #[korat(ints(0, n))]
    pub count: i64,
    #[korat(skip)]
    pub threshold: i64,
    pub load_factor: f32,
    #[korat(pool(n))]
    pub entries: Vec<Entry>,
    #[korat(pool(n))]
    pub keys: Vec<Key>,
}

/// `java.util.HashSet`: a set view of a map's keys.
#[derive(Clone, Debug, PartialEq)]
pub struct HashSet {
    pub map: HashMap,
}

impl HashSet {
    /// Adds `o`; returns whether it was absent.
    pub fn add(&mut self, o: Option<KeyId>) -> bool {
        !self.map.put(o)
    }

    /// Removes `o`; returns whether it was present.
    pub fn remove(&mut self, o: Option<KeyId>) -> bool {
        self.map.remove(o)
    }

    /// Whether `o` is in the set.
    pub fn contains(&self, o: Option<KeyId>) -> bool {
        self.map.contains_key(o)
    }
}

impl HashMap {
    /// An empty map with `capacity` buckets.
    pub fn new(capacity: usize, keys: Vec<Key>) -> Self {
        HashMap {
            table: vec![None; capacity],
            count: 0,
            threshold: (capacity as f32 * LOAD_FACTOR) as i64,
            load_factor: LOAD_FACTOR,
            entries: Vec::new(),
            keys,
        }
    }

    /// The entry `e` points to; `None` is a null dereference.
    pub fn entry(&self, e: Option<EntryId>) -> &Entry {
        &self.entries[e.expect("null dereference")]
    }

    /// The entry `e` points to, for writing; `None` is a null dereference.
    pub fn entry_mut(&mut self, e: Option<EntryId>) -> &mut Entry {
        &mut self.entries[e.expect("null dereference")]
    }

    /// `key.hashCode()`; a null key is a null dereference.
    pub fn hash_code(&self, key: Option<KeyId>) -> i64 {
        self.keys[key.expect("null dereference").0].hash
    }

    /// Java's `new Entry(hash, key, value, next)`.
    pub fn new_entry(
        &mut self,
        hash: i64,
        key: Option<KeyId>,
        next: Option<EntryId>,
    ) -> Option<EntryId> {
        self.entries.push(Entry { hash, key, next });
        Some(self.entries.len() - 1)
    }

    /// Whether the map has a mapping for `key`.
    pub fn contains_key(&self, key: Option<KeyId>) -> bool {
        if key != None {
            let hash = self.hash_code(key);
            let index = (hash & 0x7FFFFFFF) % self.table.len() as i64;
            let mut e = self.table[index as usize];
            while e != None {
                if self.entry(e).hash == hash && key == self.entry(e).key {
                    return true;
                }
                e = self.entry(e).next;
            }
        } else {
            let mut e = self.table[0];
            while e != None {
                if self.entry(e).key == None {
                    return true;
                }
                e = self.entry(e).next;
            }
        }
        false
    }

    /// Maps `key` (to `PRESENT`); returns whether it already had a mapping. A new key first
    /// rehashes a full table.
    pub fn put(&mut self, key: Option<KeyId>) -> bool {
        let mut hash = 0;
        let mut index = 0;
        if key != None {
            hash = self.hash_code(key);
            index = (hash & 0x7FFFFFFF) % self.table.len() as i64;
            let mut e = self.table[index as usize];
            while e != None {
                if self.entry(e).hash == hash && key == self.entry(e).key {
                    return true;
                }
                e = self.entry(e).next;
            }
        } else {
            let mut e = self.table[0];
            while e != None {
                if self.entry(e).key == None {
                    return true;
                }
                e = self.entry(e).next;
            }
        }
        if self.count >= self.threshold {
            // Rehash the table if the threshold is exceeded.
            self.rehash();
            index = (hash & 0x7FFFFFFF) % self.table.len() as i64;
        }
        let e = self.new_entry(hash, key, self.table[index as usize]);
        self.table[index as usize] = e;
        self.count += 1;
        false
    }

    /// Grows the table to `2·old + 1` buckets and redistributes the entries.
    pub fn rehash(&mut self) {
        let old_capacity = self.table.len() as i64;
        let old_map = self.table.clone();
        let new_capacity = old_capacity * 2 + 1;
        let mut new_map: Vec<Option<EntryId>> = vec![None; new_capacity as usize];
        self.threshold = (new_capacity as f32 * self.load_factor) as i64;
        let mut i = old_capacity;
        while i > 0 {
            i -= 1;
            let mut old = old_map[i as usize];
            while old != None {
                let e = old;
                old = self.entry(old).next;
                let index = (self.entry(e).hash & 0x7FFFFFFF) % new_capacity;
                self.entry_mut(e).next = new_map[index as usize];
                new_map[index as usize] = e;
            }
        }
        self.table = new_map;
    }

    /// Removes the mapping for `key`; returns whether there was one.
    pub fn remove(&mut self, key: Option<KeyId>) -> bool {
        if key != None {
            let hash = self.hash_code(key);
            let index = (hash & 0x7FFFFFFF) % self.table.len() as i64;
            let mut prev: Option<EntryId> = None;
            let mut e = self.table[index as usize];
            while e != None {
                if self.entry(e).hash == hash && key == self.entry(e).key {
                    if prev != None {
                        self.entry_mut(prev).next = self.entry(e).next;
                    } else {
                        self.table[index as usize] = self.entry(e).next;
                    }
                    self.count -= 1;
                    return true;
                }
                prev = e;
                e = self.entry(e).next;
            }
        } else {
            let mut prev: Option<EntryId> = None;
            let mut e = self.table[0];
            while e != None {
                if self.entry(e).key == None {
                    if prev != None {
                        self.entry_mut(prev).next = self.entry(e).next;
                    } else {
                        self.table[0] = self.entry(e).next;
                    }
                    self.count -= 1;
                    return true;
                }
                prev = e;
                e = self.entry(e).next;
            }
        }
        false
    }
}
