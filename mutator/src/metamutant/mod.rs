//! Building the metamutant: one copy of the crate holding every viable mutant behind runtime
//! switches, plus coverage probes; compile-pruned, and cached while nothing changes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

mod copy;
mod indexed_crate;
mod pruner;
mod record;

pub(crate) use copy::{copy_generated, prepare_copy};
pub(crate) use indexed_crate::IndexedCrate;

use crate::catalog::{Catalog, Probe};
use crate::compile::Compiler;
use crate::equivalence::{Beside, Compiled, Equivalence, Setup, Verdict};
use crate::invocation::Invocation;
use pruner::Pruner;
use record::{cached, carried_drops, carried_verdicts, last_build, BuildRecord};

/// The digest of the mutator's own source and the runtime's (every file of both; see
/// `source_digest.rs`): a cached metamutant is reused only if the code that generated it is the
/// same as the code that would generate it now.
const MUTATOR_DIGEST: &str = env!("FERASTRAU_MUTATOR_DIGEST");
const BUILD_FILE: &str = "ferastrau-build.json";
/// The mutant catalog, next to the generated crate.
pub const MUTANTS_FILE: &str = "ferastrau-mutants.json";
/// The probe table, next to the generated crate.
pub const PROBES_FILE: &str = "ferastrau-probes.json";
const MAX_ROUNDS: usize = 64;
/// Deny-by-default lints that reject code which would panic at run time, such as a mutant
/// `x >> 64`; only an optimised build reports them (`cargo check` passes such code). A panic
/// is an output like any other, so the metamutant's crate root allows them.
const OVERFLOW_LINTS: [&str; 2] = ["arithmetic_overflow", "unconditional_panic"];

/// One round of compile-pruning.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PruneRound {
    pub round: usize,
    /// Wall-clock time of the round (generating, checking, and any bisection).
    pub seconds: f64,
    /// Errors reported by the check that opened the round.
    pub errors: usize,
    /// Mutants dropped in this round.
    pub dropped: Vec<u32>,
    /// `cargo check` runs spent bisecting errors that landed outside every mutant.
    pub bisection_checks: usize,
}

/// The result of [`build_metamutant`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Metamutant {
    /// The generated crate (same package name as the benchmark).
    pub dir: PathBuf,
    /// Every mutant, `viable` set.
    pub catalog: Catalog,
    /// The probe table (also in `dir/ferastrau-probes.json`).
    pub probes: Vec<Probe>,
    pub rounds: Vec<PruneRound>,
    /// Mutants left out from the first round because the last build of the crate dropped them
    /// and the edit since touched neither their function nor the skeleton (see `Shape`).
    #[serde(default)]
    pub carried: usize,
    /// Generation and pruning, in seconds (of the run that built it, when cached).
    pub seconds: f64,
    /// Whether this came from the cache, untouched sources and mutator.
    #[serde(skip)]
    pub cached: bool,
    /// Trivial compiler equivalence: which mutants compile to the original's code or to a
    /// lower-numbered mutant's ([`crate::equivalence`]); `None` when it was not asked for.
    /// Cached with the metamutant: an unchanged crate does not compile its copies again.
    #[serde(default)]
    pub equivalence: Option<Equivalence>,
    /// The text of each source file (path relative to the crate → text) as this metamutant
    /// was made from it, read once: what a report shows, whatever happens to the crate
    /// during the run (a text read again later may hold an edit made meanwhile). Not in the
    /// cache record: a cached metamutant's are the texts just read, which its key matched.
    #[serde(skip)]
    pub sources: BTreeMap<String, String>,
}

/// Builds (or reuses) the metamutant of the crate at `crate_dir` in `out_dir`.
///
/// `probes` is the copy's `ferastrau-probes` dependency, a TOML value as a manifest writes it
/// (`{ version = "=0.1.0" }`, `{ path = "..." }`): it must resolve to the same crate the
/// worker links, so that the worker's `set_active` and the metamutant's `active` share one
/// switch. Pruning
/// runs `cargo check` into a target directory of its own beside `out_dir`; see
/// [`build_metamutant_with`] to prune with the worker's build instead.
pub fn build_metamutant(crate_dir: &Path, out_dir: &Path, probes: &str) -> Result<Metamutant> {
    let out = out_dir
        .canonicalize()
        .unwrap_or_else(|_| out_dir.to_path_buf());
    let check = Compiler::check(out.parent().unwrap_or(&out).join("check-target"));
    build_metamutant_with(crate_dir, out_dir, probes, &check)
}

