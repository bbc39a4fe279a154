//! The search of the paper's Fig. 7: backtracking over the fields the predicate read, with
//! isomorphism breaking, under the exact rules that reproduce the original Korat's counts
//! (see the repository's `DESIGN.md`, "Finitization conventions").

use std::ops::ControlFlow;
use std::time::Instant;

use crate::candidate::{Candidate, Recorder};
use crate::finitization::{Finitization, Value, ROOT};

/// Switches of the search. Both on is Korat; both off is the proof's Korat* (every reachable
/// field is enumerated, isomorphic candidates included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Backtrack only on the fields the predicate read (prunes the rest).
    pub pruning: bool,
    /// Skip candidates isomorphic to one already considered.
    pub isomorphism_breaking: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            pruning: true,
            isomorphism_breaking: true,
        }
    }
}

/// Figures of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Valid inputs found.
    pub valid: u64,
    /// Candidates on which the predicate ran, valid ones included.
    pub explored: u64,
    /// Wall-clock seconds of the search (predicate and consumer included).
    pub seconds: f64,
}

/// Runs the search over `fin` with the default options (Korat).
pub fn search<P, F>(fin: &Finitization, pred: P, on_valid: F) -> Stats
where
    P: FnMut(&mut Candidate<'_>) -> bool,
    F: FnMut(&Candidate<'_>) -> ControlFlow<()>,
{
    search_with(fin, Options::default(), pred, on_valid)
}

/// Runs the search: `pred` is called on each candidate (reads through the [`Candidate`] are
/// recorded); each valid candidate is handed to `on_valid`, which may stop the search.
pub fn search_with<P, F>(fin: &Finitization, opts: Options, mut pred: P, mut on_valid: F) -> Stats
where
    P: FnMut(&mut Candidate<'_>) -> bool,
    F: FnMut(&Candidate<'_>) -> ControlFlow<()>,
{
    let started = Instant::now();
    let n = fin.slots();
    let nclasses = fin.class_count();
    let mut state = vec![0u32; n];
    let mut values: Vec<Value> = (0..n).map(|s| fin.value(s, 0)).collect();
    let mut rec = Recorder::new(n, nclasses);
    let mut reach = Reach::new(fin);
    let mut stats = Stats::default();
    loop {
        let valid = pred(&mut Candidate::recording(fin, &state, &values, &mut rec));
        stats.explored += 1;
        if valid {
            stats.valid += 1;
            if on_valid(&Candidate::new(fin, &state)).is_break() {
                break;
            }
        }
        if !opts.pruning || valid {
            reach.push_unlisted(fin, &state, &mut rec);
        }
        if !backtrack(fin, opts, &mut state, &mut values, &mut rec) {
            break;
        }
    }
    stats.seconds = started.elapsed().as_secs_f64();
    stats
}

/// Moves `state` to the next candidate; false when the access list is exhausted.
#[inline]
fn backtrack(
    fin: &Finitization,
    opts: Options,
    state: &mut [u32],
    values: &mut [Value],
    rec: &mut Recorder,
) -> bool {
    while let Some(&s) = rec.stack.last() {
        let s = s as usize;
        let table = &fin.tables[s];
        let mut cur = state[s];
        if opts.isomorphism_breaking {
            let e = table[cur as usize];
            // An object index beyond every earlier slot's largest index into the same class
            // would only give isomorphic candidates: jump to the end of the class segment.
            if e.class != u16::MAX && e.index as i32 > rec.max_before_top(e.class) {
                cur = e.segment_end;
            }
        }
        if (cur as usize) + 1 < table.len() {
            state[s] = cur + 1;
            values[s] = table[cur as usize + 1].value;
            return true;
        }
        state[s] = 0;
        values[s] = table[0].value;
        rec.pop();
    }
    false
}

/// Depth-first traversal from the root that appends reachable, not yet listed slots.
struct Reach {
    /// First index into `visited` of each class.
    offsets: Vec<usize>,
    visited: Vec<bool>,
    work: Vec<(u16, u32, usize)>,
}

impl Reach {
    fn new(fin: &Finitization) -> Self {
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

    fn push_unlisted(&mut self, fin: &Finitization, state: &[u32], rec: &mut Recorder) {
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
