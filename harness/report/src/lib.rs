//! The readers of what Ferastrau's runs wrote: they take a run's files (`evaluation.json`,
//! `mutants.json`, `suite.json`, a gate baseline; `ferastrau-artifacts`' types) and the crate's
//! sources, and write or print what people and CI read. They never run anything, so they
//! depend on the files and not on the run code (`ferastrau-harness`): `ferastrau report DIR`
//! and the gate work on committed reports as on fresh ones, and the paper crate reads the same
//! files through them. The `ferastrau` binary calls both sides.
//!
//! - [`html`]: `report.html`, `mutation-testing-report.json` (Stryker's schema) and
//!   `survivors.txt` from a run's reports.
//! - [`gate`]: `ferastrau gate`, a run against a committed baseline, and its CI formats.
//! - [`suite_html`]: `evaluate --suite`'s page and Stryker JSON from its verdicts.
//! - [`stryker`]: the Stryker JSON (`mutation-testing-report.json`) typed, for both writers and
//!   the gate, which reads it back.
//!
//! A reader takes no lock: the command that calls it holds the output directory (shared, as
//! `ferastrau_harness::outdir::OutputDir::read` gives it) while it reads.

pub mod gate;
pub mod html;
pub mod stryker;
pub mod suite_html;
