//! `ferastrau gate`: a run compared with a committed baseline, failing on anything weaker.
//!
//! A baseline is a small JSON file holding, per benchmark, each gated scope's kill rate and code
//! coverage, and each evaluated mutant's content key ([`ferastrau_mutator::keys`]: function,
//! family, texts and occurrence — not an id or a line, which move with unrelated edits) with
//! the scopes that killed it. The gate fails ([`Exit::GateFailed`](crate::exit_code::Exit)) when
//! at some scope the kill rate falls under `--min-kill-rate` or more than `--tolerance` points
//! under the baseline's, a mutant the baseline killed now survives, or code coverage drops; a
//! broken run fails with its own status and never becomes a baseline. Mutants the baseline does
//! not know (new code) are reported apart and fail only with `--fail-on-new-survivors`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::exit_code::{broken, usage, GateFailed};

/// The baseline file's format version.
const VERSION: u32 = 1;

/// Coverage figures are rounded to hundredths of a percent: smaller differences are noise.
const COVERAGE_EPSILON: f64 = 0.005;

/// A baseline file: every gated benchmark.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    pub version: u32,
    pub benchmarks: BTreeMap<String, BenchmarkBaseline>,
}

/// One benchmark's baseline.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BenchmarkBaseline {
    pub scopes: BTreeMap<u32, ScopeFigures>,
    /// Every evaluated mutant's key, with the scopes that killed it (empty: it survived all).
    pub mutants: BTreeMap<String, Vec<u32>>,
}

/// A scope's figures, as `evaluation.json` has them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScopeFigures {
    pub mutants: usize,
    pub killed: usize,
    pub kill_rate: f64,
    pub statement_coverage: f64,
    pub branch_coverage: f64,
}

/// The run being gated, read from an `evaluate` output directory.
pub struct Run {
    pub benchmark: String,
    pub broken: Option<String>,
    /// Only the mutants on a diff's lines were evaluated (`evaluate --in-diff`): the kill rate
    /// and coverage are not comparable with the baseline's, only each mutant's status is.
    pub partial: bool,
    pub figures: BenchmarkBaseline,
    /// Where each key's mutant is, for messages: `src/tree.rs:67:15 SearchTree::add`.
    places: BTreeMap<String, String>,
    /// The mutants' readable edits, by key (the paper's `left/*temp*/` form).
    edits: BTreeMap<String, String>,
}

/// What the gate checks beyond the baseline.
#[derive(Clone, Copy, Debug, Default)]
pub struct Thresholds {
    /// An absolute floor on every scope's kill rate, in percent.
    pub min_kill_rate: Option<f64>,
    /// How many points the kill rate may fall under the baseline's.
    pub tolerance: f64,
    /// Whether a surviving mutant that the baseline does not know fails the gate.
    pub fail_on_new_survivors: bool,
}

/// One reason the gate fails.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    MissingScope(u32),
    BelowFloor {
        scope: u32,
        rate: f64,
        floor: f64,
    },
    Dropped {
        scope: u32,
        from: f64,
        to: f64,
    },
    Survives {
        scope: u32,
        key: String,
    },
    CoverageDropped {
        scope: u32,
        kind: &'static str,
        from: f64,
        to: f64,
    },
    NewSurvivor {
        scope: u32,
        key: String,
    },
}

/// The comparison of a run with its baseline.
#[derive(Debug, Default)]
pub struct Comparison {
    pub failures: Vec<Failure>,
    /// Per scope: keys killed before and surviving now, surviving before and killed now, new
    /// keys (killed, surviving) and keys no longer evaluated.
    pub changes: BTreeMap<u32, Changes>,
}

#[derive(Debug, Default)]
pub struct Changes {
    pub now_surviving: Vec<String>,
    pub now_killed: Vec<String>,
    pub new_killed: Vec<String>,
    pub new_surviving: Vec<String>,
    pub gone: Vec<String>,
}

