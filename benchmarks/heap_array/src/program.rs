//! HeapArray's inputs as a generator program (issue 33's combined style), the crate's
//! second engine (`--engine generator`): the same inputs as the finitization at every paper
//! scope, each once (`tests/generator_style.rs`). The program chooses the size,
//! then the array's length, then each element where the heap-order check first reads it (UDITA's
//! Fig. 13 HeapArray), fills the free slots with `EMPTY`, and checks the invariant over the real
//! heap last.
//! Everything but `generate` is the finitized benchmark's (`Beside`).

use crate::heap_array::{HeapArray, EMPTY};
use crate::invariant::rep_ok;
use crate::{Call, HeapArrayBench};
use ferastrau_sdk::generator::{Gen, Program, Pruned};
use ferastrau_sdk::korat::view::Real;

/// HeapArray's methods and judgement, its inputs from a program.
pub struct HeapArrayProgram;

const INSERT: usize = 0;

impl Program for HeapArrayProgram {
    type Bench = HeapArrayBench;

    fn bench(&self) -> &HeapArrayBench {
        &HeapArrayBench
    }

    /// The finitization's space: size and length in 0..=scope (size ≤ length), elements in
    /// 0..=scope, `insert`'s argument in −1..=scope.
    fn generate(&self, m: usize, scope: u32, g: &mut Gen<'_>) -> Result<Call, Pruned> {
        let n = i64::from(scope);
        let size = g.pick(0..=n)?;
        let length = g.pick(size..=n)?;
        let elements = (0..size)
            .map(|_| g.int(0..=n))
            .collect::<Result<Vec<_>, _>>()?;
        let mut array = vec![EMPTY; length as usize];
        for i in 0..elements.len() {
            array[i] = g.get(elements[i]);
            if i > 0 {
                g.assume(array[i] <= array[(i - 1) / 2])?;
            }
        }
        let heap = HeapArray { size, array };
        g.assume(rep_ok(&mut Real(&heap)))?;
        let x = if m == INSERT { g.pick(-1..=n)? } else { 0 };
        Ok(Call { heap, x })
    }
}
