//! The gate on pull requests, as a reviewer expects it (issues 30 and 53): `testdata/chain` in
//! a git repository with a committed baseline, and scripted pull requests ([`PRS`]), each gated
//! in full and with `--in-diff` of its `git diff`: harmless changes pass both (no false alarm);
//! a change that weakens the tests (the specification side), makes mutants equivalent or makes
//! a helper dead fails both, naming the mutants that now survive, wherever the function moved
//! or whatever it is called now; a function dropped from the gate fails unless accepted; diffs
//! without hunks (renames, binary files, modes, empty files) are read and gate nothing; what
//! the change leaves untested is said. Then a bug fixed against a baseline made on the buggy
//! crate, and a renamed mutated file.

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

/// A pull request: its edits of `src/lib.rs` (each `from` must occur once), its other changes
/// to the repository, and what a reviewer expects of both gates.
struct Pr {
    name: &'static str,
    edits: &'static [(&'static str, &'static str)],
    /// Changes to other files of the repository (given its root), after the edits: files
    /// added, moved, made executable.
    files: fn(&Path),
    /// Options of `git diff` besides `--cached` (what makes `--in-diff`'s diff).
    diff: &'static [&'static str],
    /// What `--in-diff` evaluates.
    selects: Selects,
    passes: bool,
    /// Whether it leaves the mutated code as it was: then every mutant must be matched (none
    /// new, none without a counterpart) and the figures compared too.
    same_code: bool,
    /// For a failing one: text the failure must name (the mutants that now survive).
    names: &'static str,
    /// Text both gates must print (a note).
    says: &'static [&'static str],
    /// Text `--in-diff` must print: the functions it evaluates, and why.
    chosen: &'static [&'static str],
    /// Options both gates get.
    args: &'static [&'static str],
}

/// What `--in-diff` evaluates for a pull request.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Selects {
    /// The mutants of some functions: a partial run, compared mutant by mutant.
    Functions,
    /// Every mutant: a whole run, compared as the full gate compares it.
    Everything,
    /// Nothing: "nothing to gate", no run.
    Nothing,
}

