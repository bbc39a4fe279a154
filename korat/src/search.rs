//! The search of the paper's Fig. 7: backtracking over the fields the predicate read, with
//! isomorphism breaking, under the exact rules that reproduce the original Korat's counts
//! (see the repository's `DESIGN.md`, "Finitization conventions").
//!
//! One addition that changes no count and no order: the *free product*. After a valid
//! candidate, Korat appends the reachable fields the predicate never read and enumerates them,
//! running the predicate on each combination. When those fields cannot change what is
//! reachable (no object in their domain, not an array length — typically a method's
//! arguments), the predicate would read exactly the same fields with the same values and say
//! "valid" again: the search enumerates their product directly, counting each combination as
//! an explored, valid candidate, in the order Korat would. A receiver's structure is thus
//! searched once per method however many argument values it takes.

use std::ops::ControlFlow;
use std::time::Instant;

use crate::candidate::{first_cells, Candidate, Recorder};
use crate::finitization::{Cell, Entry, Finitization};
use crate::progress;
use crate::unread::Reach;

/// Switches of the search. Both on is Korat; both off is the proof's Korat* (every reachable
/// field is enumerated, isomorphic candidates included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchSwitches {
    /// Backtrack only on the fields the predicate read (prunes the rest).
    pub pruning: bool,
    /// Skip candidates isomorphic to one already considered.
    pub isomorphism_breaking: bool,
}

