//! Ferastrau's mutator (Sec. 7.1 of the paper): source-to-source mutation of a benchmark
//! crate with syn, quote and prettyplease.
//!
//! A benchmark declares in its manifest which functions are code under test and which are
//! its specification:
//!
//! ```toml
//! [package.metadata.ferastrau]
//! mutate = ["SearchTree::add", "SearchTree::remove"]
//! specification = ["rep_ok"]
//! ```
//!
//! - [`discover`] lists the mutants of the declared code (four families: the paper's
//!   operators, variables and fields, calls, and integer constants), each a single change with
//!   a stable id.
//! - [`build_metamutant`] writes one copy of the crate in which every mutation point is a
//!   guarded choice on the runtime switch of `ferastrau-probes`, with coverage probes and
//!   budget ticks, compile-prunes it (with `cargo check`, or, [`build_metamutant_with`] a
//!   [`Compiler::build_through`], with the very build of the worker that links it), and
//!   caches the result.
//! - [`diff`] shows a mutant as a unified diff; [`single_mutant_crate`] builds a crate copy
//!   with just that mutant as plain source.
//! - [`sample`] picks a deterministic, family-stratified subset.
//! - [`skips`] and [`skipped`]: the mutants a crate declares not to evaluate, with reasons
//!   (`skip = [{ function = "T::f", reason = "..." }, { mutant = "<key>", reason = "..." }]`).
//!
//! The caller (the `ferastrau` harness) builds the metamutant with cargo once and runs it.

mod catalog;
pub mod compile;
mod content_hash;
mod diff;
pub mod equivalence;
mod invocation;
mod items;
mod key;
mod manifest;
mod metamutant;
mod places;
mod prune;
mod rewrite;
mod sample;
mod size;
mod source;
#[cfg(test)]
mod source_digest;
mod suppress;
mod types;

use std::path::Path;

pub use catalog::{Catalog, Counts, Edit, Family, Mutant, Pos, Probe};
pub use compile::Compiler;
pub use content_hash::ContentHash;
pub use diff::{diff, diff_text, mutate_text, mutated_source, single_mutant_crate};
pub use equivalence::{Equivalence, Verdict};
pub use key::{keys, keys_by_id};
pub use manifest::{Manifest, Skip, SkipTarget};
pub use metamutant::{
    build_metamutant, build_metamutant_compared, build_metamutant_with, Metamutant, PruneRound,
    MUTANTS_FILE, PROBES_FILE,
};
pub use places::{mutated_functions, untested_public, FnPlace};
pub use sample::sample;
pub use size::{function_sizes, FnSize};
pub use suppress::skipped;

/// Lists every mutant of the crate at `crate_dir` (`viable` unknown: `None`).
///
/// Errors name the crate and, for sources that do not parse, the file and line; an unknown
/// function name in the metadata lists the crate's functions.
pub fn discover(crate_dir: &Path) -> anyhow::Result<Catalog> {
    Ok(metamutant::IndexedCrate::read(crate_dir)?.catalog())
}

/// Every coverage probe of the crate at `crate_dir` (statements and branch outcomes of the
/// mutated and the specification functions), as a metamutant built from it numbers them.
pub fn probes(crate_dir: &Path) -> anyhow::Result<Vec<Probe>> {
    Ok(metamutant::IndexedCrate::read(crate_dir)?.probes())
}

/// Checks that every name in the crate's `mutate` and `specification` lists names one of its
/// functions, without mutating anything: the harness runs it before any command's work, so
/// that `generate` and `check` (which never build the metamutant) refuse a typo as `evaluate`
/// does. `Ok(Err(message))`: a name the crate lacks or a function in both lists (a mistake in
/// the declaration; the message names it and lists the crate's functions). `Err`: the crate
/// cannot be read or parsed.
pub fn check_declared_names(crate_dir: &Path) -> anyhow::Result<Result<(), String>> {
    use anyhow::Context;
    let manifest = Manifest::read(crate_dir)?;
    let sources = source::Sources::load(&manifest.dir, &manifest.lib)
        .with_context(|| format!("in crate `{}`", manifest.name))?;
    Ok(
        items::DeclaredFunctions::resolve(&sources, &manifest.mutate, &manifest.specification)
            .map(|_| ())
            .map_err(|e| format!("{e:#}")),
    )
}
