//! The commands of the `ferastrau` binary: its arguments, their checks, and each command's
//! run over the pipeline (`ferastrau-harness`) and, for `reproduce`, the paper's reproduction
//! (`ferastrau-paper`). A library beside the binary so that the integration tests can build
//! the same command-line parser.

pub mod cli;
