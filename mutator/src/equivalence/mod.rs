//! Trivial compiler equivalence (Papadakis et al., "Trivial Compiler Equivalence", ICSE 2015):
//! a mutant whose function compiles to the same optimised code as the original's is
//! equivalent, and two mutants of one function that compile to the same code are duplicates.
//!
//! **Why equal code means equal behaviour.** A copy's calls go to the ordinary functions, so
//! two copies with equal code compute the same for any behaviour of their callees. With the
//! mutant active, the only function that differs from the original run is `f` itself (a
//! mutant changes one function); by induction on the depth of calls (`f` calling itself
//! calls the mutated `f`, which behaves as the original by the hypothesis one level down)
//! the mutant's run computes what the original's does, tick for tick: nothing the worker
//! compares can tell them apart. Each copy is `#[inline(never)]` (it is compiled as a
//! function of its own), `#[unsafe(no_mangle)]` (compiled although nothing calls it, under a
//! name we choose: `ferastrau_tce_<function>_<mutant>_z`, fixed width so that the names of
//! closures inside it, which embed it, differ only there).
//!
//! **The compile** is one `cargo rustc` of that copy's library through a worker manifest that
//! depends on it ([`Compiler::emit_ir`]), in the shared build directory, so that its
//! dependencies are the worker builds' (nothing else is compiled), with `--emit=llvm-ir`, one
//! codegen unit (every copy sees the same inlining candidates) and `-C opt-level=3` whatever
//! the workers' `opt-level` (the verdict is about the program's meaning; `FERASTRAU_OPT_LEVEL`
//! is a speed setting, and at `0` no switch would fold).
//!
//! The copies are written by [`copier`], their IR compared in its canonical form by [`ir`].

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

mod copier;
mod ir;
#[cfg(test)]
mod tests;

use crate::compile::Compiler;
use crate::invocation::Invocation;
use copier::Copier;
use ir::Module;

/// The crate type the copy is compiled as. A `cdylib`'s only roots are the symbols it exports,
/// the copies (`#[unsafe(no_mangle)]`): the rest of the crate (its other functions, the glue a
/// benchmark's `lib.rs` holds, the generic code that glue instantiates) is compiled only as far
/// as the copies reach it, where a `lib` compiles every public function whether a copy calls it
/// or not. On `testdata/leftist` (one function's 22 copies) that halves the compile: 0.22-0.24 s
/// against 0.41-0.48 s. Beside the build only IR is emitted, so nothing is linked.
pub(crate) const COPY_CRATE_TYPE: &str = "cdylib";

/// The environment variable that switches the comparison off (`0`; anything else, or unset,
/// leaves it on). For test suites that build hundreds of small metamutants at
/// `FERASTRAU_OPT_LEVEL=0`, where its one compile per crate (about 0.6 CPU-s for a small crate)
/// adds up; a run's verdicts are never guessed without it, the mutants just get none.
pub const SWITCH_VAR: &str = "FERASTRAU_COMPILER_EQUIVALENCE";

/// Whether [`SWITCH_VAR`] leaves the comparison on.
pub fn enabled() -> bool {
    std::env::var_os(SWITCH_VAR).is_none_or(|v| v != "0")
}

/// What the compiler says of one mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// Its function compiles to the original's code.
    Equivalent,
    /// Its function compiles to the code of mutant `of` (lower-numbered, not equivalent).
    Duplicate { of: u32 },
}

/// A function whose mutants were not compared, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotCompared {
    pub function: String,
    pub why: String,
}

/// The comparison of one metamutant's mutants ([`crate::Metamutant::equivalence`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Equivalence {
    /// The verdicts; a compared mutant without one differs from the original and from every
    /// lower-numbered mutant of its function.
    pub verdicts: BTreeMap<u32, Verdict>,
    /// The mutants whose function was copied and compiled.
    pub compared: BTreeSet<u32>,
    pub not_compared: Vec<NotCompared>,
    /// Writing the copies, compiling them and comparing (of the run that built it, when the
    /// metamutant came from the cache).
    pub seconds: f64,
    /// Set when the copies did not compile: no verdicts, and the compiler's first error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
    /// How this run compiled the copies (not kept: a cached comparison compiled nothing).
    #[serde(skip)]
    pub compiled: Compiled,
}