/// A pull request's defaults: no other file changed, a plain `git diff`, nothing more said.
const PR: Pr = Pr {
    name: "",
    edits: &[],
    files: |_| {},
    diff: &[],
    selects: Selects::Everything,
    passes: true,
    same_code: true,
    names: "",
    says: &[],
    chosen: &[],
    args: &[],
};

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
        ..PR
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
        selects: Selects::Functions,
        // What `insert` calls is evaluated with it.
        chosen: &["Chain::insert (changed)", "Chain::before (called by Chain::insert)"],
        ..PR
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
        // The lines the move removed end where `values` (not mutated) starts: a change
        // outside the mutated functions, as far as the diff tells.
        selects: Selects::Everything,
        ..PR
    },
    Pr {
        name: "a comment inside insert",
        edits: &[(
            "        self.nodes.push(Node { next: None, value: x });\n",
            "        // The new node goes at the end of the arena; only the links order it.\n        self.nodes.push(Node { next: None, value: x });\n",
        )],
        selects: Selects::Functions,
        ..PR
    },
    Pr {
        name: "a local renamed in insert",
        edits: &[(
            INSERT_BODY,
            "        let at = self.before(x);\n        self.nodes.push(Node { next: None, value: x });\n        let added = Some(self.nodes.len() - 1);\n        if at == None {\n            self.link_mut(added).next = self.head;\n            self.head = added;\n        } else {\n            self.link_mut(added).next = self.link(at).next;\n            self.link_mut(at).next = added;\n        }\n",
        )],
        same_code: false,
        selects: Selects::Functions,
        ..PR
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
        ..PR
    },
    Pr {
        name: "a weakened abstraction (compares only how many values)",
        edits: &[(WEAKENED.0, WEAKENED.1)],
        passes: false,
        names: "killed in the baseline, survives now",
        ..PR
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
        ..PR
    },
    Pr {
        name: "a narrowed finitization (the argument is always 1)",
        edits: &[(
            "b.field(ROOT, \"x\", Domain::ints(1, n64));",
            "b.field(ROOT, \"x\", Domain::ints(1, 1));",
        )],
        passes: false,
        names: "killed in the baseline, survives now",
        ..PR
    },
    Pr {
        name: "a redundant recomputation that makes the old line's mutants equivalent",
        edits: &[(
            "        self.size = self.size + 1;\n        true\n",
            "        self.size = self.size + 1;\n        self.size = self.nodes.len() as i64;\n        true\n",
        )],
        same_code: false,
        selects: Selects::Functions,
        passes: false,
        names: "Chain::insert operator: + -> ",
        ..PR
    },
    // Moves and renames (issue 53, item 1): a function keeps its gate wherever it goes.
    Pr {
        name: "a function moved to another file (remove into src/ops.rs)",
        edits: &[(REMOVE, ""), (USES, MOD_OPS)],
        files: |repo| write(repo, "chain/src/ops.rs", &ops(REMOVE)),
        ..PR
    },
    Pr {
        name: "a function moved to another file and weakened on the way",
        edits: &[(REMOVE, ""), (USES, MOD_OPS)],
        files: |repo| {
            let weakened = REMOVE.replacen(SIZE_DOWN, RECOUNTED, 1);
            assert_ne!(weakened, REMOVE);
            write(repo, "chain/src/ops.rs", &ops(&weakened))
        },
        passes: false,
        same_code: false,
        names: "killed in the baseline, survives now: Chain::remove operator: - -> ",
        ..PR
    },
    Pr {
        name: "a function renamed (remove becomes delete; the manifest and run follow)",
        edits: &[(REMOVE_HEAD, DELETE_HEAD), (RUN_REMOVE, RUN_DELETE)],
        files: rename_in_manifest,
        ..PR
    },
    Pr {
        name: "a function renamed and weakened",
        edits: &[
            (REMOVE_HEAD, DELETE_HEAD),
            (RUN_REMOVE, RUN_DELETE),
            (SIZE_DOWN, RECOUNTED),
        ],
        files: rename_in_manifest,
        passes: false,
        same_code: false,
        names: "killed in the baseline, survives now: Chain::delete operator: - -> ",
        ..PR
    },
    Pr {
        // A fifth of the baseline's mutants are compared with nothing: not a pass by default.
        name: "a mutated function dropped from the manifest's mutate list",
        files: |repo| edit_file(repo, "chain/Cargo.toml", "\"Chain::remove\", ", ""),
        passes: false,
        same_code: false,
        names: "mutants (21.7%, over 10%) found no counterpart in this run",
        says: &["baseline mutant(s) of `Chain::remove` not compared"],
        ..PR
    },
    Pr {
        name: "the same, accepted with --accept-unmatched",
        files: |repo| edit_file(repo, "chain/Cargo.toml", "\"Chain::remove\", ", ""),
        same_code: false,
        says: &["of `Chain::remove` not compared: no function of this run matches it (deleted, renamed beyond recognition, or no longer in `mutate`); accepted (--accept-unmatched)"],
        args: &["--accept-unmatched"],
        ..PR
    },
    // Effects across functions (item 2): `contains` inlined where it was called is dead code
    // now; its mutants, all killed in the baseline, survive. A run of the changed functions
    // alone passed; `contains` is evaluated because the changed lines name it.
    Pr {
        name: "a helper made dead (contains inlined in insert and remove)",
        edits: &[
            (
                "        if self.contains(x) {\n",
                "        if self.values().contains(&x) {\n",
            ),
            (
                "        if !self.contains(x) {\n",
                "        if !self.values().contains(&x) {\n",
            ),
        ],
        selects: Selects::Functions,
        passes: false,
        same_code: false,
        names: "killed in the baseline, survives now: Chain::contains ",
        chosen: &["Chain::contains (named by a line the diff changes in Chain::"],
        ..PR
    },
    // Diffs without hunks (item 3): nothing the verdicts depend on.
    Pr {
        name: "a pure rename of a file nothing depends on (README.md to NOTES.md)",
        files: |repo| mv(repo, "chain/README.md", "chain/NOTES.md"),
        selects: Selects::Nothing,
        ..PR
    },
    Pr {
        name: "an empty new file",
        files: |repo| write(repo, "chain/CHANGELOG.md", ""),
        selects: Selects::Nothing,
        ..PR
    },
    Pr {
        name: "a binary file changed",
        files: |repo| write_bytes(repo, "chain/logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\x02"),
        selects: Selects::Nothing,
        ..PR
    },
    Pr {
        name: "a binary file changed, as `git diff --binary` writes it",
        files: |repo| write_bytes(repo, "chain/logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\x03"),
        diff: &["--binary"],
        selects: Selects::Nothing,
        ..PR
    },
    Pr {
        name: "a mode change (a script made executable)",
        files: |repo| {
            use std::os::unix::fs::PermissionsExt;
            let script = repo.join("chain/tools/check.sh");
            std::fs::set_permissions(script, std::fs::Permissions::from_mode(0o755)).unwrap();
        },
        selects: Selects::Nothing,
        ..PR
    },
    Pr {
        // Once a panic (exit 101): an entry without hunks after an ordinary patch.
        name: "a comment in insert beside a pure rename, a binary file and a mode change",
        edits: &[(
            "        self.nodes.push(Node { next: None, value: x });\n",
            "        // The new node goes at the end of the arena.\n        self.nodes.push(Node { next: None, value: x });\n",
        )],
        files: |repo| {
            mv(repo, "chain/README.md", "chain/NOTES.md");
            write_bytes(repo, "chain/logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\x04");
            use std::os::unix::fs::PermissionsExt;
            let script = repo.join("chain/tools/check.sh");
            std::fs::set_permissions(script, std::fs::Permissions::from_mode(0o755)).unwrap();
        },
        selects: Selects::Functions,
        ..PR
    },
    // What is not tested (item 6): said, not failed.
    Pr {
        name: "a new public method that nothing calls",
        edits: &[(
            "    /// The values from the head on (the abstraction).\n",
            "    /// The smallest value, if any.\n    pub fn peek(&self) -> Option<i64> {\n        self.head.map(|h| self.nodes[h].value)\n    }\n\n    /// The values from the head on (the abstraction).\n",
        )],
        says: &["`Chain::peek` is new and public, but not mutated and no input calls it"],
        ..PR
    },
    Pr {
        name: "new code that no input reaches (a check at the top of last)",
        edits: &[(
            "    pub fn last(&self, _x: i64) -> Option<NodeId> {\n",
            "    pub fn last(&self, _x: i64) -> Option<NodeId> {\n        if self.size > 1 && self.size < 0 {\n            return None;\n        }\n",
        )],
        selects: Selects::Functions,
        same_code: false,
        says: &["new mutant(s) of `Chain::last` are reached by no input at any scope"],
        ..PR
    },
    Pr {
        name: "a widened finitization that raises the kill rate",
        edits: &[(
            "b.field(ROOT, \"x\", Domain::ints(1, n64));",
            "b.field(ROOT, \"x\", Domain::ints(0, n64 + 1));",
        )],
        says: &["the kill rate rose (scope 1: 42.24% → ", "ratchet the baseline with --update-baseline"],
        ..PR
    },
];

