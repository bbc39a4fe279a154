//! HeapArray's inputs written as a generator program (issue 33, item 4; `src/program.rs`)
//! instead of the finitization: the same inputs at every paper scope, each once.

use ferastrau_sdk::generator::{Beside, Generated};
use ferastrau_sdk::testing;
use heap_array::program::HeapArrayProgram;
use heap_array::HeapArrayBench;

#[test]
fn the_generator_program_gives_the_finitization_s_inputs_at_every_paper_scope() {
    testing::assert_same_inputs(
        &HeapArrayBench,
        &Generated::new(Beside(HeapArrayProgram)),
        1..=6,
        4,
    );
}
