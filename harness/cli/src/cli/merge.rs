//! `merge`: the shards of a run put back together ([`ferastrau_harness::merge::run`]),
//! printed as `--format` says.

use anyhow::Result;

use super::args::MergeArgs;
use super::page::Page;
use super::show::print_document;
use ferastrau_harness::evaluate::{broken_run, report};

pub(super) fn cmd_merge(a: MergeArgs) -> Result<()> {
    let m = ferastrau_harness::merge::run(&a.shards, &a.out, &Page)?;
    if a.output.json() {
        print_document(&ferastrau_artifacts::MergeSummary {
            run: report::run_reports(&m.out_dir, m.evaluated)?,
            shards: u32::try_from(m.shards)?,
        })?;
    } else {
        anstream::print!(
            "{}",
            ferastrau_harness::evaluate::table::table(&m.benchmark, &m.rows, m.equivalents_counted)
        );
        println!(
            "{} shards of {} mutants merged; reports in {}",
            m.shards,
            m.evaluated,
            m.out_dir.display()
        );
    }
    match &m.broken {
        Some(why) => Err(broken_run(why, &m.out_dir)),
        None => Ok(()),
    }
}