const WEAKENED: (&str, &str) = (
    "        input.0.values()\n    }",
    "        vec![input.0.values().len() as i64]\n    }",
);
const USES: &str = "use ferastrau_sdk::Benchmark;\n";
const MOD_OPS: &str = "use ferastrau_sdk::Benchmark;\n\nmod ops;\n";
const REMOVE_HEAD: &str = "    pub fn remove(&mut self, x: i64) -> bool {\n";
const DELETE_HEAD: &str = "    pub fn delete(&mut self, x: i64) -> bool {\n";
const RUN_REMOVE: &str = "            _ => input.0.remove(input.1),\n";
const RUN_DELETE: &str = "            _ => input.0.delete(input.1),\n";
const SIZE_DOWN: &str = "        self.size = self.size - 1;\n";
/// After the decrement, a recount that makes the decrement's mutants equivalent. Written in
/// `remove` itself, where the tick budget stops a mutant's loop at once: through `values()`,
/// which no budget watches, a mutant that left a cycle ran to the clock limit, twice (its
/// confirmation), and the two pull requests cost five times the others.
const RECOUNTED: &str = "        self.size = self.size - 1;\n        let mut n = 0;\n        let mut at = self.head;\n        while let Some(i) = at.filter(|_| n < self.nodes.len()) {\n            n += 1;\n            at = self.nodes[i].next;\n        }\n        self.size = n as i64;\n";

