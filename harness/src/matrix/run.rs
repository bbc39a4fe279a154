//! Computing kill-matrix rows: each mutant on every input of a scope, in child processes of
//! the metamutant worker, with no first-kill stop.
//!
//! A child runs the inputs it is given and reports them in chunks. When the mutant kills the
//! child (a crash, the memory limit, the clock watchdog), the input its cursor names is
//! recorded as a kill with the reason the death gives — exactly as the first-kill run records
//! it — and a new child takes every input not yet known, from the last reported chunk on. A
//! death by the whole-process guard says the child as a whole was slow, not that its input
//! kills, and a death from outside (`Death::is_from_outside`: SIGKILL, SIGBUS, ...) says
//! nothing of the mutant: that input is marked unknown. After `max_deaths` deaths the row stops and the
//! inputs left are marked unknown, so that a mutant that crashes on every input costs a
//! bounded number of processes and never a silently wrong entry. A clock timeout is confirmed
//! before it is a kill, as in the first-kill run: that input alone runs again in a fresh child
//! with the clock limits `CONFIRM_FACTOR` times wider, and only a second timeout blames it
//! (a load spike that stalls a child once would otherwise be a kill the first-kill run, which
//! confirms, does not have).

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use ferastrau_protocol::{Limits, Message, Reason, Request, Span};
use rayon::prelude::*;
use roaring::RoaringBitmap;

use super::{FirstKill, Header, KillMatrix, MethodRange, Row};
use crate::fingerprint::Fingerprint;
use crate::process::{Death, Ending, Finished, Isolation};
use crate::runner::{classify, confirming, RunConfig};
use crate::worker::Worker;
use ferastrau_artifacts::ScopeResult;
use ferastrau_artifacts::ScopeRun;
use ferastrau_console::exit_code::Interrupted;

/// A matrix child runs every input, where a first-kill child usually stops early, and a
/// mutant that times out by ticks on every input takes many times the original's time: its
/// whole-process guard is this many times the first-kill run's. (The guard is the last
/// resort: a call that hangs is stopped by the per-input clock limit first.)
pub const GUARD_FACTOR: u32 = 20;

/// Default of `--kill-matrix-max-deaths`.
pub const MAX_DEATHS: u32 = 64;

/// The inputs of `methods` not in `known`, as spans in global order.
fn remaining(methods: &[MethodRange], known: &RoaringBitmap) -> Vec<Span> {
    let mut spans = Vec::new();
    for (m, r) in methods.iter().enumerate() {
        let mut from = r.offset;
        let end = r.offset + r.inputs;
        let mut push = |a: u64, b: u64| {
            if a < b {
                spans.push(Span {
                    method: m,
                    from: a - r.offset,
                    to: b - r.offset,
                });
            }
        };
        for g in known.range(r.offset as u32..end as u32) {
            let g = u64::from(g);
            push(from, g);
            from = g + 1;
        }
        push(from, end);
    }
    spans
}

/// The span of the one input at global index `g`.
fn span_of(methods: &[MethodRange], g: u64) -> Option<Span> {
    methods.iter().enumerate().find_map(|(m, r)| {
        (r.offset..r.offset + r.inputs).contains(&g).then(|| Span {
            method: m,
            from: g - r.offset,
            to: g - r.offset + 1,
        })
    })
}

