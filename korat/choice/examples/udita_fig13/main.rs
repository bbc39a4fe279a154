//! UDITA's Fig. 13 (structures enumerated by generator programs, delayed against eager
//! choice), reproduced by `korat-choice`:
//!
//! ```text
//! cargo run --release -p korat-choice --example udita_fig13 [-- --format json] [--eager-paths N]
//!     [--program NAME] [--sizes small|all]
//! ```
//!
//! Prints, for each program and size of the figure, the structures found, the executions
//! explored and the time, for delayed and for eager choice, beside the figure's structure
//! count. An eager row stops after `--eager-paths` executions (default 60 million, more than
//! the figure's largest finished baseline, HeapArray 8's 54.5 million; the
//! figure's own baseline ran out of memory on DAG 4 and 5) and is then marked incomplete.
//! Exits 1 if a complete row's count differs from the figure's.

mod programs;

use std::time::Instant;

use korat_choice::{explore, Limits, Mode};
use programs::Program;

struct Row {
    program: &'static str,
    n: usize,
    mode: Mode,
    structures: u64,
    explored: u64,
    seconds: f64,
    complete: bool,
    figure: programs::Figure,
}

impl Row {
    /// The figure's explored paths for this row's mode.
    fn figure_explored(&self) -> Option<u64> {
        match self.mode {
            Mode::Delayed => Some(self.figure.delayed),
            Mode::Eager => self.figure.eager,
        }
    }
}

fn run(program: Program, figure: programs::Figure, mode: Mode, paths: u64) -> Row {
    let n = figure.n;
    let start = Instant::now();
    let limits = Limits {
        paths,
        ..Limits::default()
    };
    let stats = explore(mode, limits, |g| program.run(g, n), |_, _| {})
        .unwrap_or_else(|e| panic!("{} {n}: {e}", program.name()));
    Row {
        program: program.name(),
        n,
        mode,
        structures: stats.structures,
        explored: stats.explored,
        seconds: start.elapsed().as_secs_f64(),
        complete: stats.complete,
        figure,
    }
}

fn main() {
    let mut json = false;
    let mut eager_paths: u64 = 60_000_000;
    let mut only: Option<String> = None;
    let mut all_sizes = true;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--format" => json = args.next().as_deref() == Some("json"),
            "--eager-paths" => {
                eager_paths = args.next().and_then(|v| v.parse().ok()).expect("a number")
            }
            "--program" => only = args.next(),
            "--sizes" => all_sizes = args.next().as_deref() != Some("small"),
            other => panic!("unknown argument {other}"),
        }
    }
    let mut rows = Vec::new();
    let mut wrong = false;
    for program in Program::ALL {
        if only
            .as_deref()
            .is_some_and(|o| !o.eq_ignore_ascii_case(program.name()))
        {
            continue;
        }
        let sizes = program.figure();
        let sizes = if all_sizes { &sizes[..] } else { &sizes[..1] };
        for &figure in sizes {
            for (mode, paths) in [(Mode::Delayed, u64::MAX), (Mode::Eager, eager_paths)] {
                let row = run(program, figure, mode, paths);
                wrong |= row.complete && row.structures != figure.structures;
                if !json {
                    let explored =
                        format!("{}{}", row.explored, if row.complete { "" } else { "+" });
                    let figure_explored =
                        row.figure_explored().map_or("-".into(), |e| e.to_string());
                    println!(
                        "{:<11} {:>2} {:<8} structures {:>9} (figure {:>9}{:<10}) explored {:>10} \
                         (figure {:>9}) {:>8.2} s",
                        row.program,
                        row.n,
                        format!("{:?}", row.mode).to_lowercase(),
                        row.structures,
                        row.figure.structures,
                        if !row.complete {
                            ", stopped"
                        } else if row.structures == row.figure.structures {
                            ", equal"
                        } else {
                            ", DIFFERENT"
                        },
                        explored,
                        figure_explored,
                        row.seconds
                    );
                }
                rows.push(row);
            }
        }
    }
    if json {
        let rows: Vec<_> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "program": r.program,
                    "n": r.n,
                    "structures": r.structures,
                    "explored": r.explored,
                    "seconds": (r.seconds * 1000.0).round() / 1000.0,
                    "mode": format!("{:?}", r.mode).to_lowercase(),
                    "complete": r.complete,
                    "figure_structures": r.figure.structures,
                    "figure_explored": r.figure_explored(),
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&rows).unwrap());
    }
    if wrong {
        eprintln!("a complete row's structure count differs from the figure's");
        std::process::exit(1);
    }
}
