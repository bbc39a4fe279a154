//! The benchmark's `Cargo.toml`: what it declares for Ferastrau, and a standalone version of
//! it for the generated copies (metamutant, single mutants) that build outside the workspace.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use ferastrau_protocol::Engine;
use toml::{Table, Value};

/// A benchmark crate's manifest, with the workspace it inherits from.
pub struct Manifest {
    pub dir: PathBuf,
    pub name: String,
    /// The library root, relative to `dir`.
    pub lib: String,
    /// Functions to mutate (`[package.metadata.ferastrau] mutate`).
    pub mutate: Vec<String>,
    /// Specification functions (`[package.metadata.ferastrau] specification`).
    pub specification: Vec<String>,
    /// Mutants or functions not to evaluate, each with its reason
    /// (`[package.metadata.ferastrau] skip`).
    pub skip: Vec<Skip>,
    /// How the benchmark's `render` writes an input, for people reading killing inputs
    /// (`[package.metadata.ferastrau] input-notation`; the report page shows it).
    pub input_notation: Option<String>,
    /// What describes the crate's inputs (`[package.metadata.ferastrau] engines`, default
    /// `["korat"]`): the first is the crate's `ferastrau_benchmark()`, a second its
    /// `ferastrau_<engine>()` (`ferastrau_sdk::export!(bench, generator: program)` defines
    /// `ferastrau_generator()`). Never empty, no engine twice.
    pub engines: Vec<Engine>,
    /// The manifest's own text and, if any, the workspace root's (for fingerprints).
    pub texts: Vec<String>,
    table: Table,
    workspace: Option<(PathBuf, Table)>,
}

impl Manifest {
    pub fn read(crate_dir: &Path) -> Result<Manifest> {
        let dir = crate_dir
            .canonicalize()
            .with_context(|| format!("no crate at {}", crate_dir.display()))?;
        let path = dir.join("Cargo.toml");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let table: Table = text
            .parse()
            .with_context(|| format!("cannot parse {}", path.display()))?;
        let package = table
            .get("package")
            .and_then(Value::as_table)
            .ok_or_else(|| anyhow!("{} has no [package]", path.display()))?;
        let name = package
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| anyhow!("{} has no package name", path.display()))?
            .to_string();
        let lib = table
            .get("lib")
            .and_then(|l| l.get("path"))
            .and_then(Value::as_str)
            .unwrap_or("src/lib.rs")
            .to_string();
        if !dir.join(&lib).exists() {
            bail!("crate `{name}` has no library ({lib} is missing)");
        }
        let meta = package
            .get("metadata")
            .and_then(|m| m.get("ferastrau"))
            .and_then(Value::as_table);
        let list = |key: &str| -> Result<Vec<String>> {
            match meta.and_then(|m| m.get(key)) {
                None => Ok(Vec::new()),
                Some(Value::Array(a)) => a
                    .iter()
                    .map(|v| {
                        v.as_str().map(str::to_string).ok_or_else(|| {
                            anyhow!("[package.metadata.ferastrau] {key} must list strings")
                        })
                    })
                    .collect(),
                Some(_) => bail!("[package.metadata.ferastrau] {key} must be a list of names"),
            }
        };
        let mutate = list("mutate")?;
        if mutate.is_empty() {
            bail!(
                "crate `{name}` declares no functions to mutate: add \
                 [package.metadata.ferastrau] mutate = [\"Type::method\", ...] to {}",
                path.display()
            );
        }
        let specification = list("specification")?;
        let skip = match meta.and_then(|m| m.get("skip")) {
            None => Vec::new(),
            Some(v) => parse_skips(v)?,
        };
        let input_notation = match meta.and_then(|m| m.get("input-notation")) {
            None => None,
            Some(Value::String(s)) => Some(s.trim().to_string()),
            Some(_) => bail!("[package.metadata.ferastrau] input-notation must be a string"),
        };
        let engines = parse_engines(meta.and_then(|m| m.get("engines")))?;
        let mut texts = vec![text];
        let workspace = if table.contains_key("workspace") {
            None
        } else {
            find_workspace(&dir)?
        };
        if let Some((root, _)) = &workspace {
            texts.push(std::fs::read_to_string(root.join("Cargo.toml")).unwrap_or_default());
        }
        Ok(Manifest {
            dir,
            name,
            lib,
            mutate,
            specification,
            skip,
            input_notation,
            engines,
            texts,
            table,
            workspace,
        })
    }

    /// The lock file that pins the crate's dependencies (the workspace's, or its own).
    pub fn lockfile(&self) -> Option<PathBuf> {
        let root = self.workspace.as_ref().map_or(&self.dir, |(d, _)| d);
        Some(root.join("Cargo.lock")).filter(|p| p.exists())
    }

    /// The manifest of a copy that builds on its own: its own `[workspace]`, inherited fields
    /// resolved to literal values, path dependencies absolute, no dev-dependencies or test
    /// targets (the copies are only ever checked and built as a library), plus `extra` path
    /// dependencies.
    pub fn standalone(&self, extra: &[(&str, &str)]) -> Result<String> {
        let mut t = self.table.clone();
        let ws = self.workspace.as_ref();
        let ws_package = ws.and_then(|(_, w)| w.get("workspace")?.get("package")?.as_table());
        let ws_deps = ws.and_then(|(_, w)| w.get("workspace")?.get("dependencies")?.as_table());
        let ws_dir = ws.map(|(d, _)| d.as_path());

        let package = t
            .get_mut("package")
            .and_then(Value::as_table_mut)
            .expect("checked in read");
        package.remove("workspace");
        for (key, value) in package.iter_mut() {
            if inherits(value) {
                *value = ws_package
                    .and_then(|p| p.get(key.as_str()))
                    .cloned()
                    .ok_or_else(|| {
                        anyhow!("`{key}.workspace = true` but the workspace defines no {key}")
                    })?;
            }
        }
        for key in ["autotests", "autobenches", "autoexamples"] {
            package.insert(key.into(), Value::Boolean(false));
        }
        for key in [
            "dev-dependencies",
            "test",
            "bench",
            "example",
            "lints",
            "workspace",
        ] {
            t.remove(key);
        }
        let mut dep_tables: Vec<&mut Table> = Vec::new();
        let (top, targets): (Vec<_>, Vec<_>) =
            t.iter_mut().partition(|(k, _)| k.as_str() != "target");
        for (key, value) in top {
            if key == "dependencies" || key == "build-dependencies" {
                dep_tables.extend(value.as_table_mut());
            }
        }
        for (_, value) in targets {
            for (_, cfg) in value.as_table_mut().into_iter().flatten() {
                if let Some(cfg) = cfg.as_table_mut() {
                    cfg.remove("dev-dependencies");
                    for (key, deps) in cfg.iter_mut() {
                        if key == "dependencies" || key == "build-dependencies" {
                            dep_tables.extend(deps.as_table_mut());
                        }
                    }
                }
            }
        }
        for deps in dep_tables {
            for (name, dep) in deps.iter_mut() {
                resolve_dependency(name, dep, &self.dir, ws_deps, ws_dir)?;
            }
        }
        let deps = t
            .entry("dependencies")
            .or_insert_with(|| Value::Table(Table::new()))
            .as_table_mut()
            .ok_or_else(|| anyhow!("[dependencies] is not a table"))?;
        for (name, value) in extra {
            let entry: Table = format!("dependency = {value}")
                .parse()
                .with_context(|| format!("`{name} = {value}` is not a dependency"))?;
            let value = entry.get("dependency").cloned().expect("parsed from it");
            deps.insert((*name).to_string(), value);
        }
        t.insert("workspace".into(), Value::Table(Table::new()));
        Ok(toml::to_string(&t)?)
    }
}