/// [`build_metamutant`], compile-pruning with `compiler`: with [`Compiler::build_through`]
/// the worker that links the metamutant, the last pruning round leaves that worker built (see
/// [`crate::compile`]).
pub fn build_metamutant_with(
    crate_dir: &Path,
    out_dir: &Path,
    probes: &str,
    compiler: &Compiler,
) -> Result<Metamutant> {
    build_metamutant_compared(crate_dir, out_dir, probes, compiler, None)
}

/// [`build_metamutant_with`], then, with `equivalence`, its mutants compared by the compiler
/// (one more compile of the crate, in `equivalence.dir`; see [`crate::equivalence`]). A
/// cached metamutant without a comparison gets one, and keeps it in its cache record.
pub fn build_metamutant_compared(
    crate_dir: &Path,
    out_dir: &Path,
    probes: &str,
    compiler: &Compiler,
    equivalence: Option<&Setup>,
) -> Result<Metamutant> {
    let started = Instant::now();
    let indexed = IndexedCrate::read(crate_dir)?;
    let fingerprint = indexed.fingerprint(probes);
    if let Some(m) = cached(out_dir, &fingerprint) {
        return from_cache(&indexed, m, out_dir, probes, fingerprint, equivalence);
    }
    let shape = indexed.shape(probes);
    let last = last_build(out_dir);
    // Every mutant, before pruning: each `catalog()` rewrites the whole crate.
    let unpruned = indexed.catalog();
    // The mutants the last build dropped, in functions the edit did not touch: left out from
    // the first round, so that an edit costs the pruning of what it changed only (a
    // from-scratch build drops the same ones; the compiler still checks every other).
    let carried = carried_drops(last.as_ref(), &shape, &unpruned.mutants);
    let carried_count = carried.len();
    prepare_copy(&indexed.manifest, out_dir, &[("ferastrau-probes", probes)])?;
    let out_dir = out_dir.canonicalize()?;
    let all: Vec<u32> = unpruned.mutants.iter().map(|m| m.id).collect();
    // The compiler's comparison starts with the metamutant's own compile in a round's build,
    // beside the rest of that build; it is kept if that round turns out to be the last, the one
    // without errors, and killed when the round fails.
    let mut beside: Option<(BTreeSet<u32>, Beside)> = None;
    let mut start_beside = |dropped: &BTreeSet<u32>, started: Option<(&Invocation, &[String])>| {
        beside = None;
        let (Some(setup), Some((command, files))) = (equivalence, started) else {
            return;
        };
        let catalog = with_viable(&unpruned, dropped);
        let (_, carried_compared) = carried_verdicts(last.as_ref(), &shape, &catalog);
        let wanted = wanted(&catalog, &carried_compared);
        // A failure to start is met again, and reported, by the comparison after the build.
        if let Ok(b) = Beside::start(&out_dir, files, &wanted, setup, command) {
            beside = Some((dropped.clone(), b));
        }
    };
    let mut pruner = Pruner {
        indexed: &indexed,
        out_dir: &out_dir,
        compiler,
        checks: 0,
        on_library: Some(&mut start_beside),
    };
    let (dropped, rounds, probes) = pruner.prune(&all, carried)?;
    let beside = beside.filter(|(then, _)| *then == dropped).map(|(_, b)| b);
    let catalog = with_viable(&unpruned, &dropped);
    let mut result = Metamutant {
        dir: out_dir.clone(),
        catalog,
        probes,
        rounds,
        carried: carried_count,
        seconds: started.elapsed().as_secs_f64(),
        cached: false,
        equivalence: None,
        sources: indexed.texts(),
    };
    if let Some(setup) = equivalence {
        let carried = carried_verdicts(last.as_ref(), &shape, &result.catalog);
        result.equivalence = Some(compare(&indexed, &result, setup, carried, beside)?);
    }
    std::fs::write(out_dir.join(MUTANTS_FILE), result.catalog.to_json())?;
    std::fs::write(
        out_dir.join(PROBES_FILE),
        serde_json::to_string_pretty(&result.probes)?,
    )?;
    let record = BuildRecord {
        fingerprint,
        shape,
        metamutant: result.clone(),
    };
    std::fs::write(out_dir.join(BUILD_FILE), serde_json::to_string(&record)?)?;
    Ok(result)
}

