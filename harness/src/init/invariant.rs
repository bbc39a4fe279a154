//! The class invariant, written once over the read-only view `#[derive(Korat)]` makes of
//! `IntSet` (`IntSetView`, a node by its id): Korat runs it on candidates (through `View`,
//! whose reads it records to prune the search) and the runner on real post-states (through
//! `Real`).

use ferastrau_sdk::korat::Visited;

use crate::set::IntSetView;

/// The class invariant: the list from `head` is acyclic and strictly increasing, and `size`
/// is its length.
///
/// It reads every field of every reachable node: a field it never read would still be
/// enumerated by Korat (every value of it, for every valid candidate), multiplying the input
/// counts without telling the inputs apart.
pub fn rep_ok(v: &mut impl IntSetView) -> bool {
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
