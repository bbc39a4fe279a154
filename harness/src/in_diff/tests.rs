use super::parser::path;
use super::*;

#[test]
fn added_and_removed_lines_count_on_the_new_side() {
    let diff = "\
diff --git a/b/x/src/lib.rs b/b/x/src/lib.rs
--- a/b/x/src/lib.rs
+++ b/b/x/src/lib.rs
@@ -10,5 +10,4 @@ fn f() {
     let a = 1;
-    let b = a + 1;
+    let b = a - 1;
     let c = 2;
-    let d = 3;
     let e = 4;
";
    let c = ChangedLines::parse(diff).unwrap();
    // `a/` and `b/` are the prefixes; what follows is the path.
    let lines = &c.files[Path::new("b/x/src/lib.rs")];
    assert_eq!(lines.keys().copied().collect::<Vec<_>>(), [11, 13]);
    assert!(ChangedLines::parse("").unwrap().files.is_empty());
    assert!(ChangedLines::parse("@@ nonsense").is_err());
}

/// One change, as git writes it with every kind of prefix: each reads as `src/lib.rs`.
#[test]
fn every_prefix_git_writes_is_read_as_a_prefix() {
    let body = "@@ -1,2 +1,2 @@\n a\n-b\n+c\n";
    for (old, new) in [
        ("a/src/lib.rs", "b/src/lib.rs"),
        ("i/src/lib.rs", "w/src/lib.rs"),
        ("c/src/lib.rs", "w/src/lib.rs"),
        ("o/src/lib.rs", "w/src/lib.rs"),
        ("src/lib.rs", "src/lib.rs"),
        ("old/src/lib.rs", "new/src/lib.rs"),
    ] {
        let diff = format!("--- {old}\n+++ {new}\n{body}");
        let c = ChangedLines::parse(&diff).unwrap();
        assert_eq!(c.names(), ["src/lib.rs"], "{old} {new}");
        assert!(c.names_any(&[PathBuf::from("/home/u/crate/src/lib.rs")]));
        assert!(!c.names_any(&[PathBuf::from("/home/u/crate/src/tree.rs")]));
    }
    // A new file: both readings, so a prefixed and an unprefixed diff both place it.
    for new in ["w/src/new.rs", "src/new.rs"] {
        let diff = format!("--- /dev/null\n+++ {new}\n@@ -0,0 +1,1 @@\n+x\n");
        let c = ChangedLines::parse(&diff).unwrap();
        assert!(c.names_any(&[PathBuf::from("/c/src/new.rs")]), "{new}");
    }
}

/// `git diff --cached` of a commit with every kind of change git writes (made by git 2.47:
/// a binary file, a deletion, a mode change, an empty file renamed, a new file without a
/// final newline, a path with a space, a change, a pure rename, a non-ASCII path).
const EVERY_FORM: &str = "\
diff --git a/data.bin b/data.bin
index 88768ef..3e3315e 100644
Binary files a/data.bin and b/data.bin differ
diff --git a/gone.rs b/gone.rs
deleted file mode 100644
index 286c5f5..0000000
--- a/gone.rs
+++ /dev/null
@@ -1 +0,0 @@
-gone
diff --git a/mode.sh b/mode.sh
old mode 100644
new mode 100755
diff --git a/emptygone b/newempty
similarity index 100%
rename from emptygone
rename to newempty
diff --git a/nonl.rs b/nonl.rs
new file mode 100644
index 0000000..f2ba8f8
--- /dev/null
+++ b/nonl.rs
@@ -0,0 +1 @@
+abc
\\ No newline at end of file
diff --git a/sp ace.rs b/sp ace.rs
index 2fa992c..a09deca 100644
--- a/sp ace.rs\t
+++ b/sp ace.rs\t
@@ -1 +1 @@
-keep
+keep2
diff --git a/src/lib.rs b/src/lib.rs
index 428f925..e00079b 100644
--- a/src/lib.rs
+++ b/src/lib.rs
@@ -1,5 +1,5 @@
 fn a() {
-    1
+    10
 }
 fn b() {
     2
diff --git a/src/old.rs b/src/new.rs
similarity index 100%
rename from src/old.rs
rename to src/new.rs
diff --git \"a/t\\303\\251st.rs\" \"b/t\\303\\251st.rs\"
index 4ae8ef0..967e095 100644
--- \"a/t\\303\\251st.rs\"
+++ \"b/t\\303\\251st.rs\"
@@ -1 +1 @@
-u
+u2
";

#[test]
fn every_form_git_diff_writes_is_read() {
    let c = ChangedLines::parse(EVERY_FORM).unwrap();
    let lines = |name: &str| c.files[Path::new(name)].keys().copied().collect::<Vec<_>>();
    assert_eq!(lines("src/lib.rs"), [2]);
    assert_eq!(lines("sp ace.rs"), [1]);
    assert_eq!(lines("tést.rs"), [1]);
    assert_eq!(lines("nonl.rs"), [1]);
    assert!(lines("mode.sh").is_empty());
    let set = |s: &BTreeSet<PathBuf>| -> Vec<String> {
        s.iter().map(|p| p.display().to_string()).collect()
    };
    // A rename's old path is gone from the crate; its new one is new to it, whole.
    assert_eq!(set(&c.deleted), ["a/gone.rs", "emptygone", "src/old.rs"]);
    assert_eq!(set(&c.whole), ["data.bin", "newempty", "src/new.rs"]);
    let functions = [place("S::add", 10, 20)];
    let crate_files = ["src/lib.rs", "src/new.rs"].map(String::from);
    let why = |c: &ChangedLines| match c.select(Path::new("/r"), &crate_files, &functions) {
        Selection::Everything { why } => why,
        other => panic!("{other:?}"),
    };
    assert!(why(&c).contains("deletes src/old.rs"), "{}", why(&c));
    // A file renamed into the library from elsewhere is new code of it.
    let moved = "diff --git a/tests/h.rs b/src/h.rs\nsimilarity index 100%\nrename from tests/h.rs\nrename to src/h.rs\n";
    let crate_files = ["src/lib.rs", "src/h.rs", "tests/x.rs"].map(String::from);
    let c = ChangedLines::parse(moved).unwrap();
    match c.select(Path::new("/r"), &crate_files, &functions) {
        Selection::Everything { why } => assert!(why.contains("src/h.rs in whole"), "{why}"),
        other => panic!("{other:?}"),
    }
    // `--binary`, GNU `diff -ruN`, CRLF line ends: read alike.
    let binary = "diff --git a/d.bin b/d.bin\nindex 88768ef..3e3315e 100644\nGIT binary patch\nliteral 5\nMcmZQzO3KUw00MIXJOBUy\n\nliteral 5\nMcmZQzOv=my00M6TI{*Lx\n\n";
    let gnu = "Binary files d1/b.bin and d2/b.bin differ\ndiff -ruN d1/src/x.rs d2/src/x.rs\n--- d1/src/x.rs\t2026-12-02 04:05:10.812266033 +0000\n+++ d2/src/x.rs\t2026-12-02 04:05:10.812266033 +0000\n@@ -1 +1 @@\n-a\n+b\n";
    let crlf = hunk("src/x.rs", 3).replace('\n', "\r\n");
    for (diff, name) in [(binary, "d.bin"), (gnu, "src/x.rs"), (&crlf, "src/x.rs")] {
        let c = ChangedLines::parse(diff).unwrap_or_else(|e| panic!("{e:#}\n{diff}"));
        assert!(c.files.contains_key(Path::new(name)), "{:?}", c.files);
    }
    // A path of non-UTF-8 bytes, as git quotes it.
    let c = ChangedLines::parse(
        hunk("\\377.rs", 1)
            .replace("a/\\", "\"a/\\")
            .replace("b/\\", "\"b/\\")
            .replace(".rs\n", ".rs\"\n"),
    )
    .unwrap();
    assert!(c.files.contains_key(&path(b"\xff.rs")), "{:?}", c.files);
}

/// What is not `git diff` output is refused (status 2) with the line and the form
/// `--in-diff` takes, never read in part: a word diff whose first file reads as a hunk of
/// context, text after a diff, a coloured diff, a hunk cut short, a combined diff. (The
/// `patch` crate panicked on the first two.)
#[test]
fn what_is_not_git_diff_output_is_refused_with_its_line() {
    let word = "\
diff --git a/src/lib.rs b/src/lib.rs
index 428f925..e00079b 100644
--- a/src/lib.rs
+++ b/src/lib.rs
@@ -2 +2 @@
    [-1-]{+10+}
diff --git a/src/b.rs b/src/b.rs
--- a/src/b.rs
+++ b/src/b.rs
@@ -1 +1 @@
fn [-b-]{+c+}() {}
";
    let after = hunk("src/lib.rs", 3) + "\nThanks for the review!\n";
    let colour = "\u{1b}[1mdiff --git a/x b/x\u{1b}[m\n\u{1b}[1m--- a/x\u{1b}[m\n";
    let cut = "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n";
    let combined = "diff --cc src/lib.rs\nindex 1,2..3\n--- a/src/lib.rs\n+++ b/src/lib.rs\n@@@ -1,1 -1,1 +1,1 @@@\n- a\n +b\n";
    let headless = "@@ -1 +1 @@\n-a\n+b\n";
    // A `-- ` line the hunk did not count, not followed by git's version: no signature.
    let stray = hunk("src/lib.rs", 3) + "-- \n+c\n";
    for (diff, line) in [
        (stray.as_str(), "line 6:"),
        (word, "line 5:"),
        (&after, "line 7:"),
        (colour, "line 1:"),
        (cut, "line 5:"),
        (combined, "line 1:"),
        (headless, "line 1:"),
    ] {
        let e = ChangedLines::parse(diff).unwrap_err();
        let message = format!("{e:#}");
        assert!(message.starts_with(line), "{message}\n{diff}");
        assert!(
            message.contains("takes the output of `git diff`"),
            "{message}"
        );
        assert_eq!(
            ferastrau_console::exit_code::of(&e),
            ferastrau_console::exit_code::Exit::Usage
        );
    }
}

/// Arbitrary bytes ([`crate::fuzz`]): a refusal or a reading, never a panic; what is read
/// is selected from as a run would.
#[test]
fn fuzz_a_diff_never_panics_its_reader() {
    let binary = "diff --git a/d.bin b/d.bin\nnew file mode 100644\nindex 0000000..3e3315e\nGIT binary patch\nliteral 5\nMcmZQzO3KUw00MIXJOBUy\n\nliteral 0\nHcmV?d00001\n\n";
    let gnu = "Binary files d1/b.bin and d2/b.bin differ\ndiff -ruN d1/src/x.rs d2/src/x.rs\n--- d1/src/x.rs\t2026-12-02 04:05:10.812266033 +0000\n+++ d2/src/x.rs\t2026-12-02 04:05:10.812266033 +0000\n@@ -1,2 +1 @@\n-a\n b\n";
    let seeds = [EVERY_FORM.as_bytes(), binary.as_bytes(), gnu.as_bytes()];
    let tokens: &[&[u8]] = &[
        b"diff --git ",
        b"diff --cc ",
        b"--- ",
        b"+++ ",
        b"@@ -",
        b" +",
        b" @@",
        b",",
        b"\n",
        b"\r\n",
        b" ",
        b"-",
        b"+",
        b"\\ No newline at end of file\n",
        b"/dev/null",
        b"a/",
        b"b/",
        b"\"",
        b"\\",
        b"\\377",
        b"\t",
        b"Binary files ",
        b" and ",
        b" differ",
        b"GIT binary patch\n",
        b"literal 5\n",
        b"rename from ",
        b"rename to ",
        b"copy to ",
        b"deleted file mode 100644\n",
        b"new file mode 100644\n",
        b"-- \n2.43.0\n",
    ];
    let functions = [place("S::add", 1, 3), place("S::remove", 4, 9)];
    let files = ["Cargo.toml", "src/lib.rs", "src/new.rs", "nonl.rs"].map(String::from);
    crate::fuzz::no_panic("--in-diff", 0, &seeds, tokens, |bytes| {
        if let Ok(c) = ChangedLines::parse(bytes) {
            c.names();
            c.select(Path::new("/r"), &files, &functions);
        }
    });
}

/// What `git diff` writes for a pull request of every kind of entry (a patch, a pure
/// rename, a copy, a deletion, a mode change, a binary file, an empty new file, a file
/// without a final newline, paths with spaces and non-ASCII bytes), under every option that
/// changes its form (rename and copy detection, binary patches, prefixes, context, diff
/// algorithms, reversal, `git show`, `git format-patch`): read without a refusal or a
/// panic, and the patched line found wherever the options put it.
#[test]
fn every_diff_git_writes_for_a_pull_request_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    let git = |args: &[&str]| -> Vec<u8> {
        let o = std::process::Command::new("git")
            .arg("-C")
            .arg(repo)
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(["-c", "core.quotepath=true", "-c", "diff.noprefix=false"])
            .args(args)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        o.stdout
    };
    let write = |rel: &str, bytes: &[u8]| {
        let path = repo.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    };
    let body: String = (1..=30).map(|i| format!("    let v{i} = {i};\n")).collect();
    let lib = format!("fn f() {{\n{body}}}\n");
    git(&["init", "-q"]);
    write("src/lib.rs", lib.as_bytes());
    write("src/a b.rs", b"fn spaced() {}\n");
    write("src/t\u{e9}st.rs", b"fn accented() {}\n");
    write("src/gone.rs", b"fn gone() {}\n");
    write("data.bin", b"\0\x01\x02binary\0");
    write("run.sh", b"true\n");
    write("src/copied.rs", lib.replace("fn f()", "fn g()").as_bytes());
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "base"]);
    write(
        "src/lib.rs",
        lib.replace("let v15 = 15;", "let v15 = 16;").as_bytes(),
    );
    git(&["mv", "src/a b.rs", "src/c d.rs"]);
    std::fs::remove_file(repo.join("src/gone.rs")).unwrap();
    write("src/new copy.rs", lib.as_bytes());
    write("data.bin", b"\0\x01\x03binary\0");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(repo.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    write("empty", b"");
    write("nonl.rs", b"fn nonl() {}");
    write("src/t\u{e9}st.rs", b"fn accented() { 1; }\n");
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "pull request"]);
    let dimensions: [&[&[&str]]; 6] = [
        &[
            &[],
            &["--no-renames"],
            &["-C", "--find-copies-harder"],
            &["-M50%"],
        ],
        &[&[], &["--binary"], &["--text"]],
        &[
            &[],
            &["--no-prefix"],
            &["--src-prefix=x/", "--dst-prefix=y/"],
            &["--src-prefix=", "--dst-prefix="],
        ],
        &[&[], &["-U0"], &["-U12"], &["--function-context"]],
        &[&[], &["--patience"], &["--histogram"], &["--minimal"]],
        &[&[], &["--full-index"], &["-R"], &["--ignore-space-change"]],
    ];
    // Each option with the others at their defaults, then combinations of all of them.
    let mut runs: Vec<Vec<&str>> = Vec::new();
    for (d, options) in dimensions.iter().enumerate() {
        for o in options.iter() {
            let mut run = vec![];
            for (e, others) in dimensions.iter().enumerate() {
                run.extend(if e == d { *o } else { others[0] });
            }
            runs.push(run);
        }
    }
    for k in 0..40usize {
        let mut run = vec![];
        for (d, options) in dimensions.iter().enumerate() {
            run.extend(options[(k * 7 + d * 3 + k / (d + 1)) % options.len()]);
        }
        runs.push(run);
    }
    let mut texts: Vec<(String, Vec<u8>)> = Vec::new();
    for run in &runs {
        let mut args = vec!["diff", "HEAD~1", "HEAD"];
        args.extend(run);
        texts.push((format!("{args:?}"), git(&args)));
    }
    for extra in [
        &["show", "HEAD"][..],
        &["format-patch", "-1", "--stdout", "HEAD"][..],
    ] {
        texts.push((format!("{extra:?}"), git(extra)));
    }
    let functions = [place("f", 1, 32)];
    let files = ["src/lib.rs", "src/c d.rs", "src/new copy.rs"].map(String::from);
    for (what, text) in &texts {
        let c = ChangedLines::parse(text)
            .unwrap_or_else(|e| panic!("{what}: {e:#}\n{}", String::from_utf8_lossy(text)));
        let lib = c
            .files
            .iter()
            .find(|(name, _)| name.ends_with("src/lib.rs"))
            .unwrap_or_else(|| panic!("{what}: {:?}", c.files.keys()));
        assert!(lib.1.contains_key(&16), "{what}: {:?}", lib.1.keys());
        // Deleted and renamed files make every mutant selected: never a panic.
        assert!(matches!(
            c.select(Path::new("/r"), &files, &functions),
            Selection::Everything { .. }
        ));
    }
}

