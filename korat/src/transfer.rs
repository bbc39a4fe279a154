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

use crate::candidate::{first_cells, Candidate, Cell, Recorder};
use crate::finitization::Finitization;
use crate::reach::Reach;

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
        let map = (0..from.slots())
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
        Some(Transfer {
            to,
            map,
            state: vec![0; to.slots()],
            cells: first_cells(to),
            rec: Recorder::new(to.slots(), to.class_count()),
            reach: Reach::new(to),
        })
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
        let mut count = 0;
        loop {
            count += 1;
            if each(&Candidate::found(to, &self.state, &self.rec.stack[..lo])).is_break() {
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
