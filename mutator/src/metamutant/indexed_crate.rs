//! A benchmark crate read and indexed, and what the metamutant's build reads of it: the
//! rewrite, the shape an edit is measured against, the fingerprint of the cache.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Context, Result};

use super::record::Shape;
use super::MUTATOR_DIGEST;
use crate::catalog::{Catalog, Mutant, Probe};
use crate::content_hash::ContentHash;
use crate::items::{build_index, each_fn_mut, DeclaredFunctions, Role};
use crate::manifest::Manifest;
use crate::rewrite::{rewrite_file, CrateWalk};
use crate::source::Sources;
use crate::types::CrateIndex;

/// A benchmark crate, read and indexed.
pub(crate) struct IndexedCrate {
    pub manifest: Manifest,
    pub sources: Sources,
    index: CrateIndex,
    declared: DeclaredFunctions,
}

impl IndexedCrate {
    pub fn read(crate_dir: &Path) -> Result<IndexedCrate> {
        let manifest = Manifest::read(crate_dir)?;
        let sources = Sources::load(&manifest.dir, &manifest.lib)
            .with_context(|| format!("in crate `{}`", manifest.name))?;
        let index = build_index(&sources);
        let declared =
            DeclaredFunctions::resolve(&sources, &manifest.mutate, &manifest.specification)
                .with_context(|| {
                    format!("in [package.metadata.ferastrau] of `{}`", manifest.name)
                })?;
        Ok(IndexedCrate {
            manifest,
            sources,
            index,
            declared,
        })
    }

    /// Runs the rewrite over every file; returns the rewritten files (index into the sources
    /// and new syntax tree), the mutants and the probes.
    pub(super) fn rewrite(&self, enabled: &dyn Fn(u32) -> bool) -> Rewritten {
        let mut sh = CrateWalk::new(&self.index, &self.declared, enabled);
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

    /// The paths (relative to the crate) of the files `rewritten` holds: those with mutated
    /// code, which the compiler's comparison copies.
    pub(super) fn paths_of(&self, rewritten: &Rewritten) -> Vec<String> {
        rewritten
            .files
            .iter()
            .map(|(i, _)| self.sources.files[*i].rel.clone())
            .collect()
    }

    /// The crate's [`Shape`]: the skeleton (every file with the mutated functions' bodies
    /// emptied, the manifest, the probes' dependency and the mutator's own digest) and each
    /// mutated function's hash.
    pub(super) fn shape(&self, probes: &str) -> Shape {
        let mut skeleton = self.hash_beside_sources(probes);
        let mut functions = BTreeMap::new();
        // Two mutated functions of one name (in two modules) are one catalog name: neither
        // carries anything.
        let mut twice = BTreeSet::new();
        for f in &self.sources.files {
            let mut items = f.ast.items.clone();
            each_fn_mut(&mut items, &f.module, &mut |site, parts| {
                if self.declared.role(site) != Some(Role::Code) {
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
    pub(super) fn texts(&self) -> BTreeMap<String, String> {
        self.sources
            .files
            .iter()
            .map(|f| (f.rel.clone(), f.text.clone()))
            .collect()
    }

    /// What a build depends on besides the sources, hashed: the mutator (its version and the
    /// digest of its source), the probes' dependency and the manifests. The one start of the
    /// fingerprint and of the shape's skeleton, so that whatever invalidates the cache also
    /// stops the next build from carrying anything over.
    fn hash_beside_sources(&self, probes: &str) -> ContentHash {
        let mut h = ContentHash::default();
        h.feed(env!("CARGO_PKG_VERSION").as_bytes());
        h.feed(MUTATOR_DIGEST.as_bytes());
        h.feed(probes.as_bytes());
        for t in &self.manifest.texts {
            h.feed(t.as_bytes());
        }
        h
    }

    /// FNV-1a over everything the result depends on.
    pub(super) fn fingerprint(&self, probes: &str) -> String {
        let mut h = self.hash_beside_sources(probes);
        for f in &self.sources.files {
            h.feed(f.rel.as_bytes());
            h.feed(f.text.as_bytes());
        }
        h.hex()
    }
}

pub(super) struct Rewritten {
    pub files: Vec<(usize, syn::File)>,
    pub mutants: Vec<Mutant>,
    pub probes: Vec<Probe>,
}
