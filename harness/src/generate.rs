//! `ferastrau generate`: Korat's figures per scope and method, and a look at the inputs. One
//! call ([`run`]) takes the command line as [`Options`] and returns the figures as an
//! [`Outcome`]; the CLI prints it.

use std::ops::RangeInclusive;

use anyhow::{bail, Result};
use ferastrau_artifacts::{Artifact, Generators, Search};
use ferastrau_console::exit_code::usage;
use ferastrau_protocol::{Engine, Message, Request};

use crate::locate::{BenchmarkCrate, Named};
use crate::worker::Worker;

/// What `ferastrau generate` is asked to do: the command line, parsed.
#[derive(Clone, Debug)]
pub struct Options {
    /// The crate.
    pub target: Named,
    pub scopes: RangeInclusive<u32>,
    /// `--print N`: the first N inputs of each method at each scope.
    pub print: usize,
    /// `--structure`: the structure-only searches.
    pub structure: bool,
    /// `--generators`: the dedicated generators' search beside the plain one.
    pub generators: bool,
    /// `--jobs`: threads of each search; `None`: every core.
    pub jobs: Option<usize>,
}

/// What `generate` found: the crate's figures per scope, as the search was asked.
pub struct Outcome {
    pub bench: BenchmarkCrate,
    pub mode: Mode,
    pub stats: Vec<ScopeStats>,
}

impl Outcome {
    /// The `--format json` document.
    pub fn document(&self) -> Generators {
        document(&self.bench, self.mode, &self.stats)
    }

    /// The table.
    pub fn table(&self) -> String {
        render_table(
            &self.bench,
            &self.stats,
            self.mode.structure,
            self.mode.generators,
        )
    }
}

/// `ferastrau generate`: the original's worker built, every scope searched (`on_scope` is
/// told of each as it is done, for the terminal's progress and `--print`), and a scope
/// without any input refused: what it would test is nothing.
pub fn run(opts: &Options, on_scope: impl FnMut(&ScopeStats)) -> Result<Outcome> {
    let bench = opts.target.locate()?;
    if !bench.engine.is_korat() && (opts.structure || opts.generators) {
        // Both search a finitization's candidates: a generator program has choices instead.
        return Err(usage(format!(
            "--structure and --generators search Korat's finitization: leave them out with \
             --engine {}",
            bench.engine
        )));
    }
    let worker = crate::subject::original_worker(&bench)?;
    let mode = Mode {
        jobs: opts
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        structure: opts.structure,
        generators: opts.generators,
    };
    let stats = generate(&worker, opts.scopes.clone(), opts.print, mode, on_scope)?;
    if let Some(s) = stats.iter().find(|s| s.inputs == 0) {
        return Err(crate::evaluate::prepare::no_input(
            &bench,
            s.scope,
            s.candidates,
        ));
    }
    Ok(Outcome { bench, mode, stats })
}

/// Korat's figures per method and scope, a search with dedicated generators beside the plain
/// one, and a rendered input: as `generators.json` (and `generate --json`) holds them.
pub use ferastrau_artifacts::{DedicatedSearch, Example, MethodStats, ScopeStats};

/// How `generate` searches.
#[derive(Clone, Copy, Debug)]
pub struct Mode {
    /// Threads of each search (the results do not depend on it).
    pub jobs: usize,
    /// The structure-only searches instead of the inputs: structures found and candidates
    /// explored without the arguments the preconditions leave unread.
    pub structure: bool,
    /// Also search with the dedicated generators, reported beside the plain search.
    pub generators: bool,
}

/// The JSON document `generate --json` prints (the artifact
/// [`ferastrau_artifacts::Generators`]).
pub fn document(bench: &BenchmarkCrate, mode: Mode, stats: &[ScopeStats]) -> Generators {
    Generators {
        benchmark: bench.name.clone(),
        schema_version: Generators::SCHEMA_VERSION,
        scopes: stats.to_vec(),
        search: if mode.structure {
            Search::Structure
        } else {
            Search::Inputs
        },
        engine: bench.engine,
    }
}

/// Runs Korat for every scope through the benchmark's worker; with `mode.generators`, a
/// second search with the dedicated generators, which must find the same inputs.
pub fn generate(
    worker: &Worker,
    scopes: RangeInclusive<u32>,
    print: usize,
    mode: Mode,
    mut progress: impl FnMut(&ScopeStats),
) -> Result<Vec<ScopeStats>> {
    let mut all = Vec::new();
    for scope in scopes {
        let mut s = search(worker, scope, print, mode, false)?;
        if mode.generators {
            let ded = search(worker, scope, 0, mode, true)?;
            beside(&mut s, &ded)?;
        }
        progress(&s);
        all.push(s);
    }
    Ok(all)
}

/// One `generate` request at `scope`, plain or with the generators.
fn search(
    worker: &Worker,
    scope: u32,
    print: usize,
    mode: Mode,
    generators: bool,
) -> Result<ScopeStats> {
    let messages = worker.call(&Request::Generate {
        scope,
        print,
        pruning: true,
        isomorphism_breaking: true,
        jobs: mode.jobs,
        structure: mode.structure,
        generators,
    })?;
    let mut s = ScopeStats {
        scope,
        inputs: 0,
        candidates: 0,
        seconds: 0.0,
        generators: None,
        methods: Vec::new(),
        examples: Vec::new(),
    };
    for m in messages {
        match m {
            Message::Input { method, text } => s.examples.push(Example { method, text }),
            Message::Method {
                method,
                scope,
                inputs,
                candidates,
                seconds,
                state_space_log2,
                generators,
                ..
            } => {
                s.inputs += inputs;
                s.candidates += candidates;
                s.seconds += seconds;
                s.methods.push(MethodStats {
                    method,
                    scope,
                    inputs,
                    candidates,
                    seconds,
                    state_space_log2,
                    generators: generators.then_some(DedicatedSearch {
                        candidates,
                        seconds,
                        candidates_saved: 0,
                    }),
                });
            }
            _ => {}
        }
    }
    Ok(s)
}

