//! The reports of a run read back, typed: what the HTML page and the
//! mutation-testing-report-schema JSON are made of. Both are written from the files on disk
//! (`evaluation.json`, `mutants.json`) rather than from the run's memory, so that `evaluate`,
//! `merge` and `ferastrau report DIR` (regenerating from a committed directory) give the same
//! bytes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use ferastrau_artifacts::{Artifact, MutantEntry, Mutants};
use ferastrau_mutator::Mutant;
use ferastrau_protocol::Reason;

use ferastrau_artifacts::Status;

use super::equivalent;
/// `mutants.json`'s `next_scope`: what scope + 1 said about a survivor (`reproduce`).
pub use ferastrau_artifacts::NextScope;

/// What a mutant did at one scope (`mutants.json`'s per-scope entry); `evaluation.json`, and
/// one scope's row of it.
pub use ferastrau_artifacts::{Evaluation, EvaluationScope, ScopeOutcome};

/// One mutant of `mutants.json` as the page shows it: the catalog's entry (as the mutator
/// diffs it), its key, and what it did per scope.
#[derive(Clone, Debug)]
pub struct Listed {
    pub mutant: Mutant,
    pub key: Option<String>,
    /// The crate's `skip` list names it, for this reason.
    pub skipped: Option<String>,
    /// By scope.
    pub scopes: BTreeMap<u32, ScopeOutcome>,
    /// A survivor of the largest scope run again at scope + 1 (`reproduce` only).
    pub next_scope: Option<NextScope>,
    /// What the compiler says of it (equivalent, duplicate of another), if anything.
    pub compiler: Option<ferastrau_artifacts::CompilerVerdict>,
}

impl From<MutantEntry> for Listed {
    fn from(m: MutantEntry) -> Listed {
        use ferastrau_mutator::{Edit, Pos};
        let pos = |p: ferastrau_artifacts::Pos| Pos {
            line: p.line as usize,
            column: p.column as usize,
        };
        Listed {
            mutant: Mutant {
                id: m.id,
                family: m.family,
                function: m.function,
                file: m.file,
                line: m.line as usize,
                column: m.column as usize,
                original: m.original,
                replacement: m.replacement,
                viable: m.viable,
                edit: Edit {
                    start: pos(m.edit.start),
                    end: pos(m.edit.end),
                    old: m.edit.old,
                    new: m.edit.new,
                },
            },
            key: m.key,
            skipped: m.skipped,
            scopes: m.scopes,
            next_scope: m.next_scope,
            compiler: m.compiler,
        }
    }
}

/// A mutant's fate at one scope, as the page colours it and counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fate {
    Killed(Reason),
    Survived,
    /// Compile-pruning dropped it: it never ran.
    NotViable,
    /// The crate's `skip` list names it.
    Skipped,
    /// Viable but has no result at this scope: another shard's share, or not evaluated.
    NotRun,
}

impl Fate {
    /// The class name the page and its script use (`killed` for every reason).
    pub fn class(self) -> &'static str {
        match self {
            Fate::Killed(_) => "killed",
            Fate::Survived => "survived",
            Fate::NotViable => "not-viable",
            Fate::Skipped => "skipped",
            Fate::NotRun => "not-run",
        }
    }

    /// For people: `killed (invariant)`, `survived`, ...
    pub fn label(self) -> String {
        match self {
            Fate::Killed(r) => format!("killed ({})", r.as_str()),
            Fate::Survived => "survived".into(),
            Fate::NotViable => "not viable".into(),
            Fate::Skipped => "skipped".into(),
            Fate::NotRun => "not run".into(),
        }
    }

    /// How much a line with this fate needs a reader's eye: a line is coloured by the most
    /// urgent of its mutants (a survivor is what a test suite should look at).
    pub fn urgency(self) -> u8 {
        match self {
            Fate::Survived => 4,
            Fate::NotRun => 3,
            Fate::Skipped => 2,
            Fate::Killed(_) => 1,
            Fate::NotViable => 0,
        }
    }
}

impl Listed {
    /// The mutant's fate at `scope`.
    pub fn fate(&self, scope: u32) -> Fate {
        if self.mutant.viable == Some(false) {
            return Fate::NotViable;
        }
        if self.skipped.is_some() {
            return Fate::Skipped;
        }
        match self.scopes.get(&scope) {
            None => Fate::NotRun,
            Some(o) => match (o.status, o.reason) {
                (Status::Killed, Some(r)) => Fate::Killed(r),
                // A kill without a reason is not something the journal writes; show it as
                // the crash it would have to be rather than dropping it from the counts.
                (Status::Killed, None) => Fate::Killed(Reason::Crash),
                (Status::Survived, _) => Fate::Survived,
                (Status::Skipped, _) => Fate::Skipped,
            },
        }
    }

