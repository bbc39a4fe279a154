//! The kill matrix (`evaluate --kill-matrix`) and what `subsets` computes from it: the
//! matrix agrees with the first-kill run and with the compiler's verdicts, Table 3 and the
//! reduction are deterministic and as expected, and a damaged matrix is refused. Rows whose
//! processes die, stall or are interrupted are in [`crate::matrix_rows`].

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::common::*;
use ferastrau_harness::matrix::{file, KillMatrix};
use roaring::RoaringBitmap;

/// `chain` at scopes 1..3 with the kill matrix into `out`, with `extra` options.
fn chain_matrix(out: &Path, extra: &[&str]) {
    let path = fixture("chain");
    let mut args = vec![
        "--benchmark-path",
        path.to_str().unwrap(),
        "--scopes",
        "1..3",
        "--kill-matrix",
    ];
    args.extend_from_slice(extra);
    evaluate(&args, out);
}

/// One `chain` run at scopes 1..3 with the matrix, shared by the tests (read-only), with
/// the compiler's comparison on (off in the other tests: see [`EQUIVALENCE_VAR`]; `chain`'s
/// metamutant is cached between runs, so it is compiled once more only after the mutator
/// changes).
fn chain_run() -> &'static Path {
    static RUN: OnceLock<tempfile::TempDir> = OnceLock::new();
    RUN.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        chain_evaluate(&tmp.path().join("chain"), &["--kill-matrix"]);
        tmp
    })
    .path()
}

/// `evaluate` of `chain` at scopes 1..3 into `out` with `extra`, the compiler's comparison on.
fn chain_evaluate(out: &Path, extra: &[&str]) {
    let path = fixture("chain");
    let mut args = vec!["evaluate", "--benchmark-path", path.to_str().unwrap()];
    args.extend_from_slice(&["--scopes", "1..3", "--out", out.to_str().unwrap()]);
    args.extend_from_slice(extra);
    let o = command(&args).env(EQUIVALENCE_VAR, "1").output().unwrap();
    assert!(
        o.status.success(),
        "evaluate {extra:?}: {}",
        text(&o.stderr)
    );
}

fn chain_out() -> PathBuf {
    chain_run().join("chain")
}

/// A copy of the chain run's reports, to damage or to run `subsets` on.
fn chain_copy(dest: &Path) {
    let src = chain_out();
    std::fs::create_dir_all(dest.join("kill-matrix")).unwrap();
    for f in ["evaluation.json", "mutants.json"] {
        std::fs::copy(src.join(f), dest.join(f)).unwrap();
    }
    for e in std::fs::read_dir(src.join("kill-matrix")).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dest.join("kill-matrix").join(e.file_name())).unwrap();
    }
}

pub(crate) fn subsets(dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["subsets", dir.to_str().unwrap(), "--random-samples", "200"];
    args.extend_from_slice(extra);
    ferastrau(&args)
}

#[test]
fn every_row_agrees_with_the_first_kill_run() {
    let out = chain_out();
    let mutants = json(&out.join("mutants.json"));
    let evaluation = json(&out.join("evaluation.json"));
    let statuses = statuses(&mutants);
    let mut killed_somewhere = 0;
    for scope in 1..=3u32 {
        let m = file::read(&out, scope).expect("a readable matrix");
        let line = &evaluation["scopes"][(scope - 1) as usize];
        assert_eq!(m.header.inputs, line["inputs"].as_u64().unwrap());
        // The kill rate leaves out what the compiler marked (and counts no marked kill).
        let marked = |k: &str| line[k].as_u64().unwrap_or(0);
        assert_eq!(
            m.rows.len() as u64,
            line["mutants"].as_u64().unwrap()
                + marked("compiler_equivalent")
                + marked("compiler_duplicate")
        );
        let counted = |id: u32| {
            mutants["mutants"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["id"] == id)
                .is_some_and(|x| x.get("compiler").is_none())
        };
        assert!(
            m.header.disagreements.is_empty(),
            "{:?}",
            m.header.disagreements
        );
        let mut killed = 0;
        for row in &m.rows {
            assert!(row.complete(), "mutant {} incomplete", row.mutant);
            assert_eq!(row.reasons.values().sum::<u64>(), row.kills.len());
            let r = &statuses[&(u64::from(row.mutant), scope.to_string())];
            match r["status"].as_str().unwrap() {
                "killed" => {
                    killed += u64::from(counted(row.mutant));
                    let method = r["method"].as_str().unwrap();
                    let range = m.header.methods.iter().find(|x| x.name == method).unwrap();
                    let first = row.first.expect("a killed mutant has a first kill");
                    assert_eq!(
                        first.index,
                        range.offset + r["index"].as_u64().unwrap(),
                        "mutant {} at scope {scope}",
                        row.mutant
                    );
                    assert_eq!(first.reason.as_str(), r["reason"].as_str().unwrap());
                    assert_eq!(Some(first.index as u32), row.kills.min());
                }
                "survived" => assert!(row.kills.is_empty(), "mutant {}", row.mutant),
                s => panic!("status {s}"),
            }
        }
        assert_eq!(killed, line["killed"].as_u64().unwrap());
        // No first-kill stop: some mutant is killed by more than one input.
        killed_somewhere += m.rows.iter().filter(|r| r.kills.len() > 1).count();
    }
    assert!(killed_somewhere > 0);
}

