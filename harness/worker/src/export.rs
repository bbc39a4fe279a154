//! The worker's `export` request: every input of every method at one scope as the parts of a
//! test a user can keep (`ferastrau export-tests`): the code that builds it by calls
//! (`Benchmark::construct`), its rendering, and what the original returns and leaves, as
//! `Debug` writes them. The harness writes the test file from these.

use crate::channel::send;
use crate::protocol::Message;
use ferastrau_sdk::inputs::for_each_input;
use ferastrau_sdk::Benchmark;

/// Sends one [`Message::Exported`] per input at `scope`, in Korat's order (without
/// construction code where the benchmark cannot write the input as calls).
pub fn export<B: Benchmark>(bench: &B, scope: u32) -> std::io::Result<()> {
    ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
    for (m, &name) in bench.methods().iter().enumerate() {
        let mut index = 0;
        let mut result = Ok(());
        for_each_input(bench, m, scope, |input| {
            // After a failed send (the harness is gone) nothing more is sent.
            if result.is_err() {
                return;
            }
            let mut post = input.clone();
            let ret = bench.run(m, &mut post);
            result = send(&Message::Exported {
                method: name.to_string(),
                method_index: m,
                index,
                input: bench.render(m, &input),
                construct: bench.construct(m, &input),
                ret: format!("{ret:?}"),
                abstraction: format!("{:?}", bench.abstraction(&post)),
            });
            index += 1;
        });
        result?;
    }
    Ok(())
}
