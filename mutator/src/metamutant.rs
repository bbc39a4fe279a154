//! Building the metamutant: one copy of the crate holding every viable mutant behind runtime
//! switches, plus coverage probes; compile-pruned, and cached while nothing changes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::catalog::{Catalog, Mutant, Probe};
use crate::compile::Compiler;
use crate::content_hash::ContentHash;
use crate::equivalence::{Equivalence, Setup, Verdict};
use crate::items::{build_index, each_fn_mut, Role, Selection};
use crate::manifest::Manifest;
use crate::prune::{compile_errors, ArmMap, CompileError};
use crate::rewrite::{rewrite_file, Shared};
use crate::source::Sources;
use crate::types::CrateIndex;

/// The digest of the mutator's own source and the runtime's (every file of both; see
/// `generator.rs`): a cached metamutant is reused only if the code that generated it is the
/// same as the code that would generate it now.
const GENERATOR_DIGEST: &str = env!("FERASTRAU_GENERATOR_DIGEST");
/// A marker in every directory the mutator generates: only such directories are ever wiped.
const MARKER: &str = ".ferastrau-generated";
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

/// A benchmark crate, read and indexed.
pub(crate) struct Loaded {
    pub manifest: Manifest,
    pub sources: Sources,
    index: CrateIndex,
    selection: Selection,
}

impl Loaded {
    pub fn read(crate_dir: &Path) -> Result<Loaded> {
        let manifest = Manifest::read(crate_dir)?;
        let sources = Sources::load(&manifest.dir, &manifest.lib)
            .with_context(|| format!("in crate `{}`", manifest.name))?;
        let index = build_index(&sources);
        let selection = Selection::resolve(&sources, &manifest.mutate, &manifest.specification)
            .with_context(|| format!("in [package.metadata.ferastrau] of `{}`", manifest.name))?;
        Ok(Loaded {
            manifest,
            sources,
            index,
            selection,
        })
    }

    /// Runs the rewrite over every file; returns the rewritten files (index into the sources
    /// and new syntax tree), the mutants and the probes.
    fn rewrite(&self, enabled: &dyn Fn(u32) -> bool) -> Rewritten {
        let mut sh = Shared::new(&self.index, &self.selection, enabled);
        let mut files = Vec::new();
        for (i, f) in self.sources.files.iter().enumerate() {
            let mut ast = f.ast.clone();
            if rewrite_file(&mut ast, &f.rel, &f.text, &f.module, &mut sh) {
                files.push((i, ast));
            }
        }
        Rewritten {
            files,
            mutants: sh.mutants,
            probes: sh.probes,
        }
    }

