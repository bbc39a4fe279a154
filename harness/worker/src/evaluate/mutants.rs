//! `mutants`: each mutant against the original on the stored inputs, scope by scope, stopping
//! each scope at its first killing input (alone, or in cohorts: [`cohort`]).

use std::ops::ControlFlow;
use std::path::Path;
use std::time::Instant;

use super::trial::{kill_of, trial};
use super::{clock_timeout, cohort};
use crate::abandon::CallStack;
use crate::channel::send;
use crate::cursor;
use crate::protocol::{Comparison, DueMutant, Kill, Limits, Message};
use crate::reach::ReachSets;
use crate::store::{inputs_path, times_path, StateReader, TimesReader};
use crate::watchdog::Watchdog;
use ferastrau_sdk::Benchmark;

/// `mutants`: runs each mutant of `due` in turn against the original on the stored inputs of
/// each of its scopes up to `to` (with `reach`, only those that reach the mutant's point),
/// sending one [`Message::Scope`] per scope: killed (with the reason and the first killing
/// input) or survived. With `cohorts`, mutants that take the same inputs run together
/// ([`cohort`]), with the same results. Nothing carries over from one mutant to the
/// next but the process: the switch, the tick budget and the probes are set for every call.
/// Returns `false` when it stopped early, after a scope or a cohort, with a
/// [`Message::Recycle`] (abandoned calls leaked too much: a fresh process takes the rest).
#[allow(clippy::too_many_arguments)]
pub fn mutants<B: Benchmark>(
    bench: &B,
    due: &[DueMutant],
    to: u32,
    dir: &Path,
    cursor_file: &Path,
    judging: Judging,
    reach: bool,
    cohorts: bool,
) -> std::io::Result<bool> {
    cursor::open(cursor_file)?;
    let stops = Stops::start()?;
    let mut rest = due;
    while let Some(d) = rest.first() {
        let n = if cohorts {
            cohort::len(bench, rest, to, dir, reach)?
        } else {
            1
        };
        if n > 1 {
            cohort::run(bench, &rest[..n], to, dir, judging, reach, &stops)?;
            rest = &rest[n..];
            if stops.calls.must_recycle() {
                send(&stops.calls.recycle_message())?;
                return Ok(false);
            }
            continue;
        }
        rest = &rest[1..];
        cursor::set(cursor::MUTANT, d.mutant);
        for scope in d.from..=to {
            cursor::set(cursor::SCOPE, scope);
            if scope == d.from {
                crate::fault::at_mutant(d.mutant);
            }
            let started = Instant::now();
            let run = Run {
                mutant: d.mutant,
                scope,
                judging,
                stops: &stops,
            };
            let (kill, executions, skipped) = run_scope(bench, &run, dir, reach)?;
            send(&Message::Scope {
                mutant: d.mutant,
                scope,
                kill,
                executions,
                skipped,
                seconds: started.elapsed().as_secs_f64(),
            })?;
            if stops.calls.must_recycle() {
                send(&stops.calls.recycle_message())?;
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// What stops a mutant's call: the clock's watchdog, and the stack a deep trip of the tick
/// budget is abandoned on.
pub(crate) struct Stops {
    pub watchdog: Watchdog,
    pub calls: CallStack,
}

impl Stops {
    /// Starts the watchdog and maps the call stack.
    pub fn start() -> std::io::Result<Stops> {
        Ok(Stops {
            watchdog: Watchdog::start(clock_timeout)?,
            calls: CallStack::new()?,
        })
    }
}

/// How a mutant is judged on each input: its limits, and what its outputs are compared with
/// the original's by.
#[derive(Clone, Copy, Debug)]
pub struct Judging {
    pub limits: Limits,
    pub comparison: Comparison,
}

impl Judging {
    /// Refuses a structural comparison of a benchmark that defines no structure: every
    /// mutant would otherwise be judged by what it does not have.
    pub fn new<B: Benchmark>(limits: Limits, comparison: Comparison) -> std::io::Result<Judging> {
        if comparison == Comparison::Structural && !B::STRUCTURE {
            return Err(std::io::Error::other(
                "the benchmark defines no structure (Benchmark::STRUCTURE and \
                 Benchmark::structure), which --compare structural compares",
            ));
        }
        Ok(Judging { limits, comparison })
    }
}

/// One mutant at one scope, and how it is limited.
struct Run<'a> {
    mutant: u32,
    scope: u32,
    judging: Judging,
    stops: &'a Stops,
}

/// The inputs of `method` at `scope` that `mutant` runs on, in increasing order: with `reach`
/// and a reach file, those that reach its point; else all of them (`None`).
pub(crate) fn selection(
    dir: &Path,
    scope: u32,
    method: usize,
    mutant: u32,
    reach: bool,
) -> std::io::Result<Option<roaring::RoaringBitmap>> {
    if !reach {
        return Ok(None);
    }
    ReachSets::read(dir, scope, method)?
        .map(|mut sets| sets.of(mutant))
        .transpose()
}

/// Walks the stored inputs of `method` at `scope` that `mutant` runs on ([`selection`]), in
/// order, handing `each` the input's number, its state vector and the original's time on it,
/// until `each` breaks; returns how many inputs the method has in all. The one walk of a
/// mutant's run, alone or in a cohort ([`cohort`]: the cohort's first mutant stands
/// for all, whose inputs are the same).
pub(crate) fn each_input(
    dir: &Path,
    scope: u32,
    method: usize,
    mutant: u32,
    reach: bool,
    mut each: impl FnMut(u64, &[u32], u64) -> ControlFlow<()>,
) -> std::io::Result<u64> {
    let mut reader = StateReader::open(&inputs_path(dir, scope, method))?;
    let mut times = TimesReader::open(&times_path(dir, scope, method))?;
    let chosen = selection(dir, scope, method, mutant, reach)?;
    let indices: Box<dyn Iterator<Item = u64>> = match &chosen {
        Some(bits) => Box::new(bits.iter().map(u64::from)),
        None => Box::new(0..),
    };
    let mut at = 0u64;
    for index in indices {
        reader.skip(index - at)?;
        times.skip(index - at)?;
        let Some(state) = reader.next_state()? else {
            break;
        };
        at = index + 1;
        let original_nanos = times.next_time()?;
        if each(index, state, original_nanos).is_break() {
            break;
        }
    }
    Ok(reader.inputs())
}

/// Returns the first kill, if any, the inputs run and the inputs skipped (those a run on
/// every input would have run up to the same kill).
fn run_scope<B: Benchmark>(
    bench: &B,
    run: &Run<'_>,
    dir: &Path,
    reach: bool,
) -> std::io::Result<(Option<Kill>, u64, u64)> {
    let (mut executions, mut full) = (0, 0);
    for m in 0..bench.methods().len() {
        cursor::set(cursor::METHOD, m as u32);
        let (fin, fields) = bench.finitize(m, run.scope);
        let mut killed = None;
        let inputs = each_input(
            dir,
            run.scope,
            m,
            run.mutant,
            reach,
            |index, state, nanos| {
                let decode = || bench.decode(m, &fields, &mut korat::Candidate::new(&fin, state));
                executions += 1;
                killed = judge(bench, run, m, index, decode, nanos).map(|kill| (kill, index));
                if killed.is_some() {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        )?;
        if let Some((kill, index)) = killed {
            return Ok((Some(kill), executions, full + index + 1 - executions));
        }
        full += inputs;
    }
    Ok((None, executions, full - executions))
}

/// Runs the original and then the mutant on one input, which `decode` gives ([`trial`]); the
/// kill, if the mutant differs.
fn judge<B: Benchmark>(
    bench: &B,
    run: &Run<'_>,
    m: usize,
    index: u64,
    decode: impl Fn() -> B::Input,
    original_nanos: u64,
) -> Option<Kill> {
    cursor::set(cursor::INDEX, index as u32);
    let (original, t) = trial(
        bench,
        m,
        run.mutant,
        decode(),
        original_nanos,
        run.judging,
        run.stops,
    );
    kill_of(bench, m, index, &original, t, decode)
}
