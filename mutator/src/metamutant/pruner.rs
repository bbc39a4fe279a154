//! Compile-pruning: the metamutant's sources written with some mutants left out and checked,
//! round after round, until it compiles; each round drops the mutants its errors land in,
//! or the one bisection finds behind an error that lands in none.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Result};

use super::copy::prepare_copy;
use super::indexed_crate::IndexedCrate;
use super::{PruneRound, MAX_ROUNDS, OVERFLOW_LINTS};
use crate::compile::Compiler;
use crate::invocation::{library_started, Invocation};
use crate::prune::{compile_errors, compile_errors_watched, ArmMap, CompileError};
use crate::Probe;

/// What the pruner calls in a round: when its build starts compiling the metamutant's library,
/// with the mutants that round leaves out, the library's command as cargo runs it and the
/// generated files the round wrote with mutated code; and, with neither, when the round ends
/// with errors (what was started for it is of no use).
pub(super) type OnLibrary<'a> = &'a mut dyn FnMut(&BTreeSet<u32>, Option<(&Invocation, &[String])>);

/// What one write of the metamutant's sources gave: where each mutant's arms lie, the
/// generated files with mutated code (paths relative to the crate) and the probes.
struct Written {
    map: ArmMap,
    files: Vec<String>,
    probes: Vec<Probe>,
}

/// Writes the sources of the metamutant with the mutants in `dropped` left out, and checks it.
pub(super) struct Pruner<'a> {
    pub indexed: &'a IndexedCrate,
    pub out_dir: &'a Path,
    pub compiler: &'a Compiler,
    pub checks: usize,
    /// Called in the rounds of [`Pruner::prune`] (not in a bisection's trials).
    pub on_library: Option<OnLibrary<'a>>,
}

impl Pruner<'_> {
    /// Prunes until the metamutant compiles, starting with the mutants in `dropped` left out
    /// (of `all`); the mutants dropped, the rounds, and the probes of the sources the last
    /// round wrote, those of the metamutant (the rewrite that gives them walks the whole
    /// crate: not to be done again).
    pub fn prune(
        &mut self,
        all: &[u32],
        mut dropped: BTreeSet<u32>,
    ) -> Result<(BTreeSet<u32>, Vec<PruneRound>, Vec<Probe>)> {
        let indexed = self.indexed;
        let name = &indexed.manifest.name;
        let mut rounds = Vec::new();
        loop {
            let round_start = Instant::now();
            if rounds.len() >= MAX_ROUNDS {
                bail!("compile-pruning of `{name}` did not converge in {MAX_ROUNDS} rounds");
            }
            let (errors, Written { map, probes, .. }) = self.round(&dropped)?;
            if errors.is_empty() {
                return Ok((dropped, rounds, probes));
            }
            let mut blamed: BTreeSet<u32> = errors.iter().filter_map(|e| map.blame(e)).collect();
            let checks_before = self.checks;
            if blamed.is_empty() {
                let enabled: BTreeSet<u32> = all
                    .iter()
                    .copied()
                    .filter(|id| !dropped.contains(id))
                    .collect();
                blamed.insert(self.bisect(&errors[0], &map, &enabled, &dropped)?);
            }
            dropped.extend(&blamed);
            rounds.push(PruneRound {
                round: rounds.len() + 1,
                seconds: round_start.elapsed().as_secs_f64(),
                errors: errors.len(),
                dropped: blamed.into_iter().collect(),
                bisection_checks: self.checks - checks_before,
            });
        }
    }

    fn write(&self, dropped: &BTreeSet<u32>) -> Result<Written> {
        let rewritten = self.indexed.rewrite(&|id| !dropped.contains(&id));
        let mut map = ArmMap::default();
        for (i, ast) in &rewritten.files {
            let source = &self.indexed.sources.files[*i];
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
            .any(|(i, _)| self.indexed.sources.files[*i].module.is_empty());
        if let Some(root) = self
            .indexed
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
        Ok(Written {
            map,
            files: self.indexed.paths_of(&rewritten),
            probes: rewritten.probes,
        })
    }

    fn check(&mut self, dropped: &BTreeSet<u32>) -> Result<(Vec<CompileError>, ArmMap)> {
        let Written { map, .. } = self.write(dropped)?;
        self.checks += 1;
        Ok((compile_errors(self.out_dir, self.compiler)?, map))
    }

    /// [`Pruner::check`], telling [`Pruner::on_library`] when the library's compile starts,
    /// and when the round ends with errors.
    fn round(&mut self, dropped: &BTreeSet<u32>) -> Result<(Vec<CompileError>, Written)> {
        let written = self.write(dropped)?;
        self.checks += 1;
        let out_dir = self.out_dir;
        let mut on_library = self.on_library.as_mut();
        let errors = compile_errors_watched(out_dir, self.compiler, &mut |line| {
            if let Some(on_library) = on_library.as_mut() {
                if let Some(command) = library_started(line, out_dir) {
                    on_library(dropped, Some((&command, &written.files)));
                }
            }
        })?;
        if let Some(on_library) = on_library.filter(|_| !errors.is_empty()) {
            on_library(dropped, None);
        }
        Ok((errors, written))
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
        let indexed = self.indexed;
        let name = &indexed.manifest.name;
        let plain = self.out_dir.with_file_name("original-check");
        let original = prepare_copy(&self.indexed.manifest, &plain, &[])
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
