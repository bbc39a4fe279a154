//! The worker's side of `ferastrau evaluate`: generating and storing a scope's inputs, running
//! the original on them (checking, coverage, timing), and running one mutant against the
//! original on them, scope by scope, stopping each scope at its first killing input.
//!
//! Everything goes to the harness as [`Message`]s on the protocol channel.

use std::fs::File;
use std::io::Write;
use std::ops::ControlFlow;
use std::os::fd::AsFd;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use crate::abandon::CallStack;
use crate::channel::send;
use crate::cursor;
use crate::generate::method_figures;
use crate::parts::{self, Stored};
use crate::protocol::{
    Clause, Comparison, Due, Fault, Kill, Limit, Limits, Message, Position, Reason,
};
use crate::reach::{reach_path, ReachRecorder, ReachSets};
use crate::store::{inputs_path, times_path, StateReader, StateWriter, TimesReader};
use crate::watchdog::Watchdog;
use ferastrau_sdk::exec::{execute, execute_checked_original, Outcome};
use ferastrau_sdk::panics;
use ferastrau_sdk::Benchmark;

/// `inputs`: Korat for every method at `scope` on `jobs` threads, storing the valid inputs
/// under `dir` (the same file for any `jobs`: [`crate::parts`]); with `coverage`, counts the
/// specification probes the preconditions hit during the search. Returns `false` (after a
/// [`Message::DiskLimit`]) if the inputs need more than `max_bytes`.
pub fn inputs<B: Benchmark>(
    bench: &B,
    scope: u32,
    dir: &Path,
    coverage: bool,
    max_bytes: u64,
    jobs: usize,
) -> std::io::Result<bool> {
    ferastrau_probes::take_coverage();
    // Korat's counts for the harness's progress line while the searches run.
    let _progress = crate::progress::Publisher::start(crate::protocol::progress::path(dir, scope));
    let mut budget = max_bytes;
    for (m, &name) in bench.methods().iter().enumerate() {
        let (fin, fields) = bench.finitize(m, scope);
        let path = inputs_path(dir, scope, m);
        ferastrau_probes::set_coverage(coverage);
        let stored = if jobs > 1 {
            let pred = |c: &mut korat::Candidate<'_>| bench.precondition(m, &fields, c);
            parts::search_into(&fin, jobs, pred, &path, budget)
        } else {
            sequential(bench, m, &fields, &fin, &path, budget)
        };
        ferastrau_probes::set_coverage(false);
        let (stats, bytes) = match stored? {
            (stats, Stored::Written(bytes)) => (stats, bytes),
            (_, Stored::OverBudget) => {
                send(&Message::DiskLimit { scope, max_bytes })?;
                return Ok(false);
            }
        };
        budget = budget.saturating_sub(bytes);
        send(&method_figures(
            name,
            scope,
            &stats,
            fin.state_space_log2(),
            bytes,
            false,
        ))?;
    }
    send(&Message::Coverage {
        probes: ferastrau_probes::take_coverage(),
    })?;
    Ok(true)
}

/// [`inputs`]' search of one method on the calling thread, writing as it goes.
fn sequential<B: Benchmark>(
    bench: &B,
    m: usize,
    fields: &B::Fields,
    fin: &korat::Finitization,
    path: &Path,
    budget: u64,
) -> std::io::Result<(korat::Stats, Stored)> {
    let mut w = StateWriter::create(path, crate::parts::layout(fin), budget)?;
    let mut err = Ok(());
    let stats = korat::search(
        fin,
        |c| bench.precondition(m, fields, c),
        |c| match w.push(c.state()) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                err = Err(e);
                ControlFlow::Break(())
            }
        },
    );
    if w.over_budget() {
        return Ok((stats, Stored::OverBudget));
    }
    err?;
    Ok((stats, Stored::Written(w.finish()?)))
}

