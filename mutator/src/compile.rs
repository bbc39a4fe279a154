//! How the generated crates are compiled: where, and under which cargo profile.
//!
//! Compile-pruning compiles the metamutant until it has no errors. With [`Compiler::check`]
//! that is `cargo check` in a target directory of its own: every dependency (serde's derive
//! macros, Korat, the worker library) is checked there once more, which on a cold start costs
//! far more than the crate itself. With [`Compiler::build_through`] it is the very build of the
//! worker that links the metamutant: `cargo build --profile ferastrau` of the worker's
//! manifest in the shared build directory, whose dependencies are already compiled. A round
//! with errors stops after type checking, as `cargo check` does, and the round without errors
//! *is* the worker's build: the harness's worker build after it finds everything fresh.
//!
//! (Building the metamutant's library on its own would not do: cargo names a path crate's
//! artifacts by its path relative to the workspace root, so the library built as its own root
//! and the one the worker links are two compilations.)

use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// The cargo profile Ferastrau builds workers and metamutants with.
pub const PROFILE: &str = "ferastrau";

/// The `ferastrau` profile, as `--config` arguments (it inherits `release`), so that no
/// user's manifest is edited and every build of a worker — the original's, the metamutant's,
/// the pruning rounds', a test suite's runner — compiles its units identically and shares
/// their artifacts. `subject` is the package name of the crate under test (the original and
/// its metamutant copy share it), compiled incrementally; every build of its workers passes
/// the same one. (`None` leaves every dependency whole: the compiler's comparison compiles a
/// copy of the crate under the same name, which nothing will compile again.)
///
/// - `opt-level = 3` (unless [`OPT_LEVEL_VAR`] says otherwise): the guards' cost
///   (`ferastrau overhead`) stays small and Korat's generation, which is monomorphised into
///   the benchmark crate, stays fast;
/// - for every dependency of the worker `codegen-units = 16`: their code generation runs in
///   parallel;
/// - the crate under test (`subject`) compiled incrementally, every other dependency not:
///   an edit of one function regenerates a metamutant that differs from the last one in that
///   function alone, and rustc then reuses the rest of its work (a one-line edit of
///   `testdata/leftist`'s `merge`: the worker's build 0.47-0.58 s instead of 0.76-0.85).
///   The code is as fast: `evaluate --benchmark binomial_heap --scopes 7`'s mutant phase
///   (`runner.seconds`, alternated, five each) took 27.4-32.7 s, median 28.9, against
///   29.3-34.3 s, median 33.4, compiled whole (on a noisy host: two earlier runs compiled
///   whole took 29.0 and 29.3 s). The probes' switch is `#[inline(always)]`, so
///   rustc copies it into every codegen unit in both modes. Every other path dependency
///   (Korat, the SDK, the worker runtime, when they are paths) incremental too made that
///   phase 6-12% slower, in two runs each;
/// - for the root package of the build (the worker's own crate, or a test-suite runner),
///   `codegen-units = 1` and `incremental = true`: the worker's library is where the worker's
///   loop and Korat's search are instantiated for the crate's types, most of a worker's build
///   at opt-level 3 (4.8 s of `testdata/leftist`'s 5.5), and an edit of a function's body
///   changes none of that code, so rustc reuses it (a one-line edit of leftist's `merge`, then
///   `evaluate --scopes 1..4`: 1.7 and 1.9 s against 5.9). One unit, because incremental mode
///   does no inlining across units: with 16, BinomialHeap 6's mutant phase ran about 15%
///   slower; with one, BinomialHeap 7's ran as fast as before (`runner.seconds` 32.9 and 26.9
///   against 29.0 and 30.9, alternated). A crate's first build of it is serial: 1-3 s more on
///   `testdata/leftist` (28.8 and 31.1 s against 27.8 and 28.0), with less CPU (40-44 CPU-s
///   against 45);
/// - no LTO and `debug = false`: nothing is spent on whole-program optimisation or debug
///   information;
/// - `panic = "unwind"`: a panicking mutant is an output, caught by the worker.
pub fn profile_args(subject: Option<&str>) -> anyhow::Result<Vec<String>> {
    let opt_level = format!("opt-level = {}", opt_level()?);
    let subject = subject.map(|s| format!("package.{s:?}.incremental = true"));
    Ok([
        "inherits = \"release\"",
        opt_level.as_str(),
        // The root package (the worker's crate); `"*"` is every other.
        "codegen-units = 1",
        "incremental = true",
        "package.\"*\".codegen-units = 16",
        "package.\"*\".incremental = false",
        "lto = false",
        "debug = false",
        "panic = \"unwind\"",
    ]
    .iter()
    .copied()
    .chain(subject.as_deref())
    .flat_map(|setting| {
        [
            "--config".to_string(),
            format!("profile.{PROFILE}.{setting}"),
        ]
    })
    .collect())
}

