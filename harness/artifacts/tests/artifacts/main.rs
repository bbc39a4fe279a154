//! The artifact types against the files: every committed report and the fixtures (files the
//! current tool wrote, `fixtures/`) parse into their types and are written back byte for byte;
//! versions and unknown fields are refused with their messages; the committed JSON Schemas are
//! the types' and every file validates against its schema.
//!
//! One test binary with modules (the workspace keeps its number of test binaries down).

mod committed;
mod schemas;
mod support;
mod versions;
