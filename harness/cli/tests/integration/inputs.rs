//! Input the command line refuses or takes before anything is built (issue 57): paths that are
//! not UTF-8, `--in-diff` text that is not `git diff` output, memory limits no worker starts
//! under. Each ends with a status and a message, never a panic (exit 101); none builds a worker.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use crate::common::{command, fixture, text};

const USAGE: i32 = 2;

/// A directory name of bytes that are not UTF-8: a valid path on Linux.
const NOT_UTF8: &[u8] = b"out-\xff\xfe";

/// A non-UTF-8 `--out` is a directory like any other: the lock is taken, its holder written
/// (the command line shown lossily), and the command goes on to its next refusal (here: a
/// shard that is not one, an `--in-diff` file that does not exist), status 2. `std::env::args`
/// in the lock panicked (exit 101) and left an empty lock file.
#[test]
fn a_non_utf8_out_directory_is_taken_as_any_other() {
    let tmp = tempfile::tempdir().unwrap();
    let chain = fixture("chain");
    let missing = tmp.path().join("missing.diff");
    for (i, args) in [
        vec!["merge", tmp.path().to_str().unwrap()],
        vec![
            "evaluate",
            "--benchmark-path",
            chain.to_str().unwrap(),
            "--in-diff",
            missing.to_str().unwrap(),
        ],
    ]
    .into_iter()
    .enumerate()
    {
        let out = tmp
            .path()
            .join(i.to_string())
            .join(OsStr::from_bytes(NOT_UTF8));
        let o = command(&args).arg("--out").arg(&out).output().unwrap();
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(USAGE), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        let holder = std::fs::read_to_string(out.join(".ferastrau.lock")).unwrap();
        assert!(
            holder.starts_with("pid ")
                && holder.contains("--out ")
                && holder.contains("out-\u{fffd}"),
            "{args:?}: {holder:?}"
        );
    }
}

/// `--in-diff` with a word diff or with text after the diff: status 2, naming the file, the
/// line and the form it takes (the `patch` crate panicked inside, exit 101).
#[test]
fn an_in_diff_that_is_not_git_diff_output_is_refused_naming_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let chain = fixture("chain");
    let plain = "\
diff --git a/src/lib.rs b/src/lib.rs
--- a/src/lib.rs
+++ b/src/lib.rs
@@ -2 +2 @@
-    1
+    10
";
    let word = plain.replace("-    1\n+    10\n", "    [-1-]{+10+}\n")
        + "diff --git a/src/b.rs b/src/b.rs\n--- a/src/b.rs\n+++ b/src/b.rs\n@@ -1 +1 @@\nfn [-b-]{+c+}() {}\n";
    let after = format!("{plain}Thanks!\n");
    for (name, diff, line) in [
        ("word.diff", word, "line 4"),
        ("after.diff", after, "line 7"),
    ] {
        let file = tmp.path().join(name);
        std::fs::write(&file, diff).unwrap();
        let out = tmp.path().join(format!("{name}.out"));
        let o = command(&[
            "evaluate",
            "--benchmark-path",
            chain.to_str().unwrap(),
            "--in-diff",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(USAGE), "{name}: {err}");
        assert!(
            err.contains(&format!("--in-diff {}: {line}:", file.display()))
                && err.contains("takes the output of `git diff` (a unified diff"),
            "{name}: {err}"
        );
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
}

/// A `--memory-limit` under the floor no worker starts under is refused as the command line
/// is read (status 2), in its own unit: 1536K was "killed by signal 11 (--memory-limit 1 MiB)"
/// after the worker was built, and 1023K "0 MiB".
#[test]
fn a_memory_limit_no_worker_starts_under_is_refused_before_anything_runs() {
    let chain = fixture("chain");
    for (limit, said) in [("1536K", "1.5 MiB"), ("1023K", "1023 KiB"), ("3M", "3 MiB")] {
        for cmd in ["evaluate", "check"] {
            let o = command(&[
                cmd,
                "--benchmark-path",
                chain.to_str().unwrap(),
                "--scopes",
                "1",
                "--memory-limit",
                limit,
            ])
            .output()
            .unwrap();
            let err = text(&o.stderr);
            assert_eq!(o.status.code(), Some(USAGE), "{cmd} {limit}: {err}");
            assert!(
                err.contains("--memory-limit")
                    && err.contains(&format!("({said})"))
                    && err.contains("at least 4 MiB"),
                "{cmd} {limit}: {err}"
            );
        }
    }
}
