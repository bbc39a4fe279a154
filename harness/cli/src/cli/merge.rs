//! `merge`: the shards of a run put back together ([`ferastrau_harness::merge::run`]),
//! printed as `--format` says.

use anyhow::Result;

use super::args::MergeArgs;
use super::page::Page;
use super::show::print_document;
use ferastrau_harness::evaluate::broken_run;

pub(super) fn cmd_merge(a: MergeArgs) -> Result<()> {
    let m = ferastrau_harness::merge::run(&a.shards, &a.out, &Page)?;
    let (d, e) = (&m.document, &m.document.run.evaluation);
    if a.output.json() {
        print_document(d)?;
    } else {
        anstream::print!(
            "{}",
            ferastrau_harness::evaluate::table::table(
                &e.benchmark,
                &e.scopes,
                e.equivalents_counted
            )
        );
        println!(
            "{} shards of {} mutants merged; reports in {}",
            d.shards,
            d.run.evaluated,
            m.out_dir.display()
        );
    }
    match &e.broken {
        Some(why) => Err(broken_run(why, &m.out_dir)),
        None => Ok(()),
    }
}