/// How a run compiled the copies of its comparison.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Compiled {
    /// Not at all: the comparison came from the cache, or nothing needed copying.
    #[default]
    Not,
    /// By `rustc` beside the worker's build ([`crate::invocation`]).
    BesideTheBuild,
    /// Through cargo after the build; with why, when a compile beside it was tried and failed.
    ThroughCargo { beside_failed: Option<String> },
}

impl Equivalence {
    pub fn verdict(&self, id: u32) -> Option<Verdict> {
        self.verdicts.get(&id).copied()
    }
}

/// Where the comparison is compiled: the copy's directory (the worker manifest the compiler
/// goes through must depend on it by path) and the compiler.
#[derive(Clone, Debug)]
pub struct Setup {
    pub dir: PathBuf,
    pub compiler: Compiler,
}

/// One copied function: its display name and each copy's symbol, by mutant id (0: original).
struct Copied {
    function: String,
    symbols: BTreeMap<u32, String>,
}

/// Compares the mutants `viable` of the metamutant at `metamutant` (package `package`): its
/// viable mutants, less those whose verdicts the last comparison gave (a function none of whose
/// mutants is in `viable` is not copied at all), in a copy of it written to `setup.dir` where
/// the generated files `files` (paths relative to the crate) get the copies, compiled through
/// cargo ([`Compiler::emit_ir`]). A compile that fails gives no verdicts, not an error: the
/// comparison is a refinement of the report, never a reason to refuse a run.
pub(crate) fn compare(
    metamutant: &Path,
    files: &[String],
    viable: &BTreeSet<u32>,
    package: &str,
    setup: &Setup,
) -> Result<Equivalence> {
    let copies = Copies::write(metamutant, files, viable, setup)?;
    if copies.copied.is_empty() {
        return Ok(copies.judged(None));
    }
    let ir = ir_path(setup);
    let out = crate::compile::output(&mut setup.compiler.emit_ir(&setup.dir, package, &ir)?)
        .context("cannot run cargo")?;
    let compiled = Compiled::ThroughCargo {
        beside_failed: None,
    };
    if !out.status.success() || !ir.exists() {
        let failed = crate::compile::first_error(&String::from_utf8_lossy(&out.stderr));
        return Ok(Equivalence {
            compiled,
            ..copies.failed(failed)
        });
    }
    Ok(Equivalence {
        compiled,
        ..copies.judge_ir(&ir)?
    })
}

/// A comparison compiling beside the build that compiles the metamutant: its copy compiled by
/// `rustc` with cargo's own command for the metamutant ([`Invocation::emit_ir`]), outside
/// cargo's lock (see [`crate::invocation`]). Dropped unfinished, its compile is killed.
pub(crate) struct Beside(Work);

enum Work {
    /// No mutant to compare: the copies are judged without a compile.
    Uncompiled(Copies),
    /// The copies' compile, and the log its output goes to.
    Compiling { compile: Compile, log: PathBuf },
}

/// A compile running, and the thread that judges the IR it wrote as soon as it exits with
/// success: beside the build, which usually ends later, and so that the comparison's `seconds`
/// count the copies' writing, compile and judging, not the wait for the build. The thread
/// waits without reaping the process, so that its pid stays ours until [`Compile::end`] reaps
/// it: killing it is never killing another process that got its pid. Dropped before
/// [`Compile::end`], the process is killed and reaped.
struct Compile {
    child: Child,
    /// The verdicts of the compile's IR; none if it failed or wrote none. Taken by
    /// [`Compile::end`].
    judged: Option<std::thread::JoinHandle<Option<Result<Equivalence>>>>,
}

impl Compile {
    /// Starts `cmd`, whose IR (at `ir`) the copies `copies` are judged by.
    fn spawn(
        cmd: &mut std::process::Command,
        copies: Copies,
        ir: PathBuf,
    ) -> std::io::Result<Compile> {
        let child = cmd.spawn()?;
        let pid = nix::unistd::Pid::from_raw(child.id() as i32);
        let judged = std::thread::spawn(move || {
            use nix::sys::wait::{waitid, Id, WaitPidFlag, WaitStatus};
            // EINTR: wait again; any other error: the caller's wait says what happened.
            let status = loop {
                match waitid(Id::Pid(pid), WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT) {
                    Err(nix::errno::Errno::EINTR) => continue,
                    status => break status,
                }
            };
            (matches!(status, Ok(WaitStatus::Exited(_, 0))) && ir.exists())
                .then(|| copies.judge_ir(&ir))
        });
        Ok(Compile {
            child,
            judged: Some(judged),
        })
    }