/// The cached metamutant `m`, with the texts just read; compared by the compiler first (and
/// its record written again) when `equivalence` asks for a comparison it has not got.
fn from_cache(
    indexed: &IndexedCrate,
    mut m: Metamutant,
    out_dir: &Path,
    probes: &str,
    fingerprint: String,
    equivalence: Option<&Setup>,
) -> Result<Metamutant> {
    if let (Some(setup), None) = (equivalence, &m.equivalence) {
        m.equivalence = Some(compare(indexed, &m, setup, Default::default(), None)?);
        let record = BuildRecord {
            fingerprint,
            shape: indexed.shape(probes),
            metamutant: m.clone(),
        };
        std::fs::write(out_dir.join(BUILD_FILE), serde_json::to_string(&record)?)?;
    }
    Ok(Metamutant {
        sources: indexed.texts(),
        ..m
    })
}

/// `unpruned` compile-pruned with the mutants in `dropped` left out.
fn with_viable(unpruned: &Catalog, dropped: &BTreeSet<u32>) -> Catalog {
    let mut catalog = unpruned.clone();
    catalog.pruned = true;
    for m in &mut catalog.mutants {
        m.viable = Some(!dropped.contains(&m.id));
    }
    catalog
}

/// What a comparison of `catalog`'s viable mutants copies: the generated files that get
/// copies, and the mutants to copy, those whose verdicts the last build's comparison does not
/// give (`carried_compared`).
fn comparison_of(
    indexed: &IndexedCrate,
    catalog: &Catalog,
    carried_compared: &BTreeSet<u32>,
) -> (Vec<String>, BTreeSet<u32>) {
    let viable: BTreeSet<u32> = catalog.viable().map(|x| x.id).collect();
    let files = indexed.paths_of(&indexed.rewrite(&|id| viable.contains(&id)));
    (files, wanted(catalog, carried_compared))
}

/// The mutants a comparison of `catalog`'s viable mutants copies: those whose verdicts the last
/// build's comparison does not give (`carried_compared`).
fn wanted(catalog: &Catalog, carried_compared: &BTreeSet<u32>) -> BTreeSet<u32> {
    catalog
        .viable()
        .map(|x| x.id)
        .filter(|id| !carried_compared.contains(id))
        .collect()
}

/// The compiler's comparison of `m`'s viable mutants (its generated files are on disk in
/// `m.dir`, as the last pruning round wrote them): `beside`'s, if a compile was started beside
/// the last round's build and succeeded, else compiled now through cargo.
fn compare(
    indexed: &IndexedCrate,
    m: &Metamutant,
    setup: &Setup,
    (carried, carried_compared): (BTreeMap<u32, Verdict>, BTreeSet<u32>),
    beside: Option<Beside>,
) -> Result<Equivalence> {
    let name = &indexed.manifest.name;
    let beside = beside.map(Beside::finish).transpose();
    let mut e = match beside.with_context(|| format!("comparing the mutants of `{name}`"))? {
        Some(Ok(e)) => e,
        failed => {
            let (files, wanted) = comparison_of(indexed, &m.catalog, &carried_compared);
            let mut e = crate::equivalence::compare(&m.dir, &files, &wanted, name, setup)
                .with_context(|| format!("comparing the mutants of `{name}`"))?;
            if let Some(Err(why)) = failed {
                e.compiled = Compiled::ThroughCargo {
                    beside_failed: Some(why),
                };
            }
            e
        }
    };
    if e.failed.is_none() {
        e.verdicts.extend(carried);
        e.compared.extend(carried_compared);
    }
    crate::equivalence::check(&e)?;
    Ok(e)
}
