//! The class invariant, written once over a read-only view: Korat runs it on candidates
//! (through [`crate::space::CandidateSet`], whose reads it records to prune the search) and
//! the runner runs it on real post-states (through [`RealSet`]).

use ferastrau_sdk::korat::Visited;

use crate::set::IntSet;

/// Read access to a set, by node id.
pub trait SetView {
    fn head(&mut self) -> Option<u32>;
    fn size(&mut self) -> i64;
    fn next(&mut self, n: u32) -> Option<u32>;
    fn value(&mut self, n: u32) -> i64;
}

/// The class invariant: the list from `head` is acyclic and strictly increasing, and `size`
/// is its length.
///
/// It reads every field of every reachable node: a field it never read would still be
/// enumerated by Korat (every value of it, for every valid candidate), multiplying the input
/// counts without telling the inputs apart.
pub fn rep_ok(v: &mut impl SetView) -> bool {
    let mut visited = Visited::new();
    let mut previous: Option<i64> = None;
    let mut current = v.head();
    while let Some(n) = current {
        if !visited.insert(n) {
            return false;
        }
        let value = v.value(n);
        if previous.is_some_and(|p| value <= p) {
            return false;
        }
        previous = Some(value);
        current = v.next(n);
    }
    v.size() == visited.len() as i64
}

/// A real set seen through [`SetView`].
pub struct RealSet<'a>(pub &'a IntSet);

impl SetView for RealSet<'_> {
    fn head(&mut self) -> Option<u32> {
        self.0.head.map(|n| n as u32)
    }
    fn size(&mut self) -> i64 {
        self.0.size
    }
    fn next(&mut self, n: u32) -> Option<u32> {
        self.0.nodes[n as usize].next.map(|n| n as u32)
    }
    fn value(&mut self, n: u32) -> i64 {
        self.0.nodes[n as usize].value
    }
}