/// One mutant's row at `scope`, and how many of its inputs reach selection settled without a
/// run.
pub fn row(
    worker: &Worker,
    mutant: u32,
    scope: u32,
    methods: &[MethodRange],
    cfg: &RunConfig,
    max_deaths: u32,
) -> Result<(Row, u64)> {
    let total: u64 = methods.iter().map(|m| m.inputs).sum();
    if total > u64::from(u32::MAX) {
        bail!("scope {scope} has {total} inputs, more than a kill matrix indexes (2^32)");
    }
    let mut run = RowRun {
        worker,
        cfg,
        methods,
        mutant,
        scope,
        cursor: cfg
            .scratch_dir
            .join(format!("matrix-{mutant}-{scope}.cursor")),
        row: Row {
            mutant,
            kills: RoaringBitmap::new(),
            unknown: RoaringBitmap::new(),
            reasons: BTreeMap::new(),
            deaths: 0,
            recycles: 0,
            first: None,
        },
        known: RoaringBitmap::new(),
        skipped: 0,
    };
    // An input whose clock timeout awaits confirmation: the next child runs it alone, under
    // wider clock limits.
    let mut unconfirmed: Option<u64> = None;
    loop {
        let confirm = unconfirmed.take();
        let spans = match confirm {
            Some(g) => vec![span_of(methods, g).with_context(|| {
                format!("mutant {mutant}: a clock timeout at input {g}, outside scope {scope}")
            })?],
            None => remaining(methods, &run.known),
        };
        if spans.is_empty() {
            break;
        }
        if crate::interrupt::requested() {
            return Err(interrupted());
        }
        // A confirmation rides on the death it judges: it runs even at the cap.
        if confirm.is_none() && run.row.deaths >= max_deaths {
            run.give_up(&spans);
            break;
        }
        let limits = match confirm {
            Some(_) => confirming(&cfg.limits),
            None => cfg.limits,
        };
        let f = run.child(spans, limits)?;
        let told = run.take_chunks(&f)?;
        if let (Some(g), true) = (confirm, f.completed()) {
            // The input ran to its end under the wider limits: its chunk says what it does.
            if !run.known.contains(g as u32) {
                bail!("the worker confirmed mutant {mutant}'s input {g} without a result");
            }
            continue;
        }
        if f.completed() {
            let left = remaining(methods, &run.known);
            if !left.is_empty() {
                bail!("the worker finished mutant {mutant}'s kill matrix without {left:?}");
            }
            break;
        }
        if told.recycled {
            run.row.recycles += 1;
            // Ended on purpose after its last chunk, to be replaced (its abandoned calls'
            // leaks at their allowance): not a death, and no input to blame.
            continue;
        }
        // A confirming child's end is the same death judged again, not another one.
        if confirm.is_none() {
            run.row.deaths += 1;
        }
        let Some(g) = run.blamed(told.clock) else {
            // No input to blame: the rest stays to be run by the next child (the deaths
            // bound how often).
            continue;
        };
        if told.clock.is_some() && confirm.is_none() {
            unconfirmed = Some(g);
            continue;
        }
        run.judge(g, &f.death(), told.clock.is_some());
    }
    let _ = std::fs::remove_file(&run.cursor);
    Ok((run.row, run.skipped))
}

/// The error of a row stopped by an interruption.
fn interrupted() -> anyhow::Error {
    anyhow::Error::new(Interrupted(
        "interrupted while computing the kill matrix".into(),
    ))
}

/// One mutant's row being computed at one scope, child after child.
struct RowRun<'a> {
    worker: &'a Worker,
    cfg: &'a RunConfig,
    methods: &'a [MethodRange],
    mutant: u32,
    scope: u32,
    /// The cursor file every child of the row writes.
    cursor: PathBuf,
    row: Row,
    /// Inputs whose outcome is settled: killing, surviving or unknown.
    known: RoaringBitmap,
    /// Pairs the children settled without a run (reach selection).
    skipped: u64,
}

/// What a child's messages say besides its chunks.
struct Told {
    /// Where its watchdog saw an input run past the clock limit.
    clock: Option<ferastrau_protocol::Position>,
    /// Whether it ended on purpose after its last chunk, to be replaced.
    recycled: bool,
}

