//! `ferastrau mutants` as one call: [`run`] builds (or reuses) the crate's compile-pruned
//! metamutant and returns its catalog, sampled as `evaluate --max-mutants` samples it, or
//! mutants of it as unified diffs of the crate's source. The CLI prints the [`Outcome`].

use anyhow::Result;
use ferastrau_artifacts::SampleMark;
use ferastrau_console::exit_code::usage;
use ferastrau_mutator::Catalog;

use crate::locate::Named;

/// What `ferastrau mutants` is asked to do: the command line, parsed.
#[derive(Clone, Debug)]
pub struct Options {
    /// The crate.
    pub target: Named,
    /// `--diff ID|all`: mutants shown as diffs instead of the catalog.
    pub diff: Option<String>,
    /// `--format json`: the catalog as JSON (which a diff cannot be).
    pub json: bool,
    /// `--max-mutants` (with its `--seed`).
    pub sample: Option<SampleMark>,
}

/// What `mutants` shows.
pub enum Outcome {
    /// The (sampled) catalog.
    Catalog(Catalog),
    /// `--diff`: the mutants asked for as unified diffs, one after the other.
    Diffs(String),
}

/// `ferastrau mutants`: a diff asked for as JSON, or a mutant id that is not a number or not
/// of the sample, is refused (status 2).
pub fn run(opts: &Options) -> Result<Outcome> {
    if opts.diff.is_some() && opts.json {
        return Err(usage(
            "--diff prints a unified diff, not JSON: leave out --format json",
        ));
    }
    let bench = opts.target.locate()?;
    let meta = crate::subject::metamutant(&bench)?;
    let catalog = crate::evaluate::sampled(&meta.catalog, opts.sample);
    let diffs = match opts.diff.as_deref() {
        None => return Ok(Outcome::Catalog(catalog)),
        Some("all") => catalog
            .mutants
            .iter()
            .map(|m| ferastrau_mutator::diff(&bench.dir, m))
            .collect::<Result<String>>()?,
        Some(id) => {
            let id: u32 = id
                .parse()
                .map_err(|_| usage(format!("--diff takes a mutant id or `all`, not {id:?}")))?;
            let m = catalog
                .get(id)
                .ok_or_else(|| usage(format!("{} has no mutant {id}", bench.name)))?;
            ferastrau_mutator::diff(&bench.dir, m)?
        }
    };
    Ok(Outcome::Diffs(diffs))
}
