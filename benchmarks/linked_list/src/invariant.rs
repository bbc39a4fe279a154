//! The class invariant (`repOk`), written once over a read-only view.
//!
//! Korat runs it on candidates (a `View`, whose reads are recorded) and the runner runs it on
//! real post-states (a `Real`), both `#[derive(Korat)]`'s (`crate::list`). It reads the
//! header, the header's element, then walks the ring along `next`, checking each
//! `next.previous` on the way, and reads `size` last. The data elements are never read: any
//! object (or null) is a valid element, so Korat enumerates them only on valid candidates.

use ferastrau_sdk::korat::Visited;

pub use crate::list::LinkedListView as ListView;

/// The class invariant: a header with no element; a ring along `next` back to the header in
/// which every `next.previous` is the entry it came from; `size` = entries − 1.
pub fn rep_ok(v: &mut impl ListView) -> bool {
    let header = match v.header() {
        None => return false,
        Some(h) => h,
    };
    if v.element(header).is_some() {
        return false;
    }
    let mut visited = Visited::new();
    visited.insert(header);
    let mut current = header;
    loop {
        let next = match v.next(current) {
            None => return false,
            Some(n) => n,
        };
        if v.previous(next) != Some(current) {
            return false;
        }
        if next == header {
            break;
        }
        if !visited.insert(next) {
            return false;
        }
        current = next;
    }
    visited.len() as i64 - 1 == v.size()
}
