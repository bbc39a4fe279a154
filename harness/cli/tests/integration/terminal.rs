//! The terminal experience on the `chain` and `buggy` fixtures: `--format json` gives exactly
//! one JSON document with the figures the table shows, on every command that prints a table;
//! colour only where asked for or on a terminal (`NO_COLOR` honoured); `--quiet` and
//! `--verbose`; shell completions.

use std::path::Path;
use std::process::{Command, Output};

use crate::common::{command, fixture, json, text};
use serde_json::Value;

const USAGE: i32 = 2;
const BROKEN: i32 = 4;

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// `ferastrau args` with a colour-capable terminal type and no colour variables of the
/// caller's: what a test sees depends only on what it sets.
fn plain(args: &[&str]) -> Command {
    let mut c = command(args);
    c.env("TERM", "xterm-256color")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE");
    c
}

fn run(args: &[&str]) -> Output {
    plain(args).output().expect("the ferastrau binary runs")
}

/// Stdout as exactly one JSON document (`from_slice` refuses anything after it).
fn document(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON document ({e}):\n{}\nstderr: {}",
            text(&o.stdout),
            text(&o.stderr)
        )
    })
}

fn ok(o: Output) -> Output {
    assert!(o.status.success(), "failed: {}", text(&o.stderr));
    o
}

fn has_escape(b: &[u8]) -> bool {
    b.contains(&0x1b)
}

