//! The command line on the real binary, on `testdata/` crates: generation counts, argument
//! errors, `check`. (SearchTree's counts, the paper's, are in `paper.rs`.)

use crate::common::{clap_error, copy_fixture, ferastrau, json, on_fixture, one_error, text};

/// `chain`'s inputs per method at scope n are the n·2ⁿ pairs of a subset of 1..n and an
/// argument in 1..n: a closed form that a lost or duplicated input breaks.
#[test]
fn generate_finds_every_chain_input_once() {
    let o = on_fixture("generate", "chain", &["--scopes", "1..6", "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON document");
    let scopes = doc["scopes"].as_array().expect("scopes");
    assert_eq!(scopes.len(), 6);
    for (s, n) in scopes.iter().zip(1u64..) {
        assert_eq!(s["scope"], n);
        assert_eq!(s["inputs"], 2 * n * (1 << n), "scope {n}");
        assert!(s["candidates"].as_u64().unwrap() > s["inputs"].as_u64().unwrap());
        assert!(s["seconds"].as_f64().is_some());
        let methods: Vec<&str> = s["methods"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["method"].as_str().unwrap())
            .collect();
        assert_eq!(methods, ["insert", "remove"]);
    }
}

/// A crate without dedicated generators: `--generators` reports none (no figure invented) and
/// the plain figures stay as they are.
#[test]
fn generate_with_generators_on_a_crate_without_them_reports_none() {
    let o = on_fixture(
        "generate",
        "chain",
        &["--scopes", "3", "--structure", "--generators", "--json"],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON document");
    let s = &doc["scopes"][0];
    assert!(s.get("generators").is_none(), "{s}");
    for m in s["methods"].as_array().unwrap() {
        assert!(m.get("generators").is_none(), "{m}");
    }
    let o = on_fixture(
        "generate",
        "chain",
        &["--scopes", "3", "--structure", "--generators"],
    );
    let out = text(&o.stdout);
    assert!(out.contains("ded. cand."), "{out}");
    assert!(
        out.lines().filter(|l| l.contains('—')).count() == 3,
        "{out}"
    );
}

#[test]
fn generate_prints_readable_inputs() {
    let o = on_fixture("generate", "chain", &["--scopes", "3", "--print", "50"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("scope 3 insert(2) on [1, 3]"), "{out}");
    assert!(out.contains("scope 3 remove(1) on []"), "{out}");
}

#[test]
fn bad_arguments_give_one_error_and_no_panic() {
    let not_a_crate = std::env::temp_dir();
    let a_file = tempfile::NamedTempFile::new().unwrap();
    let a_file = a_file.path().to_str().unwrap();
    let under_a_file = format!("{a_file}/out");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["evaluate", "--benchmark", "search_tree", "--out", a_file],
            "is a file, not a directory",
        ),
        (
            vec![
                "evaluate",
                "--benchmark",
                "search_tree",
                "--out",
                &under_a_file,
            ],
            "cannot create the directory",
        ),
        (
            vec!["generate", "--benchmark", "nope"],
            "known benchmarks: ",
        ),
        (vec!["generate", "--scopes", "7..1"], "descend"),
        (vec!["generate", "--scopes", "x"], "not a scope"),
        (vec!["generate", "--scopes", "0"], "scope 0"),
        (
            vec![
                "generate",
                "--benchmark-path",
                not_a_crate.to_str().unwrap(),
            ],
            "not a benchmark crate",
        ),
        (vec!["evaluate", "--memory-limit", "lots"], "not a size"),
        (
            vec!["evaluate", "--timeout-floor", "soon"],
            "not a duration",
        ),
        (
            vec!["mutants", "--diff", "banana"],
            "--diff takes a mutant id",
        ),
        (
            vec!["mutants", "--diff", "3", "--format", "json"],
            "not JSON",
        ),
        (vec!["check", "--format", "yaml"], "invalid value 'yaml'"),
        (
            vec!["generate", "--json", "--format", "table"],
            "cannot be used with",
        ),
        (vec!["--color", "sometimes", "generate"], "invalid value"),
        (
            vec!["evaluate", "--format", "github"],
            "[possible values: table, json]",
        ),
        (
            vec!["check", "--format", "gitlab"],
            "[possible values: table, json]",
        ),
        (
            vec!["gate", "--baseline", "b.json", "--code-quality", "q.json"],
            "add --format gitlab",
        ),
    ];
    for (args, expect) in cases {
        let o = ferastrau(&args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        // Ours: one line; clap's (a value or option it refuses): its error with the usage.
        assert!(one_error(&err) || clap_error(&err), "{args:?}: {err}");
        assert!(err.contains(expect), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let o = ferastrau(&["generate", "--benchmark", "nope"]);
    assert!(
        text(&o.stderr).contains("search_tree"),
        "lists the known ones"
    );
}

#[test]
fn a_crate_that_does_not_compile_is_named_with_its_first_error() {
    let dir = tempfile::tempdir().unwrap();
    copy_fixture("buggy", dir.path());
    std::fs::write(dir.path().join("src/lib.rs"), "pub fn broken( {}\n").unwrap();
    let o = ferastrau(&[
        "check",
        "--benchmark-path",
        dir.path().to_str().unwrap(),
        "--scopes",
        "1",
    ]);
    let err = text(&o.stderr);
    assert!(!o.status.success());
    assert!(one_error(&err), "{err}");
    assert!(err.contains("buggy") && err.contains("error"), "{err}");
}

#[test]
fn check_finds_the_broken_method_and_prints_the_smallest_counterexample() {
    let o = on_fixture("check", "buggy", &["--scopes", "1..3"]);
    assert!(!o.status.success(), "a violation is a failure");
    let err = text(&o.stderr);
    assert!(
        err.contains("smallest counterexample: remove(1) on [1]"),
        "{err}"
    );
    assert!(err.contains("still present"), "{err}");
}

#[test]
fn check_reports_no_violation_on_a_correct_crate() {
    let o = on_fixture("check", "chain", &["--scopes", "1..5"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("320"), "{out}");
    assert!(out.contains("no violation"), "{out}");
}

#[test]
fn bare_ferastrau_prints_its_usage_and_a_misspelling_gets_a_suggestion() {
    let o = ferastrau(&[]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("Usage: ferastrau"), "{err}");
    for command in ["evaluate", "check", "gate", "init"] {
        assert!(err.contains(&format!("  {command} ")), "{command}: {err}");
    }
    let cases = [
        (vec!["evalute"], "'evaluate'"),
        (vec!["evaluate", "--scope", "3"], "'--scopes'"),
    ];
    for (args, tip) in cases {
        let o = ferastrau(&args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(clap_error(&err), "{args:?}: {err}");
        assert!(err.contains("tip: a similar"), "{args:?}: {err}");
        assert!(err.contains(tip), "{args:?}: {err}");
    }
}

/// `evaluate` with stdout a pipe (as in CI): stage lines on stderr while it works, and at the
/// end the survivors of the largest scope by key and place, and the page's path.
#[test]
fn evaluate_announces_its_stages_and_ends_naming_the_survivors_and_the_page() {
    let out = tempfile::tempdir().unwrap();
    let o = on_fixture(
        "evaluate",
        "chain",
        &["--scopes", "1..2", "--out", out.path().to_str().unwrap()],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    for stage in [
        "Mutating chain",
        "Building the worker of chain",
        "Generating the inputs of scope 1",
        "Generating the inputs of scope 2",
        "Checking the limits",
        "Running 161 mutants",
    ] {
        assert!(err.contains(stage), "{stage}: {err}");
    }
    let stdout = text(&o.stdout);
    let mutants = json(&out.path().join("mutants.json"));
    // In source order (file, line, column, id), as the page lists them.
    let mut survivors: Vec<_> = mutants["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["scopes"]["2"]["status"] == "survived")
        .map(|m| {
            let n = |k: &str| m[k].as_u64().unwrap();
            (
                (
                    m["file"].as_str().unwrap().to_string(),
                    n("line"),
                    n("column"),
                    n("id"),
                ),
                m["key"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    survivors.sort();
    let survivors: Vec<(String, String)> = survivors
        .into_iter()
        .map(|((file, line, column, _), key)| (key, format!("{file}:{line}:{column}")))
        .collect();
    assert!(
        stdout.contains(&format!("{} mutants survive scope 2:", survivors.len())),
        "{stdout}"
    );
    let shown = survivors
        .len()
        .min(ferastrau_report::html::survivors::SHOWN);
    for (key, place) in survivors.iter().take(shown) {
        assert!(
            stdout.contains(&format!("  {place}  {key}\n")),
            "{key}: {stdout}"
        );
    }
    if let Some((key, _)) = survivors.get(shown) {
        assert!(!stdout.contains(&format!("  {key}\n")), "{stdout}");
    }
    assert_eq!(
        stdout.contains(&format!(
            "and {} more: every survivor is in {}",
            survivors.len().saturating_sub(shown),
            out.path().join("survivors.txt").display()
        )),
        survivors.len() > shown,
        "{stdout}"
    );
    // The same run again: the metamutant comes from the cache, and says so instead of
    // quoting the first build's time.
    let again = on_fixture(
        "evaluate",
        "chain",
        &["--scopes", "1..2", "--out", out.path().to_str().unwrap()],
    );
    let err = text(&again.stderr);
    assert!(err.contains("161 viable, reused from the cache"), "{err}");
    assert!(!err.contains("pruning round"), "{err}");
    let page = out.path().join("report.html");
    assert!(
        stdout.contains(&format!("report: {}", page.display())),
        "{stdout}"
    );
    assert!(page.exists());
    // Under 100 columns, the table and everything after it.
    for line in stdout.lines() {
        assert!(
            line.chars().count() <= 100,
            "{} columns: {line}",
            line.len()
        );
    }
}

/// An invariant that rejects every candidate leaves nothing to test: `check`, `generate` and
/// `evaluate` refuse such a scope (status 2), naming the invariant and how to look at the
/// inputs, instead of "no violation on every input" of none, and an evaluation of nothing.
#[test]
fn a_scope_without_a_valid_input_is_refused_not_a_vacuous_success() {
    let tmp = tempfile::tempdir().unwrap();
    let krate = tmp.path().join("chain");
    crate::common::copy_fixture("chain", &krate);
    crate::common::edit(
        &krate.join("src/lib.rs"),
        "pub fn rep_ok(v: &mut impl View) -> bool {\n",
        "pub fn rep_ok(v: &mut impl View) -> bool {\n    if v.size() >= 0 || v.size() < 0 {\n        return false;\n    }\n",
    );
    let k = krate.to_str().unwrap();
    let out = tmp.path().join("out");
    for args in [
        vec!["check", "--benchmark-path", k, "--scopes", "1..2"],
        vec!["generate", "--benchmark-path", k, "--scopes", "1..2"],
        vec![
            "evaluate",
            "--benchmark-path",
            k,
            "--scopes",
            "1..2",
            "--out",
            out.to_str().unwrap(),
        ],
    ] {
        let o = ferastrau(&args);
        let (said, err) = (text(&o.stdout), text(&o.stderr));
        assert_eq!(o.status.code(), Some(2), "{args:?}: {said}\n{err}");
        assert!(
            err.contains("scope 1 of chain has no valid input")
                && err.contains("`rep_ok`")
                && err.contains("ferastrau generate --scopes 1..1 --print 5"),
            "{args:?}: {err}"
        );
        assert!(!said.contains("no violation"), "{args:?}: {said}");
    }
    assert!(!out.join("evaluation.json").exists());
}

/// `--help` reads in the order a user needs it: the everyday commands first, and `evaluate`'s
/// options under headings (what to run, output, limits, selection), not one list of thirty;
/// `--format`'s CI values are listed only where they work (the gate).
#[test]
fn help_lists_the_everyday_commands_first_and_groups_evaluate_s_options() {
    let top = text(&ferastrau(&["--help"]).stdout);
    let at = |what: &str| {
        top.find(&format!("\n  {what} "))
            .unwrap_or_else(|| panic!("{what}: {top}"))
    };
    assert!(at("init") < at("evaluate") && at("evaluate") < at("gate") && at("gate") < at("check"));
    assert!(
        at("check") < at("mutants") && at("report") < at("overhead"),
        "{top}"
    );
    let help = text(&ferastrau(&["evaluate", "--help"]).stdout);
    let heading = |h: &str| {
        help.find(&format!("\n{h}:\n"))
            .unwrap_or_else(|| panic!("{h}: {help}"))
    };
    let (run, output, limits, selection) = (
        heading("What to run"),
        heading("Output"),
        heading("Limits"),
        heading("Selection"),
    );
    assert!(
        run < output && output < limits && limits < selection,
        "{help}"
    );
    let option = |o: &str| {
        help.find(&format!(" --{o}"))
            .unwrap_or_else(|| panic!("{o}: {help}"))
    };
    assert!(run < option("scopes") && option("scopes") < output);
    assert!(limits < option("memory-limit") && option("memory-limit") < selection);
    assert!(selection < option("in-diff") && selection < option("max-mutants"));
    assert!(!help.contains("github"), "{help}");
    let gate = text(&ferastrau(&["gate", "--help"]).stdout);
    assert!(gate.contains("github") && gate.contains("gitlab"), "{gate}");
}