/// `src/ops.rs` holding `function` (a method of `Chain`).
fn ops(function: &str) -> String {
    format!("use crate::Chain;\n\nimpl Chain {{\n{function}}}\n")
}

fn rename_in_manifest(repo: &Path) {
    edit_file(
        repo,
        "chain/Cargo.toml",
        "\"Chain::remove\"",
        "\"Chain::delete\"",
    );
}

fn write(repo: &Path, rel: &str, text: &str) {
    write_bytes(repo, rel, text.as_bytes());
}

fn write_bytes(repo: &Path, rel: &str, bytes: &[u8]) {
    let path = repo.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn edit_file(repo: &Path, rel: &str, from: &str, to: &str) {
    crate::common::edit(&repo.join(rel), from, to);
}

fn mv(repo: &Path, from: &str, to: &str) {
    git(repo, &["mv", from, to]);
}

/// A repository holding a copy of `chain` (with a README, a binary file and a script beside
/// it, which nothing the verdicts depend on) and its gate baseline, committed.
struct Repo {
    _dir: tempfile::TempDir,
    repo: std::path::PathBuf,
    krate: std::path::PathBuf,
    baseline: std::path::PathBuf,
    out: std::path::PathBuf,
    lib: std::path::PathBuf,
    base: String,
    /// Where each pull request's diff is written: outside the repository.
    diff: std::path::PathBuf,
}

fn repo() -> Repo {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let krate = repo.join("chain");
    copy_fixture("chain", &krate);
    write(
        &repo,
        "chain/README.md",
        "# chain\n\nA sorted linked set.\n",
    );
    write_bytes(&repo, "chain/logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\x01");
    write(&repo, "chain/tools/check.sh", "cargo check\n");
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
    let diff = dir.path().join("pr.diff");
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

/// Each of `prs` applied to the baseline's crate, gated whole and with `--in-diff` of its
/// `git diff`, each gate's verdict and report checked.
fn check_prs(prs: &[&Pr]) {
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
        let source = open(pr, repo, lib, base, diff);
        for in_diff in [false, true] {
            let mut args: Vec<&str> = pr.args.to_vec();
            if in_diff {
                args.extend(["--in-diff", diff.to_str().unwrap()]);
            }
            let o = gate(krate, out, baseline, &args);
            check_verdict(pr, in_diff, &args, &o);
        }
        if pr.name.starts_with("a redundant recomputation") {
            github_annotations(repo, &source);
        }
        git(repo, &["reset", "-q", "--hard"]);
        git(repo, &["clean", "-fdq"]);
    }
}

/// Opens `pr` in the repository at `repo`: its edits of `base` (the baseline's source) written
/// to `lib`, its other changes made, all staged, and the `git diff` of them written to `diff`.
/// Returns the edited source.
fn open(pr: &Pr, repo: &Path, lib: &Path, base: &str, diff: &Path) -> String {
    let mut source = base.to_string();
    for (from, to) in pr.edits {
        assert_eq!(source.matches(from).count(), 1, "{}: {from:?}", pr.name);
        source = source.replacen(from, to, 1);
    }
    std::fs::write(lib, &source).unwrap();
    (pr.files)(repo);
    git(repo, &["add", "-A"]);
    let mut diff_args = vec!["diff", "--cached"];
    diff_args.extend(pr.diff);
    std::fs::write(diff, git(repo, &diff_args).stdout).unwrap();
    source
}

/// One gate of `pr` (run with `args`, `--in-diff` among them if `in_diff`) ended as a reviewer
/// expects: no panic, every mutant matched when the mutated code is unchanged, `--in-diff`'s
/// choice and the pull request's notes said, and the verdict `pr.passes` says; a failure
/// names what it must, in the report [`check_failure_report`] checks.
fn check_verdict(pr: &Pr, in_diff: bool, args: &[&str], o: &Output) {
    let (said, err) = (text(&o.stdout), text(&o.stderr));
    let what = format!("{} {args:?}:\n{said}\n{err}", pr.name);
    assert_ne!(o.status.code(), Some(101), "a panic: {what}");
    if pr.same_code {
        assert!(
            !said.contains("new mutant") && !err.contains("new mutant"),
            "{what}"
        );
        assert!(!said.contains("no counterpart"), "{what}");
        assert!(!said.contains("not compared: no function"), "{what}");
    }
    if in_diff {
        let note = match pr.selects {
            Selects::Functions => "--in-diff: the mutants of ",
            Selects::Everything => "--in-diff: every mutant is evaluated",
            Selects::Nothing => "nothing to evaluate for --in-diff",
        };
        assert!(said.contains(note) || err.contains(note), "{note}: {what}");
    }
    let says = match in_diff {
        true if pr.selects == Selects::Nothing => pr.chosen,
        true => &[pr.says, pr.chosen].concat(),
        false => pr.says,
    };
    for words in says {
        assert!(
            said.contains(words) || err.contains(words),
            "{words}: {what}"
        );
    }
    if pr.passes {
        assert!(o.status.success(), "a false alarm: {what}");
        assert!(said.contains("gate passed"), "{what}");
        return;
    }
    assert_eq!(
        o.status.code(),
        Some(GATE_FAILED),
        "a missed regression: {what}"
    );
    assert!(err.contains(pr.names), "{what}");
    check_failure_report(pr, in_diff, &said, &what);
}

/// The report of a failing gate of `pr` (its stdout `said`): the summary first, then one line
/// per mutant that survives now; an in-diff run of some functions shows no kill rate (it
/// measured their mutants).
fn check_failure_report(pr: &Pr, in_diff: bool, said: &str, what: &str) {
    let lines: Vec<&str> = said
        .lines()
        .skip_while(|l| !l.starts_with("chain against "))
        .collect();
    let partial = lines[1].contains("kill rates are not compared");
    assert_eq!(
        partial,
        in_diff && pr.selects == Selects::Functions,
        "{what}"
    );
    if !partial && pr.same_code {
        assert!(
            lines[1].starts_with("kill rate at scope 3: 90.06% → "),
            "{what}"
        );
    }
    assert_eq!(said.contains("kill rate % (Δ)"), !partial, "{what}");
    let survive: Vec<&str> = lines
        .iter()
        .skip_while(|l| **l != "killed in the baseline, survive now:")
        .skip(1)
        .take_while(|l| l.starts_with("  ") && !l.starts_with("  and "))
        .copied()
        .collect();
    let n: usize = lines
        .iter()
        .find(|l| l.contains(" survive now · "))
        .and_then(|l| l.split(' ').next()?.parse().ok())
        .unwrap_or(0);
    assert_eq!(survive.len(), n.min(20), "{what}");
    let mut keys: Vec<&str> = survive
        .iter()
        .map(|l| l.rsplit_once("  ").unwrap().1)
        .collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), survive.len(), "one line per mutant: {what}");
    assert!(survive.iter().all(|l| l.contains("src/")), "{what}");
}

