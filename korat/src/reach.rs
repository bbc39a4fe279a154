//! The reachable-slot walk that appends, after a valid candidate, the fields the predicate did
//! not read (Korat enumerates them too: they are part of the input).

use crate::candidate::{Cell, Recorder};
use crate::finitization::{Finitization, Value, ROOT};

/// Depth-first traversal from the root that appends reachable, not yet listed slots.
pub(crate) struct Reach {
    /// First index into `visited` of each class.
    offsets: Vec<usize>,
    visited: Vec<bool>,
    work: Vec<(usize, usize)>,
}

impl Reach {
    pub fn new(fin: &Finitization) -> Self {
        let mut offsets = Vec::with_capacity(fin.class_count());
        let mut total = 0;
        for c in &fin.classes {
            offsets.push(total);
            total += c.count as usize;
        }
        Reach {
            offsets,
            visited: vec![false; total],
            work: Vec::new(),
        }
    }

    /// Appends to the access list, in Korat's order, every slot reachable from the root that
    /// is not on it yet. `cells` must be in step with `state`.
    pub fn push_unlisted(
        &mut self,
        fin: &Finitization,
        state: &[u32],
        cells: &mut [Cell],
        rec: &mut Recorder,
    ) {
        self.visited.iter_mut().for_each(|v| *v = false);
        self.visited[self.offsets[ROOT.0 as usize]] = true;
        // Explicit stack of (next slot, end of the object's live fields): pre-order, fields in
        // declaration order, descending into an object as soon as a field points to it. The
        // state does not change during the walk, so an object's live fields (an array's depend
        // on its length) are computed once, when the walk enters it.
        let first = fin.live_fields(ROOT.0, 0, state);
        self.work.clear();
        self.work.push((first.start, first.end));
        while let Some(top) = self.work.last_mut() {
            let (next, end) = *top;
            if next >= end {
                self.work.pop();
                continue;
            }
            top.0 = next + 1;
            rec.note(cells, fin, state, next);
            if let Value::Obj(c, o) = cells[next].value() {
                let v = self.offsets[c.0 as usize] + o as usize;
                if !self.visited[v] {
                    self.visited[v] = true;
                    let live = fin.live_fields(c.0, o, state);
                    self.work.push((live.start, live.end));
                }
            }
        }
    }
}
