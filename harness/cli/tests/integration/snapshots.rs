//! What the mutator and the harness print for `testdata/chain`, as reviewed snapshots
//! (`harness/cli/tests/integration/snapshots/`): the mutant catalog (`mutants --json`), Korat's generation
//! (`generate --json`, timings redacted) and the table `evaluate` prints (timings and paths
//! redacted). A change to a mutation operator, to generation or to the runner shows up here as
//! a short snapshot diff (`cargo insta review`, or `INSTA_UPDATE=always` and `git diff`)
//! instead of a diff of the committed multi-megabyte reports. `testdata/README.md` walks
//! through one.

use crate::common::{command, fixture, text};

/// `ferastrau <cmd>` on `testdata/chain`, which must succeed; its stdout.
fn stdout(cmd: &str, args: &[&str]) -> String {
    let path = fixture("chain");
    let mut all = vec![cmd, "--benchmark-path", path.to_str().unwrap()];
    all.extend_from_slice(args);
    let o = command(&all).output().unwrap();
    assert!(o.status.success(), "{cmd} {args:?}: {}", text(&o.stderr));
    text(&o.stdout)
}

#[test]
fn the_mutant_catalog() {
    let out = stdout("mutants", &["--json"]);
    let catalog: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    insta::assert_json_snapshot!("mutants", catalog);
}

#[test]
fn generation_without_timings() {
    let out = stdout("generate", &["--scopes", "1..5", "--json"]);
    let mut generation: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    // Redacted here rather than by insta's selectors, whose parser (pest, with a C build of
    // its stack guard) was a tenth of the tests' dependencies' build.
    for scope in generation["scopes"].as_array_mut().unwrap() {
        scope["seconds"] = "[seconds]".into();
        for method in scope["methods"].as_array_mut().unwrap() {
            method["seconds"] = "[seconds]".into();
            // A float's last digit depends on serde_json's parser (its `float_roundtrip`
            // feature is switched on by a dev-dependency's feature unification), not on the
            // engine.
            let log2 = method["state_space_log2"].as_f64().unwrap();
            method["state_space_log2"] = ((log2 * 1e9).round() / 1e9).into();
        }
    }
    insta::assert_json_snapshot!("generate", generation);
}

#[test]
fn the_evaluation_table_without_timings() {
    let out = tempfile::tempdir().unwrap();
    let table = stdout(
        "evaluate",
        &[
            "--scopes",
            "1..4",
            "--jobs",
            "2",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    insta::with_settings!({filters => vec![
        // The runner's and the run's summary lines (the table itself has no timings).
        (r"in \d+\.\d+ s", "in [s]"),
        // The next scope's estimate.
        (r"\(about [^)]*\)", "(about [t])"),
        (r"report: .*", "report: [out]/report.html"),
        (r"reports in .*", "reports in [out]"),
    ]}, {
        insta::assert_snapshot!("evaluate_table", table);
    });
}
