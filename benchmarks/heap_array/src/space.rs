//! Korat's side: the finitization (`finHeapArray(n)` with the method's argument beside the
//! receiver) and rendering. The field ids, the view and the decoder are `#[derive(Korat)]`'s
//! (`crate::heap_array`).

use ferastrau_sdk::korat::{Domain, Finitization};

use crate::heap_array::HeapArray;
pub use crate::heap_array::HeapArrayFields as Fields;

/// `finHeapArray(n)` (the `#[korat]` domains of [`HeapArray`]): `size` 0..n and one int array
/// (never null) of length 0..n with slot values −1..n. With `with_arg` the root also holds
/// `insert`'s `x` over −1..n, generated jointly with the heap; the precondition never reads it.
/// Slots: root (`size`, `array`, [`x`]), then the array (`length`, `v[0..n]`).
pub fn finitization(root_name: &str, n: u32, with_arg: bool) -> (Finitization, Fields) {
    assert!(n >= 1, "HeapArray scopes start at 1");
    let x = [("x", Domain::ints(-1, i64::from(n)))];
    HeapArray::finitization(root_name, n, if with_arg { &x } else { &[] })
}

/// Renders the array with the size, `[3, 1, -1] size 2`.
pub fn render_heap(h: &HeapArray) -> String {
    format!("{:?} size {}", h.array, h.size)
}
