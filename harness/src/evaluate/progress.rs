//! The progress lines of a scope's preparation and of the runs over stored inputs: how far a
//! worker has got over the inputs ([`Positions`], read from its cursor file), the search's
//! spinner line (inputs found, candidates explored), and a line that clears itself when the
//! stage ends ([`ClearOnDrop`]). Apart from the preparation ([`super::prepare`]), which only
//! shows them.

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

/// Where a worker running over stored inputs has got, as a count of inputs: the inputs of
/// every (scope, method) before the one its cursor file names, plus its index there. Read
/// from the inputs files' sizes, so that it serves resumed scopes too.
pub(crate) struct Positions {
    /// Inputs before each (scope, method), in the order a worker runs them.
    starts: std::collections::BTreeMap<(u32, u32), u64>,
    total: u64,
}

impl Positions {
    /// The positions of `scopes` × `methods` methods under `inputs_dir` (a method whose file
    /// cannot be read counts none: this is for progress only).
    pub(crate) fn new(inputs_dir: &Path, scopes: RangeInclusive<u32>, methods: usize) -> Self {
        let mut starts = std::collections::BTreeMap::new();
        let mut total = 0;
        for scope in scopes {
            for m in 0..methods {
                starts.insert((scope, m as u32), total);
                let path = ferastrau_protocol::store::inputs_path(inputs_dir, scope, m);
                total += ferastrau_protocol::store::StateReader::count(&path).unwrap_or(0);
            }
        }
        Positions { starts, total }
    }

    /// Every input of the scopes.
    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    /// Inputs done before the one the cursor file at `cursor` names; `None` before the worker
    /// has written it.
    pub(crate) fn done(&self, cursor: &Path) -> Option<u64> {
        let w = ferastrau_protocol::cursor::read_file(cursor)?;
        Some(self.starts.get(&(w.scope, w.method))? + u64::from(w.index))
    }

    /// Redraws `bar` from the cursor file at `cursor` every [`ferastrau_console::term::TICK`]
    /// until the returned poll is dropped; nothing when the bar is hidden.
    pub(crate) fn follow(
        self,
        bar: &indicatif::ProgressBar,
        cursor: PathBuf,
    ) -> Option<ferastrau_console::term::Poll> {
        if bar.is_hidden() {
            return None;
        }
        let bar = bar.clone();
        Some(ferastrau_console::term::Poll::start(
            ferastrau_console::term::TICK,
            move || {
                if let Some(done) = self.done(&cursor) {
                    bar.set_position(done);
                }
            },
        ))
    }
}

/// Shows what the worker generating `scope` has found so far (its progress file under
/// `inputs_dir`, [`ferastrau_protocol::progress`]) on a spinner line: inputs found, candidates
/// explored and candidates a second, redrawn every [`ferastrau_console::term::TICK`]. The line
/// goes when the returned pair is dropped; `None` without a terminal.
pub(super) fn search_progress(
    inputs_dir: &Path,
    scope: u32,
) -> Option<(ferastrau_console::term::Poll, ClearOnDrop)> {
    if !ferastrau_console::term::progress() {
        return None;
    }
    let file = ferastrau_protocol::progress::path(inputs_dir, scope);
    // An earlier session's numbers must not show as this one's.
    let _ = std::fs::remove_file(&file);
    let line = ferastrau_console::term::spinner(true, format!("scope {scope}:"));
    line.set_message("searching");
    let started = std::time::Instant::now();
    let shown = line.clone();
    let poll = ferastrau_console::term::Poll::start(ferastrau_console::term::TICK, move || {
        if let Some(c) = ferastrau_protocol::progress::read(&file) {
            let secs = started.elapsed().as_secs_f64();
            shown.set_message(search_figures(c.valid, c.explored, secs));
        }
    });
    Some((poll, ClearOnDrop::new(line)))
}

/// `12,345 inputs of 1,234,567 candidates, 456,789/s`: inputs found, candidates explored and
/// explored a second, on one line of 80 columns up to billions.
pub(super) fn search_figures(inputs: u64, candidates: u64, seconds: f64) -> String {
    format!(
        "{} inputs of {} candidates, {}/s",
        ferastrau_console::term::count(inputs),
        ferastrau_console::term::count(candidates),
        ferastrau_console::term::count((candidates as f64 / seconds.max(1e-3)) as u64)
    )
}

/// A progress line that clears itself when dropped, on every way out of a stage (an error
/// included), so that the next message starts on a clean line; [`ClearOnDrop::keep`] leaves
/// it instead, with its last word.
pub(crate) struct ClearOnDrop(Option<indicatif::ProgressBar>);

impl ClearOnDrop {
    pub(crate) fn new(bar: indicatif::ProgressBar) -> ClearOnDrop {
        ClearOnDrop(Some(bar))
    }

    pub(crate) fn bar(&self) -> &indicatif::ProgressBar {
        self.0.as_ref().expect("a bar until kept")
    }

    /// Leaves the line on the terminal with `message`: what a finished stage found. The
    /// cursor then moves to the next line: indicatif leaves it at the end of a finished line,
    /// where the next line would start.
    pub(crate) fn keep(mut self, message: String) {
        if let Some(bar) = self.0.take() {
            bar.finish_with_message(message);
            if !bar.is_hidden() {
                anstream::eprintln!();
            }
        }
    }
}

impl Drop for ClearOnDrop {
    fn drop(&mut self) {
        if let Some(bar) = self.0.take() {
            bar.finish_and_clear();
        }
    }
}