impl Run {
    /// Reads `evaluation.json` and `mutants.json` from `dir`.
    pub fn read(dir: &Path) -> Result<Run> {
        let evaluation = read_json(&dir.join("evaluation.json"))?;
        let mutants = read_json(&dir.join("mutants.json"))?;
        let benchmark = evaluation["benchmark"]
            .as_str()
            .context("evaluation.json names no benchmark")?
            .to_string();
        if evaluation.get("shard").is_some() {
            return Err(usage(format!(
                "{} holds one shard of a run: merge the shards (`ferastrau merge`) and gate the result",
                dir.display()
            )));
        }
        let broken = evaluation["broken"].as_str().map(String::from);
        let partial = evaluation.get("in_diff").is_some();
        let mut figures = BenchmarkBaseline::default();
        for s in evaluation["scopes"]
            .as_array()
            .context("evaluation.json has no scopes")?
        {
            let scope = s["scope"].as_u64().context("a scope without a number")? as u32;
            let f: ScopeFigures = ScopeFigures {
                mutants: s["mutants"].as_u64().unwrap_or(0) as usize,
                killed: s["killed"].as_u64().unwrap_or(0) as usize,
                kill_rate: s["kill_rate"].as_f64().unwrap_or(0.0),
                statement_coverage: s["statement_coverage"].as_f64().unwrap_or(0.0),
                branch_coverage: s["branch_coverage"].as_f64().unwrap_or(0.0),
            };
            figures.scopes.insert(scope, f);
        }
        let mut places = BTreeMap::new();
        let mut edits = BTreeMap::new();
        for m in mutants["mutants"]
            .as_array()
            .context("mutants.json has no mutants")?
        {
            let results = m["scopes"].as_object();
            let Some(results) = results.filter(|r| !r.is_empty()) else {
                continue; // not evaluated (not viable)
            };
            let key = m["key"]
                .as_str()
                .with_context(|| {
                    format!(
                        "{} has mutants without keys: re-run `evaluate` with this version",
                        dir.join("mutants.json").display()
                    )
                })?
                .to_string();
            let killed: Vec<u32> = results
                .iter()
                .filter(|(_, r)| r["status"] == "killed")
                .filter_map(|(s, _)| s.parse().ok())
                .collect();
            places.insert(
                key.clone(),
                format!(
                    "{}:{}:{} {}",
                    m["file"].as_str().unwrap_or("?"),
                    m["line"],
                    m["column"],
                    m["function"].as_str().unwrap_or("?")
                ),
            );
            edits.insert(
                key.clone(),
                m["edit"]["new"].as_str().unwrap_or("?").to_string(),
            );
            figures.mutants.insert(key, killed);
        }
        Ok(Run {
            benchmark,
            broken,
            partial,
            figures,
            places,
            edits,
        })
    }

    /// `src/tree.rs:67:15 SearchTree::add: current -> parent/*current*/`.
    pub fn describe(&self, key: &str) -> String {
        format!(
            "{} ({}: {})",
            key,
            self.places.get(key).map_or("?", String::as_str),
            self.edits.get(key).map_or("?", String::as_str)
        )
    }
}

fn read_json(path: &Path) -> Result<serde_json::Value> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| usage(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))
}

fn killed_at(scopes: &[u32], scope: u32) -> bool {
    scopes.contains(&scope)
}

