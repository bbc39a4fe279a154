//! `ferastrau init DIR --name NAME`: writes a benchmark crate skeleton that `generate`, `check`
//! and `evaluate` accept as is, so that a user starts from a crate that works and changes it,
//! rather than from a blank page and the friction of the first benchmark.
//!
//! The skeleton (files under `init/`, included at compile time) is a set of integers as a
//! sorted linked list in an arena with `add(x) -> bool` and `remove_first() -> i64`: it shows
//! the view trait, the finitization, a return enum (two return types), a precondition for a
//! method that would fail on some inputs, and count tests with exact figures. Its dependency
//! on `ferastrau-sdk` is this binary's version from crates.io (or a given checkout or git
//! repository): the SDK and the binary must be the same version.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use ferastrau_console::exit_code::usage;

/// Where the new crate's `ferastrau-sdk` comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SdkSource {
    /// A registry dependency on this version (what a user's crate has).
    Version(String),
    /// A path dependency on a checkout's `harness/sdk` directory.
    Path(PathBuf),
    /// A git dependency on a Ferastrau repository, at a revision if given.
    Git { url: String, rev: Option<String> },
}

impl SdkSource {
    /// This binary's version of the SDK, from crates.io.
    pub fn this_version() -> SdkSource {
        SdkSource::Version(crate::runtime::VERSION.to_string())
    }

    /// The same source as `crate_dir`'s Cargo.toml should name it: a path relative to
    /// `crate_dir` when the crate is inside the checkout the SDK belongs to or
    /// beside it, in the same directory (the two then move together); absolute otherwise.
    fn relative_to(&self, crate_dir: &Path) -> SdkSource {
        let SdkSource::Path(sdk) = self else {
            return self.clone();
        };
        // The checkout: the SDK is its `harness/sdk`.
        let Some(checkout) = sdk.parent().and_then(Path::parent) else {
            return self.clone();
        };
        let absolute = |p: &Path| match p.is_absolute() {
            true => p.to_path_buf(),
            false => std::env::current_dir().unwrap_or_default().join(p),
        };
        let crate_dir = absolute(crate_dir);
        // Symbolic links resolved where they exist (the crate's directory may not yet).
        let resolved = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        // Inside the checkout, or a sibling of it (`~/src/ferastrau` and `~/src/my-set`); a
        // crate deeper under the checkout's parent (a temporary directory beside a checkout in
        // /tmp) is not "beside" it.
        let real = resolved_parent(&crate_dir);
        let inside = real.starts_with(resolved(checkout));
        let sibling = real.parent() == resolved(checkout).parent();
        let near = inside || sibling;
        match near {
            true => pathdiff::diff_paths(resolved(sdk), resolved_parent(&crate_dir))
                .map_or_else(|| self.clone(), SdkSource::Path),
            false => self.clone(),
        }
    }

    /// The dependency as a TOML inline table.
    fn toml(&self) -> String {
        let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
        match self {
            SdkSource::Version(v) => quote(v),
            SdkSource::Path(p) => format!("{{ path = {} }}", quote(&p.to_string_lossy())),
            SdkSource::Git { url, rev: None } => format!("{{ git = {} }}", quote(url)),
            SdkSource::Git { url, rev: Some(r) } => {
                format!("{{ git = {}, rev = {} }}", quote(url), quote(r))
            }
        }
    }
}

/// `dir` with its longest existing ancestor's symbolic links resolved (the rest of it is to
/// be created).
fn resolved_parent(dir: &Path) -> PathBuf {
    let mut missing = Vec::new();
    let mut p = dir;
    loop {
        if let Ok(real) = p.canonicalize() {
            return missing.iter().rev().fold(real, |acc, part| acc.join(part));
        }
        match (p.file_name(), p.parent()) {
            (Some(name), Some(parent)) => {
                missing.push(name.to_owned());
                p = parent;
            }
            _ => return dir.to_path_buf(),
        }
    }
}

/// How a new crate describes its inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Style {
    /// Korat's: a finitization, the invariant over a view of its candidates, a decoder.
    #[default]
    Korat,
    /// Inputs from a generator program that builds the real input and filters it with the
    /// invariant written once over the real type (`ferastrau_sdk::generator`); `--style
    /// generator` on the command line.
    Program,
}

