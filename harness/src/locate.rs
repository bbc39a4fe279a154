//! Finding a benchmark crate: by name under the workspace's `benchmarks/`, or by path.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use ferastrau_protocol::Engine;

use crate::exit_code::usage;

/// A usage error (exit status 2): the crate given is not one Ferastrau can take.
macro_rules! refuse {
    ($($arg:tt)*) => { return Err(usage(format!($($arg)*))) };
}

/// The Ferastrau workspace this binary was built from (benchmarks and build caches live here).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the harness crate lives inside the workspace")
        .to_path_buf()
}

/// A benchmark crate on disk.
#[derive(Clone, Debug)]
pub struct BenchmarkCrate {
    /// The package name (`search_tree`).
    pub name: String,
    /// The library target's name, as Rust code refers to it.
    pub lib_name: String,
    /// The crate's directory (absolute).
    pub dir: PathBuf,
    /// The git repository `ferastrau-sdk` comes from, when the crate takes it from git
    /// (`ferastrau init --git URL`); `None` for a path dependency (on this checkout's SDK).
    pub sdk_git: Option<String>,
    /// The `skip` entries of its `[package.metadata.ferastrau]`, as the mutator's reader
    /// parsed them (an entry without a reason was refused there).
    pub skips: Vec<ferastrau_mutator::Skip>,
    /// The engines the crate describes its inputs with (`[package.metadata.ferastrau]
    /// engines`; the first is its `ferastrau_benchmark()`).
    pub engines: Vec<Engine>,
    /// The one this run uses: the first declared unless `--engine` chose another
    /// ([`BenchmarkCrate::with_engine`]).
    pub engine: Engine,
}

impl BenchmarkCrate {
    /// The crate with `engine` chosen (`--engine`), which it must declare; `None` keeps its
    /// default. A usage error names what the crate declares.
    pub fn with_engine(mut self, engine: Option<Engine>) -> Result<BenchmarkCrate> {
        if let Some(e) = engine {
            if !self.engines.contains(&e) {
                let declared: Vec<&str> = self.engines.iter().map(|e| e.name()).collect();
                refuse!(
                    "`{}` has no {e} engine: its [package.metadata.ferastrau] engines are [{}] \
                     (a generator program is declared with `engines = [\"korat\", \"generator\"]` \
                     and `ferastrau_sdk::export!(bench, generator: program)`)",
                    self.name,
                    declared.join(", ")
                );
            }
            self.engine = e;
        }
        Ok(self)
    }

    /// The function of the crate that hands the chosen engine's benchmark to the worker: the
    /// first declared engine is `ferastrau_benchmark()`, another `ferastrau_<engine>()`.
    pub fn entry(&self) -> String {
        if self.engines.first() == Some(&self.engine) {
            "ferastrau_benchmark".into()
        } else {
            format!("ferastrau_{}", self.engine.name())
        }
    }
}

/// The repository URL of a cargo git source (`git+URL?rev=...#commit`), as a manifest's
/// `git = "URL"` writes it; `None` for other sources.
pub fn git_url(source: &str) -> Option<String> {
    let rest = source.strip_prefix("git+")?;
    let end = rest.find(['?', '#']).unwrap_or(rest.len());
    Some(rest[..end].to_string())
}

/// Names of the built-in benchmarks (directories under `benchmarks/` with a Cargo.toml).
pub fn known_benchmarks() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(workspace_root().join("benchmarks"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("Cargo.toml").is_file())
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    names.sort();
    names
}

/// Resolves `--benchmark NAME` or `--benchmark-path DIR` to a crate.
pub fn locate(name: Option<&str>, path: Option<&Path>) -> Result<BenchmarkCrate> {
    let dir = match (name, path) {
        (_, Some(p)) => crate_dir(p)?,
        (Some(n), None) => {
            let known = known_benchmarks();
            if !known.iter().any(|k| k == n) {
                refuse!(
                    "unknown benchmark {n:?}; known benchmarks: {} (or give --benchmark-path DIR)",
                    known.join(", ")
                );
            }
            workspace_root().join("benchmarks").join(n)
        }
        (None, None) => refuse!("name a benchmark with --benchmark NAME or --benchmark-path DIR"),
    };
    inspect(&dir)
}

