//! `ferastrau export-tests`: the inputs of some scopes as a plain Rust test file a user can
//! commit — one `#[test]` per input, the input built by calls of the crate's public API
//! (`Benchmark::construct`), the method called, and the original's return value, abstract
//! post-state and invariant asserted. It runs as an integration test of the crate, and
//! `evaluate --suite` measures it like any suite: exported from scope s, it kills exactly
//! what `--scopes s` kills at s.

use std::fmt::Write as _;
use std::ops::RangeInclusive;

use anyhow::{bail, Result};
use ferastrau_protocol::{Message, Request};

use crate::locate::BenchmarkCrate;
use crate::worker::Worker;

/// The test file for `bench`'s inputs at `scopes`, from its original worker.
pub fn test_file(
    bench: &BenchmarkCrate,
    worker: &Worker,
    scopes: RangeInclusive<u32>,
) -> Result<String> {
    let mut text = format!(
        "//! Every input of `{name}` at scopes {first}..{last}, written by `ferastrau export-tests`:\n\
         //! each built by calls of the crate's API, the method called, and what the original\n\
         //! returns and leaves asserted (as `Debug` writes it), with the invariant.\n\n\
         use ferastrau_sdk::Benchmark;\n",
        name = bench.name,
        first = scopes.start(),
        last = scopes.end(),
    );
    let mut tests = 0;
    for scope in scopes {
        for m in worker.call(&Request::Export { scope })? {
            let Message::Exported {
                method,
                method_index,
                index,
                input,
                construct,
                ret,
                abstraction,
            } = m
            else {
                continue;
            };
            let Some(construct) = construct else {
                bail!(
                    "{} cannot write its inputs as calls (Benchmark::construct returns None): {input}",
                    bench.name
                );
            };
            tests += 1;
            let _ = write!(
                text,
                "\n/// {input}\n#[test]\nfn {method}_scope_{scope}_{index}() {{\n    \
                 {construct}\n    \
                 let ret = bench.run({method_index}, &mut input);\n    \
                 assert_eq!(format!(\"{{ret:?}}\"), {ret:?});\n    \
                 assert_eq!(format!(\"{{:?}}\", bench.abstraction(&input)), {abstraction:?});\n    \
                 assert!(bench.invariant(&input), \"the invariant\");\n}}\n",
            );
        }
    }
    if tests == 0 {
        bail!(
            "{} has no input at these scopes: nothing to export",
            bench.name
        );
    }
    Ok(text)
}

/// The counterexample `check` found (the input of `method` rendered as `input`, at `scope`) as
/// a test that fails on the original as `check` says it does: built by calls, the method
/// called, the invariant and the postcondition asserted. `None` when the benchmark cannot write
/// the input as calls, or the worker cannot run the scope's inputs to the end.
pub fn counterexample_test(
    worker: &Worker,
    scope: u32,
    method: &str,
    input: &str,
) -> Option<String> {
    let messages = worker.call(&Request::Export { scope }).ok()?;
    messages.into_iter().find_map(|m| match m {
        Message::Exported {
            method: name,
            method_index,
            input: rendered,
            construct: Some(construct),
            ..
        } if name == method && rendered == input => Some(format!(
            "/// {input}: the counterexample `ferastrau check` found at scope {scope}.\n\
             #[test]\nfn counterexample() {{\n    \
             use ferastrau_sdk::Benchmark;\n    \
             {construct}\n    \
             let pre = input.clone();\n    \
             let ret = bench.run({method_index}, &mut input);\n    \
             assert!(bench.invariant(&input), \"the invariant\");\n    \
             if let Err(why) = bench.postcondition({method_index}, &pre, &input, &ret) {{\n        \
             panic!(\"the postcondition: {{why}}\");\n    }}\n}}\n"
        )),
        _ => None,
    })
}