/// The redundant recomputation's failure as GitHub workflow commands, from the repository's
/// root: an `::error` at a mutant that survives now, on its line.
fn github_annotations(repo: &Path, source: &str) {
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
            l.starts_with("::error file=chain/src/lib.rs,") || l.starts_with("::error title="),
            "{l}"
        );
    }
    assert!(said.contains("kill rate fell from 90.06%25 to "), "{said}");
}

/// Every pull request passes both gates or fails both as a reviewer expects, in five parts
/// that the test threads run side by side: part `k` takes every fifth pull request from the
/// `k`th, so that the costly ones (new code to mutate and build) spread over the parts and no
/// part is left running alone at the end of the tests.
fn part(k: usize) {
    let prs: Vec<&Pr> = PRS.iter().skip(k).step_by(PARTS).collect();
    check_prs(&prs);
}

const PARTS: usize = 5;

#[test]
fn pull_requests_pass_or_fail_both_gates_as_a_reviewer_expects_1() {
    part(0);
}

#[test]
fn pull_requests_pass_or_fail_both_gates_as_a_reviewer_expects_2() {
    part(1);
}

#[test]
fn pull_requests_pass_or_fail_both_gates_as_a_reviewer_expects_3() {
    part(2);
}

#[test]
fn pull_requests_pass_or_fail_both_gates_as_a_reviewer_expects_4() {
    part(3);
}

#[test]
fn pull_requests_pass_or_fail_both_gates_as_a_reviewer_expects_5() {
    part(4);
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
    let weakened = WEAKENED;
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