/// Compares `run` with `base` at every scope of the baseline; a `partial` run (some mutants
/// only) is compared mutant by mutant, not by its figures.
pub fn compare(
    base: &BenchmarkBaseline,
    run: &BenchmarkBaseline,
    t: &Thresholds,
    partial: bool,
) -> Comparison {
    let mut c = Comparison::default();
    for (&scope, b) in &base.scopes {
        let Some(now) = run.scopes.get(&scope) else {
            c.failures.push(Failure::MissingScope(scope));
            continue;
        };
        let ch = c.changes.entry(scope).or_default();
        for (key, scopes) in &run.mutants {
            let killed = killed_at(scopes, scope);
            match base.mutants.get(key) {
                Some(before) if killed_at(before, scope) && !killed => {
                    ch.now_surviving.push(key.clone());
                    c.failures.push(Failure::Survives {
                        scope,
                        key: key.clone(),
                    });
                }
                Some(before) if !killed_at(before, scope) && killed => {
                    ch.now_killed.push(key.clone())
                }
                Some(_) => {}
                None if killed => ch.new_killed.push(key.clone()),
                None => {
                    ch.new_surviving.push(key.clone());
                    if t.fail_on_new_survivors {
                        c.failures.push(Failure::NewSurvivor {
                            scope,
                            key: key.clone(),
                        });
                    }
                }
            }
        }
        if partial {
            continue;
        }
        ch.gone = base
            .mutants
            .keys()
            .filter(|k| !run.mutants.contains_key(*k))
            .cloned()
            .collect();
        if let Some(floor) = t.min_kill_rate {
            if now.kill_rate < floor {
                c.failures.push(Failure::BelowFloor {
                    scope,
                    rate: now.kill_rate,
                    floor,
                });
            }
        }
        if now.kill_rate < b.kill_rate - t.tolerance {
            c.failures.push(Failure::Dropped {
                scope,
                from: b.kill_rate,
                to: now.kill_rate,
            });
        }
        for (kind, from, to) in [
            ("statement", b.statement_coverage, now.statement_coverage),
            ("branch", b.branch_coverage, now.branch_coverage),
        ] {
            if to < from - COVERAGE_EPSILON {
                c.failures.push(Failure::CoverageDropped {
                    scope,
                    kind,
                    from,
                    to,
                });
            }
        }
    }
    c
}

/// The short table of what changed, one line per scope.
pub fn table(base: &BenchmarkBaseline, run: &BenchmarkBaseline, c: &Comparison) -> String {
    let mut t = format!(
        "{:>5} {:>19} {:>19} {:>19} {:>9} {:>9} {:>13} {:>5}\n",
        "scope",
        "kill rate % (Δ)",
        "code st %",
        "code br %",
        "now surv.",
        "now kill.",
        "new (k/s)",
        "gone"
    );
    let scopes: BTreeSet<u32> = base
        .scopes
        .keys()
        .chain(run.scopes.keys())
        .copied()
        .collect();
    for s in scopes {
        let (b, n) = (base.scopes.get(&s), run.scopes.get(&s));
        let pair = |f: fn(&ScopeFigures) -> f64| match (b, n) {
            (Some(b), Some(n)) => format!("{:.2} → {:.2}", f(b), f(n)),
            (None, Some(n)) => format!("new {:.2}", f(n)),
            (Some(b), None) => format!("{:.2} → -", f(b)),
            (None, None) => String::new(),
        };
        let rate = match (b, n) {
            (Some(b), Some(n)) => format!(
                "{:.2} → {:.2} ({:+.2})",
                b.kill_rate,
                n.kill_rate,
                n.kill_rate - b.kill_rate
            ),
            _ => pair(|f| f.kill_rate),
        };
        let ch = c.changes.get(&s);
        let count = |f: fn(&Changes) -> usize| ch.map_or(0, f);
        let _ = writeln!(
            t,
            "{:>5} {:>19} {:>19} {:>19} {:>9} {:>9} {:>13} {:>5}",
            s,
            rate,
            pair(|f| f.statement_coverage),
            pair(|f| f.branch_coverage),
            count(|c| c.now_surviving.len()),
            count(|c| c.now_killed.len()),
            format!(
                "{}/{}",
                count(|c| c.new_killed.len()),
                count(|c| c.new_surviving.len())
            ),
            count(|c| c.gone.len()),
        );
    }
    t
}

/// A failure in words.
pub fn describe(f: &Failure, run: &Run) -> String {
    match f {
        Failure::MissingScope(s) => format!("scope {s} is in the baseline but was not evaluated"),
        Failure::BelowFloor { scope, rate, floor } => {
            format!("scope {scope}: kill rate {rate:.2}% is under --min-kill-rate {floor:.2}%")
        }
        Failure::Dropped { scope, from, to } => format!(
            "scope {scope}: kill rate fell from {from:.2}% to {to:.2}% ({:+.2} points)",
            to - from
        ),
        Failure::Survives { scope, key } => format!(
            "scope {scope}: killed in the baseline, survives now: {}",
            run.describe(key)
        ),
        Failure::CoverageDropped {
            scope,
            kind,
            from,
            to,
        } => format!("scope {scope}: code {kind} coverage fell from {from:.2}% to {to:.2}%"),
        Failure::NewSurvivor { scope, key } => format!(
            "scope {scope}: a new mutant survives: {}",
            run.describe(key)
        ),
    }
}

