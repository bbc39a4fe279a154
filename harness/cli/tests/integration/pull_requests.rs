//! The gate on pull requests, as a reviewer expects it (issue 30): `testdata/chain` in a git
//! repository with a committed baseline, and ten scripted pull requests, each gated in full
//! and with `--in-diff` of its `git diff`, and a bug fixed against a baseline made on the
//! buggy crate. Harmless changes pass both (no false alarm); a
//! change that weakens the tests (the specification side) or makes mutants equivalent fails
//! both, naming the mutants that now survive.

use std::path::Path;
use std::process::Output;

use crate::common::{command, copy_fixture, git, text};

const GATE_FAILED: i32 = 3;

fn gate(krate: &Path, out: &Path, baseline: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "gate",
        "--baseline",
        baseline.to_str().unwrap(),
        "--benchmark-path",
        krate.to_str().unwrap(),
        "--scopes",
        "1..3",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    command(&args).output().unwrap()
}

/// A pull request: its edits of `src/lib.rs` (each `from` must occur once) and whether a
/// reviewer expects it to pass.
struct Pr {
    name: &'static str,
    edits: &'static [(&'static str, &'static str)],
    passes: bool,
    /// Whether it leaves the mutated code as it was: then every mutant must be matched (none
    /// new, none without a counterpart) and the figures compared too.
    same_code: bool,
    /// For a failing one: text the failure must name (the mutants that now survive).
    names: &'static str,
}

const INSERT_HEAD: &str = "    pub fn insert(&mut self, x: i64) -> bool {\n";
const INSERT_BODY: &str = "        let prev = self.before(x);\n        self.nodes.push(Node { next: None, value: x });\n        let added = Some(self.nodes.len() - 1);\n        if prev == None {\n            self.link_mut(added).next = self.head;\n            self.head = added;\n        } else {\n            self.link_mut(added).next = self.link(prev).next;\n            self.link_mut(prev).next = added;\n        }\n";
const REMOVE: &str = "    /// Removes `x`; returns whether it was present.\n    pub fn remove(&mut self, x: i64) -> bool {\n        if !self.contains(x) {\n            return false;\n        }\n        let prev = self.before(x);\n        if prev == None {\n            self.head = self.link(self.head).next;\n        } else {\n            let gone = self.link(prev).next;\n            self.link_mut(prev).next = self.link(gone).next;\n        }\n        self.size = self.size - 1;\n        true\n    }\n";

