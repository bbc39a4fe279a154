//! What the terminal sees: colour, how talkative the tool is, and where output goes.
//!
//! Set once from the command line's global flags ([`set`]) before a command runs. Colour goes
//! through `anstream`, which strips the escapes when the stream is no terminal, when
//! `NO_COLOR` is set (under `--color auto`), or under `--color never`: every coloured line must
//! be written with [`anstream`]'s `print!`/`eprintln!`, never `std`'s, so that a pipe or a file
//! never receives an escape byte it did not ask for. `--quiet` keeps stderr to errors and
//! `--verbose` adds what a user debugging a run wants (per-scope timings, build directories,
//! worker command lines); both are read here so that no function takes them as parameters.

use std::io::IsTerminal;
use std::sync::OnceLock;

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
    let bar = indicatif::ProgressBar::new(total);
    let template = format!("{what} {{bar:40}} {{pos}}/{{len}} [{{elapsed_precise}}, ETA {{eta}}]");
    bar.set_style(indicatif::ProgressStyle::with_template(&template).expect("valid template"));
    bar.set_position(done);
    bar
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
            anstream::eprintln!($($t)*);
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
            anstream::eprintln!(
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
            anstream::eprintln!(
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
            anstream::eprintln!($($t)*);
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