/// Reads the baseline at `path` (an absent file is an empty baseline).
pub fn read_baseline(path: &Path) -> Result<Baseline> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Baseline {
                version: VERSION,
                ..Baseline::default()
            })
        }
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let b: Baseline = serde_json::from_str(&text)
        .map_err(|e| usage(format!("{} is not a baseline: {e}", path.display())))?;
    if b.version != VERSION {
        return Err(usage(format!(
            "{} is a version {} baseline; this tool writes version {VERSION} (run with --update-baseline)",
            path.display(),
            b.version
        )));
    }
    Ok(b)
}

/// Writes `baseline` to `path` atomically.
pub fn write_baseline(path: &Path, baseline: &Baseline) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut tmp = tempfile::NamedTempFile::new_in(&dir)
        .with_context(|| format!("cannot create a file in {}", dir.display()))?;
    std::io::Write::write_all(&mut tmp, render(baseline)?.as_bytes())?;
    tmp.persist(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    // A file meant to be committed: readable by all, like any other in the repository.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644))?;
    Ok(())
}

/// The baseline as JSON with one line per mutant, so that a change of baseline reads as a
/// short diff in review.
fn render(baseline: &Baseline) -> Result<String> {
    let mut t = format!(
        "{{\n  \"version\": {},\n  \"benchmarks\": {{",
        baseline.version
    );
    for (i, (name, b)) in baseline.benchmarks.iter().enumerate() {
        let scopes = serde_json::to_string_pretty(&b.scopes)?.replace('\n', "\n      ");
        let _ = write!(
            t,
            "{}\n    {}: {{\n      \"scopes\": {scopes},\n      \"mutants\": {{",
            if i > 0 { "," } else { "" },
            serde_json::to_string(name)?
        );
        for (j, (key, killed)) in b.mutants.iter().enumerate() {
            let _ = write!(
                t,
                "{}\n        {}: {}",
                if j > 0 { "," } else { "" },
                serde_json::to_string(key)?,
                serde_json::to_string(killed)?
            );
        }
        t.push_str("\n      }\n    }");
    }
    t.push_str("\n  }\n}\n");
    Ok(t)
}

