//! The worker process: a tiny generated crate that links one benchmark (the original crate or
//! its metamutant copy) and hands it to `ferastrau_worker::worker_main`. The `ferastrau`
//! binary links no benchmark: it builds a worker per crate and sends it
//! [`Request`]s (see [`ferastrau_worker::protocol`]).
//!
//! Worker binaries are **content-addressed**: after cargo builds one, it is copied to
//! `target/ferastrau/bin/<package>-<hash of its bytes>` and runs from there. A later build
//! (an edited benchmark, another crate of the same name) writes a new file and never replaces
//! a binary that a running evaluation uses.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use anyhow::{bail, Context, Result};
use ferastrau_mutator::compile;
use ferastrau_worker::protocol::{Message, Request};

use crate::fingerprint::{file_hash, Hasher};
use crate::locate::{workspace_root, BenchmarkCrate};
use crate::process::{self, Finished, Isolation};

/// A built worker binary for one benchmark crate.
#[derive(Clone, Debug)]
pub struct Worker {
    /// The content-addressed copy of the binary.
    pub exe: PathBuf,
    /// The content hash in its name.
    pub hash: String,
    /// The benchmark package the worker links.
    pub package: String,
}

/// Ferastrau's scratch space in the workspace's target directory.
pub fn ferastrau_target() -> PathBuf {
    workspace_root().join("target").join("ferastrau")
}

/// Where worker builds share their compiled dependencies.
pub fn build_dir() -> PathBuf {
    ferastrau_target().join("build")
}

/// A name for `bench` that two crates of the same package name in different directories do
/// not share: `<name>-<hash of its directory>`.
pub fn identity(bench: &BenchmarkCrate) -> String {
    let h = Hasher::default()
        .feed(bench.dir.to_string_lossy().as_bytes())
        .hex();
    format!("{}-{}", bench.name, &h[..8])
}

/// Ferastrau's scratch directory for `bench` (`target/ferastrau/<identity>/<leaf>`): workers
/// and the metamutant.
pub fn scratch_dir(bench: &BenchmarkCrate, leaf: &str) -> PathBuf {
    ferastrau_target().join(identity(bench)).join(leaf)
}

/// The work directory of a benchmark's worker variant (`original`, `metamutant`, ...).
pub fn work_dir(bench: &BenchmarkCrate, variant: &str) -> PathBuf {
    scratch_dir(bench, &format!("worker-{variant}"))
}

/// An exclusive advisory lock on `path`, held until the returned file is dropped; waits for
/// another holder.
pub fn lock_file(path: &Path) -> Result<std::fs::File> {
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d).with_context(|| format!("cannot create {}", d.display()))?;
    }
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    f.lock()
        .with_context(|| format!("cannot lock {}", path.display()))?;
    Ok(f)
}

/// For a crate that takes `ferastrau-worker` from git: a `[patch]` that builds this
/// checkout's worker library, Korat and probes in place of the repository's. The metamutant's
/// code sets the probes and the mutant switch of this checkout's `ferastrau-probes` (the
/// mutator's); a worker library from git would read those of another copy of the crate, see no
/// coverage and run every mutant as the original. (The library must match this binary anyway.)
fn git_patch(bench: &BenchmarkCrate) -> String {
    let Some(url) = &bench.worker_git else {
        return String::new();
    };
    let root = workspace_root();
    let path = |p: &Path| toml::Value::String(p.display().to_string()).to_string();
    format!(
        "\n[patch.{url}]\nferastrau-worker = {{ path = {} }}\nkorat = {{ path = {} }}\n\
         ferastrau-probes = {{ path = {} }}\n",
        path(&root.join("harness/worker")),
        path(&root.join("korat")),
        path(&ferastrau_mutator::default_probes_dir()),
        url = toml::Value::String(url.clone()),
    )
}

/// The generated crate of a worker: its package name and manifest.
#[derive(Clone, Debug)]
pub struct WorkerCrate {
    pub package: String,
    pub manifest: PathBuf,
}

impl WorkerCrate {
    /// Generates (in `work_dir`) the worker crate for `bench`, leaving unchanged files alone
    /// (their times are cargo's freshness check). `bench.dir` need not exist yet: the
    /// metamutant's worker is written before the metamutant, whose pruning builds it.
    pub fn write(bench: &BenchmarkCrate, work_dir: &Path) -> Result<WorkerCrate> {
        // One package (and binary) name per crate identity and work directory: the original's
        // and the metamutant's workers, of this crate and of any other, share a build
        // directory but never a binary path.
        let variant = work_dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "worker".into());
        let package = format!(
            "ferastrau-{}-{variant}",
            identity(bench).replace('_', "-").to_lowercase()
        );
        std::fs::create_dir_all(work_dir.join("src"))
            .with_context(|| format!("cannot create {}", work_dir.display()))?;
        let text = format!(
            "# Generated by ferastrau: the worker process for `{name}`.\n\
             [package]\nname = \"{package}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\n{name} = {{ path = {dir:?} }}\n\n\
             [profile.release]\npanic = \"unwind\"\n\n[workspace]\n{patch}",
            name = bench.name,
            dir = bench.dir.display().to_string(),
            patch = git_patch(bench),
        );
        write_if_changed(&work_dir.join("Cargo.toml"), &text)?;
        let main = format!(
            "// Generated by ferastrau.\nfn main() {{\n    {}::ferastrau_main();\n}}\n",
            bench.lib_name
        );
        write_if_changed(&work_dir.join("src/main.rs"), &main)?;
        // Pin dependency versions to the workspace's lock file when the worker has none yet.
        let lock = work_dir.join("Cargo.lock");
        let ws_lock = workspace_root().join("Cargo.lock");
        if !lock.exists() && ws_lock.exists() {
            std::fs::copy(&ws_lock, &lock).context("cannot copy Cargo.lock")?;
        }
        Ok(WorkerCrate {
            package,
            manifest: work_dir.join("Cargo.toml"),
        })
    }
}