/// [`locate`], then the metadata's names checked against the crate's functions: what every
/// command does before any work, so that a typo in `mutate` or `specification` stops
/// `generate` and `check` as early as `evaluate` (exit status 2, naming the name).
pub fn locate_declared(name: Option<&str>, path: Option<&Path>) -> Result<BenchmarkCrate> {
    let bench = locate(name, path)?;
    match ferastrau_mutator::check_declared_names(&bench.dir)? {
        Ok(()) => Ok(bench),
        Err(e) => refuse!(
            "{}: [package.metadata.ferastrau] of `{}`: {e}",
            bench.dir.display(),
            bench.name
        ),
    }
}

/// The crate directory a `--benchmark-path` names: the directory itself, or the directory of
/// a `Cargo.toml` given instead. A path that does not exist or another file is refused with
/// what to pass.
fn crate_dir(path: &Path) -> Result<PathBuf> {
    if !path.exists() {
        refuse!(
            "{} does not exist: give the benchmark crate's directory (the one holding its Cargo.toml)",
            path.display()
        );
    }
    if path.is_file() {
        if path.file_name().is_some_and(|n| n == "Cargo.toml") {
            return Ok(match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            });
        }
        refuse!(
            "{} is a file, not a crate: give the benchmark crate's directory (the one holding its Cargo.toml)",
            path.display()
        );
    }
    Ok(path.to_path_buf())
}

