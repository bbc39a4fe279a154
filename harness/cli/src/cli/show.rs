//! What a command prints on stdout, as `--format` says: the forms of an evaluation's output
//! ([`Show`]) and the typed JSON documents every command prints the same way
//! ([`print_document`]). Below every command that prints, so that none imports another to
//! print.

use anyhow::Result;

/// What an evaluation prints on stdout.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Show {
    /// The table and the summary lines.
    Table,
    /// One JSON document: `evaluation.json`'s figures, the reports' directory and the runner's.
    Json,
    /// The closing line only (`N mutants evaluated in T s; reports in DIR`): the caller
    /// (`gate`) prints its own report of what changed.
    Summary,
    /// Nothing: the caller (`gate --format json`) prints its own document.
    Nothing,
}

/// Prints a typed `--format json` document (its schema is committed with the artifacts').
pub(super) fn print_document(doc: &impl ferastrau_artifacts::Printed) -> Result<()> {
    println!("{}", doc.to_text()?);
    Ok(())
}