#[test]
fn generate_and_mutants_json_hold_the_tables_figures() {
    let chain = fixture("chain");
    let target = ["--benchmark-path", s(&chain)];
    let gen = |extra: &[&str]| {
        ok(run(&[
            &["generate", "--scopes", "1..3"][..],
            &target,
            extra,
        ]
        .concat()))
    };
    let doc = document(&gen(&["--format", "json"]));
    // `--json` stays an alias of `--format json`, seconds aside.
    let alias = document(&gen(&["--json"]));
    let counts = |d: &Value| -> Vec<(u64, u64)> {
        d["scopes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["inputs"].as_u64().unwrap(),
                    s["candidates"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(counts(&doc), counts(&alias));
    assert_eq!(counts(&doc), [(4, 10), (16, 46), (48, 148)]);
    // The table's total rows: scope, "total", inputs, candidates.
    let table = text(&gen(&[]).stdout);
    let totals: Vec<(u64, u64)> = table
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.get(1) == Some(&"total"))
        .map(|w| (w[2].parse().unwrap(), w[3].parse().unwrap()))
        .collect();
    assert_eq!(totals, counts(&doc));

    let doc = document(&ok(run(
        &[&["mutants", "--format", "json"][..], &target].concat()
    )));
    let table = text(&ok(run(&[&["mutants"][..], &target].concat())).stdout);
    let rows = table
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        // Rows: id, family, place, function, viable, change (not the summary line).
        .filter(|w| w[0].parse::<u32>().is_ok() && matches!(w.get(4), Some(&"yes" | &"no")))
        .count() as u64;
    assert_eq!(doc["counts"]["all"]["total"].as_u64(), Some(rows));
    assert_eq!(doc["mutants"].as_array().unwrap().len() as u64, rows);
}

#[test]
fn check_json_names_the_counterexample_and_keeps_the_status() {
    let buggy = fixture("buggy");
    let args = ["check", "--benchmark-path", s(&buggy), "--scopes", "1..2"];
    let o = run(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(o.status.code(), Some(BROKEN), "{}", text(&o.stderr));
    let doc = document(&o);
    assert_eq!(doc["counterexample"]["input"], "remove(1) on [1]");
    assert!(text(&o.stderr).contains("remove(1) on [1]"));
    let table = run(&args);
    assert_eq!(table.status.code(), Some(BROKEN));
    // Table rows: scope, inputs, seconds, postcondition and invariant violations.
    let rows: Vec<(u64, u64)> = text(&table.stdout)
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("smallest"))
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .map(|w| {
            let n = |i: usize| w[i].parse::<u64>().unwrap();
            (n(1), n(3) + n(4))
        })
        .collect();
    let from_json: Vec<(u64, u64)> = doc["scopes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["inputs"].as_u64().unwrap(),
                s["violations"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(rows, from_json);
    assert!(from_json.iter().any(|&(_, v)| v > 0));
}

#[test]
fn overhead_json_holds_its_figures() {
    let chain = fixture("chain");
    let args = ["overhead", "--benchmark-path", s(&chain), "--scope", "2"];
    let doc = document(&ok(run(&[
        &args[..],
        &["--repeat", "1", "--format", "json"],
    ]
    .concat())));
    // Scope 2 of chain: 16 inputs, each run once.
    assert_eq!(doc["executions"], 16);
    assert!(doc["untouched_seconds"].as_f64().unwrap() > 0.0);
    let ratio =
        doc["metamutant_seconds"].as_f64().unwrap() / doc["untouched_seconds"].as_f64().unwrap();
    assert!((doc["ratio"].as_f64().unwrap() - ratio).abs() < 1e-9);
}

/// (killed, mutants, kill rate as printed) per row of an evaluate or merge table.
fn table_rows(table: &str) -> Vec<(u64, u64, String)> {
    table
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        // scope, inputs, four coverages, killed/mutants, kill rate.
        .filter(|w| w.len() == 8 && w[0].parse::<u32>().is_ok() && w[6].contains('/'))
        .map(|w| {
            let (k, m) = w[6].split_once('/').unwrap();
            (k.parse().unwrap(), m.parse().unwrap(), w[7].to_string())
        })
        .collect()
}

fn json_rows(doc: &Value) -> Vec<(u64, u64, String)> {
    doc["scopes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["killed"].as_u64().unwrap(),
                s["mutants"].as_u64().unwrap(),
                format!("{:.2}", s["kill_rate"].as_f64().unwrap()),
            )
        })
        .collect()
}

#[test]
fn evaluate_merge_and_gate_json_hold_the_tables_figures() {
    let dir = tempfile::tempdir().unwrap();
    let chain = fixture("chain");
    let shard = |k: &str, extra: &[&str]| {
        let out = dir.path().join(format!("shard-{k}"));
        let args = [
            "evaluate",
            "--benchmark-path",
            s(&chain),
            "--scopes",
            "1..2",
            "--shard",
            &format!("{k}/2"),
            "--out",
            s(&out),
        ];
        (out.clone(), ok(run(&[&args[..], extra].concat())))
    };
    let (one, o) = shard("1", &["--format", "json"]);
    let doc = document(&o);
    let written = json(&one.join("evaluation.json"));
    assert_eq!(doc["scopes"], written["scopes"]);
    assert_eq!(doc["shard"], "1/2");
    assert_eq!(doc["reports"], s(&one));
    assert!(doc["runner"]["executions"].as_u64().unwrap() > 0);
    let (two, o) = shard("2", &[]);
    let table = text(&o.stdout);
    assert_eq!(
        table_rows(&table),
        json_rows(&json(&two.join("evaluation.json")))
    );

    let merged = dir.path().join("merged");
    let merge = |extra: &[&str]| {
        ok(run(&[
            &["merge", s(&one), s(&two), "--out", s(&merged)][..],
            extra,
        ]
        .concat()))
    };
    let doc = document(&merge(&["--format", "json"]));
    let table = text(&merge(&[]).stdout);
    assert_eq!(table_rows(&table), json_rows(&doc));
    assert_eq!(table_rows(&table).len(), 2);
    assert_eq!(doc["evaluated"], 161);

    let baseline = dir.path().join("baseline.json");
    let gate = |extra: &[&str]| {
        let args = ["gate", "--baseline", s(&baseline), "--current", s(&merged)];
        ok(run(&[&args[..], extra].concat()))
    };
    let made = document(&gate(&["--update-baseline", "--format", "json"]));
    assert_eq!(made["verdict"], "updated");
    let doc = document(&gate(&["--format", "json"]));
    assert_eq!(doc["verdict"], "passed");
    assert_eq!(doc["failures"], serde_json::json!([]));
    let rates: Vec<String> = doc["scopes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("{:.2}", s["now"]["kill_rate"].as_f64().unwrap()))
        .collect();
    let merged_rates: Vec<String> = json_rows(&json(&merged.join("evaluation.json")))
        .into_iter()
        .map(|r| r.2)
        .collect();
    assert_eq!(rates, merged_rates);
    let table = text(&gate(&[]).stdout);
    assert!(table.contains("gate passed"), "{table}");
    for r in &rates {
        assert!(table.contains(&format!("{r} → {r} (+0.00)")), "{table}");
    }
}

#[test]
fn colour_only_on_a_terminal_or_when_asked() {
    let buggy = fixture("buggy");
    let check = ["check", "--benchmark-path", s(&buggy), "--scopes", "1..2"];
    // Piped, with a terminal type that supports colour: no escape anywhere.
    let o = run(&check);
    assert_eq!(o.status.code(), Some(BROKEN));
    assert!(!has_escape(&o.stdout) && !has_escape(&o.stderr));
    assert!(text(&o.stderr).contains("\nerror: "));
    // Asked for: the violations and the error are coloured.
    let o = run(&[&["--color", "always"][..], &check].concat());
    assert!(has_escape(&o.stdout), "{}", text(&o.stdout));
    assert!(has_escape(&o.stderr), "{}", text(&o.stderr));
    // `--color never` and `NO_COLOR` both win over a forced terminal (CLICOLOR_FORCE)...
    let forced = plain(&check).env("CLICOLOR_FORCE", "1").output().unwrap();
    assert!(has_escape(&forced.stdout), "auto follows CLICOLOR_FORCE");
    let never = plain(&[&check[..], &["--color", "never"]].concat())
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap();
    assert!(!has_escape(&never.stdout) && !has_escape(&never.stderr));
    let no_color = plain(&check)
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!has_escape(&no_color.stdout) && !has_escape(&no_color.stderr));
    // ...and a JSON document never holds an escape, whatever is asked.
    let o = run(&[&["--color", "always"][..], &check, &["--format", "json"]].concat());
    assert!(!has_escape(&o.stdout));
    document(&o);

    // clap's own help and errors follow --color too.
    let help = run(&["evaluate", "--help"]);
    assert!(!has_escape(&help.stdout));
    assert!(text(&help.stdout).contains("Examples:"));
    let help = run(&["--color=always", "evaluate", "--help"]);
    assert!(has_escape(&help.stdout));
    let bad = run(&["--color", "always", "evaluate", "--scope", "3"]);
    assert_eq!(bad.status.code(), Some(USAGE));
    assert!(has_escape(&bad.stderr));
    let bad = run(&["--color", "never", "evaluate", "--scope", "3"]);
    assert!(!has_escape(&bad.stderr));
    assert!(
        crate::common::clap_error(&text(&bad.stderr)),
        "{}",
        text(&bad.stderr)
    );
}

#[test]
fn quiet_prints_only_the_result_and_verbose_the_detail() {
    let dir = tempfile::tempdir().unwrap();
    let chain = fixture("chain");
    let out = dir.path().join("out");
    let args = [
        "evaluate",
        "--benchmark-path",
        s(&chain),
        "--scopes",
        "1..2",
        "--out",
        s(&out),
    ];
    let quiet = ok(run(&[&["--quiet"][..], &args].concat()));
    assert_eq!(text(&quiet.stderr), "");
    let table = text(&quiet.stdout);
    assert_eq!(table_rows(&table).len(), 2, "{table}");
    assert!(!table.contains("runner:"), "{table}");
    assert!(table.contains("reports in"));

    let normal = ok(run(&args));
    assert!(text(&normal.stdout).contains("runner:"));
    assert!(!text(&normal.stderr).contains("worker:"));

    // The flags are global: after the command's name as well as before.
    let verbose = ok(run(&[&args[..], &["--verbose"]].concat()));
    let err = text(&verbose.stderr);
    for what in [
        "scope 1: 4 inputs generated",
        "scope 2: 16 inputs generated",
        "metamutant crate: ",
        "worker binary: ",
        "worker: ",
    ] {
        assert!(err.contains(what), "no {what:?} in:\n{err}");
    }
    assert_eq!(
        text(&verbose.stdout).lines().count(),
        text(&normal.stdout).lines().count()
    );

    let both = run(&[&["-q", "-v"][..], &args].concat());
    assert_eq!(both.status.code(), Some(USAGE));
}

#[test]
fn completions_name_every_command() {
    let o = ok(run(&["completions", "bash"]));
    let script = text(&o.stdout);
    let cmd =
        ferastrau::cli::command::<ferastrau::cli::Cli>(ferastrau_console::term::ColorWhen::Never);
    let names: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).collect();
    assert!(names.len() >= 9, "{names:?}");
    for name in names {
        assert!(
            script.contains(&format!("ferastrau,{name})")),
            "no {name} in the bash script"
        );
    }
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let o = ok(run(&["completions", shell]));
        assert!(text(&o.stdout).contains("evaluate"), "{shell}");
    }
    assert_eq!(run(&["completions", "tcsh"]).status.code(), Some(USAGE));
}

/// On a real terminal (a pseudo-terminal from util-linux's `script`), `auto` colours and
/// `NO_COLOR` turns it off.
#[test]
fn a_terminal_gets_colour_unless_no_color() {
    let buggy = fixture("buggy");
    let line = format!(
        "{} check --benchmark-path {} --scopes 1..2",
        env!("CARGO_BIN_EXE_ferastrau"),
        s(&buggy)
    );
    let on_a_terminal = |no_color: bool| {
        let o = crate::common::on_a_terminal(&line, no_color);
        assert_eq!(o.status.code(), Some(BROKEN), "{}", text(&o.stdout));
        assert!(text(&o.stdout).contains("remove(1) on [1]"));
        o.stdout
    };
    assert!(has_escape(&on_a_terminal(false)));
    assert!(!has_escape(&on_a_terminal(true)));
}
