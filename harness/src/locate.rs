//! Finding a benchmark crate: by name under the workspace's `benchmarks/`, or by path.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use ferastrau_protocol::Engine;

use crate::runtime::Runtime;
use ferastrau_console::exit_code::usage;

/// A usage error (exit status 2): the crate given is not one Ferastrau can take.
macro_rules! refuse {
    ($($arg:tt)*) => { return Err(usage(format!($($arg)*))) };
}

/// The root of the Ferastrau checkout around the current directory, for what only a checkout
/// has (the paper's ten benchmarks): refused with how to get one when there is none.
pub fn checkout_root() -> Result<PathBuf> {
    crate::runtime::checkout().ok_or_else(|| {
        usage(
            "the paper's benchmarks (--benchmark NAME) live in a Ferastrau checkout, and the \
             current directory is not inside one: run from a clone of the Ferastrau repository \
             (`git clone` it, then `cargo run --release -- ...` there), or evaluate your own \
             crate with --benchmark-path DIR",
        )
    })
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
    /// Where its `ferastrau-sdk`, and so the worker runtime and probes its workers link,
    /// come from.
    pub runtime: Runtime,
    /// Its target directory as cargo has it (`$CARGO_TARGET_DIR`, the `build.target-dir` of
    /// its cargo configuration, or its workspace's `target/`): Ferastrau's builds and scratch
    /// for the crate live in its `ferastrau/` (the `target_dir` module).
    pub target_dir: PathBuf,
    /// The lock file its generated crates (workers, runners) start from, pinning their
    /// dependencies to the versions the crate is built with: its workspace's `Cargo.lock`, or
    /// else its Ferastrau checkout's.
    pub lock: Option<PathBuf>,
    /// The directory cargo runs in for its builds, so that the crate's own cargo configuration
    /// (`.cargo/config.toml`: registries, patches, target directory) applies to them too.
    pub home: PathBuf,
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

/// The benchmark a command works on in a Ferastrau checkout when none is named.
pub const DEFAULT_BENCHMARK: &str = "search_tree";

/// The crate a command line names: `--benchmark NAME`, `--benchmark-path DIR`, or neither
/// (the current directory's crate when its manifest declares one, else, in a checkout, the
/// default benchmark), and the engine `--engine` asks for.
#[derive(Clone, Debug, Default)]
pub struct Named {
    pub benchmark: Option<String>,
    pub path: Option<PathBuf>,
    pub engine: Option<Engine>,
}

impl Named {
    /// The crate, its declared names checked ([`locate_declared`]), with the engine asked.
    pub fn locate(&self) -> Result<BenchmarkCrate> {
        let (name, path) = self.resolved()?;
        locate_declared(name, path)?.with_engine(self.engine)
    }

    /// The crate's directory, made absolute, if it names one that exists; not checked to be
    /// a benchmark crate (for forgetting the reports of a run refused before it started).
    pub fn dir(&self) -> Option<PathBuf> {
        let (name, path) = self.resolved().ok()?;
        named_dir(name, path).ok()?.canonicalize().ok()
    }

    fn resolved(&self) -> Result<(Option<&str>, Option<&Path>)> {
        let here = Path::new(".");
        Ok(match (&self.benchmark, &self.path) {
            (None, None) if declares_ferastrau(here) => (None, Some(here)),
            (None, None) if crate::runtime::checkout().is_some() => (Some(DEFAULT_BENCHMARK), None),
            (None, None) => refuse!(
                "the current directory holds no benchmark crate (a Cargo.toml with a \
                 [package.metadata.ferastrau] table): run in your crate's directory, give \
                 --benchmark-path DIR, or create one with `cargo ferastrau init DIR`"
            ),
            (name, path) => (name.as_deref(), path.as_deref()),
        })
    }
}

/// Whether `dir`'s Cargo.toml declares a `[package.metadata.ferastrau]` table (a benchmark
/// crate to work on by default); an unreadable or malformed one does not.
fn declares_ferastrau(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("Cargo.toml"))
        .ok()
        .and_then(|text| text.parse::<toml::Table>().ok())
        .is_some_and(|t| {
            t.get("package")
                .and_then(|p| p.get("metadata"))
                .and_then(|m| m.get("ferastrau"))
                .is_some()
        })
}

/// Names of the built-in benchmarks (directories under `benchmarks/` with a Cargo.toml).
pub fn known_benchmarks() -> Vec<String> {
    let Some(root) = crate::runtime::checkout() else {
        return Vec::new();
    };
    let mut names: Vec<String> = std::fs::read_dir(root.join("benchmarks"))
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
    inspect(&named_dir(name, path)?)
}

