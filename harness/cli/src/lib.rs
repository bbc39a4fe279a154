//! The commands of the `ferastrau` binary: its arguments, their checks, and each command's
//! run over the pipeline (`ferastrau-harness`). A library beside the binary so that the
//! integration tests can build the same command-line parser, and so that `ferastrau-paper`
//! (`harness/paper/`, unpublished) is `ferastrau` with the paper's commands added, built on
//! these rather than on a copy.

pub mod cli;