    /// Whether any input reached it at `scope`: `Some(false)` when it ran on none (reach
    /// selection gave it no input, so it cannot have been killed there), `None` when it has
    /// no result there.
    pub fn reached(&self, scope: u32) -> Option<bool> {
        self.scopes
            .get(&scope)
            .and_then(|o| o.executions)
            .map(|n| n > 0)
    }

    /// `file:line:column`.
    pub fn place(&self) -> String {
        format!(
            "{}:{}:{}",
            self.mutant.file, self.mutant.line, self.mutant.column
        )
    }

    /// The smallest scope that killed it, with what killed it there.
    pub fn first_kill(&self) -> Option<(u32, &ScopeOutcome)> {
        self.scopes
            .iter()
            .find(|(_, o)| o.status == Status::Killed)
            .map(|(&s, o)| (s, o))
    }
}

/// Where the page's source text comes from, with what the page reads from the crate besides
/// the text: its coverage probes and its input notation.
#[derive(Clone, Debug)]
pub enum Sources {
    /// The crate's files (relative path → text) as a run evaluated them: read once, by the
    /// mutator as it built the metamutant from them, so that the page shows the code that
    /// ran even if the crate is edited during the run.
    Snapshot {
        texts: BTreeMap<String, String>,
        facts: CrateFacts,
    },
    /// The crate directory, read as the page is drawn (`report` and `merge`, after the run).
    Disk(PathBuf),
}

/// What the page shows of the crate besides its source text.
#[derive(Clone, Debug, Default)]
pub struct CrateFacts {
    /// Every coverage probe, as the run's metamutant numbered them.
    pub probes: Vec<ferastrau_mutator::Probe>,
    /// `[package.metadata.ferastrau] input-notation`: how `render` writes an input.
    pub input_notation: Option<String>,
    /// The crate's own `EQUIVALENT.md` (the verdicts a user recorded beside the code), shown
    /// where the reports' directory has none.
    pub equivalent: Option<equivalent::Doc>,
}

impl CrateFacts {
    pub fn read(crate_dir: &Path) -> Result<CrateFacts> {
        Ok(CrateFacts {
            probes: ferastrau_mutator::probes(crate_dir)?,
            input_notation: ferastrau_mutator::Manifest::read(crate_dir)?.input_notation,
            equivalent: equivalent::read(crate_dir)?,
        })
    }
}

impl Sources {
    /// The sources `meta` was made from, as the mutator read them (once, to mutate them),
    /// with its probes: the code that ran, even if the crate was edited since.
    pub fn of_metamutant(
        crate_dir: &Path,
        meta: &ferastrau_mutator::Metamutant,
    ) -> Result<Sources> {
        Ok(Sources::Snapshot {
            texts: meta.sources.clone(),
            facts: CrateFacts {
                probes: meta.probes.clone(),
                input_notation: ferastrau_mutator::Manifest::read(crate_dir)?.input_notation,
                equivalent: equivalent::read(crate_dir)?,
            },
        })
    }

    /// The files of the snapshot whose text in `crate_dir` is not the snapshot's any more
    /// (edited, or gone): the crate changed during the run. None for [`Sources::Disk`].
    pub fn changed_since(&self, crate_dir: &Path) -> Vec<String> {
        match self {
            Sources::Snapshot { texts, .. } => texts
                .iter()
                .filter(|(file, text)| read_source(crate_dir, file).ok().as_ref() != Some(*text))
                .map(|(file, _)| file.clone())
                .collect(),
            Sources::Disk(_) => Vec::new(),
        }
    }

    /// The text of `file`.
    fn text(&self, file: &str) -> Result<String> {
        match self {
            Sources::Snapshot { texts, .. } => texts
                .get(file)
                .cloned()
                .with_context(|| format!("{file} is not in the source snapshot of the run")),
            Sources::Disk(crate_dir) => read_source(crate_dir, file),
        }
    }

    fn facts(&self) -> Result<CrateFacts> {
        match self {
            Sources::Snapshot { facts, .. } => Ok(facts.clone()),
            Sources::Disk(crate_dir) => CrateFacts::read(crate_dir),
        }
    }
}

/// The texts of the files `meta`'s mutants are in (paths relative to the crate), as the
/// mutator read them to make it.
pub fn mutated_sources(meta: &ferastrau_mutator::Metamutant) -> BTreeMap<String, String> {
    meta.catalog
        .mutants
        .iter()
        .filter_map(|m| Some((m.file.clone(), meta.sources.get(&m.file)?.clone())))
        .collect()
}