/// The environment variable that sets the workers' `opt-level` (default `3`).
///
/// Optimisation is most of a worker's build: a small crate's worker compiles in about 3 s at
/// `3` and 0.7 s at `0` (`search_tree` on a 2-core box), while its inputs at small scopes run
/// in milliseconds either way. The test suite, which builds about seventy workers, sets `0`.
/// Verdicts do not depend on it, but how a mutant dies can: a recursion without end that
/// `3` turns into a loop (a timeout) overflows the stack at `0` (a crash); timings and
/// Korat's speed at large scopes need `3`.
pub const OPT_LEVEL_VAR: &str = "FERASTRAU_OPT_LEVEL";

/// The workers' `opt-level`: [`OPT_LEVEL_VAR`] if set (one of cargo's `0`-`3`, `s`, `z`),
/// else `3`. Anything else is refused, not passed to cargo, whose error would name neither.
pub fn opt_level() -> anyhow::Result<String> {
    match std::env::var(OPT_LEVEL_VAR) {
        Err(std::env::VarError::NotPresent) => Ok("3".into()),
        Ok(v) if ["0", "1", "2", "3"].contains(&v.as_str()) => Ok(v),
        Ok(v) if v == "s" || v == "z" => Ok(format!("{v:?}")),
        Ok(v) => anyhow::bail!("{OPT_LEVEL_VAR}={v:?} is not an opt-level (0, 1, 2, 3, s or z)"),
        Err(e) => anyhow::bail!("{OPT_LEVEL_VAR}: {e}"),
    }
}

/// The directory, under a target directory, where the [`PROFILE`] build puts its binaries.
pub fn profile_dir(target_dir: &Path) -> PathBuf {
    target_dir.join(PROFILE)
}

/// What a compile-pruning round runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `cargo check --lib` (debug profile).
    Check,
    /// `cargo build --profile ferastrau`: of the package at `through` (a manifest whose
    /// package depends on the crate compiled: the worker), else of the crate's library;
    /// `subject` is the crate under test's package name ([`profile_args`]).
    Build {
        through: Option<PathBuf>,
        subject: String,
    },
}

/// A cargo command for the generated crates: a mode and a target directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiler {
    pub mode: Mode,
    pub target_dir: PathBuf,
    /// Where cargo runs (its configuration is read from there): the crate's own directory,
    /// so that pruning resolves and builds as the worker build does; `None` for the directory
    /// of the crate compiled.
    pub home: Option<PathBuf>,
}

impl Compiler {
    /// `cargo check` into `target_dir`.
    pub fn check(target_dir: impl Into<PathBuf>) -> Compiler {
        Compiler {
            mode: Mode::Check,
            target_dir: target_dir.into(),
            home: None,
        }
    }

    /// `cargo build --profile ferastrau` of the package at `manifest`, which depends on the
    /// crate to compile (package `subject`), into `target_dir` (the worker builds' directory).
    pub fn build_through(
        target_dir: impl Into<PathBuf>,
        manifest: impl Into<PathBuf>,
        subject: &str,
    ) -> Compiler {
        Compiler {
            mode: Mode::Build {
                through: Some(manifest.into()),
                subject: subject.to_string(),
            },
            target_dir: target_dir.into(),
            home: None,
        }
    }

    /// The same compiler, cargo running in `home` (see [`Compiler::home`]).
    pub fn in_dir(self, home: impl Into<PathBuf>) -> Compiler {
        Compiler {
            home: Some(home.into()),
            ..self
        }
    }