fn place(function: &str, first: usize, last: usize) -> ferastrau_mutator::FnPlace {
    ferastrau_mutator::FnPlace {
        function: function.into(),
        name: function.rsplit("::").next().unwrap().into(),
        calls: BTreeSet::new(),
        file: "src/lib.rs".into(),
        first,
        last,
        lines: Vec::new(),
    }
}

fn functions(diff: &str, functions: &[ferastrau_mutator::FnPlace]) -> BTreeMap<String, String> {
    let files = ["src/lib.rs".to_string()];
    match ChangedLines::parse(diff)
        .unwrap()
        .select(Path::new("/repo"), &files, functions)
    {
        Selection::Functions(f) => f,
        other => panic!("{other:?}"),
    }
}

/// A change to one function selects what it calls and what calls it, transitively
/// within the mutated functions, and a function a changed line names (a helper whose
/// call the change removed: inlined, it may now be dead); not the callers of a callee.
#[test]
fn a_change_selects_its_callees_its_callers_and_what_it_stopped_calling() {
    let calls = |mut p: ferastrau_mutator::FnPlace, names: &[&str]| {
        p.calls = names.iter().map(|n| n.to_string()).collect();
        p
    };
    // top → mid → leaf; other → leaf; helper called by nobody now; lone alone.
    let fs = [
        calls(place("S::top", 1, 5), &["mid", "self", "x"]),
        calls(place("S::mid", 6, 10), &["leaf"]),
        place("S::leaf", 11, 15),
        calls(place("S::other", 16, 20), &["leaf"]),
        place("S::helper", 21, 25),
        place("S::lone", 26, 30),
    ];
    let got = functions(&hunk("src/lib.rs", 8), &fs);
    let want: BTreeMap<String, String> = [
        ("S::mid", "changed"),
        ("S::leaf", "called by S::mid"),
        ("S::top", "calls S::mid"),
    ]
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .into();
    assert_eq!(got, want, "S::other calls S::leaf, a callee: not selected");
    let inlined = "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -3,1 +3,1 @@\n-        self.helper(x)\n+        x + 1\n";
    let got = functions(inlined, &fs);
    assert_eq!(
        got["S::helper"],
        "named by a line the diff changes in S::top"
    );
    assert!(
        got.contains_key("S::leaf") && !got.contains_key("S::lone"),
        "{got:?}"
    );
}