/// Checks that `dir` holds a Rust library crate that declares what Ferastrau needs.
fn inspect(dir: &Path) -> Result<BenchmarkCrate> {
    let manifest = dir.join("Cargo.toml");
    if !manifest.is_file() {
        refuse!(
            "{} is not a benchmark crate: it has no Cargo.toml",
            dir.display()
        );
    }
    let dir = dir
        .canonicalize()
        .with_context(|| format!("cannot read {}", dir.display()))?;
    let meta = cargo_metadata::MetadataCommand::new()
        .manifest_path(dir.join("Cargo.toml"))
        .no_deps()
        .exec()
        .map_err(|e| {
            let first = e
                .to_string()
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .to_string();
            usage(format!("{} is not a valid crate: {first}", dir.display()))
        })?;
    let pkg = meta
        .packages
        .iter()
        .find(|p| p.manifest_path.as_std_path() == dir.join("Cargo.toml"))
        .ok_or_else(|| usage(format!("{} holds no package", dir.display())))?;
    let lib = pkg
        .targets
        .iter()
        .find(|t| t.kind.iter().any(|k| k.to_string() == "lib"))
        .ok_or_else(|| {
            usage(format!(
                "{} is not a benchmark crate: it has no library target",
                dir.display()
            ))
        })?;
    // The mutator's reader is the only reader of `[package.metadata.ferastrau]`: a table it
    // would refuse later (no `mutate` list, a name that is not a string) is refused here, by
    // every command, with its words.
    let manifest = ferastrau_mutator::Manifest::read(&dir)
        .map_err(|e| usage(format!("{} is not a benchmark crate: {e:#}", dir.display())))?;
    let Some(sdk) = pkg.dependencies.iter().find(|d| d.name == "ferastrau-sdk") else {
        if pkg
            .dependencies
            .iter()
            .any(|d| d.name == "ferastrau-worker")
        {
            refuse!(
                "{} depends on ferastrau-worker, which is now the worker process Ferastrau builds, \
                 not the library a benchmark uses: depend on ferastrau-sdk instead (the same \
                 checkout's harness/sdk, or the same git repository) and write ferastrau_sdk:: \
                 where the sources say ferastrau_worker::",
                dir.display()
            );
        }
        refuse!(
            "{} is not a benchmark crate: it does not depend on ferastrau-sdk",
            dir.display()
        );
    };
    // The worker Ferastrau builds links this checkout's worker runtime, which implements this
    // checkout's `Benchmark` trait: a crate on another copy of the SDK would not compile with
    // it (two traits of one name), so it is refused here with the reason.
    if let Some(path) = &sdk.path {
        let ours = workspace_root().join("harness/sdk");
        let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => a == b,
        };
        if !same(path.as_std_path(), &ours) {
            refuse!(
                "{} depends on the ferastrau-sdk at {path}, but this ferastrau was built from \
                 {}: its workers can only link that checkout's SDK; point the dependency at \
                 {} (ferastrau init writes it so)",
                dir.display(),
                workspace_root().display(),
                ours.display()
            );
        }
    }
    Ok(BenchmarkCrate {
        name: pkg.name.to_string(),
        lib_name: lib.name.replace('-', "_"),
        dir,
        sdk_git: sdk.source.as_deref().and_then(git_url),
        skips: manifest.skip,
        engine: manifest.engines[0],
        engines: manifest.engines,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crate that depends on the SDK, with `metadata` as its Ferastrau table.
    fn crate_with(metadata: &str) -> tempfile::TempDir {
        let sdk = workspace_root().join("harness/sdk");
        crate_depending_on(&format!("ferastrau-sdk = {{ path = {sdk:?} }}"), metadata)
    }

    /// A crate with `dependency` (a line of `[dependencies]`) and `metadata`.
    fn crate_depending_on(dependency: &str, metadata: &str) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("src")).unwrap();
        std::fs::write(d.path().join("src/lib.rs"), "").unwrap();
        std::fs::write(
            d.path().join("Cargo.toml"),
            format!(
                "[package]\nname = \"x\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\
                 [dependencies]\n{dependency}\n\
                 [package.metadata.ferastrau]\n{metadata}\n[workspace]\n"
            ),
        )
        .unwrap();
        d
    }

    #[test]
    fn a_crate_on_the_worker_runtime_or_on_another_sdk_is_refused_with_what_to_change() {
        let refusal = |dir: &Path| format!("{:#}", locate(None, Some(dir)).unwrap_err());
        // The dependency of benchmark crates before the SDK was split from the runtime.
        let worker = workspace_root().join("harness/worker");
        let old = crate_depending_on(
            &format!("ferastrau-worker = {{ path = {worker:?} }}"),
            "mutate = [\"f\"]",
        );
        let e = refusal(old.path());
        assert!(
            e.contains("depends on ferastrau-worker") && e.contains("depend on ferastrau-sdk"),
            "{e}"
        );
        // A copy of the SDK elsewhere: the workers link this checkout's runtime and its trait.
        let copy = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(copy.path().join("src")).unwrap();
        std::fs::write(copy.path().join("src/lib.rs"), "").unwrap();
        std::fs::write(
            copy.path().join("Cargo.toml"),
            "[package]\nname = \"ferastrau-sdk\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[workspace]\n",
        )
        .unwrap();
        let other = crate_depending_on(
            &format!("ferastrau-sdk = {{ path = {:?} }}", copy.path()),
            "mutate = [\"f\"]",
        );
        let e = refusal(other.path());
        let ours = workspace_root().join("harness/sdk");
        assert!(
            e.contains("depends on the ferastrau-sdk at")
                && e.contains(&ours.display().to_string()),
            "{e}"
        );
        // Neither: not a benchmark crate.
        let none = crate_depending_on("", "mutate = [\"f\"]");
        assert!(refusal(none.path()).contains("does not depend on ferastrau-sdk"));
    }

    #[test]
    fn git_sources_give_the_url_a_manifest_writes() {
        assert_eq!(
            git_url("git+https://example.org/f.git?rev=abc#abcdef01").as_deref(),
            Some("https://example.org/f.git")
        );
        assert_eq!(
            git_url("git+file:///srv/ferastrau").as_deref(),
            Some("file:///srv/ferastrau")
        );
        assert_eq!(
            git_url("registry+https://github.com/rust-lang/crates.io-index"),
            None
        );
    }

    #[test]
    fn the_ferastrau_table_is_checked_by_the_mutators_reader() {
        let good = crate_with("mutate = [\"f\"]");
        assert_eq!(locate(None, Some(good.path())).unwrap().name, "x");
        for (metadata, expect) in [
            ("mutate = \"f\"", "must be a list of names"),
            (
                "specification = [\"rep_ok\"]",
                "declares no functions to mutate",
            ),
            ("mutate = [1]", "must list strings"),
        ] {
            let bad = crate_with(metadata);
            let e = format!("{:#}", locate(None, Some(bad.path())).unwrap_err());
            assert!(
                e.contains("is not a benchmark crate") && e.contains(expect),
                "{metadata}: {e}"
            );
        }
    }
}
