//! The benchmark side of Ferastrau.
//!
//! A benchmark crate implements [`Benchmark`] and says `ferastrau_worker::export!(MyBench)`.
//! The `ferastrau` binary links no benchmark: it generates a tiny worker crate that depends on
//! the benchmark (or on its metamutant copy) and whose `main` calls the exported
//! `ferastrau_main`, then talks to that process through the commands of [`worker_main`].

mod benchmark;
pub mod cursor;
mod evaluate;
pub mod exec;
mod generate;
mod outputs;
pub mod store;
/// Helpers for benchmark crates' tests (Korat per method, brute-force checks, postconditions).
pub mod testing;

pub use benchmark::Benchmark;
pub use evaluate::Limits;
pub use korat;

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

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
const USAGE: &str = "usage: worker describe
  | generate --scope N [--print K] [--no-pruning] [--no-isomorphism-breaking]
  | outputs --scope N --mutant M [--clock-ms T]
  | inputs --scope N --dir D [--coverage]
  | original --scope N --dir D
  | mutant --mutant M --from A --to B --dir D --results F --cursor F
      --tick-factor K --tick-floor T --timeout-factor X --timeout-floor-ms T
  | render --scope N --method M --index I --dir D
  | replay --scope N --dir D [--repeat R]";

/// Exit status of `original` when the original violates a postcondition.
pub const EXIT_VIOLATION: i32 = 4;

/// The worker process's `main`: reads a command from the arguments, writes JSON lines to
/// stdout, exits non-zero with a one-line message on stderr for a bad command.
pub fn worker_main<B: Benchmark>(bench: B) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&bench, &args) {
        Ok(0) => {}
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("worker: {e}");
            std::process::exit(2);
        }
    }
}

fn dispatch<B: Benchmark>(bench: &B, args: &[String]) -> Result<i32, String> {
    // Not locked for the whole command: a watchdog thread may need to print.
    let mut out = std::io::BufWriter::new(std::io::stdout());
    let flags = Flags(args.get(1..).unwrap_or(&[]));
    let io = |e: std::io::Error| e.to_string();
    let scope = || -> Result<u32, String> {
        Ok(flags
            .number("--scope")?
            .ok_or("this command needs --scope")? as u32)
    };
    match args.first().map(String::as_str) {
        Some("describe") => {
            let d = serde_json::json!({ "methods": bench.methods() });
            writeln!(out, "{d}").map_err(io)?;
        }
        Some("generate") => {
            let opts = korat::Options {
                pruning: !flags.has("--no-pruning"),
                isomorphism_breaking: !flags.has("--no-isomorphism-breaking"),
            };
            let print = flags.number("--print")?.unwrap_or(0);
            generate::generate(bench, scope()?, print as usize, opts, &mut out).map_err(io)?;
        }
        Some("outputs") => {
            let mutant = flags.number("--mutant")?.unwrap_or(0);
            let clock = Duration::from_millis(flags.number("--clock-ms")?.unwrap_or(2000));
            outputs::outputs(bench, scope()?, mutant as u32, clock, &mut out).map_err(io)?;
        }
        Some("inputs") => {
            let dir = flags.path("--dir")?;
            evaluate::inputs(bench, scope()?, &dir, flags.has("--coverage"), &mut out)
                .map_err(io)?;
        }
        Some("original") => {
            let dir = flags.path("--dir")?;
            if !evaluate::original(bench, scope()?, &dir, &mut out).map_err(io)? {
                out.flush().map_err(io)?;
                return Ok(EXIT_VIOLATION);
            }
        }
        Some("mutant") => {
            let need = |name: &str| -> Result<u64, String> {
                flags.number(name)?.ok_or(format!("mutant needs {name}"))
            };
            let limits = Limits {
                tick_factor: need("--tick-factor")?,
                tick_floor: need("--tick-floor")?,
                timeout_factor: need("--timeout-factor")? as f64,
                timeout_floor: Duration::from_millis(need("--timeout-floor-ms")?),
            };
            cursor::open(&flags.path("--cursor")?).map_err(io)?;
            let scopes = need("--from")? as u32..=need("--to")? as u32;
            evaluate::mutant(
                bench,
                need("--mutant")? as u32,
                scopes,
                &flags.path("--dir")?,
                &flags.path("--results")?,
                limits,
            )
            .map_err(io)?;
        }
        Some("replay") => {
            let repeat = flags.number("--repeat")?.unwrap_or(5) as u32;
            evaluate::replay(bench, scope()?, &flags.path("--dir")?, repeat, &mut out)
                .map_err(io)?;
        }
        Some("render") => {
            let method = flags.number("--method")?.ok_or("render needs --method")?;
            let index = flags.number("--index")?.ok_or("render needs --index")?;
            evaluate::render(
                bench,
                scope()?,
                method as usize,
                index,
                &flags.path("--dir")?,
                &mut out,
            )
            .map_err(io)?;
        }
        _ => return Err(USAGE.to_string()),
    }
    out.flush().map_err(io)?;
    Ok(0)
}

/// `--name value` and `--switch` arguments.
struct Flags<'a>(&'a [String]);

impl Flags<'_> {
    fn has(&self, name: &str) -> bool {
        self.0.iter().any(|a| a == name)
    }

    fn value(&self, name: &str) -> Result<Option<&str>, String> {
        match self.0.iter().position(|a| a == name) {
            None => Ok(None),
            Some(i) => self
                .0
                .get(i + 1)
                .map(|v| Some(v.as_str()))
                .ok_or(format!("{name} needs a value")),
        }
    }

    fn number(&self, name: &str) -> Result<Option<u64>, String> {
        self.value(name)?
            .map(|v| {
                v.parse()
                    .map_err(|_| format!("{name} takes a number, not {v:?}"))
            })
            .transpose()
    }

    fn path(&self, name: &str) -> Result<PathBuf, String> {
        self.value(name)?
            .map(PathBuf::from)
            .ok_or(format!("this command needs {name}"))
    }
}