impl RowRun<'_> {
    /// Records `len` killing inputs from global index `g`.
    fn kill(&mut self, g: u64, len: u64, reason: Reason) {
        let row = &mut self.row;
        row.kills.insert_range(g as u32..(g + len) as u32);
        *row.reasons.entry(reason).or_default() += len;
        if row.first.is_none_or(|f| g < f.index) {
            row.first = Some(FirstKill { index: g, reason });
        }
    }

    /// Marks the inputs of `spans` unknown: the row stops at its cap of deaths.
    fn give_up(&mut self, spans: &[Span]) {
        for s in spans {
            let o = self.methods[s.method].offset;
            self.row
                .unknown
                .insert_range((o + s.from) as u32..(o + s.to) as u32);
        }
    }

    /// A child running the inputs of `spans` under `limits`, to its end.
    fn child(&self, spans: Vec<Span>, limits: Limits) -> Result<Finished> {
        let cfg = self.cfg;
        let _ = std::fs::remove_file(&self.cursor);
        let request = Request::Matrix {
            mutant: self.mutant,
            scope: self.scope,
            spans,
            dir: cfg.inputs_dir.clone(),
            cursor: self.cursor.clone(),
            limits,
            reach: cfg.reach,
            comparison: cfg.comparison,
        };
        let isolation = Isolation {
            memory_limit: Some(cfg.memory_limit),
            stdout: None,
            guard: Some(
                cfg.guard(&(self.scope..=self.scope), &limits)
                    .saturating_mul(GUARD_FACTOR),
            ),
        };
        let f = self.worker.run(&request, &isolation)?;
        if matches!(f.ending, Ending::Interrupted) {
            return Err(interrupted());
        }
        Ok(f)
    }

    /// Takes the chunks a child reported: their inputs become known, their kills recorded.
    fn take_chunks(&mut self, f: &Finished) -> Result<Told> {
        let mutant = self.mutant;
        let mut told = Told {
            clock: None,
            recycled: false,
        };
        for m in &f.messages {
            match m {
                Message::MatrixChunk {
                    method,
                    from,
                    to,
                    kills,
                    skipped: settled,
                } => {
                    self.skipped += settled;
                    let o = self
                        .methods
                        .get(*method)
                        .with_context(|| format!("a chunk of unknown method {method}"))?
                        .offset;
                    self.known.insert_range((o + from) as u32..(o + to) as u32);
                    for k in kills {
                        if k.index < *from || k.index + k.len > *to {
                            bail!("mutant {mutant}: a kill outside its chunk ({k:?})");
                        }
                        self.kill(o + k.index, k.len, k.reason);
                    }
                }
                Message::ClockTimeout { position, .. } => told.clock = Some(*position),
                Message::Recycle { .. } => told.recycled = true,
                Message::Error { message } => {
                    bail!("the worker failed on the kill matrix of mutant {mutant}: {message}")
                }
                _ => {}
            }
        }
        Ok(told)
    }

    /// The input a dead child's end blames, by global index: where its watchdog saw the clock
    /// limit passed, or else where its cursor file says it was; none if that is known already.
    fn blamed(&self, clock: Option<ferastrau_protocol::Position>) -> Option<u64> {
        let position = clock.or_else(|| {
            ferastrau_protocol::cursor::read_file(&self.cursor)
                .filter(|w| w.scope == self.scope)
                .map(|w| w.position())
        });
        position
            .and_then(|p| self.methods.get(p.method).map(|r| r.offset + p.index))
            .filter(|g| !self.known.contains(*g as u32))
    }

    /// Settles input `g`, which a child died at of `death` (at a confirmed clock timeout
    /// when `timed_out`).
    fn judge(&mut self, g: u64, death: &Death, timed_out: bool) {
        self.known.insert(g as u32);
        match (death, timed_out) {
            (_, true) => self.kill(g, 1, Reason::Timeout),
            // The guard says the child as a whole was slow; a death from outside (SIGKILL,
            // SIGBUS, ...) says nothing of the mutant: neither blames the input.
            (d, false) if *d == Death::Guard || d.is_from_outside() => {
                self.row.unknown.insert(g as u32);
            }
            (d, false) => self.kill(g, 1, classify(d).0),
        }
    }
}

