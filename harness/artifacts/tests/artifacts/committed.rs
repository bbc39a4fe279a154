//! Every committed report (and fixture) parses into its type and is written back as the same
//! bytes, the version member aside; the journal's lines likewise.

use std::path::Path;

use ferastrau_artifacts::journal::{self, JournalLine};
use ferastrau_artifacts::{peek_version, Artifact, Mutants, NextScope, Reason};

use crate::support::{each_file, fixture, without_version_line, EachFile};

/// Reads a file as `T`, writes it back, and compares: the bytes (a file without a version gets
/// its version line, nothing else) and the JSON values.
struct RoundTrip {
    failures: Vec<String>,
}

impl EachFile for RoundTrip {
    fn file<T: Artifact>(&mut self, path: &Path) {
        let disk = std::fs::read_to_string(path).unwrap();
        let doc = match T::read(path) {
            Ok(d) => d,
            Err(e) => return self.failures.push(format!("{e:#}")),
        };
        assert_eq!(
            doc.schema_version(),
            T::SCHEMA_VERSION,
            "{}",
            path.display()
        );
        let written = doc.to_text().unwrap();
        let had_version = peek_version(&disk, T::VERSION_KEY).unwrap().is_some();
        let comparable = if had_version {
            written.clone()
        } else {
            without_version_line(&written, T::VERSION_KEY)
        };
        if comparable != disk {
            let at = comparable
                .bytes()
                .zip(disk.bytes())
                .position(|(a, b)| a != b)
                .unwrap_or(comparable.len().min(disk.len()));
            self.failures.push(format!(
                "{}: written back differently from byte {at}: on disk {:?}, written {:?}",
                path.display(),
                &disk[at.saturating_sub(40)..(at + 40).min(disk.len())],
                &comparable[at.saturating_sub(40)..(at + 40).min(comparable.len())],
            ));
        }
        // The same as JSON values, once the version is set on both sides.
        let mut on_disk: serde_json::Value = serde_json::from_str(&disk).unwrap();
        on_disk[T::VERSION_KEY] = T::SCHEMA_VERSION.into();
        let back: serde_json::Value = serde_json::from_str(&written).unwrap();
        assert!(on_disk == back, "{}: another JSON value", path.display());
        // `write` writes exactly `to_text`.
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join(path.file_name().unwrap());
        doc.write(&out).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), written);
    }
}

#[test]
fn every_committed_report_and_fixture_round_trips_byte_for_byte() {
    let mut rt = RoundTrip {
        failures: Vec::new(),
    };
    let counts = each_file(&mut rt);
    assert!(rt.failures.is_empty(), "{}", rt.failures.join("\n"));
    // The committed reports as of this crate: a file type that vanishes from the walk would
    // make the test pass on nothing.
    for (name, at_least) in [
        ("evaluation.json", 21),
        ("mutants.json", 20),
        ("code.json", 20),
        ("generators.json", 16),
        ("subsets.json", 10),
        ("reduced-suite.json", 10),
        ("gate-baseline.json", 1),
        ("shard.json", 1),
        ("kill-matrix/scope-<s>.json", 1),
        ("suite.json", 1),
    ] {
        let n = counts.iter().find(|(f, _)| *f == name).unwrap().1;
        assert!(n >= at_least, "{name}: {n} files, expected {at_least}");
    }
}

#[test]
fn written_reports_get_the_mode_std_fs_write_gives() {
    use std::os::unix::fs::PermissionsExt;
    let doc =
        Mutants::read(&crate::support::root().join("reports/search_tree/mutants.json")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("plain"), "").unwrap();
    doc.write(&dir.path().join("mutants.json")).unwrap();
    let mode = |f: &str| {
        std::fs::metadata(dir.path().join(f))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode("mutants.json"), mode("plain"));
    // Nothing but the file is left in the directory (the temporary file was renamed).
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn next_scope_marks_are_written_with_their_keys_sorted() {
    let survived = NextScope::Survived { scope: 8 };
    let killed = NextScope::Killed {
        scope: 8,
        reason: Reason::Output,
    };
    let not_run = NextScope::NotRun {
        scope: 8,
        why: "too large".into(),
    };
    assert_eq!(
        serde_json::to_string(&survived).unwrap(),
        r#"{"scope":8,"status":"survived"}"#
    );
    assert_eq!(
        serde_json::to_string(&killed).unwrap(),
        r#"{"reason":"output","scope":8,"status":"killed"}"#
    );
    assert_eq!(
        serde_json::to_string(&not_run).unwrap(),
        r#"{"scope":8,"status":"not_run","why":"too large"}"#
    );
    for m in [survived, killed, not_run] {
        let back: NextScope = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        assert_eq!(back, m);
    }
    let bad = r#"{"scope":8,"status":"killed","reason":"output","extra":1}"#;
    assert!(serde_json::from_str::<NextScope>(bad).is_err());
}

#[test]
fn the_journal_fixture_reads_and_its_lines_encode_as_written() {
    let path = fixture("journal.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let j = journal::read(&path).unwrap();
    assert_eq!(j.header.schema_version, journal::SCHEMA_VERSION);
    assert_eq!(j.skipped, 0);
    let kinds = |k: &str| {
        j.lines
            .iter()
            .filter(|l| {
                matches!(
                    (k, l),
                    ("scope", JournalLine::Scope(_))
                        | ("result", JournalLine::Result(_))
                        | ("row", JournalLine::Row(_))
                )
            })
            .count()
    };
    assert!(kinds("scope") > 0 && kinds("result") > 0 && kinds("row") > 0);
    let mut written = journal::encode(&JournalLine::Header(j.header.clone())).unwrap();
    for l in &j.lines {
        written.extend(journal::encode(l).unwrap());
    }
    let written = String::from_utf8(written).unwrap();
    // The fixture's header has no version: the written one adds it after the kind.
    let version = format!("\"schema_version\":{},", journal::SCHEMA_VERSION);
    assert_eq!(written.replacen(&version, "", 1), text);
}

#[test]
fn a_torn_journal_line_is_skipped_and_a_line_with_an_unknown_field_too() {
    let path = fixture("journal.jsonl");
    let mut text = std::fs::read_to_string(&path).unwrap();
    let n = journal::parse(&text, &path).unwrap().lines.len();
    text.push_str(
        "{\"kind\":\"result\",\"mutant\":1,\"scope\":1,\"status\":\"survived\",\"surprise\":1}\n",
    );
    text.push_str("{\"kind\":\"result\",\"mutant\":1,\"sc");
    let j = journal::parse(&text, &path).unwrap();
    assert_eq!((j.lines.len(), j.skipped), (n, 2));
}

#[test]
fn scopes_from_10_on_are_listed_in_numeric_order() {
    // The current writer's string keys would put "10" before "2" (see the crate's "Bytes").
    let path = crate::support::root().join("reports/search_tree/mutants.json");
    let mut doc = Mutants::read(&path).unwrap();
    let m = &mut doc.mutants[0];
    let two = m.scopes[&2].clone();
    m.scopes.clear();
    m.scopes.insert(10, two.clone());
    m.scopes.insert(2, two);
    let text = doc.to_text().unwrap();
    let (at2, at10) = (
        text.find("\"2\": {").unwrap(),
        text.find("\"10\": {").unwrap(),
    );
    assert!(at2 < at10);
    let dir = tempfile::tempdir().unwrap();
    doc.write(&dir.path().join("mutants.json")).unwrap();
    assert_eq!(
        Mutants::read(&dir.path().join("mutants.json")).unwrap(),
        doc
    );
}
