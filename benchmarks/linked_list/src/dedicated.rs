//! The class invariant with dedicated generators (the paper's Sec. 5): the checks of
//! [`crate::invariant::rep_ok`] in the same order of reads, each read saying which values it
//! must hold — a header, its element null, a ring along `next` of entries not visited yet back
//! to the header whose `previous` links point back (`korat::dedicated::is_ring`), and `size`
//! the count. Korat never assigns what they rule out: the same lists in the same order from
//! fewer candidates.

use ferastrau_sdk::korat::dedicated::is_ring;
use ferastrau_sdk::korat::{Candidate, Visited};

use crate::space::Fields;

/// `rep_ok` on a Korat candidate, with dedicated generators.
pub fn rep_ok_dedicated(c: &mut Candidate<'_>, f: &Fields) -> bool {
    let Some(Some(header)) = c.obj_where(f.header, 0, |t| t.is_some()) else {
        return false;
    };
    if !c.obj_is(f.entries.element, header, None) {
        return false;
    }
    let mut visited = Visited::new();
    visited.insert(header);
    match is_ring(
        c,
        &mut visited,
        header,
        [f.entries.next, f.entries.previous],
        None,
        |_, _, _| true,
    ) {
        Some(entries) => c.int_is(f.size, 0, entries as i64 - 1),
        None => false,
    }
}
