//! The digest of the code that generates metamutants: every file of the mutator's `src/` and of
//! the runtime crate the generated code calls (`probes/src/`, in a checkout). `build.rs` computes it at
//! compile time (this file is included there), so a cached metamutant is reused only if the
//! code that generated it is the code that would generate it now, and a module added later is
//! covered without anyone listing it.

use std::path::{Path, PathBuf};

use crate::content_hash::ContentHash;

/// The directories, relative to the mutator's manifest directory, whose files generate or
/// are called by the metamutant.
pub const DIGESTED_DIRS: [&str; 2] = ["src", "probes/src"];

/// FNV-1a over the relative path and contents of every file under `dirs`, in sorted order.
pub fn digest(dirs: &[PathBuf]) -> std::io::Result<String> {
    let mut h = ContentHash::default();
    for (i, dir) in dirs.iter().enumerate() {
        let mut files = Vec::new();
        collect(dir, &mut files)?;
        files.sort();
        for f in files {
            let rel = f.strip_prefix(dir).unwrap_or(&f);
            h.feed(format!("{i}/{}", rel.to_string_lossy()).as_bytes());
            h.feed(&std::fs::read(&f)?);
        }
    }
    Ok(h.hex())
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dirs(root: &Path) -> Vec<PathBuf> {
        DIGESTED_DIRS.iter().map(|d| root.join(d)).collect()
    }

    /// The digest compiled into the mutator is the one of the files on disk now: every file
    /// under the digested directories is in it (build.rs reruns when any of them changes).
    #[test]
    fn the_compiled_digest_covers_every_digested_file() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        assert_eq!(
            digest(&dirs(root)).unwrap(),
            env!("FERASTRAU_MUTATOR_DIGEST")
        );
    }

    /// A module nobody lists, or an edit of any file, changes the digest (and so every
    /// metamutant's cache key).
    #[test]
    fn a_new_module_or_an_edit_changes_the_digest() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let tmp = tempfile::tempdir().unwrap();
        for d in DIGESTED_DIRS {
            copy(&root.join(d), &tmp.path().join(d));
        }
        let before = digest(&dirs(tmp.path())).unwrap();
        assert_eq!(
            before,
            digest(&dirs(root)).unwrap(),
            "a copy digests the same"
        );
        std::fs::create_dir_all(tmp.path().join("src/rewrite/extra")).unwrap();
        std::fs::write(tmp.path().join("src/rewrite/extra/new.rs"), "fn f() {}\n").unwrap();
        let with_module = digest(&dirs(tmp.path())).unwrap();
        assert_ne!(before, with_module, "a new nested module is covered");
        std::fs::write(tmp.path().join("probes/src/lib.rs"), "// edited\n").unwrap();
        assert_ne!(
            with_module,
            digest(&dirs(tmp.path())).unwrap(),
            "the runtime is covered"
        );
    }

    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let path = entry.unwrap().path();
            let dest = to.join(path.file_name().unwrap());
            if path.is_dir() {
                copy(&path, &dest);
            } else {
                std::fs::copy(&path, &dest).unwrap();
            }
        }
    }
}
