//! What `evaluate --suite FILE` shows of its verdicts (`suite.json`): [`page`], `report.html`
//! with the survivors first, and [`schema`], `mutation-testing-report.json` in Stryker's
//! format. The run itself is the harness's (`ferastrau_harness::suite`).

pub mod page;
pub mod schema;

use ferastrau_artifacts::SuiteRun;
use ferastrau_protocol::Reason;

/// Kills by reason, reasons in alphabetical order, zeros left out.
pub fn killed_by(run: &SuiteRun) -> Vec<(Reason, u32)> {
    let mut by: Vec<(Reason, u32)> = Vec::new();
    for v in &run.verdicts {
        if let Some(r) = v.reason {
            match by.iter_mut().find(|(q, _)| *q == r) {
                Some((_, n)) => *n += 1,
                None => by.push((r, 1)),
            }
        }
    }
    by.sort_by_key(|(r, _)| format!("{r:?}"));
    by
}
