//! DisjSet (the paper's Table 1): an array-based union-find with union by rank and path
//! compression, as a Ferastrau benchmark.
//!
//! Target methods `union(a, b)` and `find(a)` (helper `compress_path`), with `a`, `b` over the
//! scope's `n` indices 0..n−1, generated jointly with the receiver and *not* restricted to the
//! receiver's `size`: an index at or past `size` makes the call raise
//! [`Exception::IndexOutOfBounds`], an output like any other. Outputs are compared by the
//! return value and the post-state's records (parent and rank of each index): the array *is*
//! the value of an array-based structure (no object identities to abstract from), and path
//! compression and union by rank are only visible there.

pub mod dedicated;
pub mod disj_set;
pub mod invariant;
pub mod space;

use ferastrau_sdk::korat::view::{Real, Root, View};
use ferastrau_sdk::korat::{Candidate, Finitization};
use ferastrau_sdk::Benchmark;

pub use disj_set::{DisjSet, Exception, Record};
use invariant::rep_ok;
use space::{render_set, Fields};

/// The benchmark.
pub struct DisjSetBench;

/// One call: the receiver and the arguments (`b` is unused by `find`).
#[derive(Clone, Debug)]
pub struct Call {
    pub set: DisjSet,
    pub a: i64,
    pub b: i64,
}

/// What a call returns: `union`'s nothing (`Ok(None)`), `find`'s root, or the exception.
pub type Ret = Result<Option<i64>, Exception>;

const METHODS: &[&str] = &["union", "find"];
const UNION: usize = 0;

impl DisjSetBench {
    /// The root of `i`'s tree, following parents (the set satisfies the invariant, so ranks
    /// grow strictly along the way and the walk ends).
    pub fn root_of(s: &DisjSet, mut i: i64) -> i64 {
        while s.elements[i as usize].parent != i {
            i = s.elements[i as usize].parent;
        }
        i
    }

    /// The partition of `0..size`: each index labelled with the smallest index of its set.
    pub fn partition(s: &DisjSet) -> Vec<i64> {
        let roots: Vec<i64> = (0..s.size).map(|i| Self::root_of(s, i)).collect();
        let mut smallest = vec![i64::MAX; s.elements.len()];
        for (i, &r) in roots.iter().enumerate() {
            smallest[r as usize] = smallest[r as usize].min(i as i64);
        }
        roots.iter().map(|&r| smallest[r as usize]).collect()
    }

    /// The path from `i` to its root, both ends included.
    fn path(s: &DisjSet, mut i: i64) -> Vec<i64> {
        let mut p = vec![i];
        while s.elements[i as usize].parent != i {
            i = s.elements[i as usize].parent;
            p.push(i);
        }
        p
    }
}

impl Benchmark for DisjSetBench {
    type Fields = Fields;
    type Input = Call;
    type Ret = Ret;
    type Abstraction = Vec<Record>;

    fn methods(&self) -> &'static [&'static str] {
        METHODS
    }

    fn finitize(&self, method: usize, scope: u32) -> (Finitization, Fields) {
        let args = if method == UNION { 2 } else { 1 };
        space::finitization(&format!("DisjSet_{}", METHODS[method]), scope, args)
    }

    /// The precondition is `rep_ok` for every method: one structure search serves them all.
    fn precondition_is_invariant(&self, _method: usize) -> bool {
        true
    }

    fn precondition(&self, _method: usize, f: &Fields, c: &mut Candidate<'_>) -> bool {
        rep_ok(&mut View::new(c, f))
    }

    const HAS_DEDICATED: bool = true;

    fn precondition_dedicated(&self, _method: usize, f: &Fields, c: &mut Candidate<'_>) -> bool {
        dedicated::rep_ok_dedicated(c, f)
    }

    fn decode(&self, _method: usize, f: &Fields, c: &mut Candidate<'_>) -> Call {
        let a = f.extra("a").map_or(0, |fa| c.int(fa, 0));
        let b = f.extra("b").map_or(0, |fb| c.int(fb, 0));
        Call {
            set: DisjSet::decode(c, f),
            a,
            b,
        }
    }

    fn run(&self, method: usize, input: &mut Call) -> Ret {
        match method {
            UNION => input.set.union(input.a, input.b).map(|()| None),
            _ => input.set.find(input.a).map(Some),
        }
    }

    fn invariant(&self, input: &Call) -> bool {
        rep_ok(&mut Real(&input.set))
    }

    fn abstraction(&self, input: &Call) -> Vec<Record> {
        input.set.elements.clone()
    }

    fn postcondition(
        &self,
        method: usize,
        pre: &Call,
        post: &Call,
        ret: &Ret,
    ) -> Result<(), String> {
        let size = pre.set.size;
        let in_range = |x: i64| 0 <= x && x < size;
        let before = Self::partition(&pre.set);
        let after = Self::partition(&post.set);
        let args_ok = in_range(pre.a) && (method != UNION || in_range(pre.b));
        if !args_ok {
            // signals IndexOutOfBoundsException; the sets are unchanged
            if *ret != Err(Exception::IndexOutOfBounds) {
                return Err(format!("returned {ret:?} for an index outside 0..{size}"));
            }
            if after != before {
                return Err("a failed call changed the sets".into());
            }
            return Ok(());
        }
        if method == UNION {
            // ensures: the sets of a and b are merged, the others unchanged
            if *ret != Ok(None) {
                return Err(format!("union returned {ret:?}"));
            }
            let (la, lb) = (before[pre.a as usize], before[pre.b as usize]);
            let merged: Vec<i64> = before
                .iter()
                .map(|&l| if l == la || l == lb { la.min(lb) } else { l })
                .collect();
            // (labels are smallest members, and the merged set's is the smaller of the two)
            if after != merged {
                return Err(format!(
                    "sets {after:?} after union({}, {}), expected {merged:?}",
                    pre.a, pre.b
                ));
            }
            return Ok(());
        }
        // find: ensures \result is a's root, the sets are unchanged, the path is compressed
        let root = Self::root_of(&pre.set, pre.a);
        if *ret != Ok(Some(root)) {
            return Err(format!("find({}) returned {ret:?}, root is {root}", pre.a));
        }
        if after != before {
            return Err(format!("find changed the sets: {before:?} -> {after:?}"));
        }
        for i in Self::path(&pre.set, pre.a) {
            if post.set.elements[i as usize].parent != root {
                return Err(format!(
                    "{i} is on the path but not a child of the root {root}"
                ));
            }
        }
        Ok(())
    }

    fn render(&self, method: usize, input: &Call) -> String {
        let args = if method == UNION {
            format!("{}, {}", input.a, input.b)
        } else {
            input.a.to_string()
        };
        format!("{}({args}) on {}", METHODS[method], render_set(&input.set))
    }
}

ferastrau_sdk::export!(DisjSetBench);