/// Where rows come from besides this run's children, and where they go as they are done: the
/// journal of the evaluation, so that an interrupted matrix resumes with the rows it has.
pub struct Journaled<'a> {
    /// Rows of an earlier session by (scope, mutant), with the death cap each was computed
    /// under: one computed under another cap is computed again.
    pub done: &'a BTreeMap<(u32, u32), (u32, Row)>,
    /// Records a finished row at a scope (called from the thread pool).
    pub record: &'a (dyn Fn(u32, &Row) -> Result<()> + Sync),
}

/// The rows of `mutants` at `scope` that an earlier session's `done` holds and this run can
/// take as they are (computed under the same death cap, every index within the scope's `total`
/// inputs), and the mutants whose rows are still to compute.
fn reusable(
    done: &BTreeMap<(u32, u32), (u32, Row)>,
    mutants: &[u32],
    scope: u32,
    total: u64,
    max_deaths: u32,
) -> (Vec<Row>, Vec<u32>) {
    let within = |b: &RoaringBitmap| b.max().is_none_or(|g| u64::from(g) < total);
    let mut rows = Vec::new();
    let mut todo = Vec::new();
    for &m in mutants {
        match done.get(&(scope, m)) {
            Some((cap, row))
                if *cap == max_deaths && within(&row.kills) && within(&row.unknown) =>
            {
                rows.push(row.clone())
            }
            _ => todo.push(m),
        }
    }
    (rows, todo)
}

/// Every row of `mutants` at `scope`, in parallel on the run's thread pool, and the pairs
/// reach selection settled without a run, and how many rows came from `journal` instead of a
/// run; with `progress`, a bar of the rows done (a matrix at a large scope takes an
/// hour or more).
#[allow(clippy::too_many_arguments)]
fn rows(
    worker: &Worker,
    mutants: &[u32],
    scope: u32,
    methods: &[MethodRange],
    cfg: &RunConfig,
    max_deaths: u32,
    journal: &Journaled<'_>,
    progress: bool,
) -> Result<(Vec<Row>, u64, u64)> {
    let total: u64 = methods.iter().map(|m| m.inputs).sum();
    let (mut rows, todo) = reusable(journal.done, mutants, scope, total, max_deaths);
    let resumed = rows.len() as u64;
    let what = format!("kill matrix, scope {scope}, mutants");
    let bar = ferastrau_console::term::bar(progress, &what, mutants.len() as u64, resumed);
    // One mutant per rayon task: rows differ in cost by orders of magnitude (a mutant that
    // dies on every input restarts its process up to `max_deaths` times), and a run of
    // expensive rows inside one unsplit range would leave the other threads idle.
    let done: Vec<(Row, u64)> = todo
        .par_iter()
        .with_max_len(1)
        .map(|&m| {
            let r = row(worker, m, scope, methods, cfg, max_deaths)?;
            (journal.record)(scope, &r.0)?;
            bar.inc(1);
            Ok(r)
        })
        .collect::<Result<_>>()?;
    bar.finish_and_clear();
    let skipped = done.iter().map(|(_, s)| s).sum();
    rows.extend(done.into_iter().map(|(r, _)| r));
    rows.sort_by_key(|r| r.mutant);
    Ok((rows, skipped, resumed))
}