impl Style {
    /// The files of the skeleton: path in the new crate, template text.
    fn files(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Style::Korat => &KORAT_FILES,
            Style::Program => &PROGRAM_FILES,
        }
    }

    /// A template with its Korat-only parts (`{{korat:TEXT}}`) kept or dropped: in Korat
    /// style the code under test's types derive `ferastrau_sdk::Korat` and carry its
    /// attributes (the finitization's domains and pools), which write the finitization, the
    /// view the invariant reads, the field ids and the decoder; a generator program needs none
    /// of them, and a line left empty by dropping one goes too.
    fn korat_parts(self, template: &str) -> String {
        const OPEN: &str = "{{korat:";
        let mut out = String::with_capacity(template.len());
        for line in template.split_inclusive('\n') {
            let mut kept = String::new();
            let mut rest = line;
            while let Some(i) = rest.find(OPEN) {
                kept.push_str(&rest[..i]);
                let after = &rest[i + OPEN.len()..];
                let end = after.find("}}").expect("a {{korat:...}} part is closed");
                if self == Style::Korat {
                    kept.push_str(&after[..end]);
                }
                rest = &after[end + 2..];
            }
            kept.push_str(rest);
            if kept.trim().is_empty() && !line.trim().is_empty() {
                continue;
            }
            out.push_str(&kept);
        }
        out
    }

    /// The manifest's `engines` line: a program-style crate declares that its
    /// `ferastrau_benchmark()` is a generator program, which its reports then say.
    fn engines(self) -> &'static str {
        match self {
            Style::Korat => "",
            Style::Program => {
                "# Its inputs come from a generator program (src/lib.rs), not a Korat finitization.\n\
                 engines = [\"generator\"]\n"
            }
        }
    }
}

const KORAT_FILES: [(&str, &str); 7] = [
    ("Cargo.toml", include_str!("init/Cargo.toml.tmpl")),
    (".gitignore", include_str!("init/gitignore.tmpl")),
    ("src/lib.rs", include_str!("init/lib.rs")),
    ("src/set.rs", include_str!("init/set.rs")),
    ("src/invariant.rs", include_str!("init/invariant.rs")),
    ("src/space.rs", include_str!("init/space.rs")),
    ("tests/counts.rs", include_str!("init/counts.rs")),
];

/// The same set, its inputs written as a generator program: no invariant over a view, no
/// finitization, no decoder.
const PROGRAM_FILES: [(&str, &str); 5] = [
    ("Cargo.toml", include_str!("init/Cargo.toml.tmpl")),
    (".gitignore", include_str!("init/gitignore.tmpl")),
    ("src/lib.rs", include_str!("init/program_lib.rs")),
    ("src/set.rs", include_str!("init/set.rs")),
    ("tests/counts.rs", include_str!("init/program_counts.rs")),
];

/// The library name in the Rust templates: an identifier, so that they stay valid Rust
/// (rustfmt checks them like any source).
const LIB_PLACEHOLDER: &str = "ferastrau_init_crate";

/// The benchmark type's name in the Rust templates, replaced by the crate's name in
/// UpperCamelCase followed by `Benchmark` (`my-set` gives `MySetBenchmark`).
const TYPE_PLACEHOLDER: &str = "FerastrauInitBenchmark";

/// `name` (letters, digits, `_`, `-`) in UpperCamelCase, then `Benchmark`.
fn type_name(name: &str) -> String {
    let camel: String = name
        .split(['-', '_'])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            let first = c.next().map(|f| f.to_ascii_uppercase());
            first.into_iter().chain(c).collect::<String>()
        })
        .collect();
    format!("{camel}Benchmark")
}

