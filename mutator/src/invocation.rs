//! The `rustc` command cargo ran for a generated crate, read from cargo's very verbose status
//! line (`-vv`: "Running `CARGO_PKG_NAME=... rustc --crate-name ...`"), and the same compile
//! redirected at a copy of that crate.
//!
//! **Why.** Trivial compiler equivalence compiles a copy of the metamutant once more
//! ([`crate::equivalence`]). Through cargo that compile waits for the worker's build to end:
//! both hold the one build directory's lock. Started as cargo would start it, but by us, it
//! needs no lock (its dependencies are built, and it writes nothing but its own IR into a
//! directory of its own), so it runs beside the metamutant's compile and then the worker
//! binary's, which is serial (one codegen unit, see [`crate::compile::profile_args`]) and
//! leaves the second core idle.
//!
//! The command is cargo's own (flags, `--cfg`s, `--extern`s, the environment a build script
//! or `env!` reads), taken from the build that is compiling the metamutant, so nothing cargo
//! decides is guessed here. Only what says where the outputs go and how they are optimised is
//! replaced. It can start with the metamutant's own compile: cargo starts that once every
//! dependency's metadata is written, and the copy needs nothing else.

use std::path::Path;
use std::process::Command;

use crate::compile::Line;
use crate::equivalence::COPY_CRATE_TYPE;

/// A `rustc` command cargo ran: its environment, program and arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invocation {
    pub env: Vec<(String, String)>,
    pub program: String,
    pub args: Vec<String>,
}

impl Invocation {
    /// The command of cargo's status line `line` (with `-vv`), if it is one that compiles the
    /// library whose manifest is in `dir`: a `Running` line whose source file lies in `dir`
    /// and whose crate types include a library.
    pub fn from_status_line(line: &str, dir: &Path) -> Option<Invocation> {
        let quoted = line.trim().strip_prefix("Running `")?.strip_suffix('`')?;
        let mut words = shlex::split(quoted)?.into_iter().peekable();
        let mut env = Vec::new();
        while let Some((name, value)) = words.peek().and_then(|w| env_pair(w)) {
            env.push((name, value));
            words.next();
        }
        let program = words.next()?;
        let args: Vec<String> = words.collect();
        let dir = dir.to_str()?;
        let source_in_dir = args
            .iter()
            .any(|a| a.ends_with(".rs") && Path::new(a).starts_with(dir));
        let library = args
            .windows(2)
            .any(|w| w[0] == "--crate-type" && ["lib", "rlib"].contains(&w[1].as_str()));
        (source_in_dir && library).then_some(Invocation { env, program, args })
    }

    /// The same compile of the copy of the crate in `to` (the crate was in `from`) as one
    /// codegen unit at `opt-level=3`, as a [`COPY_CRATE_TYPE`], writing only its optimised LLVM
    /// IR, to `ir` (any other file it makes goes to `scratch`), with human-readable diagnostics
    /// and no lints.
    pub fn emit_ir(&self, from: &Path, to: &Path, ir: &Path, scratch: &Path) -> Command {
        let moved = |s: &str| -> String {
            match Path::new(s).strip_prefix(from) {
                // `join("")` would add a trailing separator.
                Ok(rest) if rest.as_os_str().is_empty() => to.to_string_lossy().into_owned(),
                Ok(rest) => to.join(rest).to_string_lossy().into_owned(),
                Err(_) => s.to_string(),
            }
        };
        let mut args: Vec<String> = Vec::new();
        let mut given = self.args.iter();
        while let Some(a) = given.next() {
            // Options replaced below: where outputs go, what is emitted, how it is optimised,
            // the crate types, the message format.
            let with_value = match a.as_str() {
                "--out-dir" | "--crate-type" => true,
                "-C" => given.clone().next().is_some_and(|v| replaced_codegen(v)),
                _ => false,
            };
            if with_value {
                given.next();
                continue;
            }
            if a.starts_with("--emit")
                || a.starts_with("--error-format")
                || a.starts_with("--json")
                || a.starts_with("--out-dir=")
                || a.starts_with("--crate-type=")
                || a.strip_prefix("-C").is_some_and(replaced_codegen)
            {
                continue;
            }
            args.push(moved(a));
        }
        let mut cmd = Command::new(&self.program);
        cmd.args(args)
            .args(["--crate-type", COPY_CRATE_TYPE, "--cap-lints", "allow"])
            .arg(format!("--emit=llvm-ir={}", ir.display()))
            .arg("--out-dir")
            .arg(scratch)
            .args(["-C", "opt-level=3", "-C", "codegen-units=1"])
            .current_dir(to);
        for (name, value) in &self.env {
            cmd.env(name, moved(value));
        }
        cmd
    }
}

/// `NAME=value` with a name an environment variable can have.
fn env_pair(word: &str) -> Option<(String, String)> {
    let (name, value) = word.split_once('=')?;
    let valid = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then(|| (name.to_string(), value.to_string()))
}

