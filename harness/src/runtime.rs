//! Where the Ferastrau crates that a benchmark crate's generated crates link come from: the
//! same place as the crate's own `ferastrau-sdk`, at this binary's version.
//!
//! The worker process Ferastrau builds for a crate links the worker runtime
//! (`ferastrau-worker`), which implements the SDK's `Benchmark` trait, and the metamutant's
//! code sets the switch and probes of `ferastrau-probes`. Both must be the very crates the
//! benchmark's SDK is built from, or cargo builds two of each (two traits of one name, probes
//! nobody reads). So the binary never finds them through the checkout it was compiled in: it
//! reads where the crate takes `ferastrau-sdk` from and names its siblings from there, pinned
//! to its own version (`=VERSION`), which cargo then resolves as it resolves any dependency.
//!
//! - a registry (crates.io, or the registry the dependency names): `{ version = "=VERSION" }`;
//! - a Ferastrau checkout (a path dependency on its `harness/sdk`): that checkout's crate by
//!   path, with the version requirement too, so that a checkout of another version is an error
//!   that says so;
//! - a git repository: the same repository and reference.

use std::path::{Path, PathBuf};

use anyhow::Result;

use ferastrau_console::exit_code::usage;

/// The version of this binary, and so of the SDK, worker runtime and probes its workers link.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The Ferastrau crates a generated crate names (the rest come with them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Package {
    /// `ferastrau-worker`, the worker process's runtime.
    Worker,
    /// `ferastrau-probes`, the metamutant's switch and coverage probes.
    Probes,
    /// `ferastrau-sdk`, what a benchmark crate (and a test suite's runner) programs against.
    Sdk,
}

impl Package {
    /// The package's name.
    pub fn name(self) -> &'static str {
        match self {
            Package::Worker => "ferastrau-worker",
            Package::Probes => "ferastrau-probes",
            Package::Sdk => "ferastrau-sdk",
        }
    }

    /// Its directory in a Ferastrau checkout.
    fn in_checkout(self) -> &'static str {
        match self {
            Package::Worker => "harness/worker",
            Package::Probes => "mutator/probes",
            Package::Sdk => "harness/sdk",
        }
    }
}

/// Where a benchmark crate's Ferastrau crates come from (see the module's documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Runtime {
    /// A registry: crates.io when `registry` is `None`, else the one of that name in the
    /// user's cargo configuration (`[registries]`), as the crate's dependency names it.
    Registry { registry: Option<String> },
    /// The Ferastrau checkout at this directory (its root).
    Checkout(PathBuf),
    /// A git repository, at a `rev`, `branch` or `tag` when the crate names one.
    Git {
        url: String,
        reference: Option<(String, String)>,
    },
}

impl Runtime {
    /// `package`'s dependency entry as a TOML inline table, for a generated manifest.
    pub fn dependency(&self, package: Package) -> String {
        let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
        let version = format!("version = {}", quote(&format!("={VERSION}")));
        match self {
            Runtime::Registry { registry: None } => format!("{{ {version} }}"),
            Runtime::Registry {
                registry: Some(name),
            } => format!("{{ {version}, registry = {} }}", quote(name)),
            Runtime::Checkout(root) => format!(
                "{{ {version}, path = {} }}",
                quote(&root.join(package.in_checkout()).to_string_lossy())
            ),
            Runtime::Git { url, reference } => {
                let reference = match reference {
                    Some((kind, value)) => format!(", {kind} = {}", quote(value)),
                    None => String::new(),
                };
                format!("{{ {version}, git = {}{reference} }}", quote(url))
            }
        }
    }

    /// The checkout, when the crate's Ferastrau comes from one.
    pub fn checkout(&self) -> Option<&Path> {
        match self {
            Runtime::Checkout(root) => Some(root),
            _ => None,
        }
    }