fn select(diff: &str) -> Selection {
    let files = ["Cargo.toml", "README.md", "src/lib.rs", "tests/t.rs"].map(String::from);
    let functions = [place("S::add", 10, 20), place("S::remove", 22, 30)];
    ChangedLines::parse(diff)
        .unwrap()
        .select(Path::new("/repo/crates/s"), &files, &functions)
}

fn hunk(path: &str, line: usize) -> String {
    format!("--- a/{path}\n+++ b/{path}\n@@ -{line},1 +{line},1 @@\n-x\n+y\n")
}

#[test]
fn a_change_in_a_mutated_function_selects_all_of_its_mutants_and_only_them() {
    let both = hunk("crates/s/src/lib.rs", 12) + &hunk("crates/s/src/lib.rs", 20);
    let changed = |names: &[&str]| {
        Selection::Functions(
            names
                .iter()
                .map(|n| (n.to_string(), "changed".to_string()))
                .collect(),
        )
    };
    assert_eq!(select(&both), changed(&["S::add"]));
    let two = hunk("src/lib.rs", 12) + &hunk("src/lib.rs", 25);
    assert_eq!(select(&two), changed(&["S::add", "S::remove"]));
}

#[test]
fn a_change_the_verdicts_depend_on_selects_every_mutant() {
    // Between the functions (a type, the specification, the glue), the manifest, a
    // deleted module.
    for diff in [
        hunk("src/lib.rs", 21),
        hunk("src/lib.rs", 3),
        hunk("crates/s/Cargo.toml", 5),
        "--- a/crates/s/src/gone.rs\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-x\n".to_string(),
    ] {
        assert!(
            matches!(select(&diff), Selection::Everything { .. }),
            "{diff}"
        );
    }
    let Selection::Everything { why } = select(&hunk("src/lib.rs", 21)) else {
        unreachable!()
    };
    assert!(why.contains("src/lib.rs:21"), "{why}");
}

#[test]
fn a_change_nothing_depends_on_selects_nothing() {
    for diff in [
        hunk("crates/s/README.md", 1),
        hunk("crates/s/tests/t.rs", 1),
        hunk("crates/other/src/lib.rs", 12),
        "--- a/crates/other/src/gone.rs\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-x\n".to_string(),
    ] {
        assert!(matches!(select(&diff), Selection::Nothing { .. }), "{diff}");
    }
}
