//! The worker's `export` request: every input of every method at one scope as the parts of a
//! test a user can keep (`ferastrau export-tests`): the code that builds it by calls
//! (`Benchmark::construct`), Korat's candidate vector (from which the decoder builds it
//! directly where no calls do), its rendering, and what the original returns and leaves, as
//! `Debug` writes them. The harness writes the test file from these.

use std::ops::ControlFlow;

use crate::channel::send;
use crate::protocol::Message;
use ferastrau_sdk::Benchmark;

/// Sends one [`Message::Exported`] per input at `scope`, in Korat's order.
pub fn export<B: Benchmark>(bench: &B, scope: u32) -> std::io::Result<()> {
    ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
    for (m, &name) in bench.methods().iter().enumerate() {
        let (fin, fields) = bench.finitize(m, scope);
        let mut index = 0;
        let mut result = Ok(());
        korat::search(
            &fin,
            |c| bench.precondition(m, &fields, c),
            |c| {
                let candidate = c.state().to_vec();
                let input = bench.decode(
                    m,
                    &fields,
                    &mut korat::Candidate::new(c.finitization(), &candidate),
                );
                let mut post = input.clone();
                let ret = bench.run(m, &mut post);
                result = send(&Message::Exported {
                    method: name.to_string(),
                    method_index: m,
                    index,
                    input: bench.render(m, &input),
                    construct: bench.construct(m, &input),
                    candidate,
                    ret: format!("{ret:?}"),
                    abstraction: format!("{:?}", bench.abstraction(&post)),
                });
                index += 1;
                // After a failed send (the harness is gone) nothing more is sent.
                match result {
                    Ok(()) => ControlFlow::Continue(()),
                    Err(_) => ControlFlow::Break(()),
                }
            },
        );
        result?;
    }
    Ok(())
}
