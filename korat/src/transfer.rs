//! One structure search for several finitizations: a valid structure found in one
//! finitization, carried into another that declares the same classes and the same structure
//! fields beside other (free) root fields, and completed there with that finitization's free
//! product.
//!
//! This is how a receiver is searched once for all the methods whose preconditions are the
//! same invariant: method B's inputs are method A's structures, each with B's arguments
//! enumerated over their domains, in the order B's own search lists them. It is exact when B's
//! own search would judge the same structures — the caller's promise (e.g. a benchmark saying
//! the precondition is the class invariant alone); every slot the structure consists of must
//! exist in B with the same domain and every field B lists beyond it must be free, else
//! [`Transfer::products`] says so and the caller searches B on its own.

use std::ops::ControlFlow;

use crate::candidate::{first_cells, Candidate, Recorder};
use crate::finitization::{Cell, Finitization};
use crate::unread::Reach;

/// Carries structures from one finitization into another; see the module doc.
pub struct Transfer<'a> {
    to: &'a Finitization,
    /// For each slot of the source: the slot of `to` with the same class, object and field
    /// name and the same domain, or `u32::MAX`.
    map: Vec<u32>,
    state: Vec<u32>,
    /// Each slot's value (in step with `state`) and whether it is on the access list.
    cells: Vec<Cell>,
    rec: Recorder,
    reach: Reach,
    /// When the target differs from the source only by free fields of the root object (a
    /// method's arguments beside the same receiver): those fields' slots. Then the target's
    /// free product is the source's free slots that it has and these, and [`Transfer::count`]
    /// needs no walk of the structure.
    root_args: Option<Vec<u32>>,
}

impl<'a> Transfer<'a> {
    /// A transfer from `from` into `to`; `None` when their classes differ (names, pool sizes,
    /// order), since object values would then mean different objects.
    pub fn new(from: &Finitization, to: &'a Finitization) -> Option<Self> {
        let same_classes = from.classes.len() == to.classes.len()
            && from
                .classes
                .iter()
                .zip(&to.classes)
                .skip(1)
                .all(|(a, b)| a.name == b.name && a.count == b.count);
        if !same_classes {
            return None;
        }
        let map: Vec<u32> = (0..from.slots())
            .map(|s| {
                let (c, o, f) = from.slot_owner[s];
                let name = &from.classes[c as usize].fields[f as usize].0;
                let cls = &to.classes[c as usize];
                let Some(g) = cls.fields.iter().position(|(n, _)| n == name) else {
                    return u32::MAX;
                };
                let t = to.class_base[c as usize] as usize + o as usize * cls.fields.len() + g;
                let same = from.tables[s].len() == to.tables[t].len()
                    && from.tables[s]
                        .iter()
                        .zip(to.tables[t].iter())
                        .all(|(a, b)| a.value == b.value);
                if same {
                    t as u32
                } else {
                    u32::MAX
                }
            })
            .collect();
        let root_args = root_args(from, to, &map);
        Some(Transfer {
            to,
            map,
            root_args,
            state: vec![0; to.slots()],
            cells: first_cells(to),
            rec: Recorder::new(to.slots(), to.class_count()),
            reach: Reach::new(to),
        })
    }

    /// How many inputs [`Transfer::products`] would hand out for `found`, without building
    /// them: the product of the domain sizes of the target's free fields (the same `None`).
    pub fn count(&mut self, found: &Candidate<'_>) -> Option<u64> {
        // (A candidate not found by a search has no structure slots to go by: walk it.)
        let Some(root_args) = self
            .root_args
            .as_deref()
            .filter(|_| !found.structure_slots().is_empty())
        else {
            let (lo, top) = self.carry(found)?;
            return Some(
                self.to
                    .combinations(self.rec.stack[lo..top].iter().copied()),
            );
        };
        // The objects reachable are the source's (the same structure slots, with the same
        // values, reach them): the target's free product is the source's free slots it has and
        // its own root arguments. It fails to carry only if a structure slot is missing.
        let map = &self.map;
        if found
            .structure_slots()
            .iter()
            .any(|&s| map[s as usize] == u32::MAX)
        {
            return None;
        }
        let free = found
            .free_slots()
            .iter()
            .map(|&s| map[s as usize])
            .filter(|&t| t != u32::MAX);
        Some(self.to.combinations(free.chain(root_args.iter().copied())))
    }

