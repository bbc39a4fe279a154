//! HeapArray's inputs written as a generator program (issue 33, item 4) instead of the
//! finitization: the same inputs at every paper scope, each once. The program chooses the size,
//! then the array's length, then each element where the heap-order check first reads it (UDITA's
//! Fig. 13 HeapArray), fills the free slots with `EMPTY`, and checks the invariant over the real
//! heap last.

use ferastrau_sdk::generator::{Gen, Generated, Generator, Pruned};
use ferastrau_sdk::{testing, Benchmark};
use heap_array::heap_array::{HeapArray, EMPTY};
use heap_array::invariant::{rep_ok, RealHeap};
use heap_array::{Call, HeapArrayBench, Ret};

/// HeapArray's methods and judgement, its inputs from a program.
struct Program;

const INSERT: usize = 0;

impl Generator for Program {
    type Input = Call;
    type Ret = Ret;
    type Abs = HeapArray;

    fn methods(&self) -> &'static [&'static str] {
        HeapArrayBench.methods()
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
        g.assume(rep_ok(&mut RealHeap(&heap)))?;
        let x = if m == INSERT { g.pick(-1..=n)? } else { 0 };
        Ok(Call { heap, x })
    }

    fn run(&self, m: usize, input: &mut Call) -> Ret {
        HeapArrayBench.run(m, input)
    }
    fn invariant(&self, input: &Call) -> bool {
        HeapArrayBench.invariant(input)
    }
    fn abstraction(&self, input: &Call) -> HeapArray {
        HeapArrayBench.abstraction(input)
    }
    fn postcondition(&self, m: usize, pre: &Call, post: &Call, ret: &Ret) -> Result<(), String> {
        HeapArrayBench.postcondition(m, pre, post, ret)
    }
    fn render(&self, m: usize, input: &Call) -> String {
        HeapArrayBench.render(m, input)
    }
}

#[test]
fn the_generator_program_gives_the_finitization_s_inputs_at_every_paper_scope() {
    testing::assert_same_inputs(&HeapArrayBench, &Generated::new(Program), 1..=6, 4);
}
