//! The published mutation-testing-report-schema (Stryker's `mutation-testing-report-schema`
//! package), vendored under `testdata/mutation-testing-report-schema/` with its licence, so that
//! the tests run offline and no two tests ever fetch or unpack it at once.

/// The schema document, release 3.8.4 (`dist/src/mutation-testing-report-schema.json` of the
/// npm package `mutation-testing-report-schema@3.8.4`).
pub fn schema() -> serde_json::Value {
    let file = crate::common::workspace_root()
        .join("testdata/mutation-testing-report-schema/mutation-testing-report-schema.json");
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    serde_json::from_str(&text).expect("the schema is JSON")
}