/// Reports the watchdog's timeout at the cursor's position and ends the process at once
/// (without destructors or flushing: the main thread is stuck in the code under test).
pub(crate) fn clock_timeout(limit: Duration) {
    let position = Position {
        scope: cursor::get(cursor::SCOPE),
        method: cursor::get(cursor::METHOD) as usize,
        index: u64::from(cursor::get(cursor::INDEX)),
    };
    if JUDGING_BROKEN_STATE.load(Relaxed) {
        let _ = send(&Message::Error {
            message: format!(
                "the original's post-state on input #{} of method {} at scope {} breaks the invariant, and explaining or rendering it ran past the clock limit of {:.3} s (a cycle in the broken structure?)",
                position.index, position.method, position.scope, limit.as_secs_f64()
            ),
        });
        // SAFETY: ends the process immediately; nothing after this runs.
        unsafe { libc::_exit(0) }
    }
    let _ = send(&Message::ClockTimeout { position, limit });
    // SAFETY: ends the process immediately; nothing after this runs.
    unsafe { libc::_exit(0) }
}

/// The bytes written so far to this process's stdout, when it is a regular file (the harness
/// gives the original one): the original must not print.
struct StdoutWatch(Option<File>);

impl StdoutWatch {
    fn new() -> StdoutWatch {
        let f = std::io::stdout()
            .as_fd()
            .try_clone_to_owned()
            .ok()
            .map(File::from)
            .filter(|f| f.metadata().map(|m| m.is_file()).unwrap_or(false));
        StdoutWatch(f)
    }

    fn len(&self) -> u64 {
        let _ = std::io::stdout().flush();
        self.0
            .as_ref()
            .and_then(|f| f.metadata().ok())
            .map_or(0, |m| m.len())
    }
}

/// What went wrong with the original on one input that stops its run, if anything (a
/// broken post-state does not: it is a counterexample, see [`broken_state`]).
fn original_fault<B: Benchmark>(outcome: &Outcome<B>) -> Option<(Fault, String)> {
    match outcome {
        Outcome::Normal(..) | Outcome::Broken { .. } => None,
        Outcome::Panicked(_) => Some((Fault::Panicked, outcome.render())),
        Outcome::OverBudget => Some((Fault::Timeout, outcome.render())),
    }
}

/// Set while a post-state the invariant rejected is explained and rendered: a broken
/// structure can make the benchmark's own renderer loop (a cycle where a tree was), and the
/// clock's report must then say so rather than blame the call.
static JUDGING_BROKEN_STATE: AtomicBool = AtomicBool::new(false);

/// The violation of the invariant by the original's post-state `post`: why (the panic, the
/// benchmark's own reason, or only that it is false) and the post-state rendered.
pub(crate) fn broken_state<B: Benchmark>(
    bench: &B,
    m: usize,
    post: &B::Input,
    ret: &str,
    panic: &Option<String>,
) -> (String, String, Option<String>) {
    JUDGING_BROKEN_STATE.store(true, Relaxed);
    let reason = match panic {
        Some(p) => format!("it panicked on the post-state: {p}"),
        None => match panics::expected(|| bench.invariant_violation(post)) {
            Ok(Some(why)) => why,
            Ok(None) => "false on the post-state".into(),
            Err((p, _)) => format!(
                "false on the post-state (`invariant_violation` panicked explaining why: {})",
                panics::payload_text(&*p)
            ),
        },
    };
    let post_state = panics::expected(|| bench.render(m, post)).ok();
    JUDGING_BROKEN_STATE.store(false, Relaxed);
    (format!("returned {ret}"), reason, post_state)
}

