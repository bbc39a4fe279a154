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
use ferastrau_worker::protocol::Reason;

use ferastrau_artifacts::Status;

/// What a mutant did at one scope (`mutants.json`'s per-scope entry).
pub use ferastrau_artifacts::ScopeOutcome as Outcome;
/// `evaluation.json`, and one scope's row of it.
pub use ferastrau_artifacts::{Evaluation, EvaluationScope as ScopeRow};

/// One mutant of `mutants.json` as the page shows it: the catalog's entry (as the mutator
/// diffs it), its key, and what it did per scope.
#[derive(Clone, Debug)]
pub struct Listed {
    pub mutant: Mutant,
    pub key: Option<String>,
    /// The crate's `skip` list names it, for this reason.
    pub skipped: Option<String>,
    /// By scope.
    pub scopes: BTreeMap<u32, Outcome>,
}

impl From<MutantEntry> for Listed {
    fn from(m: MutantEntry) -> Listed {
        use ferastrau_artifacts::Family as F;
        use ferastrau_mutator::{Edit, Family, Pos};
        let pos = |p: ferastrau_artifacts::Pos| Pos {
            line: p.line as usize,
            column: p.column as usize,
        };
        Listed {
            mutant: Mutant {
                id: m.id,
                family: match m.family {
                    F::Operator => Family::Operator,
                    F::Variable => Family::Variable,
                    F::Call => Family::Call,
                    F::Constant => Family::Constant,
                },
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
                (Status::Killed, Some(r)) => Fate::Killed(r.into()),
                // A kill without a reason is not something the journal writes; show it as
                // the crash it would have to be rather than dropping it from the counts.
                (Status::Killed, None) => Fate::Killed(Reason::Crash),
                (Status::Survived, _) => Fate::Survived,
                (Status::Skipped, _) => Fate::Skipped,
            },
        }
    }

    /// The smallest scope that killed it, with what killed it there.
    pub fn first_kill(&self) -> Option<(u32, &Outcome)> {
        self.scopes
            .iter()
            .find(|(_, o)| o.status == Status::Killed)
            .map(|(&s, o)| (s, o))
    }
}

/// Where the page's source text comes from.
#[derive(Clone, Debug)]
pub enum Sources {
    /// The crate's files (relative path → text) as a run evaluated them: read once, right
    /// after the metamutant is built from them, so that the page shows the code that ran
    /// even if the crate is edited during the run.
    Snapshot(BTreeMap<String, String>),
    /// The crate directory, read as the page is drawn (`report` and `merge`, after the run).
    Disk(PathBuf),
}

impl Sources {
    /// Reads `files` (paths relative to `crate_dir`) now.
    pub fn snapshot<'a>(
        crate_dir: &Path,
        files: impl IntoIterator<Item = &'a str>,
    ) -> Result<Sources> {
        let mut out = BTreeMap::new();
        for f in files {
            if !out.contains_key(f) {
                out.insert(f.to_string(), read_source(crate_dir, f)?);
            }
        }
        Ok(Sources::Snapshot(out))
    }

    /// The text of `file`.
    fn text(&self, file: &str) -> Result<String> {
        match self {
            Sources::Snapshot(texts) => texts
                .get(file)
                .cloned()
                .with_context(|| format!("{file} is not in the source snapshot of the run")),
            Sources::Disk(crate_dir) => read_source(crate_dir, file),
        }
    }
}

fn read_source(crate_dir: &Path, file: &str) -> Result<String> {
    let path = crate_dir.join(file);
    std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))
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
}

impl Report {
    /// Reads the reports in `dir`, with the text of every file the mutants are in from
    /// `sources`, which must hold the text every mutant replaces.
    pub fn read(dir: &Path, sources: &Sources) -> Result<Report> {
        let mut report = Report::read_reports(dir)?;
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

    /// Reads the reports in `dir` alone: no sources, no diffs.
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
        })
    }

    /// The largest scope of the run, whose fates the counts and the schema JSON show.
    pub fn last_scope(&self) -> Option<u32> {
        self.evaluation.scopes.iter().map(|s| s.scope).max()
    }

    /// How many listed mutants have each fate at `scope`.
    pub fn counts(&self, scope: u32) -> BTreeMap<Fate, usize> {
        let mut n = BTreeMap::new();
        for m in &self.mutants {
            *n.entry(m.fate(scope)).or_insert(0) += 1;
        }
        n
    }
}