    /// Waits for the compile and its judging: how it ended, and the verdicts. The thread
    /// first: reaped before the thread saw it exit, the process would be no child of ours.
    fn end(&mut self) -> Result<(std::process::ExitStatus, Option<Result<Equivalence>>)> {
        let judged = self.judged.take().and_then(|t| t.join().ok()).flatten();
        Ok((self.child.wait()?, judged))
    }
}

impl Drop for Compile {
    fn drop(&mut self) {
        if self.judged.is_some() {
            let _ = self.child.kill();
            let _ = self.end();
        }
    }
}

impl Beside {
    /// Writes the copies as [`compare`] does and starts their compile with `command`, the
    /// metamutant's (at `metamutant`) as cargo ran it.
    pub(crate) fn start(
        metamutant: &Path,
        files: &[String],
        viable: &BTreeSet<u32>,
        setup: &Setup,
        command: &Invocation,
    ) -> Result<Beside> {
        let copies = Copies::write(metamutant, files, viable, setup)?;
        if copies.copied.is_empty() {
            return Ok(Beside(Work::Uncompiled(copies)));
        }
        let (ir, log) = (ir_path(setup), setup.dir.join("ferastrau-equivalence.log"));
        let scratch = setup.dir.join("ferastrau-equivalence-out");
        std::fs::create_dir_all(&scratch)?;
        let mut cmd = command.emit_ir(metamutant, &setup.dir, &ir, &scratch);
        // Killed with us: a compile left running could write its IR over a later run's.
        crate::compile::die_with_parent(&mut cmd, nix::sys::signal::Signal::SIGKILL);
        lower_priority(&mut cmd);
        let log_file = std::fs::File::create(&log)?;
        cmd.stdin(Stdio::null())
            .stdout(log_file.try_clone()?)
            .stderr(log_file);
        let compile = Compile::spawn(&mut cmd, copies, ir)
            .with_context(|| format!("cannot run {}", command.program))?;
        Ok(Beside(Work::Compiling { compile, log }))
    }

    /// The verdicts, once the compile has ended; else why it failed (the caller compares
    /// through cargo instead, which says why if it fails too).
    pub(crate) fn finish(self) -> Result<Result<Equivalence, String>> {
        let (mut compile, log) = match self.0 {
            Work::Uncompiled(copies) => return Ok(Ok(copies.judged(None))),
            Work::Compiling { compile, log } => (compile, log),
        };
        let (status, judged) = compile.end()?;
        let (Some(judged), true) = (judged, status.success()) else {
            let log = std::fs::read_to_string(&log).unwrap_or_default();
            return Ok(Err(crate::compile::first_error(&log)));
        };
        Ok(Ok(Equivalence {
            compiled: Compiled::BesideTheBuild,
            ..judged?
        }))
    }
}

/// Runs the process `cmd` starts at a lower priority (`nice` 10): the build beside it (the
/// metamutant's compile, then the worker's crate, which needs it) is what the run waits
/// for, and the comparison fits in the CPU time that build leaves idle.
fn lower_priority(cmd: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: setpriority is async-signal-safe; its failure only leaves the priority as is.
    unsafe {
        cmd.pre_exec(|| {
            libc::setpriority(libc::PRIO_PROCESS, 0, 10);
            Ok(())
        });
    }
}

/// Where a compile of the copies writes its IR: named by our process, so that no other
/// run's compile (one killed with its run but still writing) can write the file we read.
fn ir_path(setup: &Setup) -> PathBuf {
    setup
        .dir
        .join(format!("ferastrau-equivalence-{}.ll", std::process::id()))
}

/// The copies written for one comparison, before their compile.
#[derive(Default)]
struct Copies {
    copied: Vec<Copied>,
    not_compared: Vec<NotCompared>,
    compared: BTreeSet<u32>,
    started: Option<Instant>,
}

