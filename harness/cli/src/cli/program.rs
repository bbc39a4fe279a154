//! What every binary built on these commands shares: `ferastrau` itself ([`super::Cli`]) and
//! `ferastrau-paper` (`harness/paper/`, whose command line flattens [`super::Cmd`] beside the
//! paper's commands). One parser setup (examples under each `--help`, `--color` read before
//! parsing), one start of a run (verbosity, colour, lock waits) and one main routine (signals,
//! errors, exit statuses), so that the two binaries cannot drift apart.

use std::ffi::OsString;
use std::process::ExitCode;

use anyhow::Result;
use clap::{CommandFactory as _, Parser};

use super::examples::{self, Example};
use super::Global;
use ferastrau_console::exit_code::{self, Exit};
use ferastrau_console::term::{paint, style, ColorWhen};

/// A command line built on `ferastrau`'s commands.
pub trait Program: Parser {
    /// The examples `--help` shows under the subcommand `name` (none for an unknown name).
    fn examples(name: &str) -> &'static [Example];
    /// The options every command takes.
    fn global(&self) -> &Global;
    /// Runs the parsed command, once [`run`] has applied the global options.
    fn run_command(self) -> Result<()>;
}

/// `P`'s parser: the derived one with each subcommand's examples and `color` (clap's own
/// colouring of help and errors follows `--color`, which is read before parsing because it
/// decides how a parse error looks).
pub fn command<P: Program>(color: ColorWhen) -> clap::Command {
    let mut cmd = P::command().color(match color {
        ColorWhen::Auto => clap::ColorChoice::Auto,
        ColorWhen::Always => clap::ColorChoice::Always,
        ColorWhen::Never => clap::ColorChoice::Never,
    });
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for name in names {
        let help = examples::help(P::examples(&name));
        let ci_formats = name == "gate";
        cmd = cmd.mut_subcommand(name, |c| {
            let c = c.after_help(help);
            // `--format github` and `gitlab` are the gate's: elsewhere they are neither
            // listed nor taken (clap's error names the values that are).
            let has_format = c.get_arguments().any(|a| a.get_id() == "format");
            match has_format && !ci_formats {
                true => c.mut_arg("format", |a| a.value_parser(general_formats())),
                false => c,
            }
        });
    }
    cmd
}

/// `--format`'s values on every command but `gate`: `table` and `json`.
fn general_formats() -> impl clap::builder::TypedValueParser<Value = super::args::Format> {
    use clap::builder::TypedValueParser as _;
    use clap::ValueEnum as _;
    clap::builder::PossibleValuesParser::new(["table", "json"])
        .map(|v| super::args::Format::from_str(&v, false).expect("a value listed above"))
}

/// Parses `args` (the program's name first) with [`command`].
pub fn parse_from<P: Program>(
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
) -> Result<P, clap::Error> {
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let color = color_before_parsing(&args);
    // Parse errors are printed before `run` sets the choice: set it now.
    color.choice().write_global();
    let mut cmd = command::<P>(color);
    let matches = cmd.try_get_matches_from_mut(args)?;
    P::from_arg_matches(&matches).map_err(|e| e.format(&mut cmd))
}

/// `--color WHEN` or `--color=WHEN` among `args`, before they are parsed (the last wins;
/// anything unreadable is `auto`, and the parse itself then reports it).
fn color_before_parsing(args: &[OsString]) -> ColorWhen {
    use clap::ValueEnum;
    let mut when = ColorWhen::Auto;
    let mut words = args.iter().filter_map(|a| a.to_str());
    while let Some(w) = words.next() {
        if w == "--" {
            break;
        }
        let value = match w.strip_prefix("--color") {
            Some("") => words.next(),
            Some(v) => v.strip_prefix('='),
            None => None,
        };
        if let Some(v) = value.and_then(|v| ColorWhen::from_str(v, false).ok()) {
            when = v;
        }
    }
    when
}

/// Runs a parsed command line: the global options first, then the command.
fn run<P: Program>(program: P) -> Result<()> {
    let global = program.global();
    ferastrau_console::term::set(global.verbosity(), global.color);
    announce_lock_waits();
    program.run_command()
}

/// Says on stderr when a build of a worker or a pruning round waits for cargo's lock on the
/// build directory (another build holds it: a run of the tests, another ferastrau, an IDE),
/// instead of looking stuck; set once per process, before anything is built. A progress line
/// of the terminal's, so the program's and not the harness's.
fn announce_lock_waits() {
    ferastrau_mutator::compile::on_lock_wait(|line| {
        ferastrau_console::stage!(
            "Waiting",
            "for another cargo build to release the build directory ({})",
            line.trim_start_matches("Blocking").trim()
        )
    });
}

/// An error line on stderr, its `error:` coloured where colour is on.
fn error(message: &str) {
    let message = message.strip_prefix("error: ").unwrap_or(message);
    anstream::eprintln!("{} {message}", paint(style::BAD, "error:"));
}