    /// The crate's [`Shape`]: the skeleton (every file with the mutated functions' bodies
    /// emptied, the manifest, the probes' dependency and the mutator's own digest) and each
    /// mutated function's hash.
    fn shape(&self, probes: &str) -> Shape {
        let mut skeleton = self.hash_beside_sources(probes);
        let mut functions = BTreeMap::new();
        // Two mutated functions of one name (in two modules) are one catalog name: neither
        // carries anything.
        let mut twice = BTreeSet::new();
        for f in &self.sources.files {
            let mut items = f.ast.items.clone();
            each_fn_mut(&mut items, &f.module, &mut |site, parts| {
                if self.selection.role(site) != Some(Role::Code) {
                    return;
                }
                let (attrs, sig, block) = (&*parts.attrs, parts.sig, &*parts.block);
                let whole = quote::quote!(#(#attrs)* #sig #block).to_string();
                let mut h = ContentHash::default();
                h.feed(whole.as_bytes());
                if functions.insert(site.display(), h.hex()).is_some() {
                    twice.insert(site.display());
                }
                *parts.block = syn::parse_quote!({});
            });
            skeleton.feed(f.rel.as_bytes());
            let file = syn::File {
                items,
                ..f.ast.clone()
            };
            skeleton.feed(
                quote::ToTokens::to_token_stream(&file)
                    .to_string()
                    .as_bytes(),
            );
        }
        functions.retain(|name, _| !twice.contains(name));
        Shape {
            skeleton: skeleton.hex(),
            functions,
        }
    }

    pub fn catalog(&self) -> Catalog {
        Catalog {
            crate_name: self.manifest.name.clone(),
            pruned: false,
            mutants: self.rewrite(&|_| true).mutants,
        }
    }

    pub fn probes(&self) -> Vec<Probe> {
        self.rewrite(&|_| true).probes
    }

    /// Each source file's text, by its path relative to the crate.
    fn texts(&self) -> BTreeMap<String, String> {
        self.sources
            .files
            .iter()
            .map(|f| (f.rel.clone(), f.text.clone()))
            .collect()
    }

    /// What a build depends on besides the sources, hashed: the mutator (its version and its
    /// generator's digest), the probes' dependency and the manifests. The one start of the
    /// fingerprint and of the shape's skeleton, so that whatever invalidates the cache also
    /// stops the next build from carrying anything over.
    fn hash_beside_sources(&self, probes: &str) -> ContentHash {
        let mut h = ContentHash::default();
        h.feed(env!("CARGO_PKG_VERSION").as_bytes());
        h.feed(GENERATOR_DIGEST.as_bytes());
        h.feed(probes.as_bytes());
        for t in &self.manifest.texts {
            h.feed(t.as_bytes());
        }
        h
    }

    /// FNV-1a over everything the result depends on.
    fn fingerprint(&self, probes: &str) -> String {
        let mut h = self.hash_beside_sources(probes);
        for f in &self.sources.files {
            h.feed(f.rel.as_bytes());
            h.feed(f.text.as_bytes());
        }
        h.hex()
    }
}

struct Rewritten {
    files: Vec<(usize, syn::File)>,
    mutants: Vec<Mutant>,
    probes: Vec<Probe>,
}

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

#[derive(Serialize, Deserialize)]
struct BuildRecord {
    fingerprint: String,
    /// What the next build of the crate may carry from this one (absent in older records).
    #[serde(default)]
    shape: Shape,
    metamutant: Metamutant,
}

/// The crate as compile-pruning sees it, to carry what an edit did not touch from one build to
/// the next: everything but the mutated functions' bodies (the skeleton), and each mutated
/// function whole. A mutant's compile error depends on its own function and on what type
/// checking reads outside it (signatures, types, traits, constants: the skeleton), not on the
/// bodies of other functions, so when the skeleton is the same a function whose text is the
/// same keeps its mutants' viability. Hashed over tokens, so an edit that moves a function or
/// changes only comments and layout changes neither.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Shape {
    skeleton: String,
    /// Each mutated function's hash (attributes, signature and body), by its catalog name.
    functions: BTreeMap<String, String>,
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
    let loaded = Loaded::read(crate_dir)?;
    let fingerprint = loaded.fingerprint(probes);
    if let Some(mut m) = cached(out_dir, &fingerprint) {
        if let (Some(setup), None) = (equivalence, &m.equivalence) {
            m.equivalence = Some(compare(&loaded, &m, setup, Default::default())?);
            let record = BuildRecord {
                fingerprint,
                shape: loaded.shape(probes),
                metamutant: m.clone(),
            };
            std::fs::write(out_dir.join(BUILD_FILE), serde_json::to_string(&record)?)?;
        }
        return Ok(Metamutant {
            sources: loaded.texts(),
            ..m
        });
    }
    let name = loaded.manifest.name.clone();
    let shape = loaded.shape(probes);
    let last = last_build(out_dir);
    // Every mutant, before pruning: each `catalog()` rewrites the whole crate.
    let unpruned = loaded.catalog();
    let carried = carried_drops(last.as_ref(), &shape, &unpruned.mutants);
    let carried_count = carried.len();
    prepare_copy(&loaded.manifest, out_dir, &[("ferastrau-probes", probes)])?;
    let out_dir = out_dir.canonicalize()?;

