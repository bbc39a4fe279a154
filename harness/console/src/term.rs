//! What the terminal sees: colour, how talkative the tool is, and where output goes.
//!
//! Set once from the command line's global flags ([`set`]) before a command runs. Colour goes
//! through `anstream`, which strips the escapes when the stream is no terminal, when
//! `NO_COLOR` is set (under `--color auto`), or under `--color never`: every coloured line must
//! be written with [`anstream`]'s `print!`/`eprintln!`, never `std`'s, so that a pipe or a file
//! never receives an escape byte it did not ask for. `--quiet` keeps stderr to errors and
//! `--verbose` adds what a user debugging a run wants (per-scope timings, build directories,
//! worker command lines); both are read here so that no function takes them as parameters.

use std::borrow::Cow;
use std::fmt;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use anstyle::{AnsiColor, Style};

/// How much the tool says on stderr besides its result and its errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Verbosity {
    /// The result (table or JSON) and errors only: no progress, notes or warnings.
    Quiet,
    /// Progress on a terminal, notes and warnings.
    #[default]
    Normal,
    /// Normal, plus per-scope timings, build directories and worker command lines.
    Verbose,
}

/// When to colour (`--color`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorWhen {
    /// On a terminal, unless `NO_COLOR` is set (and `CLICOLOR_FORCE` forces it).
    #[default]
    Auto,
    /// Even into a pipe or a file.
    Always,
    /// Not even on a terminal.
    Never,
}

impl ColorWhen {
    pub fn choice(self) -> anstream::ColorChoice {
        match self {
            ColorWhen::Auto => anstream::ColorChoice::Auto,
            ColorWhen::Always => anstream::ColorChoice::Always,
            ColorWhen::Never => anstream::ColorChoice::Never,
        }
    }
}

static VERBOSITY: OnceLock<Verbosity> = OnceLock::new();

/// Sets the verbosity and the colour choice of the whole process (the first call wins).
pub fn set(verbosity: Verbosity, color: ColorWhen) {
    let _ = VERBOSITY.set(verbosity);
    color.choice().write_global();
}

/// The process's verbosity ([`Verbosity::Normal`] before [`set`]).
pub fn verbosity() -> Verbosity {
    VERBOSITY.get().copied().unwrap_or_default()
}

/// Whether notes and warnings go to stderr.
pub fn notes() -> bool {
    verbosity() >= Verbosity::Normal
}

/// Whether the verbose detail goes to stderr.
pub fn verbose() -> bool {
    verbosity() == Verbosity::Verbose
}

/// Whether to draw progress (bars, `\r` counters): on a terminal, unless quiet.
pub fn progress() -> bool {
    notes() && std::io::stderr().is_terminal()
}

/// A progress bar over `total` items of which `done` are done, named `what` ("mutants"), or a
/// hidden one when `show` is false (see [`progress`]).
pub fn bar(show: bool, what: &str, total: u64, done: u64) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::with_draw_target(Some(total), draw_target());
    let template = format!("{what} {{bar:40}} {{pos}}/{{len}} [{{elapsed_precise}}, ETA {{eta}}]");
    bar.set_style(indicatif::ProgressStyle::with_template(&template).expect("valid template"));
    bar.set_position(done);
    bar
}

/// How often a progress line is redrawn when nothing else moves it (its clock, its spinner):
/// a line that stands still for a second reads as a hang.
pub const TICK: Duration = Duration::from_millis(200);

/// A progress bar over `total` units named by `prefix` ("limits check"), its clock ticking
/// every [`TICK`] and its ETA from the units done so far at the average rate since it started
/// ([`eta`]); a hidden one when `show` is false (see [`progress`]). `unit` names what
/// `{pos}/{len}` counts ("inputs"); an empty one shows `{msg}` and a percentage instead, for
/// units that mean nothing to a reader (the mutant phase's executions, whose line says how
/// many mutants are done). The bar takes what the terminal's width leaves, so that the
/// figures fit on one line of 80 columns.
pub fn meter(
    show: bool,
    prefix: impl Into<Cow<'static, str>>,
    total: u64,
    unit: &str,
) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let template = if unit.is_empty() {
        "{prefix} {msg} {wide_bar} {percent}% [{elapsed}, ETA {eta}]".to_string()
    } else {
        format!("{{prefix}} {{wide_bar}} {{pos}}/{{len}} {unit} [{{elapsed}}, ETA {{eta}}]")
    };
    let style = indicatif::ProgressStyle::with_template(&template)
        .expect("valid template")
        .with_key(
            "eta",
            |s: &indicatif::ProgressState, w: &mut dyn fmt::Write| {
                let _ = w.write_str(&eta(s.pos(), s.len().unwrap_or(0), s.elapsed()));
            },
        );
    let bar = indicatif::ProgressBar::with_draw_target(Some(total), draw_target())
        .with_style(style)
        .with_prefix(prefix);
    bar.enable_steady_tick(TICK);
    // Drawn now, not at the first tick: a phase shorter than a tick still shows its line
    // once (the test of the progress lines depends on it, whatever the machine's speed).
    bar.tick();
    bar
}

