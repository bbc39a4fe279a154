//! SortedList's inputs written as a generator program (issue 33, item 4; `src/program.rs`)
//! instead of the finitization: the same inputs at every paper scope, each once.

use ferastrau_sdk::generator::{Beside, Generated};
use ferastrau_sdk::testing;
use sorted_list::program::SortedListProgram;
use sorted_list::SortedListBench;

#[test]
fn the_generator_program_gives_the_finitization_s_inputs_at_every_paper_scope() {
    testing::assert_same_inputs(
        &SortedListBench,
        &Generated::new(Beside(SortedListProgram)),
        1..=7,
        4,
    );
}