    let all: Vec<u32> = unpruned.mutants.iter().map(|m| m.id).collect();
    // The mutants the last build dropped, in functions the edit did not touch: left out from
    // the first round, so that an edit costs the pruning of what it changed only (a
    // from-scratch build drops the same ones; the compiler still checks every other).
    let mut dropped: BTreeSet<u32> = carried;
    let mut rounds = Vec::new();
    let mut pruner = Pruner {
        loaded: &loaded,
        out_dir: &out_dir,
        compiler,
        checks: 0,
    };
    loop {
        let round_start = Instant::now();
        if rounds.len() >= MAX_ROUNDS {
            bail!("compile-pruning of `{name}` did not converge in {MAX_ROUNDS} rounds");
        }
        let (errors, map) = pruner.check(&dropped)?;
        if errors.is_empty() {
            break;
        }
        let mut blamed: BTreeSet<u32> = errors.iter().filter_map(|e| map.blame(e)).collect();
        let checks_before = pruner.checks;
        if blamed.is_empty() {
            let enabled: BTreeSet<u32> = all
                .iter()
                .copied()
                .filter(|id| !dropped.contains(id))
                .collect();
            blamed.insert(pruner.bisect(&errors[0], &map, &enabled, &dropped)?);
        }
        dropped.extend(&blamed);
        rounds.push(PruneRound {
            round: rounds.len() + 1,
            seconds: round_start.elapsed().as_secs_f64(),
            errors: errors.len(),
            dropped: blamed.into_iter().collect(),
            bisection_checks: pruner.checks - checks_before,
        });
    }
    let rewritten = loaded.rewrite(&|id| !dropped.contains(&id));
    let mut catalog = unpruned;
    catalog.pruned = true;
    for m in &mut catalog.mutants {
        m.viable = Some(!dropped.contains(&m.id));
    }
    let mut result = Metamutant {
        dir: out_dir.clone(),
        catalog,
        probes: rewritten.probes,
        rounds,
        carried: carried_count,
        seconds: started.elapsed().as_secs_f64(),
        cached: false,
        equivalence: None,
        sources: loaded.texts(),
    };
    if let Some(setup) = equivalence {
        let carried = carried_verdicts(last.as_ref(), &shape, &result.catalog);
        result.equivalence = Some(compare(&loaded, &result, setup, carried)?);
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

/// The compiler's comparison of `m`'s viable mutants (its generated files are on disk in
/// `m.dir`, as the last pruning round wrote them).
fn compare(
    loaded: &Loaded,
    m: &Metamutant,
    setup: &Setup,
    (carried, carried_compared): (BTreeMap<u32, Verdict>, BTreeSet<u32>),
) -> Result<Equivalence> {
    let viable: BTreeSet<u32> = m.catalog.viable().map(|x| x.id).collect();
    let files: Vec<String> = loaded
        .rewrite(&|id| viable.contains(&id))
        .files
        .iter()
        .map(|(i, _)| loaded.sources.files[*i].rel.clone())
        .collect();
    // The functions whose verdicts the last build's comparison gave are not copied again.
    let wanted: BTreeSet<u32> = viable.difference(&carried_compared).copied().collect();
    let mut e = crate::equivalence::compare(&m.dir, &files, &wanted, &loaded.manifest.name, setup)
        .with_context(|| format!("comparing the mutants of `{}`", loaded.manifest.name))?;
    if e.failed.is_none() {
        e.verdicts.extend(carried);
        e.compared.extend(carried_compared);
    }
    crate::equivalence::check(&e)?;
    Ok(e)
}

/// Makes `to` a fresh copy of the generated crate `from` (a metamutant), refusing to wipe a
/// non-empty directory the mutator did not generate.
pub(crate) fn copy_generated(from: &Path, to: &Path) -> Result<()> {
    fresh(to)?;
    copy_tree(from, to)?;
    std::fs::write(
        to.join(MARKER),
        format!("generated by ferastrau-mutator from {}\n", from.display()),
    )?;
    Ok(())
}

/// The last build recorded in `out_dir`, if it can be read.
fn last_build(out_dir: &Path) -> Option<BuildRecord> {
    let text = std::fs::read_to_string(out_dir.join(BUILD_FILE)).ok()?;
    serde_json::from_str(&text).ok()
}

/// The mutants of the functions that neither the edit nor the skeleton around them changed
/// since the `last` build (see [`Shape`]), as (then, now) pairs: a function's mutants are
/// matched in order, and only when their count and their edits are the same. None when
/// there is no last build, or its skeleton differs.
fn unchanged<'a>(
    last: Option<&'a BuildRecord>,
    shape: &Shape,
    mutants: &'a [Mutant],
) -> Vec<(&'a Mutant, &'a Mutant)> {
    let Some(last) =
        last.filter(|l| !l.shape.skeleton.is_empty() && l.shape.skeleton == shape.skeleton)
    else {
        return Vec::new();
    };
    let by_function = |list: &'a [Mutant]| -> BTreeMap<&'a str, Vec<&'a Mutant>> {
        let mut map: BTreeMap<&str, Vec<&Mutant>> = BTreeMap::new();
        for m in list {
            map.entry(m.function.as_str()).or_default().push(m);
        }
        map
    };
    let before = by_function(&last.metamutant.catalog.mutants);
    let mut pairs = Vec::new();
    for (function, now) in by_function(mutants) {
        let same_text = shape.functions.contains_key(function)
            && shape.functions.get(function) == last.shape.functions.get(function);
        let Some(then) = before.get(function).filter(|_| same_text) else {
            continue;
        };
        let same_edits = then.len() == now.len()
            && then.iter().zip(&now).all(|(a, b)| {
                (a.family, &a.original, &a.replacement) == (b.family, &b.original, &b.replacement)
            });
        if same_edits {
            pairs.extend(then.iter().copied().zip(now.iter().copied()));
        }
    }
    pairs
}

