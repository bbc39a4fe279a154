//! `ferastrau export-tests`: the inputs of some scopes as a plain Rust test file a user can
//! commit — one `#[test]` per input, the input built by calls of the crate's public API
//! (`Benchmark::construct`), the method called, and the original's return value, abstract
//! post-state and invariant asserted. It runs as an integration test of the crate, and
//! `evaluate --suite` measures it like any suite: exported from scope s, it kills exactly
//! what `--scopes s` kills at s.

use std::fmt::Write as _;
use std::ops::RangeInclusive;
use std::path::PathBuf;

use std::collections::HashMap;

use anyhow::{bail, Result};
use ferastrau_artifacts::{Artifact, ReducedSuite};
use ferastrau_protocol::{Message, Request, Sequence};

use ferastrau_console::exit_code::usage;

use crate::locate::{BenchmarkCrate, Named};
use crate::worker::Worker;

/// What `ferastrau export-tests` is asked to do: the command line, parsed.
#[derive(Clone, Debug)]
pub struct Options {
    /// The crate.
    pub target: Named,
    /// `--scopes` or `--reduced FILE`.
    pub inputs: Asked,
    /// `--out FILE`: the test file to write.
    pub out: PathBuf,
}

/// Which inputs the command line asks for.
#[derive(Clone, Debug)]
pub enum Asked {
    /// `--scopes`: every input of these scopes.
    Scopes(RangeInclusive<u32>),
    /// `--reduced FILE`: the inputs of the reduced suite `ferastrau subsets` wrote there.
    Reduced(PathBuf),
}

/// The test file written.
pub struct Outcome {
    pub benchmark: String,
    /// Its `#[test]`s, one per input.
    pub tests: usize,
    /// The inputs it holds.
    pub inputs: ExportedInputs,
    /// Where it was written.
    pub out: PathBuf,
}

/// `ferastrau export-tests`: the inputs asked for as a test file, written to `opts.out`.
pub fn run(opts: &Options) -> Result<Outcome> {
    let bench = opts.target.locate()?;
    let worker = crate::subject::original_worker(&bench)?;
    let inputs = match &opts.inputs {
        Asked::Scopes(scopes) => ExportedInputs::Scopes(scopes.clone()),
        Asked::Reduced(file) => ExportedInputs::Reduced({
            // Not while a run holds the directory it is in (clearing it).
            let _reading = match file.parent() {
                Some(dir) => Some(crate::outdir::OutputDir::read(dir)?),
                None => None,
            };
            ReducedSuite::read(file)
                .map_err(|e| usage(format!("--reduced {}: {e:#}", file.display())))?
        }),
    };
    let text = test_file(&bench, &worker, &inputs)?;
    std::fs::write(&opts.out, &text)
        .map_err(|e| usage(format!("cannot write {}: {e}", opts.out.display())))?;
    Ok(Outcome {
        benchmark: bench.name,
        tests: text.matches("#[test]").count(),
        inputs,
        out: opts.out.clone(),
    })
}

/// Which inputs a test file holds.
#[derive(Clone, Debug)]
pub enum ExportedInputs {
    /// Every input of these scopes.
    Scopes(RangeInclusive<u32>),
    /// The greedy reduced suite `ferastrau subsets` chose at one scope (`reduced-suite.json`):
    /// as few inputs as kill every mutant the scope's inputs kill.
    Reduced(ReducedSuite),
}

