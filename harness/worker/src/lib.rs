//! The benchmark side of Ferastrau.
//!
//! A benchmark crate implements [`Benchmark`] and says `ferastrau_worker::export!(MyBench)`.
//! The `ferastrau` binary links no benchmark: it generates a tiny worker crate that depends on
//! the benchmark (or on its metamutant copy) and whose `main` calls the exported
//! `ferastrau_main`, then talks to that process through the commands in [`worker_main`].

mod benchmark;
pub mod exec;
mod generate;
mod outputs;

pub use benchmark::Benchmark;
pub use korat;

use std::io::Write;

/// Defines `pub fn ferastrau_main()` for the worker crate to call.
#[macro_export]
macro_rules! export {
    ($bench:expr) => {
        /// Entry point of the Ferastrau worker process for this benchmark.
        pub fn ferastrau_main() {
            $crate::worker_main($bench)
        }
    };
}

/// Usage of the worker process; the harness is its only intended caller.
const USAGE: &str = "usage: worker describe | worker generate --scope N [--print K] [--no-pruning] [--no-isomorphism-breaking] | worker outputs --scope N --mutant M [--clock-ms T]";

/// The worker process's `main`: reads a command from the arguments, writes JSON lines to
/// stdout, exits non-zero with a one-line message on stderr for a bad command.
pub fn worker_main<B: Benchmark>(bench: B) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = dispatch(&bench, &args) {
        eprintln!("worker: {e}");
        std::process::exit(2);
    }
}

fn dispatch<B: Benchmark>(bench: &B, args: &[String]) -> Result<(), String> {
    // Not locked for the whole command: a watchdog thread may need to print.
    let mut out = std::io::BufWriter::new(std::io::stdout());
    match args.first().map(String::as_str) {
        Some("describe") => {
            let d = serde_json::json!({ "methods": bench.methods() });
            writeln!(out, "{d}").map_err(|e| e.to_string())
        }
        Some("generate") => {
            let flags = Flags::parse(&args[1..])?;
            let opts = korat::Options {
                pruning: !flags.has("--no-pruning"),
                isomorphism_breaking: !flags.has("--no-isomorphism-breaking"),
            };
            let scope = flags.number("--scope")?.ok_or("generate needs --scope")?;
            let print = flags.number("--print")?.unwrap_or(0);
            generate::generate(bench, scope as u32, print as usize, opts, &mut out)
                .map_err(|e| e.to_string())
        }
        Some("outputs") => {
            let flags = Flags::parse(&args[1..])?;
            let scope = flags.number("--scope")?.ok_or("outputs needs --scope")?;
            let mutant = flags.number("--mutant")?.unwrap_or(0);
            let clock = flags.number("--clock-ms")?.unwrap_or(2000);
            outputs::outputs(
                bench,
                scope as u32,
                mutant as u32,
                std::time::Duration::from_millis(clock),
                &mut out,
            )
            .map_err(|e| e.to_string())
        }
        _ => Err(USAGE.to_string()),
    }
}

/// `--name value` and `--switch` arguments.
struct Flags<'a>(&'a [String]);

impl<'a> Flags<'a> {
    fn parse(args: &'a [String]) -> Result<Self, String> {
        if let Some(a) = args
            .iter()
            .find(|a| !a.starts_with("--") && a.parse::<u64>().is_err())
        {
            return Err(format!("unexpected argument {a:?}; {USAGE}"));
        }
        Ok(Flags(args))
    }

    fn has(&self, name: &str) -> bool {
        self.0.iter().any(|a| a == name)
    }

    fn number(&self, name: &str) -> Result<Option<u64>, String> {
        match self.0.iter().position(|a| a == name) {
            None => Ok(None),
            Some(i) => {
                let v = self.0.get(i + 1).ok_or(format!("{name} needs a value"))?;
                v.parse()
                    .map(Some)
                    .map_err(|_| format!("{name} takes a number, not {v:?}"))
            }
        }
    }
}