    /// The same compiler for another crate than the one `through` depends on: the library of
    /// whatever crate it is given (used to check a plain copy of the benchmark).
    pub fn for_any_crate(&self) -> Compiler {
        Compiler {
            mode: match &self.mode {
                Mode::Check => Mode::Check,
                Mode::Build { subject, .. } => Mode::Build {
                    through: None,
                    subject: subject.clone(),
                },
            },
            target_dir: self.target_dir.clone(),
            home: self.home.clone(),
        }
    }

    /// The command that compiles the library of the crate in `dir`, with JSON messages.
    pub fn command(&self, dir: &Path) -> anyhow::Result<Command> {
        let mut cmd = cargo();
        match &self.mode {
            Mode::Check => {
                cmd.args(["check", "--lib", "--manifest-path"])
                    .arg(dir.join("Cargo.toml"));
            }
            Mode::Build { through, subject } => {
                // `-vv`: the status line that starts each compile gives its whole command,
                // which the compiler's comparison reuses (`invocation.rs`).
                cmd.args(["build", "-vv", "--profile", PROFILE])
                    .args(profile_args(Some(subject))?);
                match through {
                    Some(manifest) => cmd.arg("--manifest-path").arg(manifest),
                    None => cmd
                        .args(["--lib", "--manifest-path"])
                        .arg(dir.join("Cargo.toml")),
                };
            }
        }
        // Not `--quiet`: cargo's status lines on stderr are how [`output`] learns that the
        // build waits for another one's lock. (The JSON messages are on stdout.)
        cmd.args(["--message-format=json"])
            .current_dir(self.home.as_deref().unwrap_or(dir))
            .env("CARGO_TARGET_DIR", &self.target_dir);
        Ok(cmd)
    }
}

impl Compiler {
    /// The command that compiles the library of the crate in `dir` (package `package`) once,
    /// writing its optimised LLVM IR to `out`: what trivial compiler equivalence reads
    /// ([`crate::equivalence`]), compiled as a
    /// [`COPY_CRATE_TYPE`](crate::equivalence::COPY_CRATE_TYPE) as beside the build (cargo
    /// links it too, having been asked for its usual outputs). Through a worker manifest it
    /// is `cargo rustc -p <package>` of that worker's dependency graph, so that every
    /// dependency is the one the worker builds compiled (same profile, same features, same
    /// directory: fresh); the extra flags
    /// reach this crate alone. `-C opt-level=3` whatever the profile says (at `0` the
    /// comparison would see unfolded switches) and one codegen unit (every copy sees the same
    /// inlining candidates); the dependencies keep the profile's level. Not incremental: the
    /// copy is compiled once.
    pub fn emit_ir(&self, dir: &Path, package: &str, out: &Path) -> anyhow::Result<Command> {
        let mut cmd = cargo();
        cmd.args(["rustc", "--profile", PROFILE])
            .args(["--crate-type", crate::equivalence::COPY_CRATE_TYPE])
            .args(profile_args(None)?);
        match &self.mode {
            Mode::Build {
                through: Some(manifest),
                ..
            } => cmd.args(["-p", package, "--manifest-path"]).arg(manifest),
            _ => cmd
                .args(["--lib", "--manifest-path"])
                .arg(dir.join("Cargo.toml")),
        };
        cmd.args(["--message-format=json", "--"])
            .arg(format!("--emit=llvm-ir={}", out.display()))
            .args(["-C", "opt-level=3", "-C", "codegen-units=1"])
            .current_dir(self.home.as_deref().unwrap_or(dir))
            .env("CARGO_TARGET_DIR", &self.target_dir);
        Ok(cmd)
    }
}

/// `cargo` (the one that runs us, if any), without the caller's `RUSTFLAGS`: generated code is
/// full of warnings that a `-D warnings` must not turn into pruned mutants, and a worker and
/// the pruning build that precedes it must pass rustc the same flags to share artifacts.
///
/// Cargo dies with the process that started it (`PR_SET_PDEATHSIG`), even one killed by
/// SIGKILL: a build nobody waits for must not go on scheduling compilations (the `rustc` it
/// already started finish their crate and exit).
pub fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    // A lint run of the caller's workspace (`cargo clippy`'s compiler wrapper, when a harness
    // runs under it) is not for the crates Ferastrau generates and builds.
    cmd.env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("CLIPPY_ARGS");
    cmd.env_remove("RUSTFLAGS");
    die_with_parent(&mut cmd, nix::sys::signal::Signal::SIGTERM);
    cmd
}