const PRS: &[Pr] = &[
    Pr {
        name: "lines added above (a comment and a constant)",
        edits: &[(
            "impl Chain {\n",
            "/// The largest chain anyone needs.\npub const LIMIT: usize = 1 << 20;\n\nimpl Chain {\n",
        )],
        same_code: true,
        passes: true,
        names: "",
    },
    Pr {
        name: "an early return at the top of insert, dead for valid inputs",
        // It adds mutants identical to later ones in `insert` (`return false`, `<` of a size):
        // their keys' ranks moved, which once failed the gate for a different mutant.
        edits: &[(
            INSERT_HEAD,
            "    pub fn insert(&mut self, x: i64) -> bool {\n        if self.size < 0 {\n            return false;\n        }\n",
        )],
        same_code: false,
        passes: true,
        names: "",
    },
    Pr {
        name: "functions reordered (remove moved above insert)",
        edits: &[
            (REMOVE, ""),
            (
                "    /// Adds `x`; returns whether it was absent.\n",
                "    /// Removes `x`; returns whether it was present.\n    pub fn remove(&mut self, x: i64) -> bool {\n        if !self.contains(x) {\n            return false;\n        }\n        let prev = self.before(x);\n        if prev == None {\n            self.head = self.link(self.head).next;\n        } else {\n            let gone = self.link(prev).next;\n            self.link_mut(prev).next = self.link(gone).next;\n        }\n        self.size = self.size - 1;\n        true\n    }\n\n    /// Adds `x`; returns whether it was absent.\n",
            ),
        ],
        same_code: false,
        passes: true,
        names: "",
    },
    Pr {
        name: "a comment inside insert",
        edits: &[(
            "        self.nodes.push(Node { next: None, value: x });\n",
            "        // The new node goes at the end of the arena; only the links order it.\n        self.nodes.push(Node { next: None, value: x });\n",
        )],
        same_code: true,
        passes: true,
        names: "",
    },
    Pr {
        name: "a local renamed in insert",
        edits: &[(
            INSERT_BODY,
            "        let at = self.before(x);\n        self.nodes.push(Node { next: None, value: x });\n        let added = Some(self.nodes.len() - 1);\n        if at == None {\n            self.link_mut(added).next = self.head;\n            self.head = added;\n        } else {\n            self.link_mut(added).next = self.link(at).next;\n            self.link_mut(at).next = added;\n        }\n",
        )],
        same_code: false,
        passes: true,
        names: "",
    },
    Pr {
        // The helper is not in the crate's `mutate` list: the line's mutants leave the run,
        // which is not a regression of the mutants that stay.
        name: "a helper extracted from insert",
        edits: &[
            (
                "        self.size = self.size + 1;\n        true\n",
                "        self.grow();\n        true\n",
            ),
            (
                "    /// Removes `x`; returns whether it was present.\n",
                "    fn grow(&mut self) {\n        self.size = self.size + 1;\n    }\n\n    /// Removes `x`; returns whether it was present.\n",
            ),
        ],
        same_code: false,
        passes: true,
        names: "",
    },
    Pr {
        name: "a weakened abstraction (compares only how many values)",
        edits: &[(
            "        input.0.values()\n    }",
            "        vec![input.0.values().len() as i64]\n    }",
        )],
        same_code: true,
        passes: false,
        names: "killed in the baseline, survives now",
    },
    Pr {
        // `chain`'s outputs (the return value and the values) are compared as well: the
        // clause judged nothing they do not, so no verdict changes, and the gate measures
        // verdicts.
        name: "a dropped postcondition clause that the outputs compared already cover",
        edits: &[(
            "            0 if *ret == was => Err(format!(\"insert returned {ret}\")),\n",
            "",
        )],
        same_code: true,
        passes: true,
        names: "",
    },
    Pr {
        name: "a narrowed finitization (the argument is always 1)",
        edits: &[(
            "b.field(ROOT, \"x\", Domain::ints(1, n64));",
            "b.field(ROOT, \"x\", Domain::ints(1, 1));",
        )],
        same_code: true,
        passes: false,
        names: "killed in the baseline, survives now",
    },
    Pr {
        name: "a redundant recomputation that makes the old line's mutants equivalent",
        edits: &[(
            "        self.size = self.size + 1;\n        true\n",
            "        self.size = self.size + 1;\n        self.size = self.nodes.len() as i64;\n        true\n",
        )],
        same_code: false,
        passes: false,
        names: "Chain::insert operator: + -> ",
    },
];

/// A repository holding a copy of `chain` and its gate baseline, committed.
struct Repo {
    _dir: tempfile::TempDir,
    repo: std::path::PathBuf,
    krate: std::path::PathBuf,
    baseline: std::path::PathBuf,
    out: std::path::PathBuf,
    lib: std::path::PathBuf,
    base: String,
    diff: std::path::PathBuf,
}

fn repo() -> Repo {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().to_path_buf();
    let krate = repo.join("chain");
    copy_fixture("chain", &krate);
    let baseline = repo.join("gate-baseline.json");
    let out = repo.join("out");
    let o = gate(&krate, &out, &baseline, &["--update-baseline"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    std::fs::write(repo.join(".gitignore"), "/out\n").unwrap();
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "base"]);
    let lib = krate.join("src/lib.rs");
    let base = std::fs::read_to_string(&lib).unwrap();
    let diff = repo.join("pr.diff");
    Repo {
        _dir: dir,
        repo,
        krate,
        baseline,
        out,
        lib,
        base,
        diff,
    }
}

