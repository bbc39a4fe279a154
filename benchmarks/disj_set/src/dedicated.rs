//! The class invariant with dedicated generators (the paper's Sec. 5): the checks of
//! [`crate::invariant::rep_ok`] in the same order of reads, each read saying which values it
//! must hold — `size` the array's length, the first `size` slots all different (a record not
//! seen yet), each `parent` an element index, and a child's rank below its parent's (bounding
//! the parent's rank by the child's when that one is already fixed, [`Candidate::fixed`]).
//! The count of roots against rank-0 elements stays a plain check (it is only known at the
//! end). Korat never assigns what they rule out: the same sets in the same order from fewer
//! candidates.

use ferastrau_sdk::korat::{Candidate, Value, Visited};

use crate::space::Fields;

/// `rep_ok` on a Korat candidate, with dedicated generators.
pub fn rep_ok_dedicated(c: &mut Candidate<'_>, f: &Fields) -> bool {
    let elements = f
        .elements_listed
        .expect("the finitization lists the records");
    let array = c.obj(elements.field, 0).expect("elements is never null");
    let length = c.int(elements.length, array);
    if !c.int_is(f.size, 0, length) {
        return false;
    }
    let size = length;
    // all different: each slot a record not seen in an earlier slot
    let mut seen = Visited::new();
    let mut records = Vec::with_capacity(size as usize);
    for i in 0..size as usize {
        match c.link_fresh(elements.element(i as u32), array, &seen) {
            Some(rec) => {
                seen.insert(rec);
                records.push(rec);
            }
            None => return false,
        }
    }
    let mut roots = 0;
    for (i, &rec) in records.iter().enumerate() {
        let Some(parent) = c.int_in(f.elements.parent, rec, 0..size) else {
            return false;
        };
        if parent == i as i64 {
            roots += 1;
            continue;
        }
        let parent_rec = records[parent as usize];
        let above = match c.fixed(f.elements.rank, rec).and_then(Value::int) {
            Some(r) => c.int_in(f.elements.rank, parent_rec, r.saturating_add(1)..),
            None => Some(c.int(f.elements.rank, parent_rec)),
        };
        let Some(parent_rank) = above else {
            return false;
        };
        if c.int_in(f.elements.rank, rec, ..parent_rank).is_none() {
            return false;
        }
    }
    let rank_zero = records
        .iter()
        .filter(|&&rec| c.int(f.elements.rank, rec) == 0)
        .count();
    roots <= rank_zero
}
