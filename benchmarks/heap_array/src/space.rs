//! Korat's side: the finitization (`finHeapArray(n)` with the method's argument beside the
//! receiver), the candidate view, decoding a valid candidate, and rendering.

use ferastrau_sdk::korat::{Candidate, Domain, FieldId, Finitization, FinitizationBuilder, ROOT};

use crate::heap_array::HeapArray;
use crate::invariant::HeapView;

/// Field ids of a heap finitization.
pub struct Fields {
    pub size: FieldId,
    pub array: FieldId,
    pub length: FieldId,
    /// `v[k]`: slot `k` of the array.
    pub slot: Vec<FieldId>,
    /// The method's argument (`x` of `insert`); absent for `extractMax` and the structure.
    pub arg: Option<FieldId>,
}

/// `finHeapArray(n)`: `size` 0..n and one int array (never null) of length 0..n with slot
/// values −1..n. With `with_arg` the root also holds `insert`'s `x` over −1..n, generated
/// jointly with the heap; the precondition never reads it. Slots: root (`size`, `array`,
/// [`x`]), then the array (`length`, `v[0..n]`).
pub fn finitization(root_name: &str, n: u32, with_arg: bool) -> (Finitization, Fields) {
    assert!(n >= 1, "HeapArray scopes start at 1");
    let n64 = i64::from(n);
    let mut b = FinitizationBuilder::new(root_name);
    let array = b.array(
        "int[]",
        1,
        Domain::ints(0, n64),
        n,
        &[("v", Domain::ints(-1, n64))],
    );
    b.field(ROOT, "size", Domain::ints(0, n64));
    b.field(ROOT, "array", Domain::objects(array));
    if with_arg {
        b.field(ROOT, "x", Domain::ints(-1, n64));
    }
    let fin = b.build();
    let fields = Fields {
        size: fin.field(ROOT, "size"),
        array: fin.field(ROOT, "array"),
        length: fin.field(array, "length"),
        slot: (0..n).map(|k| fin.element(array, k, 0)).collect(),
        arg: with_arg.then(|| fin.field(ROOT, "x")),
    };
    (fin, fields)
}

/// A candidate seen as a heap; every first read of a field is recorded by Korat.
pub struct CandidateHeap<'c, 'a> {
    pub c: &'c mut Candidate<'a>,
    pub f: &'c Fields,
}

impl CandidateHeap<'_, '_> {
    fn array(&mut self) -> u32 {
        self.c.obj(self.f.array, 0).expect("array is never null")
    }
}

impl HeapView for CandidateHeap<'_, '_> {
    fn has_array(&mut self) -> bool {
        self.c.obj(self.f.array, 0).is_some()
    }
    fn size(&mut self) -> i64 {
        self.c.int(self.f.size, 0)
    }
    fn length(&mut self) -> i64 {
        let a = self.array();
        self.c.int(self.f.length, a)
    }
    fn slot(&mut self, i: u32) -> i64 {
        let a = self.array();
        self.c.int(self.f.slot[i as usize], a)
    }
}

/// Builds the real heap of a valid candidate.
pub fn decode_heap(c: &mut Candidate<'_>, f: &Fields) -> HeapArray {
    let mut v = CandidateHeap { c, f };
    let size = v.size();
    let length = v.length();
    let array = (0..length).map(|i| v.slot(i as u32)).collect();
    HeapArray { size, array }
}

/// Renders the array with the size, `[3, 1, -1] size 2`.
pub fn render_heap(h: &HeapArray) -> String {
    format!("{:?} size {}", h.array, h.size)
}