/// The ids of the mutants in `mutants` (the new catalog) that the `last` build dropped, in
/// functions the edit did not touch ([`unchanged`]).
fn carried_drops(last: Option<&BuildRecord>, shape: &Shape, mutants: &[Mutant]) -> BTreeSet<u32> {
    unchanged(last, shape, mutants)
        .into_iter()
        .filter(|(then, _)| then.viable == Some(false))
        .map(|(_, now)| now.id)
        .collect()
}

/// The compiler's verdicts the `last` build found for the functions the edit did not touch
/// ([`unchanged`]), under the new catalog's ids, with the mutants they cover: a function is
/// carried whole, when its mutants' viability is the same as then and the last comparison
/// compared them all. A verdict is sound whatever the other functions became (a copy's
/// callees are the same for every copy of its function), so only the functions an edit
/// changed are copied and compiled again.
fn carried_verdicts(
    last: Option<&BuildRecord>,
    shape: &Shape,
    catalog: &Catalog,
) -> (BTreeMap<u32, Verdict>, BTreeSet<u32>) {
    let Some(then) = last
        .and_then(|l| l.metamutant.equivalence.as_ref())
        .filter(|e| e.failed.is_none())
    else {
        return Default::default();
    };
    let mut by_function: BTreeMap<&str, Vec<(&Mutant, &Mutant)>> = BTreeMap::new();
    for (a, b) in unchanged(last, shape, &catalog.mutants) {
        by_function
            .entry(b.function.as_str())
            .or_default()
            .push((a, b));
    }
    let (mut verdicts, mut compared) = (BTreeMap::new(), BTreeSet::new());
    for pairs in by_function.values() {
        let viable = |m: &Mutant| m.viable == Some(true);
        let whole = pairs
            .iter()
            .all(|(a, b)| viable(a) == viable(b) && (!viable(a) || then.compared.contains(&a.id)));
        if !whole || !pairs.iter().any(|(a, _)| viable(a)) {
            continue;
        }
        let id_now: BTreeMap<u32, u32> = pairs.iter().map(|(a, b)| (a.id, b.id)).collect();
        let mut these = BTreeMap::new();
        let mapped =
            pairs
                .iter()
                .filter(|(a, _)| viable(a))
                .all(|(a, b)| match then.verdict(a.id) {
                    None => true,
                    Some(Verdict::Equivalent) => these.insert(b.id, Verdict::Equivalent).is_none(),
                    Some(Verdict::Duplicate { of }) => id_now
                        .get(&of)
                        .is_some_and(|&of| these.insert(b.id, Verdict::Duplicate { of }).is_none()),
                });
        if mapped {
            verdicts.extend(these);
            compared.extend(pairs.iter().filter(|(a, _)| viable(a)).map(|(_, b)| b.id));
        }
    }
    (verdicts, compared)
}