/// Names a crate cannot take here: Rust keywords (the library name is an identifier in the
/// tests), the standard crates, and the dependencies the skeleton uses.
const RESERVED: &[&str] = &[
    "as",
    "async",
    "await",
    "break",
    "const",
    "continue",
    "crate",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "fn",
    "for",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "self",
    "Self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "type",
    "unsafe",
    "use",
    "where",
    "while",
    "abstract",
    "become",
    "box",
    "do",
    "final",
    "macro",
    "override",
    "priv",
    "typeof",
    "unsized",
    "virtual",
    "yield",
    "try",
    "gen",
    "std",
    "core",
    "alloc",
    "proc_macro",
    "test",
    "korat",
    "ferastrau_sdk",
    "ferastrau_worker",
    "ferastrau_protocol",
];

/// Checks `name` as a package name whose library name is a usable identifier: ASCII letters,
/// digits, `_` and `-`, starting with a letter, at most 64 characters, not reserved.
pub fn check_name(name: &str) -> Result<(), String> {
    let bad = |why: &str| Err(format!("{name:?} is not a valid crate name: {why}"));
    if name.is_empty() {
        return bad("it is empty");
    }
    if name.len() > 64 {
        return bad("it is longer than 64 characters");
    }
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return bad("it must start with an ASCII letter");
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return bad(&format!(
            "{c:?} is not allowed (ASCII letters, digits, `_` and `-` only)"
        ));
    }
    if RESERVED.contains(&name.replace('-', "_").as_str()) {
        return bad("it is a Rust keyword or a crate the skeleton depends on");
    }
    Ok(())
}

/// What `ferastrau init` is asked to do: the command line, parsed.
#[derive(Clone, Debug)]
pub struct Options {
    /// `DIR`: the new crate's directory.
    pub dir: PathBuf,
    /// `--name`; `None`: the directory's name.
    pub name: Option<String>,
    /// `--style`.
    pub style: Style,
    /// `--sdk-path` or `--git` (with `--rev`); else this binary's version.
    pub sdk: SdkSource,
}

/// The crate written.
pub struct Outcome {
    /// Its package name.
    pub name: String,
    /// The files written, relative to its directory.
    pub files: Vec<&'static str>,
}

/// `ferastrau init`: the skeleton written as `opts` asks, a `--sdk-path` checked and made
/// absolute here, where the user meant it (a relative path in the new crate's Cargo.toml
/// would be relative to the crate).
pub fn run(opts: &Options) -> Result<Outcome> {
    let sdk = match &opts.sdk {
        SdkSource::Path(p) if !p.join("Cargo.toml").is_file() => {
            return Err(usage(format!(
                "--sdk-path {}: no Cargo.toml there (give the checkout's harness/sdk directory)",
                p.display()
            )))
        }
        SdkSource::Path(p) => SdkSource::Path(
            p.canonicalize()
                .with_context(|| format!("cannot read {}", p.display()))?,
        ),
        other => other.clone(),
    };
    let name = match &opts.name {
        Some(name) => name.clone(),
        None => default_crate_name(&opts.dir)?,
    };
    let files = init(&opts.dir, &name, &sdk, opts.style)?;
    Ok(Outcome { name, files })
}

/// The crate name `init DIR` gives without `--name`: DIR's last component (of the current
/// directory for `.`), checked like a given name by [`init`].
fn default_crate_name(dir: &Path) -> Result<String> {
    let absolute = std::path::absolute(dir).with_context(|| format!("{}", dir.display()))?;
    let normal: PathBuf = absolute.components().collect();
    normal
        .file_name()
        .and_then(|n| n.to_str())
        .map(str::to_string)
        .ok_or_else(|| {
            usage(format!(
                "{} has no name to give the crate: pass --name NAME",
                dir.display()
            ))
        })
}