/// Whether a `-C` setting is one [`Invocation::emit_ir`] sets itself.
fn replaced_codegen(setting: &str) -> bool {
    let name = setting.split('=').next().unwrap_or(setting);
    ["opt-level", "codegen-units", "incremental", "embed-bitcode"].contains(&name)
}

/// The command of the library whose manifest is in `dir`, if cargo's `line` is the status line
/// that starts its compile (`-vv`; a library found fresh has none).
pub fn library_started(line: Line, dir: &Path) -> Option<Invocation> {
    match line {
        Line::Stderr(text) => Invocation::from_status_line(text, dir),
        Line::Stdout(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = "     Running `CARGO=/t/bin/cargo CARGO_CRATE_NAME=leftist \
        CARGO_MANIFEST_DIR=/w/meta CARGO_PKG_AUTHORS='' CARGO_PKG_DESCRIPTION='a heap, '\\''leftist'\\''' \
        /t/bin/rustc --crate-name leftist --edition=2021 /w/meta/src/lib.rs --error-format=json \
        --json=diagnostic-rendered-ansi,artifacts,future-incompat --crate-type lib \
        --emit=dep-info,metadata,link -C opt-level=3 -C embed-bitcode=no -C codegen-units=16 \
        --check-cfg 'cfg(docsrs,test)' -C metadata=3aa2 --out-dir /b/deps -C strip=debuginfo \
        -L dependency=/b/deps --extern ferastrau_probes=/b/deps/libferastrau_probes-21.rmeta`";

    #[test]
    fn a_running_line_gives_its_environment_program_and_arguments() {
        let inv = Invocation::from_status_line(LINE, Path::new("/w/meta")).unwrap();
        assert_eq!(inv.program, "/t/bin/rustc");
        assert_eq!(inv.env[0], ("CARGO".into(), "/t/bin/cargo".into()));
        assert_eq!(inv.env[3], ("CARGO_PKG_AUTHORS".into(), String::new()));
        assert_eq!(
            inv.env[4],
            ("CARGO_PKG_DESCRIPTION".into(), "a heap, 'leftist'".into())
        );
        assert_eq!(inv.args[0], "--crate-name");
        assert!(inv.args.contains(&"cfg(docsrs,test)".to_string()));
    }

    #[test]
    fn only_the_library_in_the_directory_is_taken() {
        assert!(Invocation::from_status_line(LINE, Path::new("/w/other")).is_none());
        assert!(Invocation::from_status_line(LINE, Path::new("/w/me")).is_none());
        let bin = LINE.replace("--crate-type lib", "--crate-type bin");
        assert!(Invocation::from_status_line(&bin, Path::new("/w/meta")).is_none());
        assert!(Invocation::from_status_line("   Compiling leftist", Path::new("/w")).is_none());
        assert!(
            Invocation::from_status_line("Running `unclosed 'quote`", Path::new("/")).is_none()
        );
    }

    #[test]
    fn the_copy_s_compile_moves_paths_and_replaces_outputs_and_optimisation() {
        let inv = Invocation::from_status_line(LINE, Path::new("/w/meta")).unwrap();
        let cmd = inv.emit_ir(
            Path::new("/w/meta"),
            Path::new("/w/copy"),
            Path::new("/w/copy/x.ll"),
            Path::new("/w/copy/out"),
        );
        let args: Vec<String> = cmd
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let joined = args.join(" ");
        assert!(args.contains(&"/w/copy/src/lib.rs".to_string()), "{joined}");
        assert!(!joined.contains("/w/meta"), "{joined}");
        for gone in [
            "codegen-units=16",
            "embed-bitcode",
            "--error-format",
            "/b/deps -C",
        ] {
            assert!(!joined.contains(gone), "{gone} in {joined}");
        }
        assert_eq!(args.iter().filter(|a| *a == "--crate-type").count(), 1);
        assert!(
            joined.contains("--crate-type cdylib --cap-lints allow"),
            "{joined}"
        );
        assert_eq!(args.iter().filter(|a| a.starts_with("--emit")).count(), 1);
        assert!(joined.ends_with(
            "--emit=llvm-ir=/w/copy/x.ll --out-dir /w/copy/out -C opt-level=3 -C codegen-units=1"
        ));
        assert!(joined.contains("-C strip=debuginfo -L dependency=/b/deps --extern"));
        let env: Vec<_> = cmd.get_envs().collect();
        assert!(env.contains(&(
            std::ffi::OsStr::new("CARGO_MANIFEST_DIR"),
            Some(std::ffi::OsStr::new("/w/copy"))
        )));
    }

    #[test]
    fn a_library_starts_with_its_status_line_on_stderr() {
        let dir = Path::new("/w/meta");
        assert!(library_started(Line::Stderr(LINE), dir).is_some());
        assert!(library_started(Line::Stdout(LINE), dir).is_none());
        assert!(
            library_started(Line::Stderr("       Fresh leftist v0.0.0 (/w/meta)"), dir).is_none()
        );
    }
}