fn cached(out_dir: &Path, fingerprint: &str) -> Option<Metamutant> {
    let text = std::fs::read_to_string(out_dir.join(BUILD_FILE)).ok()?;
    let record: BuildRecord = serde_json::from_str(&text).ok()?;
    (record.fingerprint == fingerprint && out_dir.join("Cargo.toml").exists()).then(|| {
        let mut m = record.metamutant;
        m.cached = true;
        m
    })
}

/// Writes the sources of the metamutant with the mutants in `dropped` left out, and checks it.
struct Pruner<'a> {
    loaded: &'a Loaded,
    out_dir: &'a Path,
    compiler: &'a Compiler,
    checks: usize,
}

impl Pruner<'_> {
    fn write(&self, dropped: &BTreeSet<u32>) -> Result<ArmMap> {
        let rewritten = self.loaded.rewrite(&|id| !dropped.contains(&id));
        let mut map = ArmMap::default();
        for (i, ast) in &rewritten.files {
            let source = &self.loaded.sources.files[*i];
            let mut ast = ast.clone();
            if source.module.is_empty() {
                let lints = OVERFLOW_LINTS
                    .iter()
                    .map(|l| syn::Ident::new(l, proc_macro2::Span::call_site()));
                ast.attrs
                    .insert(0, syn::parse_quote!(#![allow(#(#lints),*)]));
            }
            let text = prettyplease::unparse(&ast);
            map.add_file(&source.rel, &text)?;
            std::fs::write(self.out_dir.join(&source.rel), text)?;
        }
        // The crate root may hold no mutated code (then it is copied as is): give it the
        // attribute too.
        let rewritten_root = rewritten
            .files
            .iter()
            .any(|(i, _)| self.loaded.sources.files[*i].module.is_empty());
        if let Some(root) = self
            .loaded
            .sources
            .files
            .iter()
            .find(|f| f.module.is_empty())
        {
            if !rewritten_root {
                let path = self.out_dir.join(&root.rel);
                let text = std::fs::read_to_string(&path)?;
                let allow = format!("#![allow({})]\n", OVERFLOW_LINTS.join(", "));
                if !text.starts_with(&allow) {
                    std::fs::write(&path, allow + &text)?;
                }
            }
        }
        Ok(map)
    }

    fn check(&mut self, dropped: &BTreeSet<u32>) -> Result<(Vec<CompileError>, ArmMap)> {
        let map = self.write(dropped)?;
        self.checks += 1;
        Ok((compile_errors(self.out_dir, self.compiler)?, map))
    }

    /// Finds the mutant behind an error that lands outside every mutant's arm, by halving
    /// the suspects (the mutants of the function it lands in, else all enabled ones).
    fn bisect(
        &mut self,
        err: &CompileError,
        map: &ArmMap,
        enabled: &BTreeSet<u32>,
        dropped: &BTreeSet<u32>,
    ) -> Result<u32> {
        let persists = |errors: &[CompileError]| errors.iter().any(|e| e.message == err.message);
        let mut suspects: Vec<u32> = map
            .suspects(err)
            .unwrap_or_else(|| enabled.clone())
            .into_iter()
            .collect();
        let mut off = dropped.clone();
        let without = |ids: &[u32]| -> BTreeSet<u32> { off.iter().chain(ids).copied().collect() };
        let (errors, _) = self.check(&without(&suspects))?;
        if persists(&errors) {
            suspects = enabled.iter().copied().collect();
            let (errors, _) = self.check(&without(&suspects))?;
            if persists(&errors) || suspects.is_empty() {
                return Err(self.not_compiling(err));
            }
        }
        while suspects.len() > 1 {
            let (a, b) = suspects.split_at(suspects.len() / 2);
            let mut trial = off.clone();
            trial.extend(a);
            let (errors, _) = self.check(&trial)?;
            if persists(&errors) {
                off = trial;
                suspects = b.to_vec();
            } else {
                suspects = a.to_vec();
            }
        }
        Ok(suspects[0])
    }

    /// The error for an error that no mutant explains: the benchmark itself does not compile
    /// (checked on a plain copy), or the rewrite produced broken code.
    fn not_compiling(&mut self, err: &CompileError) -> anyhow::Error {
        let name = &self.loaded.manifest.name;
        let plain = self.out_dir.with_file_name("original-check");
        let original = prepare_copy(&self.loaded.manifest, &plain, &[])
            .and_then(|_| compile_errors(&plain, &self.compiler.for_any_crate()));
        match original {
            Ok(errors) if !errors.is_empty() => anyhow::anyhow!(
                "benchmark crate `{name}` does not compile before mutation:\n{}",
                errors[0].rendered
            ),
            Ok(_) => anyhow::anyhow!(
                "the metamutant of `{name}` does not compile although the crate does \
                 (a mutator bug); first error:\n{}",
                err.rendered
            ),
            Err(e) => e.context(format!("cannot check benchmark crate `{name}`")),
        }
    }
}

/// Makes `out_dir` a fresh copy of the crate with a standalone manifest and the workspace's
/// lock file. Refuses to wipe a non-empty directory the mutator did not generate.
pub(crate) fn prepare_copy(m: &Manifest, out_dir: &Path, extra: &[(&str, &str)]) -> Result<()> {
    fresh(out_dir)?;
    copy_tree(&m.dir, out_dir)?;
    std::fs::write(out_dir.join("Cargo.toml"), m.standalone(extra)?)?;
    if let Some(lock) = m.lockfile() {
        std::fs::copy(lock, out_dir.join("Cargo.lock"))?;
    }
    std::fs::write(
        out_dir.join(MARKER),
        format!("generated by ferastrau-mutator from {}\n", m.dir.display()),
    )?;
    Ok(())
}

/// Makes `dir` an empty directory, wiping what a run of the mutator generated there before;
/// refuses a non-empty directory the mutator did not generate (one without its marker).
fn fresh(dir: &Path) -> Result<()> {
    if dir.exists() {
        let empty = std::fs::read_dir(dir)?.next().is_none();
        if !empty && !dir.join(MARKER).exists() {
            bail!(
                "{} exists and was not generated by ferastrau; not overwriting it",
                dir.display()
            );
        }
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir)?;
    Ok(())
}

/// Copies a crate's files, leaving out build output and hidden directories.
fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        let name_s = name.to_string_lossy();
        let ty = entry.file_type()?;
        if ty.is_dir() {
            if name_s == "target" || name_s.starts_with('.') {
                continue;
            }
            std::fs::create_dir_all(to.join(&name))?;
            copy_tree(&entry.path(), &to.join(&name))?;
        } else if ty.is_file() && name_s != "Cargo.lock" {
            std::fs::copy(entry.path(), to.join(&name))?;
        }
    }
    Ok(())
}