/// Writes the skeleton into `dir` (created if missing; refused if it exists and is not an
/// empty directory). Returns the files written, relative to `dir`.
pub fn init(dir: &Path, name: &str, sdk: &SdkSource, style: Style) -> Result<Vec<&'static str>> {
    check_name(name).map_err(usage)?;
    if dir.exists() {
        if !dir.is_dir() {
            return Err(usage(format!(
                "{} exists and is not a directory",
                dir.display()
            )));
        }
        let mut entries =
            std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
        if entries.next().is_some() {
            return Err(usage(format!(
                "{} is not empty: `init` writes a new crate into a new or empty directory",
                dir.display()
            )));
        }
    }
    let lib = name.replace('-', "_");
    let dependency = sdk.relative_to(dir).toml();
    for &(rel, template) in style.files() {
        let text = style
            .korat_parts(template)
            .replace("{{name}}", name)
            .replace(LIB_PLACEHOLDER, &lib)
            .replace(TYPE_PLACEHOLDER, &type_name(name))
            .replace("{{sdk}}", &dependency)
            .replace("{{engines}}\n", style.engines());
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let mut written: Vec<&str> = style.files().iter().map(|(rel, _)| *rel).collect();
    // On a checkout's SDK, pin the dependencies to the versions that checkout is tested with
    // (cargo drops what the crate does not use), as the workers the harness builds do. A
    // registry or git SDK resolves as any dependency does.
    let checkout = match sdk {
        SdkSource::Path(p) => crate::runtime::sdk_checkout(p),
        _ => None,
    };
    if let Some(lock) = checkout
        .map(|c| c.join("Cargo.lock"))
        .filter(|l| l.is_file())
    {
        std::fs::copy(&lock, dir.join("Cargo.lock")).context("cannot copy Cargo.lock")?;
        written.push("Cargo.lock");
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn korat_parts_are_kept_in_korat_style_and_dropped_with_their_lines_otherwise() {
        let t = "#[derive(Eq{{korat:, K}})]\nstruct S {\n    {{korat:#[korat(pool(n))]}}\n    x: i64,\n\n}\n";
        assert_eq!(
            Style::Korat.korat_parts(t),
            "#[derive(Eq, K)]\nstruct S {\n    #[korat(pool(n))]\n    x: i64,\n\n}\n"
        );
        assert_eq!(
            Style::Program.korat_parts(t),
            "#[derive(Eq)]\nstruct S {\n    x: i64,\n\n}\n"
        );
        for style in [Style::Korat, Style::Program] {
            for (_, template) in style.files() {
                assert!(!style.korat_parts(template).contains("{{korat"));
            }
        }
    }

    #[test]
    fn crate_names_are_checked() {
        for good in ["my_set", "my-set", "Set2", "a"] {
            assert_eq!(check_name(good), Ok(()), "{good}");
        }
        for (bad, why) in [
            ("", "empty"),
            ("2sets", "start with an ASCII letter"),
            ("_x", "start with an ASCII letter"),
            ("my set", "' ' is not allowed"),
            ("mé", "'é' is not allowed"),
            ("fn", "keyword"),
            ("ferastrau-sdk", "keyword or a crate"),
            ("korat", "keyword or a crate"),
        ] {
            let e = check_name(bad).unwrap_err();
            assert!(e.contains(why), "{bad:?}: {e}");
        }
        assert!(check_name(&"a".repeat(65)).unwrap_err().contains("64"));
    }

    #[test]
    fn type_names_follow_the_crate_name() {
        assert_eq!(type_name("my-set"), "MySetBenchmark");
        assert_eq!(type_name("leftist_heap2"), "LeftistHeap2Benchmark");
        assert_eq!(type_name("a"), "ABenchmark");
        assert_eq!(type_name("x--y"), "XYBenchmark");
    }

    #[test]
    fn the_sdk_path_is_relative_inside_or_beside_the_checkout_only() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path().canonicalize().unwrap();
        let checkout = root.join("work/ferastrau");
        let sdk = checkout.join("harness/sdk");
        std::fs::create_dir_all(&sdk).unwrap();
        let source = SdkSource::Path(sdk.clone());
        let path = |dir: &Path| match source.relative_to(dir) {
            SdkSource::Path(p) => p,
            other => panic!("{other:?}"),
        };
        // Inside the checkout, and beside it (the directory that holds it).
        assert_eq!(
            path(&checkout.join("mine/my_set")),
            PathBuf::from("../../harness/sdk")
        );
        assert_eq!(
            path(&root.join("work/my_set")),
            PathBuf::from("../ferastrau/harness/sdk")
        );
        // Elsewhere, deeper under the checkout's parent included: absolute, as it was given.
        assert_eq!(path(&root.join("elsewhere/my_set")), sdk);
        assert_eq!(path(&root.join("work/tmp/my_set")), sdk);
        // A git source stays what it is.
        let git = SdkSource::Git {
            url: "https://example.org/f.git".into(),
            rev: None,
        };
        assert_eq!(git.relative_to(&checkout.join("x")), git);
    }

    #[test]
    fn the_dependency_is_valid_toml_whatever_the_path() {
        let odd = SdkSource::Path(PathBuf::from("/tmp/a \"quoted\" \\ dir/harness/sdk"));
        let doc = format!("dep = {}", odd.toml());
        let v: toml::Table = doc.parse().expect("valid TOML");
        assert_eq!(
            v["dep"]["path"].as_str(),
            Some("/tmp/a \"quoted\" \\ dir/harness/sdk")
        );
        let git = SdkSource::Git {
            url: "https://example.org/ferastrau.git".into(),
            rev: Some("abc123".into()),
        };
        let v: toml::Table = format!("dep = {}", git.toml()).parse().unwrap();
        assert_eq!(v["dep"]["rev"].as_str(), Some("abc123"));
    }

    #[test]
    fn init_refuses_a_non_empty_directory_and_a_file() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("keep.txt"), "mine").unwrap();
        let e = init(d.path(), "x", &SdkSource::this_version(), Style::Korat).unwrap_err();
        assert_eq!(
            ferastrau_console::exit_code::of(&e),
            ferastrau_console::exit_code::Exit::Usage
        );
        assert!(format!("{e:#}").contains("is not empty"), "{e:#}");
        assert_eq!(
            std::fs::read_to_string(d.path().join("keep.txt")).unwrap(),
            "mine"
        );
        let e = init(
            &d.path().join("keep.txt"),
            "x",
            &SdkSource::this_version(),
            Style::Korat,
        )
        .unwrap_err();
        assert!(format!("{e:#}").contains("not a directory"), "{e:#}");
    }

    #[test]
    fn init_fills_every_placeholder() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("new");
        let files = init(&dir, "my-set", &SdkSource::this_version(), Style::Korat).unwrap();
        for rel in files.iter().filter(|f| **f != "Cargo.lock") {
            let text = std::fs::read_to_string(dir.join(rel)).unwrap();
            assert!(
                !text.contains("{{") && !text.contains(LIB_PLACEHOLDER),
                "{rel} keeps a placeholder"
            );
        }
        let manifest: toml::Table = std::fs::read_to_string(dir.join("Cargo.toml"))
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(manifest["package"]["name"].as_str(), Some("my-set"));
        assert!(manifest.contains_key("workspace"));
        let tests = std::fs::read_to_string(dir.join("tests/counts.rs")).unwrap();
        assert!(
            tests.contains("use my_set::MySetBenchmark as Bench;"),
            "{tests}"
        );
        assert_eq!(
            manifest["package"]["description"].as_str(),
            Some("my-set: a benchmark crate for Ferastrau")
        );
        let lib = std::fs::read_to_string(dir.join("src/lib.rs")).unwrap();
        for optional in [
            "// fn precondition_is_invariant(",
            "// const HAS_DEDICATED: bool",
            "// fn precondition_dedicated(",
            "// fn invariant_violation(",
        ] {
            assert!(lib.contains(optional), "{optional}");
        }
    }

    #[test]
    fn the_program_style_writes_no_finitization() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("new");
        let sdk = SdkSource::this_version();
        let files = init(&dir, "my-set", &sdk, Style::Program).unwrap();
        assert!(!files.contains(&"src/space.rs") && !files.contains(&"src/invariant.rs"));
        let lib = std::fs::read_to_string(dir.join("src/lib.rs")).unwrap();
        assert!(lib.contains("impl Generator for MySetBenchmark"), "{lib}");
        assert!(
            lib.contains("export!(Generated::new(MySetBenchmark))"),
            "{lib}"
        );
        let tests = std::fs::read_to_string(dir.join("tests/counts.rs")).unwrap();
        assert!(tests.contains("use my_set::MySetBenchmark;"), "{tests}");
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        assert!(
            manifest.contains("\nengines = [\"generator\"]\n"),
            "{manifest}"
        );
    }
}