/// The command line as a [`Program`] parses it. `cargo ferastrau ARGS` runs the binary
/// `cargo-ferastrau` as `cargo-ferastrau ferastrau ARGS` (cargo's convention for external
/// subcommands): that second word is dropped, and the program called `cargo ferastrau` in
/// usage lines and errors, so that both names take the same arguments.
fn arguments(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut args: Vec<OsString> = args.into_iter().collect();
    let subcommand = args
        .first()
        .and_then(|first| std::path::Path::new(first).file_stem())
        .and_then(|stem| {
            stem.to_string_lossy()
                .strip_prefix("cargo-")
                .map(str::to_string)
        });
    if let Some(subcommand) = subcommand {
        if args.get(1).is_some_and(|a| *a == *subcommand) {
            args.remove(1);
        }
        args[0] = format!("cargo {subcommand}").into();
    }
    args
}

/// The main routine of a binary: parses the process's arguments as `P`, runs them, and maps
/// the outcome to an exit status (`ferastrau_console::exit_code`).
pub fn main<P: Program>() -> ExitCode {
    // `ferastrau ... | head`: end quietly when stdout closes, as a Unix filter does, instead
    // of panicking on the failed write. (No pipe the harness writes to is at risk: it never
    // writes to a child's stdin.)
    // SAFETY: restoring the default disposition of one signal before any thread starts.
    let _ = unsafe {
        nix::sys::signal::signal(
            nix::sys::signal::Signal::SIGPIPE,
            nix::sys::signal::SigHandler::SigDfl,
        )
    };
    let program = match parse_from::<P>(arguments(std::env::args_os())) {
        Ok(program) => program,
        Err(e) => {
            // clap's own rendering: `--help` and `--version` on stdout; a mistake on stderr
            // with its usage line and, for a misspelt command or option, "a similar ... exists"
            // (the bare program prints the help there). Coloured as `--color` says (set
            // globally by `parse_from` before parsing).
            let _ = e.print();
            return match e.use_stderr() {
                false => Exit::Success.into(),
                true => Exit::Usage.into(),
            };
        }
    };
    // The workers' opt-level comes from the environment (`FERASTRAU_OPT_LEVEL`): a bad one is
    // refused like a bad option, before anything runs.
    if let Err(e) = ferastrau_mutator::compile::opt_level() {
        error(&format!("{e:#}"));
        return Exit::Usage.into();
    }
    if let Err(e) = ferastrau_harness::interrupt::install() {
        error(&format!("{e:#}"));
        return Exit::Error.into();
    }
    match run(program) {
        Ok(()) => Exit::Success.into(),
        Err(e) => {
            let exit = exit_code::of(&e);
            match exit {
                // Ctrl-C is the user's doing, not an error: say where the results are.
                Exit::Interrupted => anstream::eprintln!("{e:#}"),
                _ => error(&format!("{e:#}")),
            }
            exit.into()
        }
    }
}

/// What is wrong with the examples of the program `P`, one line each: a command without
/// examples, or an example that does not start with its program's name, does not parse with
/// `P`'s parser, or parses as another command. `ferastrau`'s own commands show `ferastrau`
/// lines in every program (the same line works in each); a program's other commands show lines
/// of that program. Empty when every example is a real command line of its own command; each
/// program's tests require it (an option renamed or removed fails there instead of in a
/// user's shell).
pub fn mistakes<P: Program>() -> Vec<String> {
    let cmd = command::<P>(ColorWhen::Never);
    let ours = super::Cli::command();
    let mut found = Vec::new();
    for sub in cmd.get_subcommands().filter(|c| c.get_name() != "help") {
        let name = sub.get_name();
        if P::examples(name).is_empty() {
            found.push(format!("`{name}` has no examples"));
        }
        let program = match ours.find_subcommand(name) {
            Some(_) => ours.get_name(),
            None => cmd.get_name(),
        };
        for e in P::examples(name) {
            let words = examples::words(e.line);
            if words.first() != Some(&program) {
                found.push(format!("{}: not a line of {program}", e.line));
            } else if let Err(err) = parse_from::<P>(&words) {
                found.push(format!("{}: {err}", e.line));
            } else {
                let matches = command::<P>(ColorWhen::Never).get_matches_from(&words);
                if matches.subcommand_name() != Some(name) {
                    found.push(format!("{}: not a line of `{name}`", e.line));
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::arguments;
    use std::ffi::OsString;

    fn args(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    #[test]
    fn cargo_s_subcommand_word_is_dropped_and_the_program_named_as_cargo_calls_it() {
        let cargo = |w: &[&str]| arguments(args(w));
        assert_eq!(
            cargo(&[
                "/home/u/.cargo/bin/cargo-ferastrau",
                "ferastrau",
                "evaluate"
            ]),
            args(&["cargo ferastrau", "evaluate"])
        );
        // Run by its own name, with no subcommand word: nothing to drop.
        assert_eq!(
            cargo(&["cargo-ferastrau", "evaluate", "ferastrau"]),
            args(&["cargo ferastrau", "evaluate", "ferastrau"])
        );
        // `ferastrau` itself, even given `ferastrau` as its first word (a typo, refused by the
        // parser as an unknown command), is left alone.
        assert_eq!(
            cargo(&["/usr/bin/ferastrau", "ferastrau", "evaluate"]),
            args(&["/usr/bin/ferastrau", "ferastrau", "evaluate"])
        );
        assert_eq!(cargo(&[]), args(&[]));
    }
}
