//! Candidates: a state vector seen as an object graph. While the search runs the predicate,
//! every first read of a field is recorded on the access list (the paper's field stack); a
//! candidate made from a stored state vector reads without recording, which is how a valid
//! input is turned into the benchmark's real structure.

use crate::finitization::{Cell, FieldId, Finitization, Value, INT, LISTED, NULL, OBJ};

/// The per-slot cells of a search over `fin`, each at its slot's first value, none listed.
pub(crate) fn first_cells(fin: &Finitization) -> Vec<Cell> {
    fin.tables.iter().map(|t| t[0].cell).collect()
}

/// The access list of the search, with what isomorphism breaking needs about it. Which slots
/// are on it is kept in the search's [`Cell`]s (`listed`), passed to the methods that change it.
pub(crate) struct Recorder {
    pub stack: Vec<u32>,
    nclasses: usize,
    /// Row `k` (of `nclasses` entries) holds, for each class, the largest object index held by
    /// the slots at positions `< k` of the stack (-1 if none). A slot's value only changes
    /// while it is the top, so a row stays valid as long as its position is on the stack.
    prefix_max: Vec<i32>,
    /// For each stack position: the domain indices (bit i for index i < 64) a dedicated
    /// generator ruled out when the slot was first read; backtracking never assigns them.
    forbidden: Vec<u64>,
}

impl Recorder {
    pub fn new(slots: usize, nclasses: usize) -> Self {
        Recorder {
            stack: Vec::with_capacity(slots),
            nclasses,
            prefix_max: Vec::with_capacity((slots + 1) * nclasses),
            forbidden: Vec::with_capacity(slots),
        }
    }

    /// Appends slot `s` to the access list unless it is already there.
    #[inline(always)]
    pub fn note(&mut self, cells: &mut [Cell], fin: &Finitization, state: &[u32], s: usize) {
        if cells[s].listed() {
            return;
        }
        self.push(cells, fin, state, s);
    }

    #[inline(never)]
    fn push(&mut self, cells: &mut [Cell], fin: &Finitization, state: &[u32], s: usize) {
        cells[s].set_listed(true);
        let k = self.stack.len();
        let nc = self.nclasses;
        if k == 0 {
            self.prefix_max.clear();
            self.prefix_max.resize(nc, -1);
        } else {
            let below = self.stack[k - 1] as usize;
            let e = fin.tables[below][state[below] as usize];
            self.prefix_max.truncate(k * nc);
            self.prefix_max.extend_from_within((k - 1) * nc..k * nc);
            if e.class != u16::MAX {
                let m = &mut self.prefix_max[k * nc + e.class as usize];
                *m = (*m).max(e.index as i32);
            }
        }
        self.stack.push(s as u32);
        self.forbidden.push(0);
    }

    /// Rules out the domain indices in `mask` for the slot on top of the access list.
    pub fn forbid_top(&mut self, mask: u64) {
        if let Some(m) = self.forbidden.last_mut() {
            *m = mask;
        }
    }

    /// Empties the access list (a new part of the search starts).
    pub fn clear(&mut self, cells: &mut [Cell]) {
        while !self.stack.is_empty() {
            self.pop(cells);
        }
    }

    /// The largest index into `class` held by a slot below position `k` of the stack.
    #[inline(always)]
    pub fn max_below(&self, k: usize, class: u16) -> i32 {
        self.prefix_max[k * self.nclasses + class as usize]
    }

    pub fn pop(&mut self, cells: &mut [Cell]) {
        if let Some(s) = self.stack.pop() {
            cells[s as usize].set_listed(false);
            self.forbidden.pop();
        }
    }

    /// The domain indices ruled out for the slot at stack position `k`.
    #[inline(always)]
    pub fn forbidden(&self, k: usize) -> u64 {
        self.forbidden[k]
    }
}

/// A candidate input: a finitization plus a state vector. Reads through the accessors below;
/// during the search they also record the field access order that drives backtracking.
pub struct Candidate<'a> {
    fin: &'a Finitization,
    state: &'a [u32],
    /// While searching: each slot's value and whether it is listed, kept in step with `state`
    /// by the search, so that reading a listed slot is one bounds-checked load. Empty for a
    /// stored state vector: the same bounds check fails, and the read is then a table load
    /// ([`Candidate::unlisted`]) where a search's first read of a slot goes out of line to
    /// [`Candidate::first_read`].
    cells: &'a mut [Cell],
    rec: Option<&'a mut Recorder>,
    /// In `on_valid` during a search: the slots the structure consists of (see
    /// [`Candidate::structure_slots`]).
    structure: &'a [u32],
    /// In `on_valid` during a search: the free product's slots (see [`Candidate::free_slots`]).
    free: &'a [u32],
}

impl<'a> Candidate<'a> {
    /// A read-only candidate over a stored state vector (e.g. a valid input to decode).
    pub fn new(fin: &'a Finitization, state: &'a [u32]) -> Self {
        assert_eq!(
            state.len(),
            fin.slots(),
            "state vector does not fit the finitization"
        );
        Candidate {
            fin,
            state,
            cells: &mut [],
            rec: None,
            structure: &[],
            free: &[],
        }
    }

