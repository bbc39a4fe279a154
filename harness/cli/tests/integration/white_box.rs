//! `check --white-box` (issue 34, item 4; the paper's Sec. 6.2): the failure predicate searched
//! up to each method's first counterexample, against the black-box check's whole search.

use serde_json::Value;

use crate::common::*;

fn white_box_json(crate_dir: &std::path::Path, scopes: &str) -> (Option<i32>, Value, String) {
    let o = ferastrau(&[
        "check",
        "--benchmark-path",
        crate_dir.to_str().unwrap(),
        "--scopes",
        scopes,
        "--white-box",
        "--format",
        "json",
    ]);
    let out = text(&o.stdout);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    (o.status.code(), v, text(&o.stderr))
}

fn cost(m: &Value, side: &str) -> u64 {
    m[side]["candidates"].as_u64().unwrap()
}

/// A leftist heap whose merge never swaps its children (a planted bug) breaks the leftist
/// property on the first `insert` into a one-key heap. The white-box search stops there, at
/// every scope, after as many candidates as black-box generation had explored to produce that
/// input, and far fewer than the black-box check's whole search; the black-box check finds the
/// bug too. The correct heap gives no counterexample, and each method's failure predicate then
/// explores exactly the precondition's space.
#[test]
fn the_white_box_search_finds_a_planted_bug_in_fewer_candidates_than_the_black_box_check() {
    let dir = tempfile::tempdir().unwrap();
    let heap = dir.path().join("leftist");
    copy_fixture("leftist", &heap);
    edit(
        &heap.join("src/heap.rs"),
        "if rank(&x.left) < rank(&right) {\n                x.right = x.left.take();\n                x.left = right;\n            } else {\n                x.right = right;\n            }",
        "x.right = right;",
    );
    let (code, v, err) = white_box_json(&heap, "1..4");
    assert_eq!(
        code,
        Some(4),
        "a counterexample is a broken original: {err}"
    );
    let c = &v["counterexample"];
    assert_eq!(c["scope"], 1, "{v}");
    assert_eq!(c["method"], "insert", "{v}");
    assert_eq!(c["input"], "insert(1) on (1 _ _)", "{v}");
    assert_eq!(c["breach"], "invariant", "{v}");
    assert!(err.contains("insert(1) on (1 _ _)"), "{err}");
    let (mut white, mut black) = (0, 0);
    for s in v["scopes"].as_array().unwrap() {
        let insert = &s["methods"][0];
        assert_eq!(insert["method"], "insert");
        assert!(insert["counterexample"].is_object(), "every scope: {s}");
        for m in s["methods"].as_array().unwrap() {
            white += cost(m, "white_box");
            black += cost(m, "black_box");
            if m["counterexample"].is_object() {
                assert_eq!(
                    m["black_box_first"].as_u64(),
                    Some(cost(m, "white_box")),
                    "the same search order: {m}"
                );
                assert!(cost(m, "white_box") <= cost(m, "black_box"), "{m}");
            } else {
                assert_eq!(cost(m, "white_box"), cost(m, "black_box"), "{m}");
            }
        }
        if s["scope"].as_u64() == Some(4) {
            // insert at scope 4: the first counterexample comes early in the search.
            assert!(
                10 * cost(insert, "white_box") < cost(insert, "black_box"),
                "{insert}"
            );
        }
    }
    assert!(white < black, "white {white} against black {black}");
    // The black-box check finds the planted bug as well.
    let o = ferastrau(&[
        "check",
        "--benchmark-path",
        heap.to_str().unwrap(),
        "--scopes",
        "1..2",
    ]);
    assert_eq!(o.status.code(), Some(4));
    assert!(
        text(&o.stderr).contains("violation(s) of the specification from scope 1"),
        "{}",
        text(&o.stderr)
    );

    let (code, v, err) = white_box_json(&fixture("leftist"), "1..3");
    assert_eq!(code, Some(0), "the correct heap: {err}");
    assert!(v["counterexample"].is_null(), "{v}");
    for s in v["scopes"].as_array().unwrap() {
        for m in s["methods"].as_array().unwrap() {
            assert_eq!(cost(m, "white_box"), cost(m, "black_box"), "{m}");
            assert!(m["black_box_first"].is_null(), "{m}");
        }
    }
}

/// The original misbehaving inside the failure predicate: a panic of the method is a
/// counterexample (the paper's unexpected exception); a loop, a panicking decoder, a stack
/// overflow or output on stdout stop the run as a broken original, with one error naming it —
/// never exit 0.
#[test]
fn an_original_that_misbehaves_in_the_white_box_search_is_reported_never_passed() {
    let faulty = fixture("faulty");
    let run = |mode: &str| {
        command(&[
            "check",
            "--benchmark-path",
            faulty.to_str().unwrap(),
            "--scopes",
            "1..2",
            "--white-box",
            "--original-timeout",
            "1s",
            "--memory-limit",
            "256M",
        ])
        .env("FERASTRAU_FAULTY_ORIGINAL", mode)
        .output()
        .unwrap()
    };
    let o = run("panic");
    assert_eq!(o.status.code(), Some(4));
    let out = text(&o.stdout);
    assert!(
        out.contains("fails:  a panic: the original gives up on 1"),
        "{out}"
    );
    for (mode, what) in [
        ("loop", "ran past the clock limit of 1.000 s"),
        ("decode", "the decoder cannot read 1"),
        ("stack", "overflowed its stack"),
        ("print", "prints to stdout"),
    ] {
        let o = run(mode);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(4), "{mode}: {err}");
        assert!(one_error(&err), "{mode}: {err}");
        assert!(err.contains(what), "{mode}: {err}");
    }
}
