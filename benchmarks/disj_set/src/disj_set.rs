//! The code under test: an array-based union-find (disjoint-set forest) with union by rank and
//! path compression, after Cormen–Leiserson–Rivest (MAKE-SET, UNION, LINK, FIND-SET).
//!
//! The Java class holds `Record[] elements` and `int size`; a record holds the index of its
//! parent and its rank. Here `elements` is a `Vec<Record>` (the invariant requires distinct
//! records, so no two slots alias) and Java's `elements[i]` is [`DisjSet::rec`], which panics
//! outside the array exactly where Java throws an `ArrayIndexOutOfBoundsException`.
//! `find` locates the root in a first pass and hands the path to the helper `compress_path`
//! (CLR's two-pass FIND-SET written iteratively).

/// One element of the set: the index of its parent (itself for a root) and its rank.
#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Record {
    #[korat(ints(0, n - 1))]
    pub parent: i64,
    #[korat(ints(0, n - 1))]
    pub rank: i64,
}

/// The exception a call raises on a valid receiver (Java's exceptional output).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exception {
    /// An argument is not an element index (`< 0` or `>= size`).
    IndexOutOfBounds,
}

/// A partition of the element indices `0..size`. Its `#[korat]` attributes give `finDisjSet(n)`:
/// n records listed in a `Record[]` of length 0..n, `size` 0..n, `parent` and `rank` 0..n−1.
#[derive(Clone, Debug, Default, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct DisjSet {
    #[korat(pool(n), array(0, n))]
    pub elements: Vec<Record>,
    #[korat(ints(0, n))]
    pub size: i64,
}

impl DisjSet {
    /// `elements[i]`; panics outside the array (a negative index too).
    pub fn rec(&self, i: i64) -> &Record {
        &self.elements[usize::try_from(i).expect("array index out of bounds")]
    }

    /// `elements[i]`, for writing; panics outside the array (a negative index too).
    pub fn rec_mut(&mut self, i: i64) -> &mut Record {
        &mut self.elements[usize::try_from(i).expect("array index out of bounds")]
    }

    /// The `n` singletons `{0}, …, {n−1}` (MAKE-SET on each index).
    pub fn new(n: i64) -> DisjSet {
        let mut elements = Vec::new();
        for i in 0..n {
            elements.push(Record { parent: i, rank: 0 });
        }
        DisjSet { elements, size: n }
    }

    /// Merges the sets holding `a` and `b` (CLR's UNION and LINK): the root of smaller rank
    /// goes under the other; on equal ranks `a`'s root goes under `b`'s, whose rank grows.
    pub fn union(&mut self, a: i64, b: i64) -> Result<(), Exception> {
        let x = self.find(a)?;
        let y = self.find(b)?;
        if x == y {
            return Ok(());
        }
        if self.rec(x).rank > self.rec(y).rank {
            self.rec_mut(y).parent = x;
        } else {
            self.rec_mut(x).parent = y;
            if self.rec(x).rank == self.rec(y).rank {
                self.rec_mut(y).rank = self.rec(y).rank + 1;
            }
        }
        Ok(())
    }

    /// The representative (root) of the set holding `a`; afterwards every element on the path
    /// from `a` points straight at it (CLR's FIND-SET).
    pub fn find(&mut self, a: i64) -> Result<i64, Exception> {
        if a < 0 || a >= self.size {
            return Err(Exception::IndexOutOfBounds);
        }
        let mut root = a;
        while self.rec(root).parent != root {
            root = self.rec(root).parent;
        }
        self.compress_path(a, root);
        Ok(root)
    }

    /// Makes every element on the path from `a` up to `root` a child of `root`.
    pub fn compress_path(&mut self, a: i64, root: i64) {
        let mut current = a;
        while current != root {
            let next = self.rec(current).parent;
            self.rec_mut(current).parent = root;
            current = next;
        }
    }
}