/// `original`: runs the original on every stored input at `scope`, checking the invariant
/// and the postcondition, recording each input's time and the code probes hit. A panic, a
/// broken post-state or output on stdout is a `failure` (the run cannot go on); a
/// postcondition violation is a `violation` (a counterexample). Each call runs under the clock
/// limit `clock`; the position is kept in the cursor file for the harness, should the process
/// die. With `reach`, also writes which mutation points each input reaches. Returns `false`
/// after a failure.
pub fn original<B: Benchmark>(
    bench: &B,
    scope: u32,
    dir: &Path,
    clock: Duration,
    cursor_file: &Path,
    reach_sets: bool,
) -> std::io::Result<bool> {
    cursor::open(cursor_file)?;
    cursor::set(cursor::SCOPE, scope);
    let watchdog = Watchdog::start(clock_timeout)?;
    let stdout = StdoutWatch::new();
    ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
    ferastrau_probes::take_coverage();
    for (m, &name) in bench.methods().iter().enumerate() {
        cursor::set(cursor::METHOD, m as u32);
        let (fin, fields) = bench.finitize(m, scope);
        let path = inputs_path(dir, scope, m);
        let printed_before = stdout.len();
        let mut reader = StateReader::open(&path)?;
        let mut times = crate::store::TimesWriter::create(&times_path(dir, scope, m))?;
        let mut reach = ReachRecorder::new();
        let started = Instant::now();
        while let Some(state) = reader.next_state()? {
            let index = times.len();
            cursor::set(cursor::INDEX, index as u32);
            // Armed over all of the benchmark's code on this input (decoding, the call,
            // judging, rendering): a loop anywhere in it names the input.
            watchdog.arm(clock);
            let pre = bench.decode(m, &fields, &mut korat::Candidate::new(&fin, state));
            let mut post = pre.clone();
            let t = Instant::now();
            // Reach markers on over the whole judged call: a mutant is still active while
            // the invariant and the abstraction judge its post-state.
            ferastrau_probes::set_reaching(reach_sets);
            let (outcome, _) = execute(bench, m, &mut post, u64::MAX, true);
            ferastrau_probes::set_reaching(false);
            times.push(t.elapsed().as_nanos() as u64)?;
            reach.record(index);
            if let Some((fault, detail)) = original_fault(&outcome) {
                send(&Message::Failure {
                    method: name.to_string(),
                    index,
                    input: render_input(bench, m, &pre),
                    fault,
                    detail,
                })?;
                return Ok(false);
            }
            if let Outcome::Broken { ret, panic } = &outcome {
                let (output, message, post_state) = broken_state(bench, m, &post, ret, panic);
                send(&Message::Violation {
                    method: name.to_string(),
                    index,
                    input: render_input(bench, m, &pre),
                    output,
                    message,
                    clause: Clause::Invariant,
                    post_state,
                })?;
            }
            if let Outcome::Normal(ret, _) = &outcome {
                if let Err(message) = bench.postcondition(m, &pre, &post, ret) {
                    send(&Message::Violation {
                        method: name.to_string(),
                        index,
                        input: render_input(bench, m, &pre),
                        output: outcome.render(),
                        message,
                        clause: Clause::Postcondition,
                        post_state: panics::expected(|| bench.render(m, &post)).ok(),
                    })?;
                }
            }
            watchdog.disarm();
        }
        if stdout.len() != printed_before {
            // Checked per method, not per call (a metadata call per input would cost more
            // than many calls); the culprit is found by running the method's inputs again.
            ferastrau_probes::set_coverage(false);
            return find_printer(bench, m, scope, &path, &stdout).map(|()| false);
        }
        let inputs = times.finish()?;
        if reach_sets {
            reach.write(&reach_path(dir, scope, m), inputs)?;
        }
        send(&Message::Method {
            method: name.to_string(),
            scope,
            inputs,
            candidates: 0,
            seconds: started.elapsed().as_secs_f64(),
            state_space_log2: 0.0,
            bytes: 0,
            generators: false,
        })?;
    }
    send(&Message::Coverage {
        probes: ferastrau_probes::take_coverage(),
    })?;
    Ok(true)
}

