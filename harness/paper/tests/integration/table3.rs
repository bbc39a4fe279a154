//! `ferastrau-paper table3`: `subsets` with the paper's Table 3 beside ours. The paper's line
//! goes into `table3.json` and its columns into `table3.md`; `subsets` (`ferastrau`'s own, here
//! too) computes the same figures with no reference line and no columns for one, and writes the
//! same CSV header.

use crate::common::{evaluate, ferastrau, fixture, json, text};

#[test]
fn table3_puts_the_papers_line_beside_ours_and_subsets_does_not() {
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
    // The command on the run, then what it wrote: table3.json, table3.md, table3.csv.
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
            json(&run.join("table3.json")),
            read("table3.md"),
            read("table3.csv"),
        )
    };

    let (t, md, csv) = written(&["table3", "--paper", paper.to_str().unwrap()]);
    assert_eq!(t["paper"]["benchmark"], "Chain");
    assert_eq!(t["paper"]["random_kill_rate"], 90.0);
    assert!(md.contains("| ours | paper R(s) | paper |"), "{md}");
    assert!(md.contains("| 90.00 | > < |"), "{md}");

    let (plain, plain_md, plain_csv) = written(&["subsets"]);
    assert!(plain["paper"].is_null(), "{plain}");
    assert_eq!(plain["rows"], t["rows"], "the same figures either way");
    assert!(!plain_md.contains("paper R(s)"), "{plain_md}");
    assert_eq!(plain_csv.lines().next(), csv.lines().next());
}