impl Default for SearchSwitches {
    fn default() -> Self {
        SearchSwitches {
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
    /// Candidates Korat explores, valid ones included (the paper's and Korat 1.0's count).
    pub explored: u64,
    /// Wall-clock seconds of the search (predicate and consumer included).
    pub seconds: f64,
    /// Candidates the predicate actually ran on: `explored` less the free product's
    /// combinations. For a method whose precondition leaves its arguments unread, this is the
    /// receiver's structure-only search (what Korat 1.0 explores for the bare structure).
    pub judged: u64,
    /// Valid candidates among the judged ones: for such a method, the number of structures.
    pub structures: u64,
}

impl Stats {
    /// Adds the counts of `other` (a later part of the same search); seconds are not added.
    pub(crate) fn add_counts(&mut self, other: &Stats) {
        self.valid += other.valid;
        self.explored += other.explored;
        self.judged += other.judged;
        self.structures += other.structures;
    }

    /// The figures the process's progress counters sum ([`progress::publish`]).
    fn counts(&self) -> progress::Counts {
        progress::Counts {
            valid: self.valid,
            explored: self.explored,
        }
    }
}

/// Runs the search over `fin` with the default switches (Korat).
pub fn search<P, F>(fin: &Finitization, pred: P, on_valid: F) -> Stats
where
    P: FnMut(&mut Candidate<'_>) -> bool,
    F: FnMut(&Candidate<'_>) -> ControlFlow<()>,
{
    search_with(fin, SearchSwitches::default(), pred, on_valid)
}

/// Runs the search: `pred` is called on each candidate (reads through the [`Candidate`] are
/// recorded); each valid candidate is handed to `on_valid`, which may stop the search.
pub fn search_with<P, F>(
    fin: &Finitization,
    opts: SearchSwitches,
    mut pred: P,
    mut on_valid: F,
) -> Stats
where
    P: FnMut(&mut Candidate<'_>) -> bool,
    F: FnMut(&Candidate<'_>) -> ControlFlow<()>,
{
    let started = Instant::now();
    let mut stats = Stats::default();
    Engine::new(fin, opts).run_part(&[], &mut pred, &mut on_valid, &mut stats);
    stats.seconds = started.elapsed().as_secs_f64();
    stats
}

/// The search's state: the candidate vector, its cells, the access list and the reach walk.
/// One engine searches any number of parts in turn (one per thread in a parallel search).
pub(crate) struct Engine<'f> {
    pub fin: &'f Finitization,
    opts: SearchSwitches,
    pub state: Vec<u32>,
    /// Each slot's value (in step with `state`) and whether it is on the access list.
    cells: Vec<Cell>,
    pub rec: Recorder,
    reach: Reach,
    /// The slots the last reach walk appended, replayed instead of walking again while the
    /// walk would give the same (see [`Engine::judge`]).
    walked: Vec<u32>,
    /// The access list's length when the predicate returned before that walk; 0 once the walk
    /// no longer holds, so that backtracking stops checking with one comparison.
    walked_at: usize,
    /// Whether, since that walk, no slot below `walked_at` left the stack and only free slots
    /// below it changed value: the walk's input is then the same whenever the predicate
    /// returns with the access list at that length again.
    walk_holds: bool,
    /// What the search does with each valid structure's free product.
    pub product: Product,
}

/// What a search does with the free product of a valid structure (its unread fields that
/// cannot change what is reachable, typically a method's arguments).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Product {
    /// Hands every combination to `on_valid`, in Korat's order: the inputs themselves.
    Enumerate,
    /// Counts the combinations (the product of the slots' domain sizes) without listing them:
    /// the same figures as [`Product::Enumerate`], and `on_valid` sees each structure once,
    /// with its free slots at their first values. For a caller that wants counts only
    /// (`generate` without inputs to show): a structure with k argument values then costs one
    /// multiplication instead of k callbacks.
    Count,
    /// Skips it: the structure-only search, which counts each structure once.
    Skip,
}

impl<'f> Engine<'f> {
    pub fn new(fin: &'f Finitization, opts: SearchSwitches) -> Self {
        let n = fin.slots();
        Engine {
            fin,
            opts,
            state: vec![0; n],
            cells: first_cells(fin),
            rec: Recorder::new(n, fin.class_count()),
            reach: Reach::new(fin),
            walked: Vec::new(),
            walked_at: 0,
            walk_holds: false,
            product: Product::Enumerate,
        }
    }

    /// Sets the candidate to `prefix` (slot, domain index) on the access list, in that order,
    /// and every other slot to its first value: the first candidate of the part.
    pub fn start(&mut self, prefix: &[(u32, u32)]) {
        self.rec.clear(&mut self.cells);
        self.walk_fails();
        for (s, st) in self.state.iter_mut().enumerate() {
            *st = 0;
            self.cells[s].set(self.fin.tables[s][0].cell);
        }
        for &(s, v) in prefix {
            self.state[s as usize] = v;
            self.cells[s as usize].set(self.fin.tables[s as usize][v as usize].cell);
        }
        for &(s, _) in prefix {
            self.rec
                .note(&mut self.cells, self.fin, &self.state, s as usize);
        }
    }

    /// Runs the predicate on the current candidate, then lists the unread reachable fields
    /// after what it read, as Korat does (after a valid one, or always without pruning).
    /// Returns the verdict and the length of the access list before that listing.
    pub fn judge<P>(&mut self, pred: &mut P) -> (bool, usize)
    where
        P: FnMut(&mut Candidate<'_>) -> bool,
    {
        let valid = pred(&mut Candidate::recording(
            self.fin,
            &self.state,
            &mut self.cells,
            &mut self.rec,
        ));
        let read = self.rec.stack.len();
        if !self.opts.pruning || valid {
            // The walk appends the reachable unlisted slots: a function of the listed slots and
            // of the values of the structural (non-free) ones. If the access list is back at the
            // length it had before the last walk, with no slot below it popped since and only
            // free values changed below it, both are the same: append what that walk did.
            if self.walk_holds && read == self.walked_at {
                for &s in &self.walked {
                    self.rec
                        .note(&mut self.cells, self.fin, &self.state, s as usize);
                }
            } else {
                self.reach
                    .push_unlisted(self.fin, &self.state, &mut self.cells, &mut self.rec);
                self.walked.clear();
                self.walked.extend_from_slice(&self.rec.stack[read..]);
                self.walked_at = read;
                self.walk_holds = true;
            }
        }
        (valid, read)
    }

    /// Searches every candidate whose access list starts with `prefix` (the whole space for
    /// an empty one), adding to `stats`; false if `on_valid` stopped it.
    pub fn run_part<P, F>(
        &mut self,
        prefix: &[(u32, u32)],
        pred: &mut P,
        on_valid: &mut F,
        stats: &mut Stats,
    ) -> bool
    where
        P: FnMut(&mut Candidate<'_>) -> bool,
        F: FnMut(&Candidate<'_>) -> ControlFlow<()>,
    {
        self.start(prefix);
        let floor = prefix.len();
        // What of `stats` the process's progress counters already hold (the `progress` module).
        let mut published = stats.counts();
        loop {
            let (valid, read) = self.judge(pred);
            stats.explored += 1;
            stats.judged += 1;
            if stats.judged.is_multiple_of(progress::PUBLISH_EVERY) {
                published = progress::publish(stats.counts(), published);
            }
            if valid {
                stats.valid += 1;
                stats.structures += 1;
                let lo = self.free_suffix(read);
                let (structure, free) = self.rec.stack.split_at(lo);
                if on_valid(&Candidate::found(self.fin, &self.state, structure, free)).is_break()
                    || !self.free_product(lo, on_valid, stats)
                {
                    progress::publish(stats.counts(), published);
                    return false;
                }
            }
            if !self.backtrack(floor) {
                progress::publish(stats.counts(), published);
                return true;
            }
        }
    }

    /// Where the free product starts: the lowest position at or above `read` (the access
    /// list's length when the predicate returned) from which every listed slot is free.
    fn free_suffix(&self, read: usize) -> usize {
        let stack = &self.rec.stack;
        let mut lo = stack.len();
        while lo > read && self.fin.free[stack[lo - 1] as usize] {
            lo -= 1;
        }
        lo
    }

    /// Enumerates the free slots at stack positions `lo..` as an odometer, top fastest — the
    /// order Korat's backtracking gives — then takes them off the stack at their first values,
    /// as backtracking would. False if `on_valid` stopped it.
    fn free_product<F>(&mut self, lo: usize, on_valid: &mut F, stats: &mut Stats) -> bool
    where
        F: FnMut(&Candidate<'_>) -> ControlFlow<()>,
    {
        let top = self.rec.stack.len();
        if self.product == Product::Count && lo < top {
            // Every combination but the first (the structure itself, already counted).
            let combinations = self
                .fin
                .combinations(self.rec.stack[lo..top].iter().copied());
            stats.explored += combinations - 1;
            stats.valid += combinations - 1;
        }
        while self.product == Product::Enumerate && lo < top {
            // Next combination: the top slot first.
            let mut advanced = false;
            for k in (lo..top).rev() {
                let s = self.rec.stack[k] as usize;
                let table = &self.fin.tables[s];
                if (self.state[s] as usize) + 1 < table.len() {
                    self.state[s] += 1;
                    self.cells[s].set(table[self.state[s] as usize].cell);
                    advanced = true;
                    break;
                }
                self.state[s] = 0;
                self.cells[s].set(table[0].cell);
            }
            if !advanced {
                break;
            }
            stats.explored += 1;
            stats.valid += 1;
            let (structure, free) = self.rec.stack.split_at(lo);
            if on_valid(&Candidate::found(self.fin, &self.state, structure, free)).is_break() {
                return false;
            }
        }
        for _ in lo..top {
            self.rec.pop(&mut self.cells);
        }
        // (`lo` is at or above the predicate's access list, itself where the last walk began.)
        if self.rec.stack.len() < self.walked_at {
            self.walk_fails();
        }
        true
    }

    /// The domain index that follows `cur` for the slot at stack position `k` under
    /// isomorphism breaking, skipping the indices a dedicated generator ruled out (each one
    /// skipped as if explored and rejected: the step from it is the step Korat would take).
    #[inline(always)]
    pub fn next_value(&self, k: usize, s: usize, cur: u32) -> Option<u32> {
        let forbidden = self.rec.forbidden(k);
        let mut cur = cur;
        loop {
            let next = self.step(s, k, cur)?;
            if next >= 64 || forbidden & (1 << next) == 0 {
                return Some(next);
            }
            cur = next;
        }
    }

    #[inline(always)]
    fn step(&self, s: usize, k: usize, cur: u32) -> Option<u32> {
        let table = self.table(s);
        let mut cur = cur;
        if self.opts.isomorphism_breaking {
            debug_assert!((cur as usize) < table.len());
            // SAFETY: `cur` is a domain index the slot holds or was handed by `next_value`,
            // which returns only indices below the table's length.
            let e = unsafe { table.get_unchecked(cur as usize) };
            // An object index beyond every earlier slot's largest index into the same class
            // would only give isomorphic candidates: jump to the end of the class segment.
            if e.class != u16::MAX && e.index as i32 > self.rec.max_below(k, e.class) {
                cur = e.segment_end;
            }
        }
        ((cur as usize) + 1 < table.len()).then_some(cur + 1)
    }

    /// The domain table of slot `s`, a slot on the access list.
    #[inline(always)]
    fn table(&self, s: usize) -> &[Entry] {
        debug_assert!(s < self.fin.tables.len());
        // SAFETY: `s` is on the access list, and `Recorder::note` lists only slots it has
        // indexed `cells` with, which has one entry per slot of `fin`, as `tables` has.
        unsafe { self.fin.tables.get_unchecked(s) }
    }

    /// The last walk's slots no longer hold (see `walk_holds`).
    #[inline(always)]
    fn walk_fails(&mut self) {
        self.walk_holds = false;
        self.walked_at = 0;
    }

    /// Moves the candidate to the next one, never changing the slots at stack positions below
    /// `floor`; false when the part is exhausted. Nearly every call only advances the top slot:
    /// that path is inlined into the search loop, and the popping loop is out of line, so that
    /// the common step does not pay for the registers the loop needs.
    #[inline(always)]
    fn backtrack(&mut self, floor: usize) -> bool {
        let len = self.rec.stack.len();
        if len <= floor {
            return false;
        }
        let k = len - 1;
        let s = self.rec.stack[k] as usize;
        debug_assert!(s < self.state.len() && s < self.cells.len());
        // SAFETY (the unchecked indexing below): `s` is on the access list, and
        // `Recorder::note` lists only slots it has indexed `cells` with; `state` and `cells`
        // both have one entry per slot. `next` comes from `next_value`, below the table's length.
        let cur = unsafe { *self.state.get_unchecked(s) };
        if let Some(next) = self.next_value(k, s, cur) {
            if k < self.walked_at && !self.fin.free[s] {
                self.walk_fails();
            }
            let cell = unsafe { self.table(s).get_unchecked(next as usize).cell };
            unsafe {
                *self.state.get_unchecked_mut(s) = next;
                self.cells.get_unchecked_mut(s).set(cell);
            }
            return true;
        }
        self.pop_and_backtrack(floor)
    }

    /// [`Engine::backtrack`] once the top slot has no next value: resets and pops it, then
    /// backtracks as Fig. 7 does.
    #[inline(never)]
    fn pop_and_backtrack(&mut self, floor: usize) -> bool {
        let s = *self.rec.stack.last().expect("the top slot") as usize;
        self.state[s] = 0;
        self.cells[s].set(self.fin.tables[s][0].cell);
        self.rec.pop(&mut self.cells);
        if self.rec.stack.len() < self.walked_at {
            self.walk_fails();
        }
        while self.rec.stack.len() > floor {
            let k = self.rec.stack.len() - 1;
            let s = self.rec.stack[k] as usize;
            if let Some(next) = self.next_value(k, s, self.state[s]) {
                if k < self.walked_at && !self.fin.free[s] {
                    self.walk_fails();
                }
                self.state[s] = next;
                self.cells[s].set(self.fin.tables[s][next as usize].cell);
                return true;
            }
            self.state[s] = 0;
            self.cells[s].set(self.fin.tables[s][0].cell);
            self.rec.pop(&mut self.cells);
            if self.rec.stack.len() < self.walked_at {
                self.walk_fails();
            }
        }
        false
    }
}