/// A line for work whose size is unknown until it ends (a search): a spinner, `prefix`, `{msg}`
/// and the time so far, redrawn every [`TICK`]; hidden when `show` is false.
pub fn spinner(show: bool, prefix: impl Into<Cow<'static, str>>) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let style = indicatif::ProgressStyle::with_template("{spinner} {prefix} {msg} [{elapsed}]")
        .expect("valid template");
    let bar = indicatif::ProgressBar::with_draw_target(None, draw_target())
        .with_style(style)
        .with_prefix(prefix);
    bar.enable_steady_tick(TICK);
    bar
}

/// Where progress lines go: stderr, through indicatif's terminal when colour is on there, and
/// through [`Plain`] when it is off (`NO_COLOR`, `--color never`, a terminal without colour):
/// indicatif clears and moves with escape sequences, and a user who turned colour off gets no
/// escape byte at all (the promise of this module), yet still sees the run move.
fn draw_target() -> indicatif::ProgressDrawTarget {
    if anstream::AutoStream::choice(&std::io::stderr()) == anstream::ColorChoice::Never {
        indicatif::ProgressDrawTarget::term_like(Box::new(Plain::new()))
    } else {
        indicatif::ProgressDrawTarget::stderr()
    }
}

/// A terminal drawn on without escapes: a line is cleared by going back to its start and
/// writing spaces over it, and the cursor never moves up, so every line is cut one column
/// short of the terminal's width (a line that wrapped could not be redrawn in place).
#[derive(Debug)]
struct Plain {
    width: usize,
    /// Where the cursor is on the current line, for the cut.
    column: std::sync::atomic::AtomicUsize,
}

impl Plain {
    fn new() -> Plain {
        Plain {
            width: columns().unwrap_or(80).saturating_sub(1).max(20),
            column: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    fn out(s: &str) -> std::io::Result<()> {
        use std::io::Write;
        std::io::stderr().write_all(s.as_bytes())
    }
}

impl indicatif::TermLike for Plain {
    fn width(&self) -> u16 {
        self.width.min(u16::MAX as usize) as u16
    }

    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }

    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }

    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }

    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }

    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.write_str(s)?;
        self.column.store(0, Ordering::Relaxed);
        Plain::out("\n")
    }

    fn write_str(&self, s: &str) -> std::io::Result<()> {
        let at = self.column.load(Ordering::Relaxed);
        let fits: String = s.chars().take(self.width.saturating_sub(at)).collect();
        self.column
            .store(at + fits.chars().count(), Ordering::Relaxed);
        Plain::out(&fits)
    }

    fn clear_line(&self) -> std::io::Result<()> {
        self.column.store(0, Ordering::Relaxed);
        Plain::out(&format!("\r{}\r", " ".repeat(self.width)))
    }

    fn flush(&self) -> std::io::Result<()> {
        use std::io::Write;
        std::io::stderr().flush()
    }
}

