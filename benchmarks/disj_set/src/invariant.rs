//! The class invariant (`repOk`), written once over a read-only view.
//!
//! Korat runs it on candidates (through `View`, whose reads are recorded) and the runner on
//! real post-states (through `Real`). Read order: the array's
//! length against `size`; the array slots, stopping at the first repeated record; then per
//! index its record's `parent` and, for a non-root, the parent's `rank` and its own; finally
//! the ranks of all records, counting the rank-0 ones against the roots.

use ferastrau_sdk::korat::Visited;

use crate::disj_set::DisjSetView;

/// A disjoint set's reads as `repOk` makes them, through the derived view (`DisjSetView`: a
/// candidate or a real set): array slots hold record ids, read through `elements`.
pub trait SetView: DisjSetView {
    /// `elements.length`.
    #[inline(always)]
    fn length(&mut self) -> i64 {
        let a = self.elements();
        i64::from(self.elements_len(a))
    }
    /// The record in slot `i` of the array (`i < length`).
    #[inline(always)]
    fn element(&mut self, i: u32) -> u32 {
        let a = self.elements();
        self.elements_at(a, i)
    }
}

impl<V: DisjSetView> SetView for V {}

/// The class invariant.
pub fn rep_ok(v: &mut impl SetView) -> bool {
    // the array holds exactly the elements
    let length = v.length();
    let size = v.size();
    if length != size {
        return false;
    }
    // no record shared by two slots
    if !all_different(v, size) {
        return false;
    }
    // parents are element indices and ranks grow strictly towards the root
    let mut roots = 0;
    for i in 0..size {
        let rec = v.element(i as u32);
        let parent = v.parent(rec);
        if parent < 0 || parent >= size {
            return false;
        }
        if parent != i {
            let parent_rec = v.element(parent as u32);
            let parent_rank = v.rank(parent_rec);
            if parent_rank <= v.rank(rec) {
                return false;
            }
        } else {
            roots += 1;
        }
    }
    // at most as many sets (roots) as elements of rank 0
    let mut rank_zero = 0;
    for i in 0..size {
        let rec = v.element(i as u32);
        if v.rank(rec) == 0 {
            rank_zero += 1;
        }
    }
    roots <= rank_zero
}

/// The first `size` array slots hold distinct records (read in order, up to the first repeat).
pub fn all_different(v: &mut impl SetView, size: i64) -> bool {
    let mut seen = Visited::new();
    for i in 0..size {
        if !seen.insert(v.element(i as u32)) {
            return false;
        }
    }
    true
}