fn read_source(crate_dir: &Path, file: &str) -> Result<String> {
    let path = crate_dir.join(file);
    std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))
}

/// One source line's coverage probes at the run's largest scope.
#[derive(Clone, Debug, Default)]
pub struct LineCoverage {
    /// Each probe on the line, and whether the original missed it at the largest scope.
    pub probes: Vec<(ferastrau_mutator::Probe, bool)>,
    /// The smallest scope from which every probe of the line was reached at every larger
    /// scope; `None` when one is missed at the largest.
    pub covered_from: Option<u32>,
}

/// A run's reports read back, with the sources of the files its mutants are in.
#[derive(Clone, Debug)]
pub struct Report {
    pub evaluation: Evaluation,
    pub mutants: Vec<Listed>,
    /// Each mutated file's source (relative path → text), in path order.
    pub sources: BTreeMap<String, String>,
    /// Each listed mutant's unified diff, by id.
    pub diffs: BTreeMap<u32, String>,
    /// The `EQUIVALENT.md` beside the reports, else the crate's own, if there is one.
    pub equivalent: Option<equivalent::Doc>,
    /// The crate's probes and input notation (empty when read without sources).
    pub facts: CrateFacts,
}

impl Report {
    /// Reads the reports in `dir`, with the text of every file the mutants are in from
    /// `sources`, which must hold the text every mutant replaces.
    pub fn read(dir: &Path, sources: &Sources) -> Result<Report> {
        let mut report = Report::read_reports(dir)?;
        report.facts = sources.facts()?;
        report.equivalent = match equivalent::read(dir)? {
            Some(doc) => Some(doc),
            None => report.facts.equivalent.clone(),
        };
        for m in &report.mutants {
            if !report.sources.contains_key(&m.mutant.file) {
                let text = sources.text(&m.mutant.file).with_context(|| {
                    format!("the reports in {} name {}", dir.display(), m.mutant.file)
                })?;
                report.sources.insert(m.mutant.file.clone(), text);
            }
            let text = &report.sources[&m.mutant.file];
            let diff = ferastrau_mutator::diff_text(text, &m.mutant).with_context(|| {
                format!("the reports in {} do not match the source", dir.display())
            })?;
            report.diffs.insert(m.mutant.id, diff);
        }
        Ok(report)
    }

    /// Reads the reports in `dir` alone: no sources, no diffs, no `EQUIVALENT.md`.
    pub fn read_reports(dir: &Path) -> Result<Report> {
        let evaluation = Evaluation::read(&dir.join("evaluation.json"))?;
        let listed = Mutants::read(&dir.join("mutants.json"))?;
        anyhow::ensure!(
            listed.benchmark == evaluation.benchmark,
            "{}: mutants.json is of {}, evaluation.json of {}",
            dir.display(),
            listed.benchmark,
            evaluation.benchmark
        );
        Ok(Report {
            evaluation,
            mutants: listed.mutants.into_iter().map(Listed::from).collect(),
            sources: BTreeMap::new(),
            diffs: BTreeMap::new(),
            equivalent: None,
            facts: CrateFacts::default(),
        })
    }

    /// The largest scope of the run, whose fates the counts and the schema JSON show.
    pub fn last_scope(&self) -> Option<u32> {
        self.evaluation.scopes.iter().map(|s| s.scope).max()
    }

    /// The survivors of `scope`, in source order (file, line, column, id).
    pub fn survivors(&self, scope: u32) -> Vec<&Listed> {
        let mut out: Vec<&Listed> = self
            .mutants
            .iter()
            .filter(|m| m.fate(scope) == Fate::Survived)
            .collect();
        out.sort_by(|a, b| {
            let k = |m: &Listed| {
                (
                    m.mutant.file.clone(),
                    m.mutant.line,
                    m.mutant.column,
                    m.mutant.id,
                )
            };
            k(a).cmp(&k(b))
        });
        out
    }

    /// The mutated line of `m` (the first `+` line of its diff), trimmed: what the page and
    /// `evaluate`'s closing list show under a survivor.
    pub fn mutated_line(&self, m: &Listed) -> Option<String> {
        self.diffs
            .get(&m.mutant.id)?
            .lines()
            .find(|l| l.starts_with('+') && !l.starts_with("+++"))
            .map(|l| l[1..].trim().to_string())
    }

    /// The argument `EQUIVALENT.md` gives for `m`: `None` without a document, `Some(None)`
    /// when the document has no entry for it.
    pub fn argument(&self, m: &Listed) -> Option<Option<&str>> {
        let doc = self.equivalent.as_ref()?;
        Some(m.key.as_deref().and_then(|k| doc.argument(k)))
    }