/// Each of `prs` applied to the baseline's crate, gated whole and with `--in-diff`.
fn check_prs(prs: &[Pr]) {
    let Repo {
        repo,
        krate,
        baseline,
        out,
        lib,
        base,
        diff,
        ..
    } = &repo();
    for pr in prs {
        let mut source = base.clone();
        for (from, to) in pr.edits {
            assert_eq!(source.matches(from).count(), 1, "{}: {from:?}", pr.name);
            source = source.replacen(from, to, 1);
        }
        std::fs::write(lib, &source).unwrap();
        std::fs::write(diff, git(repo, &["diff"]).stdout).unwrap();
        for extra in [&[][..], &["--in-diff", diff.to_str().unwrap()][..]] {
            let o = gate(krate, out, baseline, extra);
            let (said, err) = (text(&o.stdout), text(&o.stderr));
            let what = format!("{} {extra:?}:\n{said}\n{err}", pr.name);
            if pr.same_code {
                assert!(
                    !said.contains("new mutant") && !err.contains("new mutant"),
                    "{what}"
                );
                assert!(!said.contains("no counterpart"), "{what}");
            }
            if pr.passes {
                assert!(o.status.success(), "a false alarm: {what}");
                assert!(said.contains("gate passed"), "{what}");
            } else {
                assert_eq!(
                    o.status.code(),
                    Some(GATE_FAILED),
                    "a missed regression: {what}"
                );
                assert!(err.contains(pr.names), "{what}");
                // The report: the summary first, then one line per mutant that survives
                // now; an in-diff run shows no kill rate (it measured its mutants only).
                let lines: Vec<&str> = said
                    .lines()
                    .skip_while(|l| !l.starts_with("chain against "))
                    .collect();
                // (A change of the specification side makes the in-diff run a whole one.)
                let partial = lines[1].contains("kill rates are not compared");
                assert_eq!(partial, !extra.is_empty() && !pr.same_code, "{what}");
                assert_eq!(
                    lines[1].starts_with("kill rate at scope 3: 90.06% → "),
                    !partial,
                    "{what}"
                );
                assert_eq!(said.contains("kill rate % (Δ)"), !partial, "{what}");
                assert!(lines[2].contains(" survive now · "), "{what}");
                let listed: Vec<&str> = lines
                    .iter()
                    .skip_while(|l| **l != "killed in the baseline, survive now:")
                    .skip(1)
                    .take_while(|l| l.starts_with("  ") && !l.starts_with("  and "))
                    .copied()
                    .collect();
                let n: usize = lines[2].split(' ').next().unwrap().parse().unwrap();
                assert!(n > 0 && listed.len() == n.min(20), "{what}");
                let mut keys: Vec<&str> = listed
                    .iter()
                    .map(|l| l.rsplit_once("  ").unwrap().1)
                    .collect();
                keys.sort_unstable();
                keys.dedup();
                assert_eq!(keys.len(), listed.len(), "one line per mutant: {what}");
                assert!(listed.iter().all(|l| l.contains("src/lib.rs:")), "{what}");
            }
        }
        if pr.name.starts_with("a redundant recomputation") {
            // The same failure as GitHub workflow commands, from the repository's root: an
            // `::error` at each mutant that survives now, on its line.
            let (line, held) = source
                .lines()
                .enumerate()
                .find(|(_, l)| l.contains("self.size = self.size + 1;"))
                .unwrap();
            let column = held.find("+ 1").unwrap() + 1;
            let mut args = vec!["gate", "--baseline", "gate-baseline.json"];
            args.extend(["--benchmark-path", "chain", "--scopes", "1..3"]);
            args.extend(["--out", "out", "--format", "github"]);
            let o = command(&args).current_dir(repo).output().unwrap();
            assert_eq!(o.status.code(), Some(GATE_FAILED), "{}", text(&o.stderr));
            let said = text(&o.stdout);
            let want = format!(
                "::error file=chain/src/lib.rs,line={},col={column},title=mutant survives::scopes 1..3: killed in the baseline, survives now: Chain::insert operator: + -> ",
                line + 1
            );
            assert!(said.lines().any(|l| l.starts_with(&want)), "{want}\n{said}");
            // The other regressions (the kill rate fell: the mutants are the same) without a
            // place, `%` escaped as workflow commands want it.
            for l in said.lines().filter(|l| l.starts_with("::")) {
                assert!(
                    l.starts_with("::error file=chain/src/lib.rs,")
                        || l.starts_with("::error title=ferastrau gate::scope "),
                    "{l}"
                );
            }
            assert!(said.contains("kill rate fell from 90.06%25 to "), "{said}");
        }
        git(repo, &["checkout", "-q", "--", "."]);
    }
}

