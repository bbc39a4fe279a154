//! The readers the harness's runs draw their pages with: `ferastrau-report`'s page, its
//! survivors and the suite's page and Stryker document, behind the harness's
//! [`evaluate::Readers`] (the run code does not depend on the readers' crate).

use std::path::Path;

use anyhow::{Context, Result};
use ferastrau_artifacts::SuiteRun;
use ferastrau_harness::evaluate;
use ferastrau_report::html::{self, survivors::Survivor, Sources};
use ferastrau_report::suite_html;

/// The run's page, drawn by the readers' crate.
pub(super) struct Page;

impl evaluate::Readers for Page {
    type Sources = html::Sources;
    const FILES: &'static [&'static str] = &html::FILES;

    fn sources(&self, crate_dir: &Path, meta: &ferastrau_mutator::Metamutant) -> Result<Sources> {
        Sources::of_metamutant(crate_dir, meta)
    }

    fn on_disk(&self, crate_dir: &Path) -> Sources {
        Sources::Disk(crate_dir.to_path_buf())
    }

    fn changed(&self, sources: &Sources, crate_dir: &Path) -> Vec<String> {
        sources.changed_since(crate_dir)
    }

    fn draw(&self, out_dir: &Path, sources: &Sources, scope: u32) -> Result<Vec<Survivor>> {
        let page = html::write(out_dir, sources)?;
        Ok(html::survivors::at_scope(&page, scope))
    }

    fn draw_suite(
        &self,
        out_dir: &Path,
        run: &mut SuiteRun,
        meta: &ferastrau_mutator::Metamutant,
    ) -> Result<()> {
        let sources = html::model::mutated_sources(meta);
        // Keys, places and regions: what a later `gate --suite` matches the mutants by.
        ferastrau_report::gate::suite_gate::identify(run, &meta.catalog, &sources);
        suite_html::schema::document(run, &meta.catalog, &sources)
            .write(&out_dir.join(ferastrau_report::stryker::FILE))?;
        let page = out_dir.join("report.html");
        std::fs::write(
            &page,
            suite_html::page::page(run, &meta.catalog, &sources).into_string(),
        )
        .with_context(|| format!("cannot write {}", page.display()))
    }
}