/// The columns of the terminal on stderr, if it says.
fn columns() -> Option<usize> {
    use nix::libc;
    let mut size = libc::winsize {
        ws_row: 0,
        ws_col: 0,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCGWINSZ writes one `winsize` through the pointer, to a value we own.
    let r = unsafe { libc::ioctl(libc::STDERR_FILENO, libc::TIOCGWINSZ, &mut size) };
    (r == 0 && size.ws_col > 0).then_some(usize::from(size.ws_col))
}

/// The time left for `len` units when `done` took `elapsed`, at the average rate so far: an
/// average over the whole run moves little once a fifth is done, where the rate of the last
/// few seconds (indicatif's own `{eta}`) swings with every batch that ends. `?` before
/// anything is done.
pub fn eta(done: u64, len: u64, elapsed: Duration) -> String {
    if done == 0 {
        return "?".into();
    }
    let left = len.saturating_sub(done) as f64;
    duration(elapsed.mul_f64(left / done as f64))
}

/// Calls `update` every `every` on a thread of its own until dropped: for progress that no
/// event of this process announces (a worker's counters on disk, its cursor file), read
/// while the call that waits for the worker blocks.
pub struct Poll {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Poll {
    pub fn start(every: Duration, mut update: impl FnMut() + Send + 'static) -> Poll {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            while !stopped.load(Ordering::Acquire) {
                update();
                std::thread::park_timeout(every);
            }
        });
        Poll {
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Poll {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

/// A duration for people, to the second from ten seconds up, in its two largest units:
/// `3m 10s`, `5m`, `1h 2m`, `42s`, `2.5s`, `250ms` (a budget of milliseconds is not `0.0s`).
pub fn duration(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs < 1.0 {
        return format!("{}ms", d.as_millis());
    }
    if secs < 10.0 {
        return format!("{secs:.1}s");
    }
    let whole = d.as_secs() + u64::from(d.subsec_millis() >= 500);
    let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60);
    match (h, m, s) {
        (0, 0, s) => format!("{s}s"),
        (0, m, 0) => format!("{m}m"),
        (0, m, s) => format!("{m}m {s}s"),
        (h, 0, _) => format!("{h}h"),
        (h, m, _) => format!("{h}h {m}m"),
    }
}

/// A count with thousands separated (`1,234,567`): a counter that climbs by thousands a
/// second is read at a glance.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Styles of what the tool colours.
pub mod style {
    use super::*;
    pub const GOOD: Style = AnsiColor::Green.on_default();
    pub const WARN: Style = AnsiColor::Yellow.on_default();
    pub const BAD: Style = AnsiColor::Red.on_default().bold();
    pub const HEAD: Style = Style::new().bold();
    pub const STAGE: Style = AnsiColor::Green.on_default().bold();
}

/// `text` in `style` (the escapes are removed on output where colour is off).
pub fn paint(style: Style, text: impl std::fmt::Display) -> String {
    format!("{style}{text}{style:#}")
}

/// A note on stderr (not under `--quiet`).
#[macro_export]
macro_rules! note {
    ($($t:tt)*) => {
        if $crate::term::notes() {
            $crate::anstream::eprintln!($($t)*);
        }
    };
}

/// A stage of a command that can take more than a second, announced on stderr before it
/// starts, cargo's way (`   Building the worker of search_tree`), with or without a
/// terminal (not under `--quiet`): a run into a log file or a CI job is never silent for a
/// minute, and a person sees what the wait is for.
#[macro_export]
macro_rules! stage {
    ($verb:expr, $($t:tt)*) => {
        if $crate::term::notes() {
            $crate::anstream::eprintln!(
                "{} {}",
                $crate::term::paint($crate::term::style::STAGE, format_args!("{:>12}", $verb)),
                format_args!($($t)*)
            );
        }
    };
}

/// A warning on stderr, its `warning:` coloured (not under `--quiet`).
#[macro_export]
macro_rules! warning {
    ($($t:tt)*) => {
        if $crate::term::notes() {
            $crate::anstream::eprintln!(
                "{} {}",
                $crate::term::paint($crate::term::style::WARN, "warning:"),
                format_args!($($t)*)
            );
        }
    };
}

/// Detail on stderr under `--verbose` only.
#[macro_export]
macro_rules! detail {
    ($($t:tt)*) => {
        if $crate::term::verbose() {
            $crate::anstream::eprintln!($($t)*);
        }
    };
}

/// `bytes` for people, in the largest binary unit (B, KiB, MiB, GiB, TiB) it holds one of, to a
/// tenth rounded down, with no `.0`: `1.5 MiB`, `4 MiB`, `640 KiB`, `700 B`. Rounded down so
/// that a size under a bound never prints as the bound; never in a fixed unit, which printed
/// `--memory-limit 1536K` as "1 MiB" and 1023K as "0 MiB".
pub fn size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let unit = (1..UNITS.len())
        .take_while(|u| bytes >> (10 * u) > 0)
        .last()
        .unwrap_or(0);
    let shift = 10 * unit;
    let whole = bytes >> shift;
    // The remainder is under 2^40: ten times it fits.
    let tenths = ((bytes - (whole << shift)) * 10) >> shift;
    match tenths {
        0 => format!("{whole} {}", UNITS[unit]),
        t => format!("{whole}.{t} {}", UNITS[unit]),
    }
}

/// Prints one JSON document on stdout (`--format json`): nothing else may go to stdout.
pub fn print_json(doc: &serde_json::Value) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string_pretty(doc)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    #[test]
    fn durations_and_counts_read_at_a_glance() {
        let d = |s: f64| super::duration(Duration::from_secs_f64(s));
        assert_eq!(d(0.25), "250ms");
        assert_eq!(d(0.001), "1ms");
        assert_eq!(d(2.5), "2.5s");
        assert_eq!(d(42.4), "42s");
        assert_eq!(d(59.6), "1m");
        assert_eq!(d(190.0), "3m 10s");
        assert_eq!(d(300.0), "5m");
        assert_eq!(d(3600.0), "1h");
        assert_eq!(d(3725.0), "1h 2m");
        for (n, said) in [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (1234567, "1,234,567"),
        ] {
            assert_eq!(super::count(n), said);
        }
    }

    /// The ETA is the average rate's: 40 of 100 units in 20 s leave 30 s, and nothing done
    /// says nothing.
    #[test]
    fn the_eta_is_the_average_rates() {
        assert_eq!(super::eta(40, 100, Duration::from_secs(20)), "30s");
        assert_eq!(super::eta(0, 100, Duration::from_secs(20)), "?");
        assert_eq!(super::eta(100, 100, Duration::from_secs(20)), "0ms");
    }

    #[test]
    fn a_size_is_said_in_the_unit_it_has_rounded_down() {
        for (bytes, said) in [
            (0, "0 B"),
            (700, "700 B"),
            (1536 << 10, "1.5 MiB"),
            ((4 << 20) - 1, "3.9 MiB"),
            (4 << 20, "4 MiB"),
            (640 << 10, "640 KiB"),
            (1 << 30, "1 GiB"),
            (20 << 30, "20 GiB"),
            (1 << 40, "1 TiB"),
            (u64::MAX, "16777215.9 TiB"),
        ] {
            assert_eq!(super::size(bytes), said, "{bytes}");
        }
    }
}