impl Worker {
    /// Generates (in `work_dir`) and builds (profile `ferastrau`) the worker for `bench`, then
    /// copies the binary to its content-addressed place. Cheap when nothing changed (cargo's
    /// own freshness check). The caller holds the crate's build lock (see [`crate::subject`]).
    pub fn build_for(bench: &BenchmarkCrate, work_dir: &Path) -> Result<Worker> {
        let WorkerCrate { package, manifest } = WorkerCrate::write(bench, work_dir)?;
        let built = compile::profile_dir(&build_dir()).join(&package);
        crate::detail!(
            "building the worker: cargo build --profile {} --manifest-path {} (CARGO_TARGET_DIR={})",
            compile::PROFILE,
            manifest.display(),
            build_dir().display()
        );
        let out = compile::cargo()
            .args(["build", "--profile", compile::PROFILE])
            .args(compile::profile_args())
            .args(["--message-format=short", "--manifest-path"])
            .arg(&manifest)
            .env("CARGO_TARGET_DIR", build_dir())
            .stdin(Stdio::null())
            .output()
            .context("cannot run cargo")?;
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let first = stderr
                .lines()
                .find(|l| l.contains("error"))
                .unwrap_or_else(|| stderr.lines().last().unwrap_or("(no output)"));
            bail!(
                "benchmark crate {} ({}) does not build: {}",
                bench.name,
                bench.dir.display(),
                first.trim()
            );
        }
        let hash = file_hash(&built)?;
        let exe = ferastrau_target()
            .join("bin")
            .join(format!("{package}-{hash}"));
        if !exe.exists() {
            let dir = exe.parent().expect("bin/ has a parent");
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            // Copied under a temporary name and renamed: a reader never sees half a binary.
            let tmp = tempfile::NamedTempFile::new_in(dir).context("cannot create a file")?;
            std::fs::copy(&built, tmp.path())
                .with_context(|| format!("cannot copy {}", built.display()))?;
            // Executable before it is renamed into place (the temporary file is 0600): another
            // run that finds the name must be able to execute what it finds.
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755))?;
            drop(
                tmp.persist(&exe)
                    .with_context(|| format!("cannot write {}", exe.display()))?,
            );
        }
        crate::detail!("worker binary: {}", exe.display());
        Ok(Worker {
            exe,
            hash,
            package: bench.name.clone(),
        })
    }

    /// Runs `request` in a worker process under `isolation`.
    pub fn run(&self, request: &Request, isolation: &Isolation) -> Result<Finished> {
        process::run(&self.exe, request, isolation)
    }

    /// Runs a request that involves no code under test's misbehaviour (describe, generate,
    /// render, replay, outputs) and returns its messages; fails unless it completed.
    pub fn call(&self, request: &Request) -> Result<Vec<Message>> {
        let f = self.run(request, &Isolation::default())?;
        if !f.completed() {
            bail!(
                "the worker for {} did not complete {}: {}",
                self.package,
                request_name(request),
                f.error()
                    .map(String::from)
                    .unwrap_or_else(|| f.death().to_string())
            );
        }
        let mut m = f.messages;
        m.pop(); // Done
        Ok(m)
    }

    /// The benchmark's target methods, in the worker's numbering.
    pub fn methods(&self) -> Result<Vec<String>> {
        for m in self.call(&Request::Describe)? {
            if let Message::Described { methods } = m {
                return Ok(methods);
            }
        }
        bail!(
            "the worker for {} did not describe its methods",
            self.package
        )
    }

    /// Every input's rendered outcome at `scope` with `mutant` switched on, in a fixed order
    /// (methods in order, inputs in Korat's order), ending early at a timeout.
    pub fn outputs(&self, scope: u32, mutant: u32) -> Result<Vec<String>> {
        let request = Request::Outputs {
            scope,
            mutant,
            clock: std::time::Duration::from_secs(2),
        };
        Ok(self
            .call(&request)?
            .into_iter()
            .filter_map(|m| match m {
                Message::Output {
                    method,
                    index,
                    output,
                } => Some(format!("{method}#{index}: {output}")),
                _ => None,
            })
            .collect())
    }
}

/// A request's name, for messages.
pub fn request_name(r: &Request) -> &'static str {
    match r {
        Request::Describe => "describe",
        Request::Generate { .. } => "generate",
        Request::Inputs { .. } => "inputs",
        Request::Original { .. } => "original",
        Request::Mutants { .. } => "mutants",
        Request::Matrix { .. } => "matrix",
        Request::Render { .. } => "render",
        Request::Replay { .. } => "replay",
        Request::Outputs { .. } => "outputs",
    }
}

fn write_if_changed(path: &Path, text: &str) -> Result<()> {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}
