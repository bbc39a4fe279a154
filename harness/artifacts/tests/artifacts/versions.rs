//! Versions: a newer one is refused with a message that says what to do; a file without one is
//! read only if it is exactly the current version's; unknown fields are refused everywhere.

use std::path::{Path, PathBuf};

use ferastrau_artifacts::journal;
use ferastrau_artifacts::{Artifact, Evaluation, GateBaseline, ReadError};

use crate::support::{each_file, fixture, root, EachFile};

/// Writes `value` as a file named like `T`'s into a fresh directory.
fn file_with(dir: &Path, name: &str, value: &serde_json::Value) -> PathBuf {
    let path = dir.join(name.replace('/', "-"));
    std::fs::write(&path, serde_json::to_string_pretty(value).unwrap()).unwrap();
    path
}

/// For one file of each type: the same file with version 999, with an unknown top-level
/// field, and with an unknown field one level down.
struct Tamper {
    dir: tempfile::TempDir,
    seen: Vec<&'static str>,
}

impl EachFile for Tamper {
    fn file<T: Artifact>(&mut self, path: &Path) {
        if self.seen.contains(&T::FILE_NAME) {
            return;
        }
        self.seen.push(T::FILE_NAME);
        let value: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();

        let mut newer = value.clone();
        newer[T::VERSION_KEY] = 999.into();
        let p = file_with(self.dir.path(), T::FILE_NAME, &newer);
        let e = T::read(&p).expect_err("version 999 is refused");
        let text = format!("{e:#}");
        for part in [
            p.display().to_string(),
            T::FILE_NAME.to_string(),
            "schema version 999".into(),
            format!("({})", T::SCHEMA_VERSION),
            "written by a newer ferastrau; upgrade ferastrau or".into(),
            T::REMEDY.into(),
        ] {
            assert!(text.contains(&part), "{part:?} not in {text:?}");
        }
        assert!(matches!(
            e.downcast_ref::<ReadError>(),
            Some(ReadError::Newer { found: 999, .. })
        ));

        // The current version, given explicitly, reads.
        let mut current = value.clone();
        current[T::VERSION_KEY] = T::SCHEMA_VERSION.into();
        T::read(&file_with(self.dir.path(), T::FILE_NAME, &current)).unwrap();

        let mut unknown = value.clone();
        unknown["surprise"] = true.into();
        let e = T::read(&file_with(self.dir.path(), T::FILE_NAME, &unknown))
            .expect_err("an unknown field is refused");
        assert!(
            format!("{e:#}").contains("unknown field `surprise`"),
            "{e:#}"
        );

        // One level down: in the first object that the document holds (directly or in a list).
        let mut deep = value.clone();
        let inner = deep
            .as_object_mut()
            .unwrap()
            .values_mut()
            .find_map(|v| match v {
                serde_json::Value::Object(o) if o.values().all(|x| !x.is_object()) => Some(o),
                serde_json::Value::Array(a) => a.first_mut().and_then(|x| x.as_object_mut()),
                _ => None,
            });
        if let Some(inner) = inner {
            inner.insert("surprise".into(), true.into());
            let e = T::read(&file_with(self.dir.path(), T::FILE_NAME, &deep))
                .expect_err("an unknown nested field is refused");
            assert!(
                format!("{e:#}").contains("unknown field `surprise`"),
                "{e:#}"
            );
        }
    }
}

#[test]
fn newer_versions_and_unknown_fields_are_refused_in_every_file() {
    let mut t = Tamper {
        dir: tempfile::tempdir().unwrap(),
        seen: Vec::new(),
    };
    each_file(&mut t);
    assert_eq!(t.seen.len(), 10);
}

