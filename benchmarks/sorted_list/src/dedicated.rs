//! The invariants with dedicated generators (the paper's Sec. 5): the checks of
//! [`crate::invariant`] in the same order of reads, each read saying which values it must hold
//! — a header not in another list, its element null, a ring along `next` of entries not
//! visited yet back to the header whose `previous` links point back
//! (`korat::dedicated::is_ring`), `size` the count, and each data element non-null and, in a
//! sorted list, at least the one before it (ordering). Korat never assigns what they rule out:
//! the same lists in the same order from fewer candidates.

use ferastrau_sdk::korat::dedicated::is_ring;
use ferastrau_sdk::korat::{Candidate, Visited};

use crate::space::{header_of, size_of, Fields};

/// [`crate::invariant::rep_ok`] of list `list`, with dedicated generators.
pub fn rep_ok_dedicated(c: &mut Candidate<'_>, f: &Fields, list: usize, sorted: bool) -> bool {
    let mut seen = Visited::new();
    match well_formed(c, f, list, &mut seen) {
        None => false,
        Some(header) => elements_ok(c, f, header, sorted),
    }
}

/// [`crate::invariant::rep_ok_pair`] (`merge`'s precondition), with dedicated generators.
pub fn rep_ok_pair_dedicated(c: &mut Candidate<'_>, f: &Fields) -> bool {
    let mut seen = Visited::new();
    for list in 0..2 {
        match well_formed(c, f, list, &mut seen) {
            Some(header) if elements_ok(c, f, header, true) => {}
            _ => return false,
        }
    }
    true
}

/// [`crate::invariant::is_well_formed`]: the header of a well-formed list of entries not in
/// `seen` (which gets them).
fn well_formed(c: &mut Candidate<'_>, f: &Fields, list: usize, seen: &mut Visited) -> Option<u32> {
    let (header_field, size) = (header_of(f, list), size_of(f, list));
    let taken = &*seen;
    let header = c.obj_where(header_field, 0, |t| t.is_some_and(|h| !taken.contains(h)))??;
    if !c.obj_is(f.entries.element, header, None) {
        return None;
    }
    seen.insert(header);
    let entries = is_ring(
        c,
        seen,
        header,
        [f.entries.next, f.entries.previous],
        None,
        |_, _, _| true,
    )?;
    c.int_is(size, 0, entries as i64 - 1).then_some(header)
}

/// [`crate::invariant::are_elements_ok`]: every data element non-null and, if `sorted`, no
/// smaller than the one before it.
fn elements_ok(c: &mut Candidate<'_>, f: &Fields, header: u32, sorted: bool) -> bool {
    let mut previous = i64::MIN;
    let mut e = c.obj(f.entries.next, header);
    while let Some(x) = e {
        if x == header {
            break;
        }
        let low = if sorted { previous } else { i64::MIN };
        let Some(element) = c.int_in(f.entries.element, x, low..) else {
            return false;
        };
        previous = element;
        e = c.obj(f.entries.next, x);
    }
    true
}