    /// The runtime of a crate that declares `sdk` (its `ferastrau-sdk` dependency, as cargo
    /// metadata gives it). Refused (usage error) when it cannot be this binary's version: a
    /// registry requirement that excludes it, a path that is not a Ferastrau checkout's SDK or
    /// a checkout of another version. `crate_dir` names the crate in the messages.
    pub fn of(sdk: &cargo_metadata::Dependency, crate_dir: &Path) -> Result<Runtime> {
        let here = crate_dir.display();
        if let Some(path) = &sdk.path {
            let sdk_dir = path.as_std_path();
            let Some(root) = sdk_checkout(sdk_dir) else {
                return Err(usage(format!(
                    "{here} depends on the ferastrau-sdk at {path}, which is not the harness/sdk of \
                     a Ferastrau checkout (no harness/worker beside it): depend on \
                     `ferastrau-sdk = \"{VERSION}\"` (ferastrau init writes it so), or on a \
                     checkout's harness/sdk"
                )));
            };
            let theirs = checkout_version(root);
            if theirs.as_deref() != Some(VERSION) {
                return Err(usage(format!(
                    "{here} depends on the ferastrau-sdk of the checkout {}, which is version {}, \
                     but this ferastrau is {VERSION}: run that checkout's ferastrau (`cargo run \
                     --release --` there), or depend on `ferastrau-sdk = \"{VERSION}\"`",
                    root.display(),
                    theirs.as_deref().unwrap_or("unknown")
                )));
            }
            return Ok(Runtime::Checkout(root.to_path_buf()));
        }
        if let Some(git) = sdk.source.as_deref().and_then(|s| s.strip_prefix("git+")) {
            let (url, query) = match git.split_once('?') {
                Some((url, query)) => (url, Some(query)),
                None => (git.split('#').next().unwrap_or(git), None),
            };
            let reference = query
                .map(|q| q.split('#').next().unwrap_or(q))
                .and_then(|q| q.split_once('='))
                .filter(|(kind, _)| matches!(*kind, "rev" | "branch" | "tag"))
                .map(|(kind, value)| (kind.to_string(), value.to_string()));
            return Ok(Runtime::Git {
                url: url.to_string(),
                reference,
            });
        }
        let version = cargo_metadata::semver::Version::parse(VERSION)
            .expect("cargo's package version is semver");
        if !sdk.req.matches(&version) {
            return Err(usage(format!(
                "{here} requires ferastrau-sdk {}, but this ferastrau is {VERSION}, and the \
                 workers it builds link its own version: change the dependency to \
                 `ferastrau-sdk = \"{VERSION}\"`, or install the ferastrau that matches (`cargo \
                 install ferastrau --version \"{}\"`)",
                sdk.req, sdk.req
            )));
        }
        // Cargo metadata gives another registry by its index URL, but a dependency names it
        // by the name the user's cargo configuration gives it: read that from the manifest.
        let registry = match &sdk.registry {
            None => None,
            Some(url) => Some(registry_name(crate_dir).ok_or_else(|| {
                usage(format!(
                    "{here} takes ferastrau-sdk from the registry {url}: declare it in the \
                     crate's own Cargo.toml as `ferastrau-sdk = {{ version = \"{VERSION}\", \
                     registry = \"NAME\" }}` (NAME as your cargo configuration names that \
                     registry), so that the workers can take the runtime from it too"
                ))
            })?),
        };
        Ok(Runtime::Registry { registry })
    }
}

/// The `registry = "NAME"` of the `ferastrau-sdk` dependency in `crate_dir`'s Cargo.toml.
fn registry_name(crate_dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(crate_dir.join("Cargo.toml")).ok()?;
    let manifest: toml::Table = text.parse().ok()?;
    manifest
        .get("dependencies")?
        .get("ferastrau-sdk")?
        .get("registry")?
        .as_str()
        .map(str::to_string)
}

/// Whether `dir` is the root of a Ferastrau checkout: the workspace whose `harness/sdk`,
/// `harness/worker` and `benchmarks/` are there.
pub fn is_checkout(dir: &Path) -> bool {
    dir.join("Cargo.toml").is_file()
        && dir.join("harness/sdk/Cargo.toml").is_file()
        && dir.join("harness/worker/Cargo.toml").is_file()
        && dir.join("benchmarks").is_dir()
}

/// The root of the Ferastrau checkout whose `harness/sdk` is `sdk_dir`, if it is one's.
pub fn sdk_checkout(sdk_dir: &Path) -> Option<&Path> {
    sdk_dir
        .parent()
        .and_then(Path::parent)
        .filter(|root| is_checkout(root) && same(&root.join("harness/sdk"), sdk_dir))
}

/// The Ferastrau checkout around the current directory, if any: the paper's benchmarks
/// (`--benchmark NAME`) and `reproduce` work on it. Found at run time, never through the path
/// this binary was compiled in (an installed binary must not depend on where it was built).
pub fn checkout() -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    cwd.ancestors()
        .find(|d| is_checkout(d))
        .map(Path::to_path_buf)
}

/// The checkout's version: its `[workspace.package] version`.
fn checkout_version(root: &Path) -> Option<String> {
    let text = std::fs::read_to_string(root.join("Cargo.toml")).ok()?;
    let manifest: toml::Table = text.parse().ok()?;
    Some(
        manifest
            .get("workspace")?
            .get("package")?
            .get("version")?
            .as_str()?
            .to_string(),
    )
}

/// Whether two paths name the same directory (symbolic links resolved where they exist).
fn same(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependencies_name_the_sdks_source_at_this_version() {
        let pin = format!("version = \"={VERSION}\"");
        assert_eq!(
            Runtime::Registry { registry: None }.dependency(Package::Worker),
            format!("{{ {pin} }}")
        );
        assert_eq!(
            Runtime::Registry {
                registry: Some("corp".into())
            }
            .dependency(Package::Probes),
            format!("{{ {pin}, registry = \"corp\" }}")
        );
        assert_eq!(
            Runtime::Checkout("/src/ferastrau".into()).dependency(Package::Worker),
            format!("{{ {pin}, path = \"/src/ferastrau/harness/worker\" }}")
        );
        assert_eq!(
            Runtime::Git {
                url: "https://example.org/f.git".into(),
                reference: Some(("tag".into(), "v1".into()))
            }
            .dependency(Package::Sdk),
            format!("{{ {pin}, git = \"https://example.org/f.git\", tag = \"v1\" }}")
        );
    }
}