/// The kill matrix of every scope in `scopes` for `mutants`, each checked against the
/// first-kill `results` of the same run (disagreements are kept in its header); rows of an
/// interrupted session are taken from `journal`, and new ones recorded there.
#[allow(clippy::too_many_arguments)]
pub fn matrices(
    worker: &Worker,
    fingerprint: &Fingerprint,
    mutants: &[u32],
    scopes: &[ScopeRun],
    results: &[ScopeResult],
    cfg: &RunConfig,
    max_deaths: u32,
    journal: &Journaled<'_>,
    progress: bool,
) -> Result<Vec<KillMatrix>> {
    let mut out = Vec::new();
    for s in scopes {
        let started = std::time::Instant::now();
        let counts = cfg
            .methods
            .iter()
            .enumerate()
            .map(|(m, name)| {
                let path = ferastrau_protocol::store::inputs_path(&cfg.inputs_dir, s.scope, m);
                let n = ferastrau_protocol::store::StateReader::count(&path)
                    .with_context(|| format!("cannot count {}", path.display()))?;
                Ok((name.clone(), n))
            })
            .collect::<Result<Vec<_>>>()?;
        let methods = KillMatrix::ranges(&counts);
        let total: u64 = counts.iter().map(|(_, n)| n).sum();
        if total != s.inputs {
            bail!(
                "scope {} has {total} stored inputs, its generation reported {}",
                s.scope,
                s.inputs
            );
        }
        let (rows, skipped, resumed) = rows(
            worker, mutants, s.scope, &methods, cfg, max_deaths, journal, progress,
        )?;
        let mut m = KillMatrix {
            header: Header {
                benchmark: fingerprint.benchmark.clone(),
                scope: s.scope,
                inputs: total,
                methods,
                max_deaths,
                fingerprint: fingerprint.clone(),
                disagreements: Vec::new(),
                seconds: 0.0,
                skipped,
                resumed,
            },
            rows,
        };
        m.header.disagreements = m.disagreements(results);
        m.header.seconds = started.elapsed().as_secs_f64();
        if progress {
            let pairs = mutants.len() as u64 * total;
            eprintln!(
                "kill matrix, scope {}: {} mutants x {} inputs in {:.1} s ({} of {} pairs skipped: inputs that do not reach the mutant; {} rows from the journal)",
                s.scope,
                mutants.len(),
                total,
                started.elapsed().as_secs_f64(),
                skipped,
                pairs,
                resumed
            );
        }
        out.push(m);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_rows_of_this_scope_cap_and_index_space_are_reused() {
        let done: BTreeMap<(u32, u32), (u32, Row)> = [
            ((3, 1), (64, Row::killed_by(1, &[0, 9]))),
            ((3, 2), (8, Row::killed_by(2, &[1]))), // another death cap
            ((3, 3), (64, Row::killed_by(3, &[10]))), // index 10 of 10 inputs
            ((2, 4), (64, Row::killed_by(4, &[]))), // another scope
            ((3, 5), (64, Row::killed_by(5, &[]))), // not one of this run's mutants
        ]
        .into_iter()
        .collect();
        let (rows, todo) = reusable(&done, &[1, 2, 3, 4, 6], 3, 10, 64);
        assert_eq!(rows.iter().map(|r| r.mutant).collect::<Vec<_>>(), [1]);
        assert_eq!(todo, [2, 3, 4, 6]);
        let (rows, todo) = reusable(&done, &[1, 2], 3, 10, 8);
        assert_eq!((rows.len(), todo), (1, vec![1]));
    }

    #[test]
    fn remaining_spans_skip_what_is_known_per_method() {
        let methods = KillMatrix::ranges(&[("a".into(), 5), ("b".into(), 0), ("c".into(), 4)]);
        let span = |method, from, to| Span { method, from, to };
        assert_eq!(
            remaining(&methods, &RoaringBitmap::new()),
            vec![span(0, 0, 5), span(2, 0, 4)]
        );
        // Known: a's 0..2 and 3, c's first (global 5) and last (global 8).
        let known: RoaringBitmap = [0u32, 1, 3, 5, 8].into_iter().collect();
        assert_eq!(
            remaining(&methods, &known),
            vec![span(0, 2, 3), span(0, 4, 5), span(2, 1, 3)]
        );
        let all: RoaringBitmap = (0u32..9).collect();
        assert!(remaining(&methods, &all).is_empty());
    }
}