#[test]
fn a_file_without_a_version_is_read_only_if_it_is_exactly_the_current_one() {
    let path = root().join("reports/search_tree/evaluation.json");
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    // What Ferastrau wrote before the field existed (the committed reports until they were
    // written again through the types): the same document without its version.
    assert_eq!(
        value.as_object_mut().unwrap().remove("schema_version"),
        Some(Evaluation::SCHEMA_VERSION.into()),
        "committed files carry the current version"
    );
    let dir = tempfile::tempdir().unwrap();
    let p = file_with(dir.path(), "evaluation.json", &value);
    assert_eq!(
        Evaluation::read(&p).unwrap().schema_version,
        Evaluation::SCHEMA_VERSION
    );
    assert_eq!(
        Evaluation::read(&p).unwrap(),
        Evaluation::read(&path).unwrap()
    );
    // A missing required field: version 0 is no excuse.
    value["scopes"][0]
        .as_object_mut()
        .unwrap()
        .remove("kill_rate");
    let p = file_with(dir.path(), "evaluation.json", &value);
    let e = format!("{:#}", Evaluation::read(&p).unwrap_err());
    assert!(e.contains("missing field `kill_rate`"), "{e}");
    assert!(e.contains("no schema_version"), "{e}");
    // A wrong type of value.
    value["scopes"][0]["kill_rate"] = "high".into();
    let p = file_with(dir.path(), "evaluation.json", &value);
    assert!(Evaluation::read(&p).is_err());
}

/// An `evaluation.json` of version 1 (before per-family kills: the paper's three families were
/// summed under `paper_*`) cannot be upgraded from the file alone: it is refused, naming its
/// version and what to do, never read with the families missing.
#[test]
fn an_older_version_that_cannot_be_upgraded_is_refused_naming_it() {
    let path = root().join("reports/search_tree/evaluation.json");
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    value["schema_version"] = 1.into();
    for scope in value["scopes"].as_array_mut().unwrap() {
        let s = scope.as_object_mut().unwrap();
        s.remove("by_family");
        s.insert("paper_kill_rate".into(), 96.08.into());
        s.insert("paper_killed".into(), 319.into());
        s.insert("paper_mutants".into(), 332.into());
    }
    let dir = tempfile::tempdir().unwrap();
    let p = file_with(dir.path(), "evaluation.json", &value);
    let e = Evaluation::read(&p).unwrap_err();
    assert!(
        matches!(
            e.downcast_ref::<ReadError>(),
            Some(ReadError::Older {
                found: 1,
                supported: 2,
                ..
            })
        ),
        "{e:#}"
    );
    let text = format!("{e:#}");
    assert!(
        text.contains("schema version 1, older than the version this ferastrau reads (2)")
            && text.contains("re-run evaluate"),
        "{text}"
    );
    // The same document with the version it claims removed is no current one either.
    value.as_object_mut().unwrap().remove("schema_version");
    let p = file_with(dir.path(), "evaluation.json", &value);
    assert!(format!("{:#}", Evaluation::read(&p).unwrap_err()).contains("unknown field"));
}

#[test]
fn a_version_that_is_no_number_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for bad in [
        serde_json::json!("1"),
        serde_json::json!(-1),
        serde_json::json!(1.5),
        serde_json::json!(1u64 << 33),
    ] {
        let p = file_with(
            dir.path(),
            "evaluation.json",
            &serde_json::json!({"benchmark": "b", "scopes": [], "schema_version": bad}),
        );
        let e = format!("{:#}", Evaluation::read(&p).unwrap_err());
        assert!(e.contains("not a version number"), "{e}");
    }
}

#[test]
fn a_document_of_another_version_is_not_written() {
    let mut doc = GateBaseline::read(&root().join("reports/gate-baseline.json")).unwrap();
    doc.schema_version = 0;
    assert!(doc.to_text().is_err());
}

#[test]
fn a_journal_of_a_newer_version_or_with_an_unknown_header_field_is_refused() {
    let path = fixture("journal.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let newer = text.replacen(
        "{\"kind\":\"header\",",
        "{\"kind\":\"header\",\"schema_version\":999,",
        1,
    );
    let e = format!("{:#}", journal::parse(&newer, &path).unwrap_err());
    assert!(
        e.contains("schema version 999")
            && e.contains(
                "written by a newer ferastrau; upgrade ferastrau or run without --resume"
            ),
        "{e}"
    );
    let unknown = text.replacen(
        "{\"kind\":\"header\",",
        "{\"kind\":\"header\",\"surprise\":1,",
        1,
    );
    let e = format!("{:#}", journal::parse(&unknown, &path).unwrap_err());
    assert!(e.contains("unknown field `surprise`"), "{e}");
    let headless: String = text.lines().skip(1).map(|l| format!("{l}\n")).collect();
    assert!(journal::parse(&headless, &path).is_err());
}
