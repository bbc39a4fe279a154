//! Korat's side: the finitization (`finHeapArray(n)` with the method's argument beside the
//! receiver) and rendering. The field ids, the view and the decoder are `#[derive(Korat)]`'s
//! (`crate::heap_array`).

use ferastrau_sdk::korat::view::Root;
use ferastrau_sdk::korat::{Domain, Finitization, FinitizationBuilder, ROOT};

use crate::heap_array::HeapArray;
pub use crate::heap_array::HeapArrayFields as Fields;

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
    let fields = HeapArray::fields(&fin);
    (fin, fields)
}

/// Renders the array with the size, `[3, 1, -1] size 2`.
pub fn render_heap(h: &HeapArray) -> String {
    format!("{:?} size {}", h.array, h.size)
}