    /// A read-only candidate handed to `on_valid` by a search, knowing its structure slots.
    pub(crate) fn found(
        fin: &'a Finitization,
        state: &'a [u32],
        structure: &'a [u32],
        free: &'a [u32],
    ) -> Self {
        Candidate {
            structure,
            free,
            ..Candidate::new(fin, state)
        }
    }

    /// In `on_valid` during a search: the slots of the access list that make the valid
    /// candidate's structure, in access order — the fields the predicate read and the unread
    /// ones that can change what is reachable — without the free product's slots (unread
    /// fields such as a method's arguments). Empty on a candidate made with [`Candidate::new`].
    pub fn structure_slots(&self) -> &'a [u32] {
        self.structure
    }

    /// In `on_valid` during a search: the free product's slots, the reachable fields after the
    /// structure that the predicate left unread and that cannot change what is reachable, in
    /// access order (whether the search lists their combinations or not). Empty on a candidate
    /// made with [`Candidate::new`].
    pub fn free_slots(&self) -> &'a [u32] {
        self.free
    }

    /// A candidate whose reads are recorded; `cells` must match `state` and `rec`.
    pub(crate) fn recording(
        fin: &'a Finitization,
        state: &'a [u32],
        cells: &'a mut [Cell],
        rec: &'a mut Recorder,
    ) -> Self {
        Candidate {
            fin,
            state,
            cells,
            rec: Some(rec),
            structure: &[],
            free: &[],
        }
    }

    /// The value of field `f` of object `obj` (its index within the field's class).
    #[inline(always)]
    pub fn get(&mut self, f: FieldId, obj: u32) -> Value {
        let s = f.slot(obj);
        match self.cells.get(s).and_then(|c| c.listed_value()) {
            Some(v) => v,
            None => self.unlisted(s),
        }
    }

    /// A read of a slot that is not listed: of a stored state vector (no cells:
    /// [`Candidate::new`], a decoder's reads, or `on_valid`'s), one table load, inline; during
    /// a search, [`Candidate::first_read`], out of line. A stored state's reads all went out of
    /// line once, a call per field (two for an integer), about a tenth of a worker's time
    /// decoding each input before each mutant's run. `#[inline]`, not `#[inline(always)]`: at
    /// opt-level 0, where nothing else is inlined, a read site stays one call, as large as it
    /// was (the workers' address space is under `--memory-limit`, and a tight limit is
    /// tested).
    #[inline]
    fn unlisted(&mut self, s: usize) -> Value {
        if self.cells.is_empty() {
            self.fin.tables[s][self.state[s] as usize].value
        } else {
            self.first_read(s)
        }
    }

    /// A read that is not of a listed slot during a search: a first read, recorded on the
    /// access list; or a slot out of range (a panic); or a wide integer. Out of line, so that the inlined read path stays a load and a test.
    #[cold]
    #[inline(never)]
    fn first_read(&mut self, s: usize) -> Value {
        let v = self.fin.tables[s][self.state[s] as usize].value;
        if let Some(rec) = self.rec.as_deref_mut() {
            rec.note(self.cells, self.fin, self.state, s);
        }
        v
    }

    /// A read through a *dedicated generator*: the value of field `f` of object `obj` if
    /// `allowed` accepts it, `None` otherwise — and then the predicate must return false. On
    /// the first read of the slot during a search, the values `allowed` rejects are ruled out
    /// for it: the search never assigns them while the fields read before it keep their values,
    /// skipping candidates the predicate would reject, so the valid inputs stay exactly the
    /// same, in the same order, from fewer candidates. `allowed` may depend only on values read
    /// before this one (what the paper's Sec. 5 generators know: nodes already visited, an
    /// ancestor's key, a count). Slots with more than 64 values are read without ruling out.
    #[inline(always)]
    pub fn get_where(
        &mut self,
        f: FieldId,
        obj: u32,
        allowed: impl Fn(Value) -> bool,
    ) -> Option<Value> {
        let s = f.slot(obj);
        let v = match self.cells.get(s).and_then(|c| c.listed_value()) {
            Some(v) => v,
            None => {
                let fresh = self.cells.get(s).is_some_and(|c| !c.listed());
                let v = self.first_read(s);
                // During a search, a slot's first read rules out what `allowed` rejects.
                if let (true, Some(rec)) = (fresh, self.rec.as_deref_mut()) {
                    let table = &self.fin.tables[s];
                    if table.len() <= 64 {
                        let mut m = 0u64;
                        for (i, e) in table.iter().enumerate() {
                            if !allowed(e.value) {
                                m |= 1 << i;
                            }
                        }
                        rec.forbid_top(m);
                    }
                }
                v
            }
        };
        allowed(v).then_some(v)
    }

    /// The value of field `f` of object `obj` if the search holds it fixed below the read
    /// under way (the slot is already on the access list), without reading it; on a candidate
    /// made with [`Candidate::new`], always the value. For a dedicated generator whose rule
    /// depends on a field the plain invariant reads only later (a parent's key in a heap
    /// order): every candidate explored while the new slot is on the access list shares that
    /// value, so ruling out by it is exact, and the order of reads stays the invariant's.
    #[inline(always)]
    pub fn fixed(&self, f: FieldId, obj: u32) -> Option<Value> {
        let s = f.slot(obj);
        match self.rec {
            Some(_) => {
                let c = self.cells[s];
                c.listed()
                    .then(|| self.fin.tables[s][self.state[s] as usize].value)
            }
            None => Some(self.fin.tables[s][self.state[s] as usize].value),
        }
    }

    /// An object-valued field: the target's index within its class, `None` for null.
    #[inline(always)]
    pub fn obj(&mut self, f: FieldId, obj: u32) -> Option<u32> {
        // `get` specialised: a listed object or null is one comparison each.
        let s = f.slot(obj);
        if let Some(c) = self.cells.get(s) {
            if c.tag == LISTED | OBJ {
                return Some(c.payload);
            }
            if c.tag == LISTED | NULL {
                return None;
            }
        }
        self.unlisted(s).obj()
    }

    /// An integer-valued field. Panics if the slot holds null or an object: the finitization
    /// and the predicate disagree, which is a bug in the benchmark.
    #[inline(always)]
    pub fn int(&mut self, f: FieldId, obj: u32) -> i64 {
        // `get` specialised: a listed integer is one comparison.
        let s = f.slot(obj);
        if let Some(c) = self.cells.get(s) {
            if c.tag == LISTED | INT {
                return i64::from(c.payload as i32);
            }
        }
        self.int_unlisted(f, obj)
    }

    /// [`Candidate::int`] on a slot that is not listed: a stored state's integer inline, as
    /// [`Candidate::unlisted`] reads it; anything else through [`Candidate::int_slow`].
    #[inline]
    fn int_unlisted(&mut self, f: FieldId, obj: u32) -> i64 {
        if self.cells.is_empty() {
            let s = f.slot(obj);
            if let Value::Int(v) = self.fin.tables[s][self.state[s] as usize].value {
                return v;
            }
        }
        self.int_slow(f, obj)
    }

    /// [`Candidate::int`] on any other slot: a first read, a stored state vector, or not an
    /// integer (the panic). Out of line: the panic's formatting would otherwise spill the
    /// field id to the stack on every inlined read.
    #[cold]
    #[inline(never)]
    fn int_slow(&mut self, f: FieldId, obj: u32) -> i64 {
        match self.get(f, obj) {
            Value::Int(v) => v,
            other => panic!("field {f:?} of object {obj} holds {other}, not an integer"),
        }
    }

    /// The finitization this candidate lives in.
    pub fn finitization(&self) -> &'a Finitization {
        self.fin
    }

    /// The state vector (domain indices per slot).
    pub fn state(&self) -> &'a [u32] {
        self.state
    }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use crate::{Domain, FinitizationBuilder, Value, ROOT};

    /// Integers beyond 32 bits are not held in a cell: their reads take the slow path and give
    /// the same values, in the same search, as narrow ones.
    #[test]
    fn wide_integers_read_through_the_tables() {
        let big = i64::from(i32::MAX);
        let mut b = FinitizationBuilder::new("Root");
        let node = b.class("Node", 2);
        b.field(ROOT, "head", Domain::nullable(node));
        b.field(ROOT, "w", Domain::ints(big - 1, big + 2));
        b.field(node, "val", Domain::ints(-1, 1));
        let fin = b.build();
        let (head, w, val) = (
            fin.field(ROOT, "head"),
            fin.field(ROOT, "w"),
            fin.field(node, "val"),
        );
        let mut seen = Vec::new();
        let stats = crate::search(
            &fin,
            |c| {
                // Each field read twice: a first read, then a read of a listed slot.
                let x = c.int(w, 0);
                assert_eq!(c.get(w, 0), Value::Int(x));
                assert_eq!(c.int(w, 0), x);
                match c.obj(head, 0) {
                    None => x > big,
                    Some(n) => {
                        let v = c.int(val, n);
                        assert_eq!(c.int(val, n), v);
                        x <= big && v != 0
                    }
                }
            },
            |c| {
                let mut c = crate::Candidate::new(c.finitization(), c.state());
                seen.push((c.int(w, 0), c.obj(head, 0).map(|n| c.int(val, n))));
                ControlFlow::Continue(())
            },
        );
        assert_eq!(
            seen,
            [
                (big - 1, Some(-1)),
                (big - 1, Some(1)),
                (big, Some(-1)),
                (big, Some(1)),
                (big + 1, None),
                (big + 2, None),
            ]
        );
        // Per value of `w`: head null, then node 0 (node 1 is isomorphic) with each `val`.
        assert_eq!(stats.explored, 16);
    }
}
