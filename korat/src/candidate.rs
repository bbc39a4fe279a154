//! Candidates: a state vector seen as an object graph. While the search runs the predicate,
//! every first read of a field is recorded on the access list (the paper's field stack); a
//! candidate made from a stored state vector reads without recording, which is how a valid
//! input is turned into the benchmark's real structure.

use crate::finitization::{ClassId, FieldId, Finitization, Value};

/// [`Cell::tag`] of a null value.
const NULL: u8 = 0;
/// [`Cell::tag`] of an object.
const OBJ: u8 = 1;
/// [`Cell::tag`] of an integer.
const INT: u8 = 2;
/// [`Cell::tag`]'s bit for a slot on the access list.
const LISTED: u8 = 0x80;

/// What a search keeps per slot for the predicate's reads: the slot's current value and
/// whether the slot is on the access list, together in 16 bytes. A predicate reads almost
/// only slots already listed (a candidate differs from the previous one in the top slot), so
/// such a read is one bounds check, one load and one test, with no second array to consult:
/// the kind of value and the listed bit share a byte, so that [`Candidate::obj`] and
/// [`Candidate::int`] test both with one comparison.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct Cell {
    /// [`NULL`], [`OBJ`] or [`INT`], plus [`LISTED`] while the slot is on the access list.
    tag: u8,
    /// An object's class.
    class: u16,
    /// An object's index within its class.
    index: u32,
    /// An integer.
    int: i64,
}

impl Cell {
    /// `v`, not listed.
    pub fn new(v: Value) -> Self {
        let (tag, class, index, int) = match v {
            Value::Null => (NULL, 0, 0, 0),
            Value::Obj(c, i) => (OBJ, c.0, i, 0),
            Value::Int(v) => (INT, 0, 0, v),
        };
        Cell {
            tag,
            class,
            index,
            int,
        }
    }

    /// Whether the slot is on the access list.
    #[inline(always)]
    pub fn listed(self) -> bool {
        self.tag & LISTED != 0
    }

    /// Puts the slot on the access list or takes it off.
    #[inline(always)]
    pub fn set_listed(&mut self, on: bool) {
        self.tag = if on {
            self.tag | LISTED
        } else {
            self.tag & !LISTED
        };
    }

    /// The value held.
    #[inline(always)]
    pub fn value(self) -> Value {
        match self.tag & !LISTED {
            OBJ => Value::Obj(ClassId(self.class), self.index),
            INT => Value::Int(self.int),
            _ => Value::Null,
        }
    }

    /// Holds the value of `c` (a domain table's cell), staying listed or not.
    #[inline(always)]
    pub fn set(&mut self, c: Cell) {
        *self = Cell {
            tag: c.tag | (self.tag & LISTED),
            ..c
        };
    }
}

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
    /// stored state vector: the same bounds check then sends each of its reads, like a
    /// search's first read of a slot, to [`Candidate::first_read`].
    cells: &'a mut [Cell],
    rec: Option<&'a mut Recorder>,
    /// In `on_valid` during a search: the slots the structure consists of (see
    /// [`Candidate::structure_slots`]).
    structure: &'a [u32],
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
        }
    }

    /// A read-only candidate handed to `on_valid` by a search, knowing its structure slots.
    pub(crate) fn found(fin: &'a Finitization, state: &'a [u32], structure: &'a [u32]) -> Self {
        Candidate {
            structure,
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
        }
    }

    /// The value of field `f` of object `obj` (its index within the field's class).
    #[inline(always)]
    pub fn get(&mut self, f: FieldId, obj: u32) -> Value {
        let s = f.slot(obj);
        match self.cells.get(s) {
            Some(c) if c.listed() => c.value(),
            _ => self.first_read(s),
        }
    }

    /// A read that is not of a listed slot during a search: a first read, recorded on the
    /// access list; or any read of a stored state vector; or a slot out of range (a panic).
    /// Out of line, so that the inlined read path stays a load and a test.
    #[cold]
    #[inline(never)]
    fn first_read(&mut self, s: usize) -> Value {
        match self.rec.as_deref_mut() {
            Some(rec) => {
                let v = self.cells[s].value();
                rec.note(self.cells, self.fin, self.state, s);
                v
            }
            None => self.fin.tables[s][self.state[s] as usize].value,
        }
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
        let v = match self.cells.get(s) {
            Some(c) if c.listed() => c.value(),
            _ => {
                // During a search this is the slot's first read (it was not listed).
                let v = self.first_read(s);
                if let Some(rec) = self.rec.as_deref_mut() {
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
                c.listed().then(|| c.value())
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
                return Some(c.index);
            }
            if c.tag == LISTED | NULL {
                return None;
            }
        }
        self.first_read(s).obj()
    }

    /// An integer-valued field. Panics if the slot holds null or an object: the finitization
    /// and the predicate disagree, which is a bug in the benchmark.
    #[inline(always)]
    pub fn int(&mut self, f: FieldId, obj: u32) -> i64 {
        // `get` specialised: a listed integer is one comparison.
        let s = f.slot(obj);
        if let Some(c) = self.cells.get(s) {
            if c.tag == LISTED | INT {
                return c.int;
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
