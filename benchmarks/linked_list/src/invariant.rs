//! The class invariant (`repOk`), written once over a read-only view.
//!
//! Korat runs it on candidates (through [`crate::space::CandidateList`], whose reads are
//! recorded) and the runner runs it on real post-states (through [`RealList`]). It reads the
//! header, the header's element, then walks the ring along `next`, checking each
//! `next.previous` on the way, and reads `size` last. The data elements are never read: any
//! object (or null) is a valid element, so Korat enumerates them only on valid candidates.

use ferastrau_sdk::korat::Visited;

use crate::list::LinkedList;

/// Read access to a list, by entry id; elements are element-object ids.
pub trait ListView {
    fn header(&mut self) -> Option<u32>;
    fn size(&mut self) -> i64;
    fn element(&mut self, e: u32) -> Option<u32>;
    fn next(&mut self, e: u32) -> Option<u32>;
    fn previous(&mut self, e: u32) -> Option<u32>;
}

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

/// A real list seen through [`ListView`].
pub struct RealList<'a>(pub &'a LinkedList);

fn link(e: Option<usize>) -> Option<u32> {
    e.map(|e| e as u32)
}

impl ListView for RealList<'_> {
    fn header(&mut self) -> Option<u32> {
        link(self.0.header)
    }
    fn size(&mut self) -> i64 {
        self.0.size
    }
    fn element(&mut self, e: u32) -> Option<u32> {
        self.0.entries[e as usize].element.map(|x| x.0 as u32)
    }
    fn next(&mut self, e: u32) -> Option<u32> {
        link(self.0.entries[e as usize].next)
    }
    fn previous(&mut self, e: u32) -> Option<u32> {
        link(self.0.entries[e as usize].previous)
    }
}