    /// Per line of `file`: its probes at the largest scope, as (probe, missed there), and the
    /// smallest scope from which none of them was missed (`None`: missed at the largest too).
    pub fn line_coverage(&self, file: &str) -> BTreeMap<usize, LineCoverage> {
        let mut out: BTreeMap<usize, LineCoverage> = BTreeMap::new();
        let probes: Vec<&ferastrau_mutator::Probe> = self
            .facts
            .probes
            .iter()
            .filter(|p| p.file == file)
            .collect();
        if probes.is_empty() {
            return out;
        }
        // A scope's missed probes, as a multiset of places (two statements on one line
        // share a place).
        let missed_at = |row: &EvaluationScope, role: &str| -> BTreeMap<String, usize> {
            let list: &[String] = if role == "spec" {
                row.uncovered_spec.as_deref().unwrap_or(&[])
            } else {
                &row.uncovered
            };
            let mut m = BTreeMap::new();
            for p in list {
                *m.entry(p.clone()).or_insert(0) += 1;
            }
            m
        };
        let mut rows: Vec<&EvaluationScope> = self.evaluation.scopes.iter().collect();
        rows.sort_by_key(|r| r.scope);
        // Per scope: which probes (by index into `probes`) were missed.
        let mut missed_by_scope: Vec<(u32, Vec<bool>)> = Vec::new();
        for row in &rows {
            let mut left: BTreeMap<(String, String), usize> = BTreeMap::new();
            for role in ["code", "spec"] {
                for (place, n) in missed_at(row, role) {
                    left.insert((role.to_string(), place), n);
                }
            }
            // A role whose list the reports lack (older `uncovered_spec`) counts as unknown:
            // its probes are left out below.
            let flags = probes
                .iter()
                .map(|p| match left.get_mut(&(p.role.clone(), p.place())) {
                    Some(n) if *n > 0 => {
                        *n -= 1;
                        true
                    }
                    _ => false,
                })
                .collect();
            missed_by_scope.push((row.scope, flags));
        }
        let known = |p: &ferastrau_mutator::Probe| {
            p.role != "spec" || rows.iter().all(|r| r.uncovered_spec.is_some())
        };
        for (i, p) in probes.iter().enumerate() {
            if !known(p) {
                continue;
            }
            let line = out.entry(p.line).or_default();
            let missed_last = missed_by_scope.last().is_some_and(|(_, f)| f[i]);
            line.probes.push(((*p).clone(), missed_last));
        }
        for (line, cov) in out.iter_mut() {
            let idx: Vec<usize> = probes
                .iter()
                .enumerate()
                .filter(|(_, p)| p.line == *line && known(p))
                .map(|(i, _)| i)
                .collect();
            cov.covered_from = missed_by_scope
                .iter()
                .rev()
                .take_while(|(_, f)| idx.iter().all(|&i| !f[i]))
                .last()
                .map(|(s, _)| *s);
        }
        out
    }

    /// How many listed mutants have each fate at `scope`.
    pub fn counts(&self, scope: u32) -> BTreeMap<Fate, usize> {
        let mut n = BTreeMap::new();
        for m in &self.mutants {
            *n.entry(m.fate(scope)).or_insert(0) += 1;
        }
        n
    }

    /// [`Report::counts`] over the mutants `evaluation.json`'s kill rate counts at `scope`:
    /// without those the compiler marked, unless the run counted them
    /// (`equivalents_counted`; the rule of `evaluate::report::Rule`).
    pub fn counts_in_rate(&self, scope: u32) -> BTreeMap<Fate, usize> {
        // In the run: judged, or left out by the run unrun for the compiler's verdict (a
        // mutant of the crate's skip list carries its reason, and one outside the run has
        // no result).
        let ran = |id: u32| {
            self.mutants.iter().any(|x| {
                x.mutant.id == id
                    && match x.fate(scope) {
                        Fate::Killed(_) | Fate::Survived => true,
                        Fate::Skipped => x.skipped.is_none() && x.compiler.is_some(),
                        _ => false,
                    }
            })
        };
        let left_out = |m: &Listed| {
            !self.evaluation.equivalents_counted
                && ran(m.mutant.id)
                && match m.compiler {
                    None => false,
                    Some(ferastrau_artifacts::CompilerVerdict::Equivalent) => true,
                    Some(ferastrau_artifacts::CompilerVerdict::Duplicate { of }) => ran(of),
                }
        };
        let mut n = BTreeMap::new();
        for m in self.mutants.iter().filter(|m| !left_out(m)) {
            *n.entry(m.fate(scope)).or_insert(0) += 1;
        }
        n
    }
}