/// Gates the run in `dir` against the baseline file `baseline` (or, with `update`, makes the
/// run the baseline of its benchmark). Prints the table of changes either way.
pub fn gate(dir: &Path, baseline: &Path, t: &Thresholds, update: bool) -> Result<()> {
    let run = Run::read(dir)?;
    if let Some(why) = &run.broken {
        return Err(broken(format!(
            "the run in {} is broken, it cannot pass a gate or become a baseline: {why}",
            dir.display()
        )));
    }
    let mut file = read_baseline(baseline)?;
    let base = file.benchmarks.get(&run.benchmark).cloned();
    let empty = BenchmarkBaseline::default();
    let reference = base.as_ref().unwrap_or(&empty);
    let c = compare(reference, &run.figures, t, run.partial);
    println!("{} against {}", run.benchmark, baseline.display());
    print!("{}", table(reference, &run.figures, &c));
    if update && run.partial {
        return Err(usage(format!(
            "the run in {} evaluated only the mutants of a diff (--in-diff): it cannot become a baseline",
            dir.display()
        )));
    }
    if update {
        file.version = VERSION;
        file.benchmarks
            .insert(run.benchmark.clone(), run.figures.clone());
        write_baseline(baseline, &file)?;
        println!(
            "baseline of {} updated in {} ({} scope(s), {} mutants)",
            run.benchmark,
            baseline.display(),
            run.figures.scopes.len(),
            run.figures.mutants.len()
        );
        return Ok(());
    }
    if base.is_none() {
        return Err(usage(format!(
            "{} has no baseline for {}: run the gate with --update-baseline to make one",
            baseline.display(),
            run.benchmark
        )));
    }
    for (scope, ch) in &c.changes {
        for key in &ch.new_surviving {
            if !t.fail_on_new_survivors {
                println!(
                    "note: scope {scope}: a new mutant survives: {}",
                    run.describe(key)
                );
            }
        }
    }
    if c.failures.is_empty() {
        println!("gate passed");
        return Ok(());
    }
    let mut text = format!(
        "the gate failed for {}: {} regression(s)",
        run.benchmark,
        c.failures.len()
    );
    for f in &c.failures {
        let _ = write!(text, "\n  - {}", describe(f, &run));
    }
    Err(anyhow::Error::new(GateFailed(text)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(rate: f64, st: f64, mutants: &[(&str, &[u32])]) -> BenchmarkBaseline {
        BenchmarkBaseline {
            scopes: [(
                3,
                ScopeFigures {
                    mutants: mutants.len(),
                    killed: 0,
                    kill_rate: rate,
                    statement_coverage: st,
                    branch_coverage: 100.0,
                },
            )]
            .into(),
            mutants: mutants
                .iter()
                .map(|(k, s)| (k.to_string(), s.to_vec()))
                .collect(),
        }
    }

    #[test]
    fn the_same_run_passes_and_every_kind_of_regression_fails() {
        let base = figures(75.0, 100.0, &[("a", &[2, 3]), ("b", &[3]), ("c", &[])]);
        let t = Thresholds::default();
        assert!(compare(&base, &base, &t, false).failures.is_empty());

        let weaker = figures(
            50.0,
            90.0,
            &[("a", &[2]), ("b", &[3]), ("c", &[]), ("d", &[])],
        );
        let c = compare(&base, &weaker, &t, false);
        assert!(c.failures.contains(&Failure::Survives {
            scope: 3,
            key: "a".into()
        }));
        assert!(c.failures.contains(&Failure::Dropped {
            scope: 3,
            from: 75.0,
            to: 50.0
        }));
        assert!(c.failures.iter().any(|f| matches!(
            f,
            Failure::CoverageDropped {
                kind: "statement",
                ..
            }
        )));
        // `d` is new: reported, a failure only on request.
        assert_eq!(c.changes[&3].new_surviving, ["d"]);
        assert!(!c
            .failures
            .iter()
            .any(|f| matches!(f, Failure::NewSurvivor { .. })));
        let strict = Thresholds {
            fail_on_new_survivors: true,
            ..t
        };
        assert!(compare(&base, &weaker, &strict, false)
            .failures
            .contains(&Failure::NewSurvivor {
                scope: 3,
                key: "d".into()
            }));
        // Within the tolerance and over the floor: the rate alone does not fail.
        let lenient = Thresholds {
            tolerance: 30.0,
            min_kill_rate: Some(40.0),
            ..t
        };
        assert!(!compare(&base, &weaker, &lenient, false)
            .failures
            .iter()
            .any(|f| matches!(f, Failure::Dropped { .. } | Failure::BelowFloor { .. })));
        let floor = Thresholds {
            min_kill_rate: Some(80.0),
            ..t
        };
        assert!(compare(&base, &base, &floor, false)
            .failures
            .iter()
            .any(|f| matches!(f, Failure::BelowFloor { .. })));
    }

    #[test]
    fn the_written_baseline_reads_back_the_same() {
        let mut b = Baseline {
            version: VERSION,
            ..Baseline::default()
        };
        b.benchmarks.insert(
            "x".into(),
            figures(75.0, 100.0, &[("a \"q\"", &[2, 3]), ("c", &[])]),
        );
        b.benchmarks
            .insert("y".into(), BenchmarkBaseline::default());
        let text = render(&b).unwrap();
        let back: Baseline = serde_json::from_str(&text).unwrap();
        assert_eq!(back.benchmarks, b.benchmarks);
        assert!(text.contains("\n        \"c\": []"), "{text}");
    }

    #[test]
    fn a_scope_the_baseline_has_must_be_evaluated() {
        let base = figures(75.0, 100.0, &[("a", &[3])]);
        let mut run = base.clone();
        run.scopes.clear();
        assert_eq!(
            compare(&base, &run, &Thresholds::default(), false).failures,
            [Failure::MissingScope(3)]
        );
    }
}
