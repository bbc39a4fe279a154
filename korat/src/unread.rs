//! The reachable-slot walk that appends, after a valid candidate, the fields the predicate did
//! not read (Korat enumerates them too: they are part of the input).
//!
//! It runs after every valid candidate — after nearly every candidate of a structure whose
//! invariant accepts most of what it explores (BinomialHeap, HeapArray) — so it avoids work
//! proportional to the pools: objects are marked with the walk's number instead of clearing a
//! visited set, and an object's live fields are computed once, when the walk enters it.

use crate::candidate::Recorder;
use crate::finitization::{Cell, Finitization, ROOT};

/// Depth-first traversal from the root that appends reachable, not yet listed slots.
pub(crate) struct Reach {
    /// First index into `seen` of each class.
    offsets: Vec<usize>,
    /// For each object: the number of the last walk that entered it.
    seen: Vec<u32>,
    /// The number of the current walk (never 0, which `seen` starts at).
    walk: u32,
    /// Explicit stack of (next slot, end of the object's live fields).
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
            seen: vec![0; total],
            walk: 0,
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
        if self.walk == u32::MAX {
            self.seen.iter_mut().for_each(|w| *w = 0);
            self.walk = 0;
        }
        self.walk += 1;
        let walk = self.walk;
        self.seen[self.offsets[ROOT.0 as usize]] = walk;
        // Pre-order, fields in declaration order, descending into an object as soon as a field
        // points to it. The state does not change during the walk, so an object's live fields
        // (an array's depend on its length) are computed once, when the walk enters it.
        let first = fin.live_fields(ROOT.0, 0, state);
        self.work.clear();
        self.work.push((first.start, first.end));
        // The fields of the object on top of the stack are scanned in an inner loop that keeps
        // its position in registers, saved back only when the walk descends.
        'objects: while let Some(&(start, end)) = self.work.last() {
            for s in start..end {
                rec.note(cells, fin, state, s);
                if let Some((c, o)) = cells[s].object() {
                    let v = self.offsets[c as usize] + o as usize;
                    if self.seen[v] != walk {
                        self.seen[v] = walk;
                        let top = self.work.len() - 1;
                        self.work[top].0 = s + 1;
                        let live = fin.live_fields(c, o, state);
                        self.work.push((live.start, live.end));
                        continue 'objects;
                    }
                }
            }
            self.work.pop();
        }
    }
}
