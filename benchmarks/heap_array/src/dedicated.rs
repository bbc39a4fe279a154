//! The class invariant with dedicated generators (the paper's Sec. 5): the checks of
//! [`crate::invariant::rep_ok`] in the same order of reads, each read saying which values it
//! must hold — the length at least the size, each element in use non-empty and at most its
//! parent's (heap order; the parent is read first), each free slot empty. Korat never assigns
//! what they rule out: the same heaps in the same order from fewer candidates.

use ferastrau_sdk::korat::Candidate;

use crate::heap_array::EMPTY;
use crate::space::Fields;

/// `rep_ok` on a Korat candidate, with dedicated generators.
pub fn rep_ok_dedicated(c: &mut Candidate<'_>, f: &Fields) -> bool {
    let Some(array) = c.obj(f.array.field, 0) else {
        return false;
    };
    let size = c.int(f.size, 0);
    if size < 0 {
        return false;
    }
    let Some(length) = c.int_in(f.array.length, array, size..) else {
        return false;
    };
    let mut elements: Vec<i64> = Vec::with_capacity(size as usize);
    for i in 0..size as usize {
        let most = if i == 0 {
            i64::MAX
        } else {
            elements[(i - 1) / 2]
        };
        let allowed = |v: i64| v != EMPTY && v <= most;
        match c.get_where(f.array.element(i as u32), array, |v| {
            v.int().is_some_and(allowed)
        }) {
            Some(v) => elements.push(v.int().expect("checked")),
            None => return false,
        }
    }
    (size..length).all(|i| c.int_is(f.array.element(i as u32), array, EMPTY))
}