/// Puts the generators' figures of `ded` beside the plain ones of `plain`. The inputs must be
/// the same per method: otherwise a benchmark's generators reject a valid input (or accept an
/// invalid one), and no figure of theirs can be reported.
fn beside(plain: &mut ScopeStats, ded: &ScopeStats) -> Result<()> {
    let mut total: Option<DedicatedSearch> = None;
    for (p, d) in plain.methods.iter_mut().zip(&ded.methods) {
        if p.method != d.method || p.inputs != d.inputs {
            bail!(
                "scope {}: {} found {} inputs with dedicated generators and {} without; the \
                 generators must accept exactly what the precondition accepts",
                plain.scope,
                p.method,
                d.inputs,
                p.inputs
            );
        }
        if let Some(g) = d.generators {
            let g = DedicatedSearch {
                candidates_saved: p.candidates.saturating_sub(g.candidates),
                ..g
            };
            p.generators = Some(g);
            let t = total.get_or_insert_with(DedicatedSearch::default);
            t.candidates += g.candidates;
            t.seconds += g.seconds;
            t.candidates_saved += g.candidates_saved;
        }
    }
    if plain.methods.len() != ded.methods.len() {
        bail!(
            "scope {}: the two searches report different methods",
            plain.scope
        );
    }
    plain.generators = total;
    Ok(())
}

/// The table `generate` prints: a row per method and a total row per scope; with
/// `generators`, the dedicated generators' candidates and seconds beside (`—` for a method
/// that has none) and the share of candidates they save.
pub fn render_table(
    bench: &BenchmarkCrate,
    stats: &[ScopeStats],
    structure: bool,
    generators: bool,
) -> String {
    let (title, found) = match (structure, bench.engine) {
        (true, _) => ("Korat structure-only search", "found"),
        (false, Engine::Korat) => ("Korat generation", "inputs"),
        // Korat's search over the program's choice slots replays every path once.
        (false, Engine::Generator) => ("Generator-program generation", "inputs"),
    };
    let mut t = format!(
        "{title} for {}\n{:>5}  {:<14} {:>10} {:>12} {:>9} {:>13}",
        bench.name, "scope", "method", found, "candidates", "seconds", "cand./second"
    );
    if generators {
        t.push_str(&format!(
            " {:>12} {:>9} {:>7}",
            "ded. cand.", "ded. s", "saved"
        ));
    }
    t.push('\n');
    for s in stats {
        let mut row =
            |name: &str, inputs: u64, cands: u64, secs: f64, ded: Option<DedicatedSearch>| {
                let rate = if secs > 0.0 { cands as f64 / secs } else { 0.0 };
                t.push_str(&format!(
                    "{:>5}  {:<14} {:>10} {:>12} {:>9.4} {:>13.0}",
                    s.scope, name, inputs, cands, secs, rate
                ));
                if generators {
                    match ded {
                        Some(d) => t.push_str(&format!(
                            " {:>12} {:>9.4} {:>6.1}%",
                            d.candidates,
                            d.seconds,
                            100.0 * d.candidates_saved as f64 / cands.max(1) as f64
                        )),
                        None => t.push_str(&format!(" {:>12} {:>9} {:>7}", "—", "—", "—")),
                    }
                }
                t.push('\n');
            };
        for m in &s.methods {
            row(&m.method, m.inputs, m.candidates, m.seconds, m.generators);
        }
        row("total", s.inputs, s.candidates, s.seconds, s.generators);
    }
    t
}

/// The `--print` listing of one scope.
pub fn render_examples(s: &ScopeStats) -> String {
    let mut t = String::new();
    for e in &s.examples {
        t.push_str(&format!("scope {} {}\n", s.scope, e.text));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(inputs: u64, candidates: u64, generators: bool) -> ScopeStats {
        ScopeStats {
            scope: 4,
            inputs,
            candidates,
            seconds: 1.0,
            generators: None,
            methods: vec![MethodStats {
                method: "add".into(),
                scope: 4,
                inputs,
                candidates,
                seconds: 1.0,
                state_space_log2: 0.0,
                generators: generators.then_some(DedicatedSearch {
                    candidates,
                    seconds: 0.5,
                    candidates_saved: 0,
                }),
            }],
            examples: Vec::new(),
        }
    }

    #[test]
    fn the_dedicated_figures_go_beside_the_plain_ones() {
        let mut plain = scope(10, 100, false);
        beside(&mut plain, &scope(10, 40, true)).unwrap();
        let want = DedicatedSearch {
            candidates: 40,
            seconds: 0.5,
            candidates_saved: 60,
        };
        assert_eq!(plain.methods[0].generators, Some(want));
        assert_eq!(plain.generators, Some(want));
        assert_eq!(plain.candidates, 100, "the plain figures stay");
    }

    #[test]
    fn dedicated_generators_that_find_other_inputs_are_an_error_not_a_figure() {
        let mut plain = scope(10, 100, false);
        let err = beside(&mut plain, &scope(9, 40, true)).unwrap_err();
        assert!(
            err.to_string()
                .contains("9 inputs with dedicated generators"),
            "{err}"
        );
        assert_eq!(plain.generators, None);
    }
}