/// `engines = ["korat", "generator"]`: known engines, at least one, none twice.
fn parse_engines(v: Option<&Value>) -> Result<Vec<Engine>> {
    const WHERE: &str = "[package.metadata.ferastrau] engines";
    let Some(v) = v else {
        return Ok(vec![Engine::Korat]);
    };
    let names = v
        .as_array()
        .ok_or_else(|| anyhow!("{WHERE} must be a list: [\"korat\"], [\"generator\"] or both"))?;
    let mut engines = Vec::new();
    for name in names {
        let e: Engine = name
            .as_str()
            .ok_or_else(|| anyhow!("{WHERE} must list strings, not {name}"))?
            .parse()
            .map_err(|e| anyhow!("{WHERE}: {e}"))?;
        if engines.contains(&e) {
            bail!("{WHERE} lists {e} twice");
        }
        engines.push(e);
    }
    if engines.is_empty() {
        bail!(
            "{WHERE} is empty: list the engine `ferastrau_benchmark()` uses (korat or generator)"
        );
    }
    Ok(engines)
}

/// What a skip entry names: one mutant by its content key, or every mutant of a function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SkipTarget {
    Function(String),
    Mutant(String),
}

/// A `skip` entry: mutants not to evaluate, and why (reports list them with the reason).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skip {
    pub target: SkipTarget,
    pub reason: String,
}