/// Trivial compiler equivalence claims nothing an input refutes: on `chain`'s matrices no
/// input kills a mutant the compiler found equivalent, and a duplicate is killed by exactly
/// the inputs that kill the mutant it duplicates, at every scope. (The ten benchmarks' runs
/// are checked the same way by `scripts/compiler-equivalence.sh`.)
#[test]
fn compiler_verdicts_agree_with_the_kill_matrix() {
    let out = chain_out();
    let mutants = json(&out.join("mutants.json"));
    let verdicts: Vec<(u32, serde_json::Value)> = mutants["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| Some((m["id"].as_u64()? as u32, m.get("compiler")?.clone())))
        .collect();
    // Not vacuous: chain's `+ 1`s have duplicates (its mutants `x * 1`, `x / 1`, `x + 0`).
    assert!(verdicts.len() >= 10, "{verdicts:?}");
    for scope in 1..=3u32 {
        let m = file::read(&out, scope).expect("a readable matrix");
        let row = |id: u32| {
            m.rows
                .iter()
                .find(|r| r.mutant == id)
                .expect("a row per mutant")
        };
        for (id, v) in &verdicts {
            let r = row(*id);
            assert!(r.complete() && r.unknown.is_empty(), "mutant {id}");
            match v["verdict"].as_str().unwrap() {
                "equivalent" => assert!(r.kills.is_empty(), "equivalent {id} killed at {scope}"),
                "duplicate" => {
                    let of = v["of"].as_u64().unwrap() as u32;
                    assert!(of < *id);
                    assert_eq!(r.kills, row(of).kills, "{id} duplicates {of} at {scope}");
                }
                other => panic!("verdict {other}"),
            }
        }
    }
}

/// The ten benchmarks' runs of `scripts/compiler-equivalence.sh` (`evaluate --scopes 1..3
/// --kill-matrix` each, into `$FERASTRAU_TCE_RUNS/<benchmark>`, default `target/tce`): the
/// compiler's verdicts checked against their kill matrices as on `chain` above (no marked
/// mutant killed by any input; a duplicate killed where its representative is), and a
/// Markdown row per benchmark on stdout for the book (`docs/src/compiler-equivalence.md`).
/// A measurement, not a CI test: the runs take minutes.
#[test]
#[ignore = "reads the ten benchmarks' runs: bash scripts/compiler-equivalence.sh"]
fn compiler_verdicts_agree_with_the_ten_benchmarks_kill_matrices() {
    use ferastrau_artifacts::{Artifact, CompilerVerdict, Mutants, Status};
    use ferastrau_report::html::equivalent;
    let runs = std::env::var_os("FERASTRAU_TCE_RUNS")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/tce"));
    println!("| benchmark | mutants | equivalent | duplicate | survivors at 3 | explained: equivalent | explained: duplicate | EQUIVALENT.md's equivalent | of them marked | marked but killed |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut total = [0usize; 9];
    for name in [
        "search_tree",
        "sorted_list",
        "linked_list",
        "heap_array",
        "disj_set",
        "binomial_heap",
        "fibonacci_heap",
        "hash_set",
        "tree_map",
        "av_tree",
    ] {
        let dir = runs.join(name);
        let mutants = Mutants::read(&dir.join("mutants.json")).unwrap().mutants;
        let evaluated: Vec<_> = mutants.iter().filter(|m| !m.scopes.is_empty()).collect();
        let last = *evaluated[0].scopes.keys().max().unwrap();
        let mut killed_marked = 0;
        for scope in 1..=last {
            let m = file::read(&dir, scope).expect("a readable matrix");
            let row = |id: u32| m.rows.iter().find(|r| r.mutant == id).unwrap();
            for x in &evaluated {
                let wrong = match x.compiler {
                    None => false,
                    Some(CompilerVerdict::Equivalent) => !row(x.id).kills.is_empty(),
                    Some(CompilerVerdict::Duplicate { of }) => row(x.id).kills != row(of).kills,
                };
                if wrong {
                    eprintln!(
                        "{name}: mutant {} ({:?}) refuted at scope {scope}",
                        x.id, x.compiler
                    );
                    killed_marked += 1;
                }
            }
        }
        let count = |f: &dyn Fn(&&&ferastrau_artifacts::MutantEntry) -> bool| {
            evaluated.iter().filter(f).count()
        };
        let is_eq =
            |x: &ferastrau_artifacts::MutantEntry| x.compiler == Some(CompilerVerdict::Equivalent);
        let is_dup = |x: &ferastrau_artifacts::MutantEntry| {
            matches!(x.compiler, Some(CompilerVerdict::Duplicate { .. }))
        };
        let survived =
            |x: &ferastrau_artifacts::MutantEntry| x.scopes[&last].status == Status::Survived;
        // The committed reports' arguments (at the paper's scopes), matched by key.
        let argued: Vec<String> = equivalent::read(&workspace_root().join("reports").join(name))
            .unwrap()
            .map(|d| {
                d.arguments
                    .iter()
                    .filter(|(_, a)| {
                        equivalent::Conclusion::of(a) == Some(equivalent::Conclusion::Equivalent)
                    })
                    .map(|(k, _)| k.clone())
                    .collect()
            })
            .unwrap_or_default();
        let marked_argued = argued
            .iter()
            .filter(|k| {
                evaluated
                    .iter()
                    .any(|x| x.key.as_ref() == Some(k) && is_eq(x))
            })
            .count();
        let figures = [
            evaluated.len(),
            count(&|x| is_eq(x)),
            count(&|x| is_dup(x)),
            count(&|x| survived(x)),
            count(&|x| survived(x) && is_eq(x)),
            count(&|x| survived(x) && is_dup(x)),
            argued.len(),
            marked_argued,
            killed_marked,
        ];
        for (t, f) in total.iter_mut().zip(figures) {
            *t += f;
        }
        let cells: Vec<String> = figures.iter().map(usize::to_string).collect();
        println!("| {name} | {} |", cells.join(" | "));
    }
    let cells: Vec<String> = total.iter().map(usize::to_string).collect();
    println!("| **all ten** | {} |", cells.join(" | "));
    assert_eq!(total[8], 0, "marked mutants killed by some input");
}

#[test]
fn reach_selection_skips_pairs_and_leaves_every_row_as_it_is() {
    // The same chain run with every mutant on every input: identical rows, nothing skipped;
    // the shared run (reach selection, the default) settled some pairs without running them.
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("chain");
    chain_matrix(&out, &["--no-reach"]);
    for scope in 1..=3u32 {
        let all = file::read(&out, scope).expect("a readable matrix");
        let reach = file::read(&chain_out(), scope).expect("a readable matrix");
        assert_eq!(all.header.skipped, 0, "--no-reach skips nothing");
        if scope == 3 {
            assert!(reach.header.skipped > 0, "reach selection skipped nothing");
        }
        assert_eq!(all.rows.len(), reach.rows.len());
        for (a, r) in all.rows.iter().zip(&reach.rows) {
            assert_eq!(
                (a.mutant, &a.kills, &a.unknown, &a.reasons, a.first),
                (r.mutant, &r.kills, &r.unknown, &r.reasons, r.first),
                "scope {scope}"
            );
        }
    }
}

#[test]
fn subsets_and_reduction_are_deterministic_and_as_expected() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    for d in [&a, &b, &c] {
        chain_copy(d);
    }
    for (d, seed) in [(&a, "5"), (&b, "5"), (&c, "6")] {
        let o = subsets(d, &["--seed", seed, "--families", "operator,variable,call"]);
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    let read = |d: &Path, f: &str| std::fs::read_to_string(d.join(f)).unwrap();
    for f in [
        "subsets.json",
        "subsets.csv",
        "subsets.md",
        "reduced-suite.json",
    ] {
        assert_eq!(read(&a, f), read(&b, f), "{f}: same seed, same output");
    }
    assert_ne!(
        read(&a, "subsets.json"),
        read(&c, "subsets.json"),
        "another seed draws others"
    );
    insta::assert_snapshot!("chain_subsets_csv", read(&a, "subsets.csv"));
    // A family set is named by the families' names; anything else is refused before work.
    let o = subsets(&a, &["--families", "operator,paper"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("\"paper\" is not a family"),
        "{}",
        text(&o.stderr)
    );

    let m = file::read(&a, 3).unwrap();
    let t = json(&a.join("subsets.json"));
    the_expected_kill_rate_is_the_plain_one(&a, &m, &t);
    the_reduced_suite_kills_what_scope_3_kills(&a, &m, &t);
}

/// The expectation `subsets` wrote (`t`, of the run in `a` whose scope-3 matrix is `m`) is the
/// exact one, recomputed here the plain way: a mutant with k of N inputs killing survives r
/// random inputs with probability Π_{i<k} (N−r−i)/(N−i); the mean of the 200 draws is near it.
fn the_expected_kill_rate_is_the_plain_one(a: &Path, m: &KillMatrix, t: &serde_json::Value) {
    let (n, r) = (m.header.inputs, t["subset_size"].as_u64().unwrap());
    assert_eq!(
        r,
        m.header.inputs.min(file::read(a, 2).unwrap().header.inputs)
    );
    // Over the mutants the kill rate counts: not those the compiler marked.
    let marked: Vec<u64> = json(&a.join("mutants.json"))["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x.get("compiler").is_some())
        .map(|x| x["id"].as_u64().unwrap())
        .collect();
    let counted: Vec<_> = m
        .rows
        .iter()
        .filter(|row| !marked.contains(&u64::from(row.mutant)))
        .collect();
    let plain: f64 = counted
        .iter()
        .map(|row| {
            let survive: f64 = (0..row.kills.len())
                .map(|i| (n as f64 - r as f64 - i as f64).max(0.0) / (n - i) as f64)
                .product();
            1.0 - survive
        })
        .sum::<f64>()
        * 100.0
        / counted.len() as f64;
    let all = &t["rows"][0];
    assert_eq!(
        all["families"],
        serde_json::json!(["operator", "variable", "call", "constant"])
    );
    assert_eq!(
        t["rows"][1]["families"],
        serde_json::json!(["operator", "variable", "call"])
    );
    let got = all["expected"]["kill_rate"].as_f64().unwrap();
    assert!((got - plain).abs() < 0.006, "expected {got}, plain {plain}");
    // The draws' mean is near it (200 draws).
    let mean = all["samples"]["mean"].as_f64().unwrap();
    assert!((mean - plain).abs() < 2.0, "mean {mean}, exact {plain}");
}

/// The reduced suite `subsets` wrote (`t`, of the run in `a` whose scope-3 matrix is `m`)
/// kills every mutant T(3) kills, with fewer inputs, and the files name those inputs.
fn the_reduced_suite_kills_what_scope_3_kills(a: &Path, m: &KillMatrix, t: &serde_json::Value) {
    let suite: RoaringBitmap = t["reduction"]["suite"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g.as_u64().unwrap() as u32)
        .collect();
    assert!(suite.len() < m.header.inputs);
    for r in &m.rows {
        assert_eq!(
            r.kills.is_empty(),
            r.kills.is_disjoint(&suite),
            "mutant {}",
            r.mutant
        );
    }
    let exported = json(&a.join("reduced-suite.json"));
    let inputs = exported["inputs"].as_array().unwrap();
    assert_eq!(inputs.len() as u64, suite.len());
    for i in inputs {
        let g = i["global_index"].as_u64().unwrap();
        let (method, index) = m.locate(g).unwrap();
        assert_eq!(i["method"], m.header.methods[method].name.as_str());
        assert_eq!(i["index"].as_u64().unwrap(), index);
        assert!(i["input"].as_str().unwrap().contains(" on "), "{i}");
    }
    let txt = std::fs::read_to_string(a.join("reduced-suite.txt")).unwrap();
    assert_eq!(txt.lines().count(), inputs.len() + 1);
}

#[test]
fn a_damaged_matrix_is_refused_never_read() {
    let tmp = tempfile::tempdir().unwrap();
    type Damage = fn(&Path);
    let damage: [(&str, Damage); 5] = [
        ("truncated", |d| {
            let p = d.join("kill-matrix/scope-3.bin");
            let b = std::fs::read(&p).unwrap();
            std::fs::write(&p, &b[..b.len() - 7]).unwrap();
        }),
        ("flipped", |d| {
            let p = d.join("kill-matrix/scope-3.bin");
            let mut b = std::fs::read(&p).unwrap();
            let i = b.len() / 2;
            b[i] ^= 0x10;
            std::fs::write(&p, b).unwrap();
        }),
        ("header counts", |d| {
            let p = d.join("kill-matrix/scope-3.json");
            let t = std::fs::read_to_string(&p).unwrap();
            let mut v: serde_json::Value = serde_json::from_str(&t).unwrap();
            let rows = v["rows"].as_array_mut().unwrap();
            let row = rows
                .iter_mut()
                .find(|r| r["kills"].as_u64() > Some(0))
                .unwrap();
            row["kills"] = serde_json::json!(row["kills"].as_u64().unwrap() + 1);
            std::fs::write(&p, v.to_string()).unwrap();
        }),
        ("header garbage", |d| {
            std::fs::write(d.join("kill-matrix/scope-3.json"), "{\"format\": 1").unwrap();
        }),
        ("missing", |d| {
            std::fs::remove_dir_all(d.join("kill-matrix")).unwrap();
        }),
    ];
    for (what, f) in damage {
        let d = tmp.path().join(what.replace(' ', "-"));
        chain_copy(&d);
        f(&d);
        let o = subsets(&d, &["--no-render"]);
        assert_eq!(o.status.code(), Some(2), "{what}: {}", text(&o.stderr));
        assert!(!d.join("subsets.json").exists(), "{what}: nothing written");
    }
}

/// By default the mutants the compiler finds equivalent or duplicate, which the kill rate
/// leaves out, are not run (they can only repeat what is known): each is `skipped` at every
/// scope, with no execution, and the kill rates are those of the run that ran them
/// (`--kill-matrix` runs every mutant). The other mutants' results are the same.
#[test]
fn the_compilers_marked_mutants_are_not_run_and_the_kill_rates_stay() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("chain");
    chain_evaluate(&out, &[]);
    let ran = chain_out();
    assert_eq!(
        untimed(&json(&out.join("evaluation.json"))),
        untimed(&json(&ran.join("evaluation.json")))
    );
    let (mine, theirs) = (
        json(&out.join("mutants.json")),
        json(&ran.join("mutants.json")),
    );
    let (now, before) = (statuses(&mine), statuses(&theirs));
    let mut not_run = 0;
    for m in mine["mutants"].as_array().unwrap() {
        let id = m["id"].as_u64().unwrap();
        for scope in 1..=3u32 {
            let k = (id, scope.to_string());
            if m.get("compiler").is_some() {
                assert_eq!(now[&k]["status"], "skipped", "mutant {id}: {:?}", now[&k]);
                assert!(now[&k].get("executions").is_none(), "mutant {id} ran");
                not_run += 1;
            } else {
                assert_eq!(now[&k], before[&k], "mutant {id} at scope {scope}");
            }
        }
    }
    assert!(not_run > 0, "chain has mutants the compiler marks");
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        page.contains("Not run: the compiler found it a duplicate of #"),
        "the page says why a marked mutant did not run"
    );
}

/// The shards of a run that leaves the compiler's marked mutants unrun merge into that run:
/// their fingerprints are the whole run's, whatever each shard's share leaves unrun (they
/// once differed, and merge refused the shards as "not of the same run"). The kill rates are
/// those of the run that ran every mutant.
#[test]
fn shards_that_leave_the_compilers_marked_mutants_unrun_merge() {
    let tmp = tempfile::tempdir().unwrap();
    let mut shards = Vec::new();
    for k in 1..=2 {
        let out = tmp.path().join(format!("shard-{k}"));
        chain_evaluate(&out, &["--shard", &format!("{k}/2")]);
        shards.push(out);
    }
    let merged = tmp.path().join("merged");
    let o = command(&[
        "merge",
        "--out",
        merged.to_str().unwrap(),
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
    ])
    .env(EQUIVALENCE_VAR, "1")
    .output()
    .unwrap();
    assert!(o.status.success(), "merge: {}", text(&o.stderr));
    assert_eq!(
        untimed(&json(&merged.join("evaluation.json"))),
        untimed(&json(&chain_out().join("evaluation.json")))
    );
}

/// `ferastrau --verbose evaluate` of the crate `krate` at scope 1 into `out`, the compiler's
/// comparison on (its `--verbose` line says how it was compiled).
fn compared_at_scope_1(krate: &Path, out: &Path) -> std::process::Command {
    let mut c = command(&[
        "--verbose",
        "evaluate",
        "--benchmark-path",
        krate.to_str().unwrap(),
        "--scopes",
        "1..1",
        "--out",
        out.to_str().unwrap(),
    ]);
    c.env(EQUIVALENCE_VAR, "1");
    c
}

/// The compiler's comparison compiled beside the worker's build (`rustc` started with cargo's
/// own command for the metamutant, outside cargo's lock) gives the verdicts of the one
/// compiled through cargo after the build (what a metamutant cached without a comparison
/// gets), on a fresh crate and after an edit (where the untouched functions' verdicts are
/// carried and the edited one's compared beside the build).
#[test]
fn the_comparison_beside_the_build_gives_the_verdicts_of_the_one_through_cargo() {
    let dir = tempfile::tempdir().unwrap();
    let beside_the_build = "comparison: compiled by rustc beside the worker's build";
    let through_cargo = "comparison: compiled through cargo after the worker's build";
    let run = |krate: &Path, route: &str| -> std::collections::BTreeMap<u64, serde_json::Value> {
        let out = tempfile::tempdir().unwrap();
        let o = compared_at_scope_1(krate, out.path()).output().unwrap();
        let stderr = text(&o.stderr);
        assert!(o.status.success(), "{stderr}");
        assert!(stderr.contains(route), "not {route:?}:\n{stderr}");
        json(&out.path().join("mutants.json"))["mutants"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| Some((m["id"].as_u64()?, m.get("compiler")?.clone())))
            .collect()
    };
    // A metamutant built without a comparison and cached: the next run compares through cargo.
    let cached_without_comparison = |krate: &Path| {
        let o = command(&["mutants", "--benchmark-path", krate.to_str().unwrap()])
            .env(EQUIVALENCE_VAR, "0")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", text(&o.stderr));
    };
    let (line, edited) = ("self.size = self.size + 1;", "self.size = 1 + self.size;");
    // A space and a quote in the path: cargo's status line quotes them, the command read
    // back from it must not split there.
    let [beside, cargo, cargo_edited] = ["beside's dir", "cargo", "cargo-edited"].map(|d| {
        let krate = dir.path().join(d);
        copy_fixture("chain", &krate);
        krate
    });

    let fresh = run(&beside, beside_the_build);
    // Not vacuous: chain's `+ 1`s have duplicates.
    assert!(fresh.len() >= 10, "{fresh:?}");
    cached_without_comparison(&cargo);
    assert_eq!(fresh, run(&cargo, through_cargo));

    edit(&beside.join("src/lib.rs"), line, edited);
    let after_edit = run(&beside, beside_the_build);
    edit(&cargo_edited.join("src/lib.rs"), line, edited);
    cached_without_comparison(&cargo_edited);
    assert_eq!(after_edit, run(&cargo_edited, through_cargo));
}

/// A run killed by SIGKILL while the comparison compiles beside its build leaves no compile
/// running (it dies with the run: left running, it could write its IR while a later run
/// reads), and the next run compares beside the build again.
#[test]
fn a_run_killed_while_the_comparison_compiles_leaves_no_compile_behind() {
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("killed");
    copy_fixture("chain", &krate);
    let out = dir.path().join("out");
    let mut run = compared_at_scope_1(&krate, &out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The compile beside the build writes its IR under a name with the run's pid.
    let ir = format!("ferastrau-equivalence-{}.ll", run.id());
    let started = std::time::Instant::now();
    while processes_with(&ir).is_empty() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(120),
            "the comparison's compile was never seen running"
        );
        assert!(run.try_wait().unwrap().is_none(), "the run ended first");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    run.kill().unwrap();
    run.wait().unwrap();
    let killed = std::time::Instant::now();
    // It dies with the run (within milliseconds), not when its compile ends (a few tenths
    // of a second after it was seen starting).
    while !processes_with(&ir).is_empty() {
        assert!(
            killed.elapsed() < std::time::Duration::from_millis(200),
            "still running after the run was killed: {:?}",
            processes_with(&ir)
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::fs::remove_dir_all(&out).ok();
    let o = compared_at_scope_1(&krate, &out).output().unwrap();
    let stderr = text(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("comparison: compiled by rustc beside the worker's build"),
        "{stderr}"
    );
}