/// Makes the process `cmd` starts receive `signal` when the thread that starts it ends
/// (`PR_SET_PDEATHSIG`), even by SIGKILL: no compile outlives the run that wanted it.
pub(crate) fn die_with_parent(cmd: &mut Command, signal: nix::sys::signal::Signal) {
    use std::os::unix::process::CommandExt;
    let parent = nix::unistd::getpid();
    // SAFETY: only async-signal-safe calls (prctl, getppid) between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            nix::sys::prctl::set_pdeathsig(signal)?;
            // The parent may have died before the line above took effect.
            if nix::unistd::getppid() != parent {
                return Err(std::io::Error::other("the process that started it is gone"));
            }
            Ok(())
        });
    }
}

/// The first line of a compiler's output (cargo's or rustc's) that names an error, else its
/// last line: what a failed build is reported by.
pub fn first_error(output: &str) -> String {
    output
        .lines()
        .find(|l| l.contains("error"))
        .unwrap_or_else(|| output.lines().last().unwrap_or("(no output)"))
        .trim()
        .to_string()
}

/// What a caller is told while cargo runs: called with each status line that says the build
/// waits for a lock another cargo holds (cargo's "Blocking waiting for file lock on ...").
pub type WaitHook = fn(&str);

static WAIT_HOOK: OnceLock<WaitHook> = OnceLock::new();

/// Sets the hook [`output`] calls when cargo waits for a lock (the first call wins): the
/// harness announces the wait, which can last as long as another build (48 s was seen).
pub fn on_lock_wait(hook: WaitHook) {
    let _ = WAIT_HOOK.set(hook);
}

/// A line a running cargo printed: on its standard output (a JSON message, with
/// `--message-format=json`) or its standard error (status lines).
#[derive(Clone, Copy, Debug)]
pub enum Line<'a> {
    Stdout(&'a str),
    Stderr(&'a str),
}

/// Runs `cmd` (a cargo command) to its end like [`Command::output`], reading its output as it
/// comes so that a wait for cargo's lock is reported through [`on_lock_wait`]'s hook at once.
pub fn output(cmd: &mut Command) -> std::io::Result<Output> {
    output_watched(cmd, &mut |_| {})
}

/// [`output`], with every line passed to `watch` as cargo prints it, on the calling thread:
/// what lets the caller start work beside a build that goes on (the compiler's comparison,
/// beside the worker's build). The two streams are read on threads of their own (a child that
/// fills one pipe while we read the other would otherwise block both); a line of one stream
/// may reach `watch` before an earlier line of the other.
pub fn output_watched(cmd: &mut Command, watch: &mut dyn FnMut(Line)) -> std::io::Result<Output> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let (tx, rx) = std::sync::mpsc::channel::<(bool, Vec<u8>)>();
    let read = |stream: Box<dyn Read + Send>, is_stdout: bool| {
        let tx = tx.clone();
        std::thread::spawn(move || -> std::io::Result<()> {
            let mut lines = std::io::BufReader::new(stream);
            loop {
                let mut line = Vec::new();
                if lines.read_until(b'\n', &mut line)? == 0 {
                    return Ok(());
                }
                // The receiver is gone only if the caller panicked: nothing left to tell.
                let _ = tx.send((is_stdout, line));
            }
        })
    };
    let readers = [
        read(Box::new(child.stdout.take().expect("piped")), true),
        read(Box::new(child.stderr.take().expect("piped")), false),
    ];
    drop(tx);
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    for (is_stdout, bytes) in rx {
        let line = String::from_utf8_lossy(&bytes);
        let text = line.trim_end_matches(['\n', '\r']);
        if is_stdout {
            watch(Line::Stdout(text));
            stdout.extend_from_slice(&bytes);
        } else {
            if text.trim_start().starts_with("Blocking") {
                if let Some(hook) = WAIT_HOOK.get() {
                    hook(text.trim());
                }
            }
            watch(Line::Stderr(text));
            stderr.extend_from_slice(&bytes);
        }
    }
    for reader in readers {
        reader
            .join()
            .map_err(|_| std::io::Error::other("a thread reading cargo's output panicked"))??;
    }
    Ok(Output {
        status: child.wait()?,
        stdout,
        stderr,
    })
}