/// The harmless pull requests pass both gates and the weakening ones fail both (in two
/// halves, which the test threads run side by side).
#[test]
fn harmless_pull_requests_pass_both_gates_and_weakening_ones_fail_both() {
    check_prs(&PRS[..PRS.len() / 2]);
}

#[test]
fn harmless_pull_requests_pass_both_gates_and_weakening_ones_fail_both_second_half() {
    check_prs(&PRS[PRS.len() / 2..]);
}

#[test]
fn a_pull_request_that_fixes_a_bug_passes_both_gates() {
    let Repo {
        repo,
        krate,
        baseline,
        out,
        lib,
        base,
        diff,
        ..
    } = &repo();
    // A fixed bug: `remove` reported `false` after removing (its postcondition said so, as a
    // warning; the mutants were judged against the buggy outputs). The baseline was made on
    // the buggy crate; the pull request that fixes it must pass both gates.
    let fixed = "        self.size = self.size - 1;\n        true\n";
    let buggy = "        self.size = self.size - 1;\n        false\n";
    assert_eq!(base.matches(fixed).count(), 1);
    std::fs::write(lib, base.replacen(fixed, buggy, 1)).unwrap();
    let o = gate(krate, out, baseline, &["--update-baseline"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("violates its postcondition"),
        "the bug is visible: {}",
        text(&o.stderr)
    );
    git(repo, &["commit", "-q", "-am", "a bug"]);
    std::fs::write(lib, base).unwrap();
    std::fs::write(diff, git(repo, &["diff"]).stdout).unwrap();
    for extra in [&[][..], &["--in-diff", diff.to_str().unwrap()][..]] {
        let o = gate(krate, out, baseline, extra);
        let (said, err) = (text(&o.stdout), text(&o.stderr));
        assert!(
            o.status.success(),
            "a false alarm on a fixed bug {extra:?}:\n{said}\n{err}"
        );
        assert!(said.contains("gate passed"), "{said}");
    }
}

/// A pull request that renames the mutated file (`git mv src/lib.rs src/chain.rs`, the
/// manifest's `[lib] path` following): alone it changes no verdict and every baseline mutant
/// finds its counterpart in the renamed file; with a weakened abstraction it fails the full
/// gate as the weakening alone does. (The baseline's mutants used to be "not compared" once
/// their file's name changed: the weakening passed.)
#[test]
fn a_renamed_mutated_file_keeps_its_gate() {
    let Repo {
        repo,
        krate,
        baseline,
        out,
        ..
    } = &repo();
    git(repo, &["mv", "chain/src/lib.rs", "chain/src/chain.rs"]);
    let manifest = krate.join("Cargo.toml");
    let text_of = |p: &Path| std::fs::read_to_string(p).unwrap();
    std::fs::write(
        &manifest,
        text_of(&manifest).replacen(
            "[dependencies]",
            "[lib]\npath = \"src/chain.rs\"\n\n[dependencies]",
            1,
        ),
    )
    .unwrap();
    let o = gate(krate, out, baseline, &[]);
    let (said, err) = (text(&o.stdout), text(&o.stderr));
    assert!(o.status.success(), "a false alarm:\n{said}\n{err}");
    assert!(
        !said.contains("new mutant")
            && !err.contains("new mutant")
            && !said.contains("no counterpart"),
        "every mutant matched:\n{said}\n{err}"
    );
    let weakened = &PRS
        .iter()
        .find(|p| p.name.starts_with("a weakened abstraction"))
        .unwrap()
        .edits[0];
    let moved = krate.join("src/chain.rs");
    let source = text_of(&moved);
    assert_eq!(source.matches(weakened.0).count(), 1);
    std::fs::write(&moved, source.replacen(weakened.0, weakened.1, 1)).unwrap();
    let o = gate(krate, out, baseline, &[]);
    let (said, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(
        o.status.code(),
        Some(GATE_FAILED),
        "a missed regression:\n{said}\n{err}"
    );
    assert!(
        err.contains("killed in the baseline, survives now") && said.contains("src/chain.rs:"),
        "{said}\n{err}"
    );
}
