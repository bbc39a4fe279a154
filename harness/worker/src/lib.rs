//! The worker process Ferastrau builds for a benchmark crate.
//!
//! A benchmark crate implements `ferastrau_sdk::Benchmark` and says
//! `ferastrau_sdk::export!(MyBench)`. The `ferastrau` binary links no benchmark: it generates a
//! tiny worker crate that depends on the benchmark (or on its metamutant copy) and on this
//! crate, and whose `main` is `ferastrau_worker::worker_main(bench::ferastrau_benchmark())`;
//! it then talks to that process through the requests and messages of
//! [`protocol`] (`ferastrau-protocol`).

pub mod abandon;
mod channel;
mod evaluate;
mod export_tests;
pub mod fault;
mod generate;
mod matrix;
mod outputs;
mod parts;
mod progress;
mod sequences;
mod watchdog;
mod white_box;

pub use ferastrau_protocol as protocol;
use ferastrau_sdk::axioms::WithAxioms;
use ferastrau_sdk::{panics, Benchmark};
use protocol::{cursor, reach, store};

use protocol::{Message, Request};

/// Exit status of a worker that could not carry out its request (after [`Message::Error`]).
pub const EXIT_ERROR: i32 = 2;
/// Exit status of a worker that stopped early on purpose (after a [`Message::Failure`] or a
/// [`Message::DiskLimit`]): the harness reads why from the channel, never from the status.
pub const EXIT_STOPPED: i32 = 3;

/// The worker process's `main`: reads one [`Request`] (JSON) from its first argument, sends
/// [`Message`]s on the protocol channel, and ends them with [`Message::Done`] when the request
/// completed.
pub fn worker_main<B: Benchmark>(bench: B) {
    panics::report_unexpected_with(|message, location| {
        if channel::is_open() {
            let _ = channel::send(&Message::Panic {
                message: message.to_string(),
                location: location.map(str::to_string),
            });
        }
    });
    if let Err(e) = channel::open() {
        eprintln!("worker: {e}");
        std::process::exit(EXIT_ERROR);
    }
    // `args_os`: `args` would panic on an argument that is not UTF-8, before the request
    // could be refused as a bad one.
    let request = std::env::args_os()
        .nth(1)
        .ok_or_else(|| "usage: worker REQUEST (JSON; see ferastrau_worker::protocol)".to_string())
        .and_then(|a| {
            let a = a.to_string_lossy();
            serde_json::from_str::<Request>(&a).map_err(|e| format!("bad request: {e}"))
        });
    // Axioms are targets after the methods (see `ferastrau_sdk::axioms`).
    let bench = WithAxioms::new(bench);
    let outcome = request.and_then(|r| dispatch(&bench, r).map_err(|e| e.to_string()));
    let code = match outcome {
        Ok(true) => match channel::send(&Message::Done) {
            Ok(()) => 0,
            Err(_) => EXIT_ERROR,
        },
        Ok(false) => EXIT_STOPPED,
        Err(message) => {
            let _ = channel::send(&Message::Error { message });
            EXIT_ERROR
        }
    };
    std::process::exit(code);
}

/// Carries out `request`; `Ok(false)` when it stopped early with its reason already sent.
///
/// Every request sees the axioms as targets, except `export` and `sequences`, which build
/// inputs by the crate's own calls and so take its methods alone.
fn dispatch<B: Benchmark>(bench: &WithAxioms<B>, request: Request) -> std::io::Result<bool> {
    match request {
        Request::Describe => channel::send(&Message::Described {
            methods: bench.methods().iter().map(|m| m.to_string()).collect(),
            structure: B::STRUCTURE,
        })?,
        Request::Generate {
            scope,
            print,
            pruning,
            isomorphism_breaking,
            jobs,
            structure,
            generators,
        } => {
            let opts = korat::SearchSwitches {
                pruning,
                isomorphism_breaking,
            };
            let ask = generate::GenerateRequest {
                print,
                opts,
                jobs,
                structure,
                generators,
            };
            generate::generate(bench, scope, ask)?;
        }
        Request::Outputs {
            scope,
            mutant,
            clock,
        } => outputs::outputs(bench, scope, mutant, clock)?,
        Request::Export { scope } => export_tests::export(bench.inner(), scope)?,
        Request::Sequences {
            length,
            scope,
            matching,
            calls,
        } => sequences::sequences(bench.inner(), length, scope, matching, calls)?,
        Request::WhiteBox { scope, clock } => white_box::white_box(bench, scope, clock)?,
        Request::Inputs {
            scope,
            dir,
            coverage,
            max_bytes,
            jobs,
        } => return evaluate::inputs(bench, scope, &dir, coverage, max_bytes, jobs),
        Request::Original {
            scope,
            dir,
            clock,
            cursor,
            reach,
        } => return evaluate::original(bench, scope, &dir, clock, &cursor, reach),
        Request::Mutants {
            mutants,
            to,
            dir,
            cursor,
            limits,
            reach,
            comparison,
            cohorts,
        } => {
            let judging = evaluate::Judging::new::<WithAxioms<B>>(limits, comparison)?;
            return evaluate::mutants(bench, &mutants, to, &dir, &cursor, judging, reach, cohorts);
        }
        Request::Matrix {
            mutant,
            scope,
            spans,
            dir,
            cursor,
            limits,
            reach,
            comparison,
        } => {
            let judging = evaluate::Judging::new::<WithAxioms<B>>(limits, comparison)?;
            return matrix::matrix(bench, mutant, scope, &spans, &dir, &cursor, judging, reach);
        }
        Request::Replay { scope, dir, repeat } => evaluate::replay(bench, scope, &dir, repeat)?,
        Request::Render {
            scope,
            method,
            index,
            dir,
        } => evaluate::render(bench, scope, method, index, &dir)?,
    }
    Ok(true)
}
