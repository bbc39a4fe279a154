//! Helpers of some of the tests: a headless browser, the published report schema, the
//! `EQUIVALENT.md` documents' format.

pub mod chromium;
pub mod equivalent_doc;
pub mod report_schema;
