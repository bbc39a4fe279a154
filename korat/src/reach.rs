//! The reachable-slot walk that appends, after a valid candidate, the fields the predicate did
//! not read (Korat enumerates them too: they are part of the input).

use crate::candidate::Recorder;
use crate::finitization::{Finitization, Value, ROOT};

/// Depth-first traversal from the root that appends reachable, not yet listed slots.
pub(crate) struct Reach {
    /// First index into `visited` of each class.
    offsets: Vec<usize>,
    visited: Vec<bool>,
    work: Vec<(u16, u32, usize)>,
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

    pub fn push_unlisted(&mut self, fin: &Finitization, state: &[u32], rec: &mut Recorder) {
        self.visited.iter_mut().for_each(|v| *v = false);
        self.visited[self.offsets[ROOT.0 as usize]] = true;
        // Explicit stack of (class, object, next slot): pre-order, fields in declaration order,
        // descending into an object as soon as a field points to it.
        let first = fin.live_fields(ROOT.0, 0, state);
        self.work.clear();
        self.work.push((ROOT.0, 0, first.start));
        while let Some(top) = self.work.last_mut() {
            let (class, obj, next) = *top;
            let live = fin.live_fields(class, obj, state);
            if next >= live.end {
                self.work.pop();
                continue;
            }
            top.2 = next + 1;
            rec.note(fin, state, next);
            if let Value::Obj(c, o) = fin.tables[next][state[next] as usize].value {
                let v = self.offsets[c.0 as usize] + o as usize;
                if !self.visited[v] {
                    self.visited[v] = true;
                    let start = fin.live_fields(c.0, o, state).start;
                    self.work.push((c.0, o, start));
                }
            }
        }
    }
}