/// `skip = [{ function = "T::f", reason = "..." }, { mutant = "<key>", reason = "..." }]`:
/// every entry names exactly one function or mutant and gives a reason that is not blank
/// (a skip nobody can explain is a survivor hidden).
fn parse_skips(v: &Value) -> Result<Vec<Skip>> {
    const WHERE: &str = "[package.metadata.ferastrau] skip";
    let entries = v
        .as_array()
        .ok_or_else(|| anyhow!("{WHERE} must be a list of {{ function or mutant, reason }}"))?;
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let n = i + 1;
            let t = e
                .as_table()
                .ok_or_else(|| anyhow!("{WHERE} entry {n} is not a table: {e}"))?;
            if let Some(k) = t
                .keys()
                .find(|k| !["function", "mutant", "reason"].contains(&k.as_str()))
            {
                bail!("{WHERE} entry {n} has an unknown field `{k}` (function, mutant, reason)");
            }
            let text = |k: &str| -> Result<Option<String>> {
                match t.get(k) {
                    None => Ok(None),
                    Some(Value::String(s)) => Ok(Some(s.clone())),
                    Some(_) => bail!("{WHERE} entry {n}: `{k}` must be a string"),
                }
            };
            let target = match (text("function")?, text("mutant")?) {
                (Some(f), None) => SkipTarget::Function(f),
                (None, Some(m)) => SkipTarget::Mutant(m),
                _ => bail!(
                    "{WHERE} entry {n} must name either a `function` or a `mutant` (its key, as `ferastrau gate` prints it)"
                ),
            };
            let reason = text("reason")?
                .filter(|r| !r.trim().is_empty())
                .ok_or_else(|| {
                    anyhow!("{WHERE} entry {n} ({target:?}) gives no reason: every skip must say why")
                })?;
            Ok(Skip { target, reason })
        })
        .collect()
}

fn inherits(v: &Value) -> bool {
    v.get("workspace").and_then(Value::as_bool) == Some(true)
}

/// Resolves `dep.workspace = true` against the workspace and makes `path` absolute.
fn resolve_dependency(
    name: &str,
    dep: &mut Value,
    crate_dir: &Path,
    ws_deps: Option<&Table>,
    ws_dir: Option<&Path>,
) -> Result<()> {
    let mut base = crate_dir;
    if inherits(dep) {
        let own = dep.as_table().cloned().unwrap_or_default();
        let inherited = ws_deps.and_then(|d| d.get(name)).ok_or_else(|| {
            anyhow!("dependency `{name}` inherits from a workspace that lacks it")
        })?;
        let mut merged = match inherited {
            Value::String(v) => {
                let mut t = Table::new();
                t.insert("version".into(), Value::String(v.clone()));
                t
            }
            Value::Table(t) => t.clone(),
            _ => bail!("workspace dependency `{name}` is neither a version nor a table"),
        };
        for (k, v) in own {
            match k.as_str() {
                "workspace" => {}
                "features" => {
                    let mut all = merged
                        .get("features")
                        .and_then(Value::as_array)
                        .cloned()
                        .unwrap_or_default();
                    all.extend(v.as_array().cloned().unwrap_or_default());
                    merged.insert(k, Value::Array(all));
                }
                _ => {
                    merged.insert(k, v);
                }
            }
        }
        *dep = Value::Table(merged);
        base = ws_dir.unwrap_or(crate_dir);
    }
    if let Some(path) = dep.get_mut("path") {
        let rel = path
            .as_str()
            .ok_or_else(|| anyhow!("dependency `{name}` has a non-string path"))?;
        let abs = base.join(rel);
        let abs = abs.canonicalize().unwrap_or(abs);
        *path = Value::String(abs.display().to_string());
    }
    Ok(())
}

