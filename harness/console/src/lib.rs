//! How a `ferastrau` command speaks to whoever ran it: what the terminal shows ([`term`]:
//! colour, verbosity, progress, the `stage!`/`warning!`/`note!`/`detail!` lines) and how the
//! command ends ([`exit_code`]: one status per kind of ending, carried by markers in the error
//! chain).
//!
//! Both sides of the binary speak this way: the runs (`ferastrau-harness`) and the readers of
//! what runs wrote (`ferastrau-report`). Neither depends on the other, so what they share sits
//! below both: one verbosity and colour choice for the whole process, set once by the command
//! line, and one set of exit statuses, which a reader's error (a baseline of a newer version,
//! a failed gate) must carry as surely as a run's.

pub mod exit_code;
pub mod term;

/// The stream the macros print through, named from the macros' own crate so that a caller
/// needs no dependency of its own on it.
#[doc(hidden)]
pub use anstream;