impl Copies {
    /// A fresh copy of the metamutant at `metamutant` in `setup.dir`, the files `files` given
    /// a copy of each function per mutant of `viable`.
    fn write(
        metamutant: &Path,
        files: &[String],
        viable: &BTreeSet<u32>,
        setup: &Setup,
    ) -> Result<Copies> {
        let started = Instant::now();
        crate::metamutant::copy_generated(metamutant, &setup.dir)?;
        let mut copied = Vec::new();
        let mut not_compared = Vec::new();
        for rel in files {
            let path = setup.dir.join(rel);
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let mut ast = syn::parse_file(&text)
                .with_context(|| format!("the generated {rel} does not parse"))?;
            let mut v = Copier {
                viable,
                copied: &mut copied,
                not_compared: &mut not_compared,
                module: Vec::new(),
            };
            v.items(&mut ast.items);
            std::fs::write(&path, prettyplease::unparse(&ast))?;
        }
        let compared = copied
            .iter()
            .flat_map(|c| c.symbols.keys().copied().filter(|&id| id != 0))
            .collect();
        Ok(Copies {
            copied,
            not_compared,
            compared,
            started: Some(started),
        })
    }

    fn seconds(&self) -> f64 {
        self.started.map_or(0.0, |s| s.elapsed().as_secs_f64())
    }

    /// The comparison with `verdicts` (none when nothing was copied).
    fn judged(self, verdicts: Option<BTreeMap<u32, Verdict>>) -> Equivalence {
        Equivalence {
            seconds: self.seconds(),
            verdicts: verdicts.unwrap_or_default(),
            compared: self.compared,
            not_compared: self.not_compared,
            failed: None,
            compiled: Compiled::Not,
        }
    }

    /// The comparison whose compile failed with `error`: no verdicts, nothing compared.
    fn failed(self, error: String) -> Equivalence {
        Equivalence {
            seconds: self.seconds(),
            not_compared: self.not_compared,
            failed: Some(error),
            ..Equivalence::default()
        }
    }

    /// The verdicts of the copies' compiled IR at `ir`.
    fn judge_ir(self, ir: &Path) -> Result<Equivalence> {
        let text =
            std::fs::read_to_string(ir).with_context(|| format!("cannot read {}", ir.display()))?;
        let module = Module::parse(&text);
        let mut verdicts = BTreeMap::new();
        for c in &self.copied {
            verdicts.extend(judge(&module, c)?);
        }
        // Megabytes of text, of no use once read (`FERASTRAU_KEEP_IR` keeps it, to see why
        // two copies differ).
        if std::env::var_os("FERASTRAU_KEEP_IR").is_none() {
            let _ = std::fs::remove_file(ir);
        }
        Ok(self.judged(Some(verdicts)))
    }
}

/// The verdicts of one function's copies.
fn judge(module: &Module, c: &Copied) -> Result<BTreeMap<u32, Verdict>> {
    let canonical = |id: u32| -> Result<String> {
        let symbol = &c.symbols[&id];
        module.canonical(symbol).with_context(|| {
            format!(
                "the copy of {} for mutant {id} ({symbol}) is not in the compiled code",
                c.function
            )
        })
    };
    let original = canonical(0)?;
    let mut first: HashMap<String, u32> = HashMap::new();
    let mut verdicts = BTreeMap::new();
    for &id in c.symbols.keys().filter(|&&id| id != 0) {
        let code = canonical(id)?;
        if code == original {
            verdicts.insert(id, Verdict::Equivalent);
        } else if let Some(&of) = first.get(&code) {
            verdicts.insert(id, Verdict::Duplicate { of });
        } else {
            first.insert(code, id);
        }
    }
    Ok(verdicts)
}

/// The name of a copy: fixed width, so that two copies' names (and the names of closures
/// that embed them) have the same length.
fn symbol(function: usize, mutant: u32) -> String {
    format!("ferastrau_tce_{function:05}_{mutant:06}_z")
}

/// Whether `symbol` (an LLVM name) belongs to the copy named `copy`: the copy itself or a
/// function compiled out of it (a closure's mangled name embeds its parent's).
fn owned_by(symbol: &str, copy: &str) -> bool {
    symbol.contains(copy)
}

/// Checks that a verdict claims nothing about a mutant it did not compare (a bug here would
/// wrongly shrink a kill rate): every judged mutant was compared, every duplicate's
/// representative is a lower-numbered compared mutant.
pub(crate) fn check(e: &Equivalence) -> Result<()> {
    for (&id, v) in &e.verdicts {
        if !e.compared.contains(&id) {
            bail!("mutant {id} has a compiler verdict but was not compared");
        }
        if let Verdict::Duplicate { of } = v {
            if *of >= id || !e.compared.contains(of) {
                bail!("mutant {id} is a duplicate of {of}, which is not a lower compared mutant");
            }
        }
    }
    Ok(())
}