/// The test file for `bench`'s inputs in `inputs`, from its original worker.
pub fn test_file(
    bench: &BenchmarkCrate,
    worker: &Worker,
    inputs: &ExportedInputs,
) -> Result<String> {
    let (scopes, what) = described(bench, inputs)?;
    let chosen = chosen(inputs);
    let mut text = format!(
        "//! {what}, written by `ferastrau export-tests`:\n\
         //! each built by calls of the crate's API, the method called, and what the original\n\
         //! returns and leaves asserted (as `Debug` writes it), with the invariant.\n\n\
         use ferastrau_sdk::Benchmark;\n",
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
                candidate,
                sequence,
                ret,
                abstraction,
            } = m
            else {
                continue;
            };
            if let Some(chosen) = &chosen {
                match chosen.get(&(method.as_str(), index)) {
                    None => continue,
                    // Generation is deterministic: an index names the run's input unless the
                    // crate changed since.
                    Some(&then) if then != input => {
                        return Err(usage(format!(
                            "{} changed since the reduced suite was computed: {method} input #{index} at scope {scope} is {input} now, {then} then; run evaluate --kill-matrix and subsets again",
                            bench.name
                        )));
                    }
                    Some(_) => {}
                }
            }
            let (construct, how) =
                building(bench, method_index, scope, construct, sequence, &candidate);
            tests += 1;
            let _ = write!(
                text,
                "\n/// {input}{how}\n#[test]\nfn {method}_scope_{scope}_{index}() {{\n    \
                 {construct}\n{}}}\n",
                call_asserting(method_index, &ret, &abstraction)
            );
        }
    }
    if let ExportedInputs::Reduced(r) = inputs {
        if tests != r.inputs.len() {
            return Err(usage(format!(
                "{} changed since the reduced suite was computed: {} of its {} inputs are found at scope {}",
                bench.name,
                tests,
                r.inputs.len(),
                r.scope
            )));
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

/// The scopes `inputs` come from, and the file's first words on what they are.
fn described(
    bench: &BenchmarkCrate,
    inputs: &ExportedInputs,
) -> Result<(RangeInclusive<u32>, String)> {
    Ok(match inputs {
        ExportedInputs::Scopes(s) => (
            s.clone(),
            format!(
                "Every input of `{}` at scopes {}..{}",
                bench.name,
                s.start(),
                s.end()
            ),
        ),
        ExportedInputs::Reduced(r) => {
            if r.benchmark != bench.name {
                return Err(usage(format!(
                    "the reduced suite is {}'s, not {}'s",
                    r.benchmark, bench.name
                )));
            }
            (
                r.scope..=r.scope,
                format!(
                    "The reduced suite of `{}` at scope {} ({} of its {} inputs, which kill every mutant they all kill)",
                    bench.name,
                    r.scope,
                    r.inputs.len(),
                    r.of
                ),
            )
        }
    })
}

/// The reduced suite's inputs by (method, index), each with its rendering in the run; `None`
/// for whole scopes.
fn chosen(inputs: &ExportedInputs) -> Option<HashMap<(&str, u64), &str>> {
    match inputs {
        ExportedInputs::Scopes(_) => None,
        ExportedInputs::Reduced(r) => Some(
            r.inputs
                .iter()
                .map(|i| ((i.method.as_str(), i.index), i.input.as_str()))
                .collect(),
        ),
    }
}

/// The counterexample `check` found (the input of `method` rendered as `input`, at `scope`) as
/// a test that fails on the original as `check` says it does: built by calls, the method
/// called, the invariant and the postcondition asserted. `None` when the benchmark cannot write
/// the input as calls, or the worker cannot run the scope's inputs to the end.
pub fn counterexample_test(
    bench: &BenchmarkCrate,
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
            construct,
            candidate,
            sequence,
            ..
        } if name == method && rendered == input => Some({
            let (construct, how) =
                building(bench, method_index, scope, construct, sequence, &candidate);
            format!(
                "/// {input}: the counterexample `ferastrau check` found at scope {scope}{how}.\n\
             #[test]\nfn counterexample() {{\n    \
             use ferastrau_sdk::Benchmark;\n    \
             {construct}\n    \
             let pre = input.clone();\n    \
             let ret = bench.run({method_index}, &mut input);\n    \
             assert!(bench.invariant(&input), \"the invariant\");\n    \
             if let Err(why) = bench.postcondition({method_index}, &pre, &input, &ret) {{\n        \
             panic!(\"the postcondition: {{why}}\");\n    }}\n}}\n"
            )
        }),
        _ => None,
    })
}

/// Statements that bind `bench` to the benchmark and `mut input` to the input of method
/// `method_index` at `scope`: the crate's own calls where it writes them
/// (`Benchmark::construct`), else the shortest sequence of its methods' calls that reaches the
/// input (through `initial`, `with_argument` and `run`), else the input built directly — the
/// benchmark's decoder run on Korat's candidate vector; with a note saying which for the
/// test's doc comment.
fn building(
    bench: &BenchmarkCrate,
    method_index: usize,
    scope: u32,
    construct: Option<String>,
    sequence: Option<Sequence>,
    candidate: &[u32],
) -> (String, &'static str) {
    match (construct, sequence) {
        (Some(calls), _) => (calls, ""),
        (None, Some(seq)) => (
            by_calls(bench, scope, &seq.calls, method_index, seq.arg),
            " (built by the shortest sequence of the crate's calls that reaches it)",
        ),
        (None, None) => {
            let vector: Vec<String> = candidate.iter().map(u32::to_string).collect();
            (
                format!(
                    "let bench = {}::{}();\n    \
                     let (fin, fields) = bench.finitize({method_index}, {scope});\n    \
                     let mut input = bench.decode(\n        {method_index},\n        &fields,\n        \
                     &mut ferastrau_sdk::korat::Candidate::new(&fin, &[{}]),\n    );",
                    bench.lib_name,
                    bench.entry(),
                    vector.join(", "),
                ),
                " (built directly: Korat's candidate decoded, as no calls were found that build it)",
            )
        }
    }
}

/// Statements that bind `bench` (the crate's exported benchmark) and `mut input` to the input
/// of `method` with argument `arg` on the state `calls` reach from `initial(scope)`, each call
/// made through `with_argument` and `run` (for `export-tests` and `sequences --export`).
pub(crate) fn by_calls(
    bench: &BenchmarkCrate,
    scope: u32,
    calls: &[(usize, i64)],
    method: usize,
    arg: i64,
) -> String {
    let mut code = format!(
        "let bench = {}::{}();\n    let mut input = bench.initial({scope}).expect(\"an initial state\");\n    ",
        bench.lib_name,
        bench.entry()
    );
    if !calls.is_empty() {
        let calls: Vec<String> = calls.iter().map(|(m, a)| format!("({m}, {a})")).collect();
        code += &format!(
            "for (m, arg) in [{}] {{\n        \
             input = bench.with_argument(m, &input, arg);\n        \
             bench.run(m, &mut input);\n    }}\n    ",
            calls.join(", ")
        );
    }
    code + &format!("input = bench.with_argument({method}, &input, {arg});")
}

/// The call of `method` on `input` and what the original did asserted: its return value and
/// post-state abstraction as `Debug` writes them, and the invariant (indented lines, each
/// ending in a newline).
pub(crate) fn call_asserting(method: usize, ret: &str, abstraction: &str) -> String {
    format!(
        "    let ret = bench.run({method}, &mut input);\n    \
         assert_eq!(format!(\"{{ret:?}}\"), {ret:?});\n    \
         assert_eq!(format!(\"{{:?}}\", bench.abstraction(&input)), {abstraction:?});\n    \
         assert!(bench.invariant(&input), \"the invariant\");\n"
    )
}
