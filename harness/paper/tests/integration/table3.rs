//! `ferastrau-paper table3`: `subsets` over every family and the paper's three, with the
//! paper's Table 3 beside ours in the Markdown it prints. The files are `subsets`' own
//! (`subsets.{json,csv,md}`, no paper in them): `subsets --families operator,variable,call`
//! (`ferastrau`'s own command, here too) writes the same bytes.

use crate::common::{evaluate, ferastrau, fixture, text};

#[test]
fn table3_puts_the_papers_line_beside_ours_and_the_files_are_subsets_own() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("chain");
    let path = fixture("chain");
    let crate_path = path.to_str().unwrap();
    evaluate(
        &[
            "--benchmark-path",
            crate_path,
            "--scopes",
            "1..3",
            "--kill-matrix",
        ],
        &run,
    );
    let paper = tmp.path().join("table3.csv");
    std::fs::write(
        &paper,
        "benchmark,scope,random_kill_rate,vs_exhaustive_scope_minus_1,vs_exhaustive_scope\nChain,3,90.00,>,<\n",
    )
    .unwrap();
    // The command on the run, then what it printed and wrote: subsets.json, subsets.md,
    // subsets.csv.
    let written = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend_from_slice(&[
            run.to_str().unwrap(),
            "--random-samples",
            "50",
            "--no-render",
        ]);
        let o = ferastrau(&all);
        assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
        let read = |f: &str| std::fs::read_to_string(run.join(f)).unwrap();
        (
            text(&o.stdout),
            read("subsets.json"),
            read("subsets.md"),
            read("subsets.csv"),
        )
    };

    let (printed, t, md, csv) = written(&["table3", "--paper", paper.to_str().unwrap()]);
    assert!(
        printed.contains("| ours | paper R(s) | paper |"),
        "{printed}"
    );
    assert!(printed.contains("| 90.00 | > < |"), "{printed}");
    let doc: serde_json::Value = serde_json::from_str(&t).unwrap();
    assert_eq!(
        doc["rows"][1]["families"],
        serde_json::json!(["operator", "variable", "call"])
    );
    assert!(doc.get("paper").is_none(), "{doc}");
    assert!(
        !md.contains("paper") && !csv.contains("paper"),
        "{md}\n{csv}"
    );

    let (plain_printed, plain, plain_md, plain_csv) =
        written(&["subsets", "--families", "operator,variable,call"]);
    assert!(!plain_printed.contains("paper R(s)"), "{plain_printed}");
    assert_eq!(
        (plain, plain_md, plain_csv),
        (t, md, csv),
        "the same files either way"
    );
    // Without --families, `subsets` has the row over every family only.
    let (_, one, _, _) = written(&["subsets"]);
    let one: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(one["rows"].as_array().unwrap().len(), 1);
    assert_eq!(one["rows"][0], doc["rows"][0]);
}