    /// Sets the target's candidate to the structure of `found` with every free field at its
    /// first value, and lists the free fields after it: their stack positions `lo..top`, or
    /// `None` when the structure does not carry over.
    fn carry(&mut self, found: &Candidate<'_>) -> Option<(usize, usize)> {
        let to = self.to;
        self.rec.clear(&mut self.cells);
        self.state.iter_mut().for_each(|v| *v = 0);
        for (c, t) in self.cells.iter_mut().zip(&to.tables) {
            c.set(t[0].cell);
        }
        let from_state = found.state();
        for &s in found.structure_slots() {
            let t = *self.map.get(s as usize)?;
            if t == u32::MAX {
                return None;
            }
            let (t, v) = (t as usize, from_state[s as usize]);
            self.state[t] = v;
            self.cells[t].set(to.tables[t][v as usize].cell);
        }
        for &s in found.structure_slots() {
            self.rec.note(
                &mut self.cells,
                to,
                &self.state,
                self.map[s as usize] as usize,
            );
        }
        let lo = self.rec.stack.len();
        self.reach
            .push_unlisted(to, &self.state, &mut self.cells, &mut self.rec);
        let top = self.rec.stack.len();
        if self.rec.stack[lo..].iter().any(|&s| !to.free[s as usize]) {
            return None;
        }
        Some((lo, top))
    }

    /// Hands `each` every input of the target built on the structure of `found` (a candidate
    /// given to `on_valid` by a search of the source): the structure's values, then every
    /// combination of the target's free fields, in Korat's order. Returns how many, or `None`
    /// (before calling `each`) when the structure does not carry over: a structure slot the
    /// target lacks, or a field the target lists beyond it that is not free.
    pub fn products(
        &mut self,
        found: &Candidate<'_>,
        mut each: impl FnMut(&Candidate<'_>) -> ControlFlow<()>,
    ) -> Option<u64> {
        let (lo, top) = self.carry(found)?;
        let to = self.to;
        let mut count = 0;
        loop {
            count += 1;
            let (structure, free) = self.rec.stack.split_at(lo);
            if each(&Candidate::found(to, &self.state, structure, free)).is_break() {
                return Some(count);
            }
            let mut advanced = false;
            for k in (lo..top).rev() {
                let s = self.rec.stack[k] as usize;
                if (self.state[s] as usize) + 1 < to.tables[s].len() {
                    self.state[s] += 1;
                    self.cells[s].set(to.tables[s][self.state[s] as usize].cell);
                    advanced = true;
                    break;
                }
                self.state[s] = 0;
                self.cells[s].set(to.tables[s][0].cell);
            }
            if !advanced {
                return Some(count);
            }
        }
    }
}

/// The shortcut of [`Transfer::count`]: the slots of `to` that are no source slot's image,
/// when each is a free field of the root object (always reachable, and unable to make anything
/// else reachable), every image is free exactly when its source slot is, and the root is no
/// array (whose live fields would depend on a length); else `None`.
fn root_args(from: &Finitization, to: &Finitization, map: &[u32]) -> Option<Vec<u32>> {
    if to.classes[0].array.is_some() {
        return None;
    }
    let mut image = vec![false; to.slots()];
    for (s, &t) in map.iter().enumerate() {
        if t != u32::MAX {
            if from.free[s] != to.free[t as usize] {
                return None;
            }
            image[t as usize] = true;
        }
    }
    let mut args = Vec::new();
    for (t, &is_image) in image.iter().enumerate() {
        if !is_image {
            if to.slot_owner[t].0 != 0 || !to.free[t] {
                return None;
            }
            args.push(t as u32);
        }
    }
    Some(args)
}