/// Runs `method`'s inputs again, one by one, until the one that writes to stdout, and
/// reports it (the code under test is deterministic).
fn find_printer<B: Benchmark>(
    bench: &B,
    m: usize,
    scope: u32,
    path: &Path,
    stdout: &StdoutWatch,
) -> std::io::Result<()> {
    let (fin, fields) = bench.finitize(m, scope);
    let mut reader = StateReader::open(path)?;
    let mut index = 0u64;
    while let Some(state) = reader.next_state()? {
        let pre = bench.decode(m, &fields, &mut korat::Candidate::new(&fin, state));
        let before = stdout.len();
        execute(bench, m, &mut pre.clone(), u64::MAX, false);
        if stdout.len() != before {
            return send(&Message::Failure {
                method: bench.methods()[m].to_string(),
                index,
                input: render_input(bench, m, &pre),
                fault: Fault::Printed,
                detail: format!(
                    "wrote {} byte(s) to stdout, which the comparison of outputs cannot see",
                    stdout.len() - before
                ),
            });
        }
        index += 1;
    }
    send(&Message::Error {
        message: format!(
            "method {} wrote to stdout at scope {scope}, but not when its inputs ran again one by one",
            bench.methods()[m]
        ),
    })
}

/// `mutants`: runs each mutant of `due` in turn against the original on the stored inputs of
/// each of its scopes up to `to` (with `reach`, only those that reach the mutant's point),
/// sending one [`Message::Scope`] per scope: killed (with the reason and the first killing
/// input) or survived. With `cohorts`, mutants that take the same inputs run together
/// ([`crate::cohort`]), with the same results. Nothing carries over from one mutant to the
/// next but the process: the switch, the tick budget and the probes are set for every call.
/// Returns `false` when it stopped early, after a scope or a cohort, with a
/// [`Message::Recycle`] (abandoned calls leaked too much: a fresh process takes the rest).
#[allow(clippy::too_many_arguments)]
pub fn mutants<B: Benchmark>(
    bench: &B,
    due: &[Due],
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
            crate::cohort::len(bench, rest, to, dir, reach)?
        } else {
            1
        };
        if n > 1 {
            crate::cohort::run(bench, &rest[..n], to, dir, judging, reach, &stops)?;
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

/// The original's run on one input: what every mutant judged on the input is compared with.
/// Made once per input however many mutants are judged on it ([`crate::cohort`]).
pub(crate) struct OriginalRun<B: Benchmark> {
    /// Its outcome.
    pub expected: Outcome<B>,
    /// The ticks it took: the mutants' budget is a multiple of them.
    pub ticks: u64,
    /// Its post-state, for a structural comparison.
    post: B::Input,
    /// The post-state's structure, computed for the first mutant that needs it.
    structure: Option<String>,
}

impl<B: Benchmark> OriginalRun<B> {
    /// Runs the original of method `m` on `pre` (taken: the original's post-state is left in
    /// it), with no budget.
    pub fn on(bench: &B, m: usize, pre: B::Input) -> OriginalRun<B> {
        let mut post = pre;
        ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
        let (expected, ticks) = execute_checked_original(bench, m, &mut post);
        OriginalRun {
            expected,
            ticks,
            post,
            structure: None,
        }
    }
}

/// One input judged: the mutant's outcome, its tick budget, and the kill reason if the
/// mutant is killed.
pub(crate) struct Trial<B: Benchmark> {
    pub got: Outcome<B>,
    pub budget: u64,
    pub reason: Option<Reason>,
    /// Under [`Comparison::Structural`], the original's and the mutant's structures when
    /// they differ (and nothing else did): the kill's evidence.
    pub structures: Option<(String, String)>,
}

/// Runs the original, then `mutant` under its tick budget and clock limit, on the decoded
/// input `pre` of method `m`, and judges the mutant ([`against`]). `pre` is taken, not
/// borrowed: the original runs on it and the mutant on one copy (a copy per side was an
/// allocation and a copy more per execution, for an input that is needed again only to
/// render a kill, which decodes it anew).
pub(crate) fn trial<B: Benchmark>(
    bench: &B,
    m: usize,
    mutant: u32,
    pre: B::Input,
    original_nanos: u64,
    judging: Judging,
    stops: &Stops,
) -> (OriginalRun<B>, Trial<B>) {
    let input = pre.clone();
    let mut original = OriginalRun::on(bench, m, pre);
    let t = against(
        bench,
        m,
        mutant,
        input,
        &mut original,
        original_nanos,
        judging,
        stops,
    );
    (original, t)
}

/// Runs `mutant` on `input` (a copy of the input `original` ran on) under its tick budget
/// and clock limit, and judges it against the original's run: the one definition of a kill,
/// shared by the first-kill run, a cohort's run and the kill matrix.
#[allow(clippy::too_many_arguments)]
pub(crate) fn against<B: Benchmark>(
    bench: &B,
    m: usize,
    mutant: u32,
    mut input: B::Input,
    original: &mut OriginalRun<B>,
    original_nanos: u64,
    judging: Judging,
    stops: &Stops,
) -> Trial<B> {
    let limits = judging.limits;
    ferastrau_probes::set_active(mutant);
    let clock = Duration::from_nanos(original_nanos)
        .mul_f64(limits.timeout_factor)
        .saturating_add(limits.timeout_floor);
    let budget = original
        .ticks
        .saturating_mul(limits.tick_factor)
        .saturating_add(limits.tick_floor);
    stops.watchdog.arm(clock);
    let (got, post) = match stops
        .calls
        .run(|| execute(bench, m, &mut input, budget, false))
    {
        Some((got, _)) => (got, Some(input)),
        None => {
            // Abandoned deep in a recursion, over its budget: the post-state is half-made
            // and must not be dropped (see `abandon`).
            std::mem::forget(input);
            ferastrau_sdk::exec::abandoned();
            (Outcome::OverBudget, None)
        }
    };
    stops.watchdog.disarm();
    ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
    let mut reason = match &got {
        Outcome::OverBudget => Some(Reason::Timeout),
        Outcome::Broken { .. } => Some(Reason::Invariant),
        g if !g.same_as(&original.expected) => Some(Reason::Output),
        _ => None,
    };
    let mut structures = None;
    if let Some(post) = post.as_ref().filter(|_| {
        reason.is_none()
            && judging.comparison == Comparison::Structural
            && matches!(got, Outcome::Normal(..))
    }) {
        let a = original
            .structure
            .get_or_insert_with(|| structure_of(bench, &original.post))
            .clone();
        let b = structure_of(bench, post);
        if a != b {
            reason = Some(Reason::Output);
            structures = Some((a, b));
        }
    }
    Trial {
        got,
        budget,
        reason,
        structures,
    }
}

/// The benchmark's structure of a post-state that satisfies the invariant, computed as the
/// original (no mutant active, no tick budget): it is the benchmark's code, not the code under
/// test. A panic there is rendered as the structure, so two panics compare equal and a panic
/// on one side only is a difference.
fn structure_of<B: Benchmark>(bench: &B, post: &B::Input) -> String {
    match panics::expected(|| bench.structure(post)) {
        Ok(s) => s,
        Err((p, _)) => format!("<structure panicked: {}>", panics::payload_text(&*p)),
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
        let mut reader = StateReader::open(&inputs_path(dir, run.scope, m))?;
        let mut times = TimesReader::open(&times_path(dir, run.scope, m))?;
        let chosen = selection(dir, run.scope, m, run.mutant, reach)?;
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
            let decode = || bench.decode(m, &fields, &mut korat::Candidate::new(&fin, state));
            executions += 1;
            if let Some(kill) = judge(bench, run, m, index, decode, original_nanos) {
                return Ok((Some(kill), executions, full + index + 1 - executions));
            }
        }
        full += reader.inputs();
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

/// The kill a judged input is, if the mutant differs: its input rendered from a second
/// decoding (the code is deterministic, and kills are one per mutant and scope where
/// executions are millions).
pub(crate) fn kill_of<B: Benchmark>(
    bench: &B,
    m: usize,
    index: u64,
    original: &OriginalRun<B>,
    t: Trial<B>,
    decode: impl Fn() -> B::Input,
) -> Option<Kill> {
    let Trial {
        got,
        budget,
        reason,
        structures,
    } = t;
    let reason = reason?;
    let expected = &original.expected;
    let (limit, detail) = if reason == Reason::Timeout {
        (
            Some(Limit::Ticks),
            format!("over {budget} ticks (the original used {})", original.ticks),
        )
    } else if let Some((a, b)) = structures {
        (
            None,
            format!(
                "original {}, structure {a}; mutant {}, structure {b}",
                expected.render(),
                got.render()
            ),
        )
    } else {
        (
            None,
            format!("original {}; mutant {}", expected.render(), got.render()),
        )
    };
    Some(Kill {
        reason,
        limit,
        method: m,
        index,
        input: Some(render_input(bench, m, &decode())),
        detail,
    })
}

/// The benchmark's rendering of `input` for a report, run as the original (a mutant must not
/// write its own kill report) with no tick budget, and caught: rendering is the benchmark's
/// code, and a panic there is the benchmark's, not the mutant's. It shows in the report as
/// such and never changes a verdict (once a panicking `render` turned 36 kills by output or
/// invariant into crashes).
pub(crate) fn render_input<B: Benchmark>(bench: &B, m: usize, input: &B::Input) -> String {
    let active = ferastrau_probes::active();
    ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
    ferastrau_probes::start_run(u64::MAX);
    let text = match panics::expected(|| bench.render(m, input)) {
        Ok(text) => text,
        Err((p, _)) => format!(
            "(cannot be rendered: the benchmark's render panicked: {})",
            panics::payload_text(&*p)
        ),
    };
    ferastrau_probes::set_active(active);
    text
}

/// `replay`: runs the current build (no mutant active, coverage off) on every stored input
/// of `scope`, `repeat` times, and reports the best time: the cost of a build's guards and
/// probes, compared between the untouched crate and its metamutant on the same inputs.
pub fn replay<B: Benchmark>(bench: &B, scope: u32, dir: &Path, repeat: u32) -> std::io::Result<()> {
    ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
    let mut best = f64::INFINITY;
    let mut executions = 0u64;
    for _ in 0..repeat.max(1) {
        executions = 0;
        let started = Instant::now();
        for m in 0..bench.methods().len() {
            let (fin, fields) = bench.finitize(m, scope);
            let mut reader = StateReader::open(&inputs_path(dir, scope, m))?;
            while let Some(state) = reader.next_state()? {
                let mut input = bench.decode(m, &fields, &mut korat::Candidate::new(&fin, state));
                let (outcome, _) = execute(bench, m, &mut input, u64::MAX, false);
                std::hint::black_box(&outcome);
                executions += 1;
            }
        }
        best = best.min(started.elapsed().as_secs_f64());
    }
    send(&Message::Replay {
        executions,
        seconds: best,
    })
}

/// `render`: the readable form of one stored input (for kills and failures reported from
/// outside the process, such as crashes).
pub fn render<B: Benchmark>(
    bench: &B,
    scope: u32,
    method: usize,
    index: u64,
    dir: &Path,
) -> std::io::Result<()> {
    if method >= bench.methods().len() {
        return Err(std::io::Error::other(format!("no method {method}")));
    }
    let (fin, fields) = bench.finitize(method, scope);
    let mut reader = StateReader::open(&inputs_path(dir, scope, method))?;
    let mut i = 0;
    while let Some(state) = reader.next_state()? {
        if i == index {
            let input = bench.decode(method, &fields, &mut korat::Candidate::new(&fin, state));
            return send(&Message::Rendered {
                input: render_input(bench, method, &input),
            });
        }
        i += 1;
    }
    Err(std::io::Error::other(format!(
        "scope {scope} method {method} has no input {index}"
    )))
}