/// The directory `--benchmark NAME` or `--benchmark-path DIR` names, not yet checked to be a
/// benchmark crate (as given: not made absolute).
pub fn named_dir(name: Option<&str>, path: Option<&Path>) -> Result<PathBuf> {
    Ok(match (name, path) {
        (_, Some(p)) => crate_dir(p)?,
        (Some(n), None) => {
            let root = checkout_root()?;
            let known = known_benchmarks();
            if !known.iter().any(|k| k == n) {
                refuse!(
                    "unknown benchmark {n:?}; known benchmarks: {} (or give --benchmark-path DIR)",
                    known.join(", ")
                );
            }
            root.join("benchmarks").join(n)
        }
        (None, None) => refuse!("name a benchmark with --benchmark NAME or --benchmark-path DIR"),
    })
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
    // Run in the crate's directory: cargo reads its configuration (a target directory, a
    // registry) from the directory it runs in, not from the manifest's.
    let meta = cargo_metadata::MetadataCommand::new()
        .manifest_path(dir.join("Cargo.toml"))
        .current_dir(&dir)
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
        if let Some(old) = pkg
            .dependencies
            .iter()
            .find(|d| d.name == "ferastrau-worker")
        {
            refuse!(
                "{} depends on ferastrau-worker ({}), which is now the worker process Ferastrau \
                 builds, not the library a benchmark uses: in {}, replace the line \
                 `ferastrau-worker = ...` of [dependencies] with `ferastrau-sdk = \"{}\"`, and \
                 write ferastrau_sdk:: where the sources say ferastrau_worker::",
                dir.display(),
                old.req,
                dir.join("Cargo.toml").display(),
                crate::runtime::VERSION
            );
        }
        refuse!(
            "{} is not a benchmark crate: it does not depend on ferastrau-sdk (add \
             `ferastrau-sdk = \"{}\"` to its [dependencies])",
            dir.display(),
            crate::runtime::VERSION
        );
    };
    let runtime = Runtime::of(sdk, &dir)?;
    let lock = [
        Some(meta.workspace_root.as_std_path().join("Cargo.lock")),
        runtime.checkout().map(|root| root.join("Cargo.lock")),
    ]
    .into_iter()
    .flatten()
    .find(|p| p.is_file());
    Ok(BenchmarkCrate {
        name: pkg.name.to_string(),
        lib_name: lib.name.replace('-', "_"),
        home: dir.clone(),
        dir,
        runtime,
        target_dir: meta.target_directory.clone().into_std_path_buf(),
        lock,
        skips: manifest.skip,
        engine: manifest.engines[0],
        engines: manifest.engines,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checkout these tests are compiled in (tests may know where they were built).
    fn repo() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .unwrap()
            .to_path_buf()
    }

    /// A crate that depends on the SDK, with `metadata` as its Ferastrau table.
    fn crate_with(metadata: &str) -> tempfile::TempDir {
        let sdk = repo().join("harness/sdk");
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

    fn refusal(dir: &Path) -> String {
        format!("{:#}", locate(None, Some(dir)).unwrap_err())
    }

    #[test]
    fn a_crate_on_the_worker_runtime_is_told_which_line_to_change() {
        let worker = repo().join("harness/worker");
        let old = crate_depending_on(
            &format!("ferastrau-worker = {{ path = {worker:?} }}"),
            "mutate = [\"f\"]",
        );
        let e = refusal(old.path());
        let line = format!("`ferastrau-sdk = \"{}\"`", crate::runtime::VERSION);
        assert!(
            e.contains("depends on ferastrau-worker")
                && e.contains("replace the line `ferastrau-worker = ...`")
                && e.contains(&line),
            "{e}"
        );
        let none = crate_depending_on("", "mutate = [\"f\"]");
        let e = refusal(none.path());
        assert!(
            e.contains("does not depend on ferastrau-sdk") && e.contains(&line),
            "{e}"
        );
    }

    #[test]
    fn the_runtime_comes_from_where_the_sdk_does() {
        let runtime = |dependency: &str| {
            let d = crate_depending_on(dependency, "mutate = [\"f\"]");
            locate(None, Some(d.path())).map(|b| b.runtime)
        };
        // The checkout's SDK by path: that checkout.
        let sdk = repo().join("harness/sdk");
        assert_eq!(
            runtime(&format!("ferastrau-sdk = {{ path = {sdk:?} }}")).unwrap(),
            Runtime::Checkout(repo().canonicalize().unwrap())
        );
        // A registry version this binary is: by version.
        let v = crate::runtime::VERSION;
        assert_eq!(
            runtime(&format!("ferastrau-sdk = \"{v}\"")).unwrap(),
            Runtime::Registry { registry: None }
        );
        // A git repository: the same repository and reference.
        assert_eq!(
            runtime("ferastrau-sdk = { git = \"https://example.org/f.git\", tag = \"v1\" }")
                .unwrap(),
            Runtime::Git {
                url: "https://example.org/f.git".into(),
                reference: Some(("tag".into(), "v1".into()))
            }
        );
        // A version this binary is not: refused, naming both and what to do.
        let e = format!("{:#}", runtime("ferastrau-sdk = \"=0.0.7\"").unwrap_err());
        assert!(
            e.contains("requires ferastrau-sdk =0.0.7")
                && e.contains(&format!("this ferastrau is {v}"))
                && e.contains("cargo install ferastrau --version"),
            "{e}"
        );
        // A copy of the SDK that is not a checkout's: refused with the dependency to write.
        let copy = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(copy.path().join("src")).unwrap();
        std::fs::write(copy.path().join("src/lib.rs"), "").unwrap();
        std::fs::write(
            copy.path().join("Cargo.toml"),
            "[package]\nname = \"ferastrau-sdk\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[workspace]\n",
        )
        .unwrap();
        let e = format!(
            "{:#}",
            runtime(&format!("ferastrau-sdk = {{ path = {:?} }}", copy.path())).unwrap_err()
        );
        assert!(
            e.contains("is not the harness/sdk of a Ferastrau checkout")
                && e.contains(&format!("`ferastrau-sdk = \"{v}\"`")),
            "{e}"
        );
    }

    /// An SDK from another registry: the workers take the runtime from the registry of the
    /// name the dependency gives (cargo metadata knows it only by its index URL).
    #[test]
    fn another_registry_is_named_as_the_dependency_names_it() {
        let v = crate::runtime::VERSION;
        let d = crate_depending_on(
            &format!("ferastrau-sdk = {{ version = \"{v}\", registry = \"corp\" }}"),
            "mutate = [\"f\"]",
        );
        std::fs::create_dir_all(d.path().join(".cargo")).unwrap();
        std::fs::write(
            d.path().join(".cargo/config.toml"),
            "[registries.corp]\nindex = \"sparse+https://example.invalid/index/\"\n",
        )
        .unwrap();
        let b = locate(None, Some(d.path())).unwrap();
        assert_eq!(
            b.runtime,
            Runtime::Registry {
                registry: Some("corp".into())
            }
        );
    }

    /// A checkout's SDK of another version than the binary's: refused, naming both.
    #[test]
    fn a_checkout_of_another_version_is_refused() {
        let other = tempfile::tempdir().unwrap();
        let root = other.path();
        for dir in ["harness/sdk/src", "harness/worker", "benchmarks"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        std::fs::write(
            root.join("Cargo.toml"),
            "[workspace]\nmembers = [\"harness/sdk\"]\n[workspace.package]\nversion = \"9.9.9\"\n",
        )
        .unwrap();
        std::fs::write(root.join("harness/worker/Cargo.toml"), "").unwrap();
        std::fs::write(root.join("harness/sdk/src/lib.rs"), "").unwrap();
        std::fs::write(
            root.join("harness/sdk/Cargo.toml"),
            "[package]\nname = \"ferastrau-sdk\"\nversion.workspace = true\nedition = \"2021\"\n",
        )
        .unwrap();
        let sdk = root.join("harness/sdk");
        let d = crate_depending_on(
            &format!("ferastrau-sdk = {{ path = {sdk:?} }}"),
            "mutate = [\"f\"]",
        );
        let e = refusal(d.path());
        assert!(
            e.contains("which is version 9.9.9")
                && e.contains(&format!("this ferastrau is {}", crate::runtime::VERSION)),
            "{e}"
        );
    }

    /// Builds go under the crate's own target directory, as cargo has it.
    #[test]
    fn the_target_directory_is_the_crates() {
        let d = crate_with("mutate = [\"f\"]");
        let b = locate(None, Some(d.path())).unwrap();
        let expected = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| d.path().canonicalize().unwrap().join("target"));
        assert_eq!(b.target_dir, expected);
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
