use super::hypothesis::{next_scope_evidence, randomness};
use super::*;
use crate::NextScope;

/// A Table 3 report (the committed SearchTree one) with the paper's-families verdict
/// against T(s − 1) set to `verdict`.
fn table3(benchmark: &str, verdict: &str) -> ferastrau_artifacts::Subsets {
    use ferastrau_artifacts::Artifact as _;
    use ferastrau_harness::subsets::sample::{Relation, Symbol as _};
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join("reports/search_tree/subsets.json");
    let mut r = ferastrau_artifacts::Subsets::read(&path).unwrap();
    r.benchmark = benchmark.into();
    for row in &mut r.rows {
        if row.families == crate::table3::FAMILIES {
            row.verdict_previous = Some(Relation::parse(verdict).expect("a verdict"));
        }
    }
    r
}

#[test]
fn randomness_holds_where_random_subsets_kill_fewer_than_the_scope_below() {
    assert!(randomness(&[], 10).contains("*pending*"));
    let one = randomness(&[table3("a", "<")], 10);
    assert!(one.contains("**supported** (1 of 1 benchmarks)"), "{one}");
    assert!(one.contains("1 of 10 benchmarks have Table 3"), "{one}");
    let mixed = randomness(&[table3("a", "<"), table3("b", "="), table3("c", ">")], 3);
    assert!(mixed.contains("**partly supported** (1 of 3"), "{mixed}");
    assert!(
        mixed.contains("a `<` (") && mixed.contains("b `=` (") && mixed.contains("c `>` ("),
        "{mixed}"
    );
    let none = randomness(&[table3("a", "=")], 1);
    assert!(none.contains("**not supported**"), "{none}");
}

#[test]
fn randomness_by_the_expected_kill_rate_is_judged_apart_from_the_draws() {
    // Most draws tie with T(s − 1), while the expectation is below it: a random subset
    // kills fewer on average though most draws do not.
    let mut r = table3("a", "=");
    for row in &mut r.rows {
        if row.families == crate::table3::FAMILIES {
            row.expected.kill_rate = row.previous.kill_rate - 0.5;
        }
    }
    let text = randomness(&[r.clone()], 1);
    assert!(
        text.contains("by most of the draws **not supported** (0 of 1")
            && text.contains("by the expected kill rate **supported** (1 of 1"),
        "{text}"
    );
    for row in &mut r.rows {
        row.expected.kill_rate = row.previous.kill_rate;
    }
    let text = randomness(&[r], 1);
    assert!(
        text.contains("by the expected kill rate **not supported**"),
        "{text}"
    );
}

#[test]
fn a_survivor_killed_at_scope_plus_one_leaves_no_adequate_scope() {
    use ferastrau_artifacts::Reason;
    let survivor = |next_scope: Option<NextScope>| crate::Survivor {
        id: 1,
        key: "k".into(),
        next_scope,
        executions: 1,
    };
    let survived = survivor(Some(NextScope::Survived { scope: 4 }));
    let killed = survivor(Some(NextScope::Killed {
        scope: 4,
        reason: Reason::Output,
    }));
    let not_run = survivor(Some(NextScope::NotRun {
        scope: 4,
        why: "too large".into(),
    }));
    assert_eq!(
        next_scope_evidence(&[survived.clone(), not_run.clone()]),
        (1, 0)
    );
    assert_eq!(
        next_scope_evidence(&[survived, killed, not_run, survivor(None)]),
        (2, 1)
    );
}

/// The paper's own figures (the committed transcription) judged by our rules: what an
/// independent audit of the rules found by hand (Mutation 5 of 10, Coverage 9, Feasibility
/// 8, Randomness 5).
#[test]
fn the_papers_own_figures_judged_by_our_rules() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join("reports/paper");
    let paper = Paper::read(&dir).unwrap();
    let ps: Vec<PaperFindings> = paper
        .order
        .iter()
        .filter_map(|n| paper_findings(&paper, n, n))
        .collect();
    assert_eq!(ps.len(), 10);
    let count = |f: fn(&PaperFindings) -> bool| ps.iter().filter(|p| f(p)).count();
    assert_eq!(
        (
            count(|p| p.judged.mutation),
            count(|p| p.judged.coverage),
            count(|p| p.judged.feasibility),
            count(|p| p.randomness() == Some(true)),
            count(|p| p.randomness().is_some()),
        ),
        (5, 9, 8, 5, 10)
    );
}

#[test]
fn the_adequate_scope_is_where_the_kill_rate_stops_changing() {
    assert_eq!(
        adequate_scope(&[(1, 10.0), (2, 50.0), (3, 50.0)]),
        Some((2, 50.0))
    );
    assert_eq!(
        adequate_scope(&[(1, 10.0), (2, 50.0), (3, 60.0)]),
        Some((3, 60.0))
    );
    // A rate that dips and comes back counts from its last change only.
    assert_eq!(
        adequate_scope(&[(1, 50.0), (2, 40.0), (3, 50.0)]),
        Some((3, 50.0))
    );
    assert_eq!(adequate_scope(&[]), None);
}

#[test]
fn notes_parse_and_a_bad_kind_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join(NOTES_FILE);
    std::fs::write(
        &p,
        "[[note]]\nbenchmark = \"b\"\nkind = \"inputs\"\nexplanation = \"why\"\n",
    )
    .unwrap();
    let n = Notes::read(&p).unwrap();
    assert_eq!(n.0[&("b".to_string(), Kind::Inputs)], "why");
    std::fs::write(
        &p,
        "[[note]]\nbenchmark = \"b\"\nkind = \"speed\"\nexplanation = \"why\"\n",
    )
    .unwrap();
    assert!(Notes::read(&p).is_err());
    assert!(Notes::read(&dir.path().join("none.toml"))
        .unwrap()
        .0
        .is_empty());
}