/// The nearest ancestor whose manifest has a `[workspace]` table.
fn find_workspace(crate_dir: &Path) -> Result<Option<(PathBuf, Table)>> {
    for dir in crate_dir.ancestors().skip(1) {
        let path = dir.join("Cargo.toml");
        if !path.exists() {
            continue;
        }
        let text = std::fs::read_to_string(&path)?;
        let table: Table = text
            .parse()
            .with_context(|| format!("cannot parse {}", path.display()))?;
        if table.contains_key("workspace") {
            return Ok(Some((dir.to_path_buf(), table)));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standalone_resolves_the_workspace() {
        let ws = tempfile::tempdir().unwrap();
        std::fs::write(
            ws.path().join("Cargo.toml"),
            "[workspace]\nmembers = [\"b\"]\n[workspace.package]\nedition = \"2021\"\nversion = \"0.3.0\"\n\
             [workspace.dependencies]\nhelper = { path = \"helper\", features = [\"a\"] }\n",
        )
        .unwrap();
        let b = ws.path().join("b");
        std::fs::create_dir_all(b.join("src")).unwrap();
        std::fs::create_dir_all(ws.path().join("helper")).unwrap();
        std::fs::create_dir_all(ws.path().join("other")).unwrap();
        std::fs::write(b.join("src/lib.rs"), "").unwrap();
        std::fs::write(
            b.join("Cargo.toml"),
            "[package]\nname = \"b\"\nedition.workspace = true\nversion.workspace = true\n\
             [dependencies]\nhelper = { workspace = true, features = [\"b\"] }\nother = { path = \"../other\" }\n\
             [dev-dependencies]\nproptest = \"1\"\n\
             [package.metadata.ferastrau]\nmutate = [\"f\"]\n",
        )
        .unwrap();
        let m = Manifest::read(&b).unwrap();
        assert_eq!(m.mutate, ["f"]);
        let out: Table = m
            .standalone(&[("ferastrau-probes", "{ path = \"/x/runtime\" }")])
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(out["package"]["edition"].as_str(), Some("2021"));
        assert_eq!(out["package"]["version"].as_str(), Some("0.3.0"));
        assert!(out.contains_key("workspace") && !out.contains_key("dev-dependencies"));
        let helper = &out["dependencies"]["helper"];
        let helper_path = helper["path"].as_str().unwrap();
        assert!(Path::new(helper_path).is_absolute() && helper_path.ends_with("helper"));
        assert_eq!(helper["features"].as_array().unwrap().len(), 2);
        assert!(Path::new(out["dependencies"]["other"]["path"].as_str().unwrap()).is_absolute());
        assert_eq!(
            out["dependencies"]["ferastrau-probes"]["path"].as_str(),
            Some("/x/runtime")
        );
    }

    fn manifest_with(meta: &str) -> Result<Manifest> {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("src")).unwrap();
        std::fs::write(d.path().join("src/lib.rs"), "").unwrap();
        std::fs::write(
            d.path().join("Cargo.toml"),
            format!("[package]\nname = \"x\"\nversion = \"0.1.0\"\n[workspace]\n[package.metadata.ferastrau]\nmutate = [\"f\"]\n{meta}\n"),
        )
        .unwrap();
        Manifest::read(d.path())
    }

    #[test]
    fn skips_need_a_target_and_a_reason() {
        let m = manifest_with(
            r#"skip = [{ function = "T::f", reason = "slow" }, { mutant = "f operator: < -> <= #0", reason = "equivalent" }]"#,
        )
        .unwrap();
        assert_eq!(
            m.skip,
            [
                Skip {
                    target: SkipTarget::Function("T::f".into()),
                    reason: "slow".into()
                },
                Skip {
                    target: SkipTarget::Mutant("f operator: < -> <= #0".into()),
                    reason: "equivalent".into()
                }
            ]
        );
        for (bad, says) in [
            (r#"skip = [{ function = "T::f" }]"#, "gives no reason"),
            (
                r#"skip = [{ function = "T::f", reason = "  " }]"#,
                "gives no reason",
            ),
            (
                r#"skip = [{ reason = "why" }]"#,
                "either a `function` or a `mutant`",
            ),
            (
                r#"skip = [{ function = "f", mutant = "k", reason = "why" }]"#,
                "either a `function` or a `mutant`",
            ),
            (
                r#"skip = [{ fn = "f", reason = "why" }]"#,
                "unknown field `fn`",
            ),
            (r#"skip = "f""#, "must be a list"),
        ] {
            let e = format!("{:#}", manifest_with(bad).err().expect(bad));
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn missing_metadata_is_explained() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("src")).unwrap();
        std::fs::write(d.path().join("src/lib.rs"), "").unwrap();
        std::fs::write(
            d.path().join("Cargo.toml"),
            "[package]\nname = \"x\"\nversion = \"0.1.0\"\n[workspace]\n",
        )
        .unwrap();
        let e = Manifest::read(d.path()).err().unwrap().to_string();
        assert!(e.contains("declares no functions to mutate"), "{e}");
    }

    #[test]
    fn engines_default_to_korat_and_anything_else_is_refused_with_the_reason() {
        let read = |engines: &str| {
            let d = tempfile::tempdir().unwrap();
            std::fs::create_dir_all(d.path().join("src")).unwrap();
            std::fs::write(d.path().join("src/lib.rs"), "").unwrap();
            std::fs::write(
                d.path().join("Cargo.toml"),
                format!(
                    "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\
                     [package.metadata.ferastrau]\nmutate = [\"f\"]\n{engines}\n[workspace]\n"
                ),
            )
            .unwrap();
            Manifest::read(d.path())
                .map(|m| m.engines)
                .map_err(|e| e.to_string())
        };
        assert_eq!(read(""), Ok(vec![Engine::Korat]));
        assert_eq!(
            read("engines = [\"generator\", \"korat\"]"),
            Ok(vec![Engine::Generator, Engine::Korat])
        );
        for (bad, why) in [
            ("engines = []", "is empty"),
            ("engines = [\"korat\", \"korat\"]", "twice"),
            ("engines = [\"udita\"]", "unknown engine \"udita\""),
            ("engines = \"korat\"", "must be a list"),
            ("engines = [1]", "must list strings"),
        ] {
            let e = read(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
