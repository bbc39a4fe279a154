//! A set of object ids that remembers insertion order, without allocating for small graphs.
//!
//! Invariants walk structures (breadth-first with a visited set, say) on every candidate; an
//! allocation per call would cost more than the rest of the predicate. Ids below 128 live in a
//! bit mask and an inline array; larger ids or more than [`INLINE`] members spill to the heap,
//! which only happens on the real structures a faulty mutant builds.

/// Members kept inline before spilling.
pub const INLINE: usize = 32;

/// Insertion-ordered set of small integer ids (object indices).
#[derive(Clone, Debug)]
pub struct Visited {
    /// Membership of ids below 128, 64 per word: two 64-bit words rather than a `u128`, whose
    /// variable shift costs several instructions and a branch on x86-64 where a word's is one.
    bits: [u64; 2],
    inline: [u32; INLINE],
    len: usize,
    spill: Vec<u32>,
}

impl Default for Visited {
    fn default() -> Self {
        Self::new()
    }
}

impl Visited {
    /// An empty set; small sets stay inline, without allocating.
    pub fn new() -> Self {
        Visited {
            bits: [0; 2],
            inline: [0; INLINE],
            len: 0,
            spill: Vec::new(),
        }
    }

    /// Adds `id`; false if it was already present (Java's `Set.add`).
    #[inline]
    pub fn insert(&mut self, id: u32) -> bool {
        if id < 128 {
            let (w, m) = Self::bit(id);
            if self.bits[w] & m != 0 {
                return false;
            }
            self.bits[w] |= m;
        } else if self.contains_slow(id) {
            return false;
        }
        if self.len < INLINE {
            self.inline[self.len] = id;
        } else {
            self.spill.push(id);
        }
        self.len += 1;
        true
    }

    /// Whether `id` is present.
    #[inline]
    pub fn contains(&self, id: u32) -> bool {
        if id < 128 {
            let (w, m) = Self::bit(id);
            self.bits[w] & m != 0
        } else {
            self.contains_slow(id)
        }
    }

    /// The word and mask of an id below 128.
    #[inline(always)]
    fn bit(id: u32) -> (usize, u64) {
        ((id >> 6) as usize, 1u64 << (id & 63))
    }

    fn contains_slow(&self, id: u32) -> bool {
        (0..self.len).any(|i| self.get(i) == id)
    }

    /// The `i`-th inserted id.
    #[inline]
    pub fn get(&self, i: usize) -> u32 {
        if i < INLINE {
            self.inline[i]
        } else {
            self.spill[i - INLINE]
        }
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing was inserted.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_and_rejects_repeats_across_the_spill() {
        let mut v = Visited::new();
        let ids: Vec<u32> = (0..40).map(|i| (i * 37) % 300).collect();
        for &i in &ids {
            assert!(v.insert(i));
        }
        for &i in &ids {
            assert!(!v.insert(i));
            assert!(v.contains(i));
        }
        assert!(!v.contains(299));
        assert_eq!((0..v.len()).map(|i| v.get(i)).collect::<Vec<_>>(), ids);
    }
}
