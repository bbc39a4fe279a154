//! `gate --format github`: the [findings](super::findings) as GitHub Actions workflow
//! commands, within what GitHub shows, and all of them in the job's step summary.
//!
//! GitHub shows at most ten `::error`, ten `::warning` and ten `::notice` annotations per
//! step and drops the rest without a word, so the commands stop at ten of each level, in the
//! findings' order (the verdict first, then the worst regressions), and the last one printed
//! of a level says how many more there are. Everything is in the step summary
//! (`$GITHUB_STEP_SUMMARY`, markdown, appended to: other steps write there too): the figures
//! per scope, every regression and new survivor with its place, the notes, and where the
//! report is.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::baseline::ScopeFigures;
use super::findings::{Check, Finding, Level, Outcome};
use super::{by_key, scopes_text, Failure, GateVerdict};

/// Annotations of one level GitHub shows per step.
pub const PER_LEVEL: usize = 10;

/// Bytes GitHub takes of one step's summary (1 MiB), less room for the lines that say what
/// was left out: past it, the upload of the whole summary fails.
const SUMMARY_BUDGET: usize = 1000 * 1000;

/// Where a GitHub job wants the gate's output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Github {
    /// The gated crate: annotations name its files relative to the current directory.
    pub crate_dir: PathBuf,
    /// The step summary file (`$GITHUB_STEP_SUMMARY`), if the job has one.
    pub step_summary: Option<PathBuf>,
    /// The workflow run's page, where its artifacts (the report) are.
    pub run_url: Option<String>,
}

impl Github {
    /// For the job this process runs in: its step summary and run page from the variables
    /// GitHub sets (none outside a workflow).
    pub fn from_env(crate_dir: PathBuf) -> Github {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let run_url = match (
            var("GITHUB_SERVER_URL"),
            var("GITHUB_REPOSITORY"),
            var("GITHUB_RUN_ID"),
        ) {
            (Some(server), Some(repo), Some(id)) => Some(format!(
                "{}/{repo}/actions/runs/{id}",
                server.trim_end_matches('/')
            )),
            _ => None,
        };
        Github {
            crate_dir,
            step_summary: var("GITHUB_STEP_SUMMARY").map(PathBuf::from),
            run_url,
        }
    }

    /// Appends `markdown` to the step summary, if there is one. A summary that cannot be
    /// written is a warning: the verdict and the annotations stand without it.
    pub fn append_summary(&self, markdown: &str) {
        let Some(path) = &self.step_summary else {
            return;
        };
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| std::io::Write::write_all(&mut f, markdown.as_bytes()));
        if let Err(e) = written {
            ferastrau_console::warning!(
                "cannot append the gate's summary to {} ($GITHUB_STEP_SUMMARY): {e}",
                path.display()
            );
        }
    }
}

/// The current directory, as paths are shown relative to it.
pub(crate) fn current_dir() -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_default();
    cwd.canonicalize().unwrap_or(cwd)
}

/// The file `file` of the crate at `crate_dir`, relative to `cwd` (the repository's root in
/// a job) when it is under it.
pub(crate) fn shown_path(crate_dir: &Path, file: &str, cwd: &Path) -> String {
    let path = crate_dir.join(file);
    path.strip_prefix(cwd)
        .unwrap_or(&path)
        .to_string_lossy()
        .into_owned()
}

/// Workflow commands' escapes of a message.
fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// ... and of a property, which ends at `,` and whose name ends at `:`.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

/// The workflow commands of `findings`, in their order, at most [`PER_LEVEL`] of each level;
/// the last of a level printed says how many of that level are left out. Mutants are placed
/// at their file (relative to `cwd`), line and column.
pub fn annotations(findings: &[Finding], crate_dir: &Path, cwd: &Path) -> String {
    let total = |level: Level| findings.iter().filter(|f| f.level == level).count();
    let mut printed = std::collections::BTreeMap::<Level, usize>::new();
    let mut out = String::new();
    for f in findings {
        let n = printed.entry(f.level).or_default();
        if *n == PER_LEVEL {
            continue;
        }
        *n += 1;
        let mut message = f.message.clone();
        let left_out = total(f.level).saturating_sub(PER_LEVEL);
        if *n == PER_LEVEL && left_out > 0 {
            let _ = write!(
                message,
                "\n(and {left_out} more {}s: see the job summary)",
                f.level.name()
            );
        }
        let mut props = Vec::new();
        if let Some(p) = &f.place {
            props.push(format!(
                "file={}",
                property(&shown_path(crate_dir, &p.file, cwd))
            ));
            props.push(format!("line={}", p.line));
            props.push(format!("col={}", p.column));
        }
        props.push(format!("title={}", property(&f.title)));
        let _ = writeln!(
            out,
            "::{} {}::{}",
            f.level.name(),
            props.join(","),
            data(&message)
        );
    }
    out
}

/// Text as a markdown code span, whatever backticks it holds.
fn code(s: &str) -> String {
    let mut fence = "`".to_string();
    while s.contains(fence.as_str()) {
        fence.push('`');
    }
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// Lines appended to `out` while it stays under the summary's budget; then one line saying
/// how many were left out.
fn push_all(out: &mut String, lines: impl ExactSizeIterator<Item = String>) {
    let n = lines.len();
    for (i, line) in lines.enumerate() {
        if out.len() + line.len() > SUMMARY_BUDGET {
            let _ = writeln!(out, "- and {} more (`--format json` lists all)", n - i);
            return;
        }
        out.push_str(&line);
    }
}

/// The step summary of a gate: a heading with the benchmark and the verdict, the figures per
/// scope, the reasons it failed, every mutant that survives now and every new survivor with
/// its place, the notes, and where the reports are (`report_dir`, and the run's page).
pub fn step_summary(
    o: &Outcome,
    findings: &[Finding],
    crate_dir: &Path,
    cwd: &Path,
    report_dir: &Path,
    run_url: Option<&str>,
) -> String {
    let run = o.run;
    let verdict = match o.verdict {
        GateVerdict::Passed => "passed",
        GateVerdict::Failed => "failed",
        GateVerdict::Updated => "baseline updated",
        GateVerdict::NoBaseline => "no baseline",
    };
    let mut t = format!("## ferastrau gate: {} {verdict}\n\n", run.benchmark);
    if let Some(f) = findings.iter().find(|f| f.check == Check::Failed) {
        let _ = writeln!(t, "**{}**\n", f.message);
    }
    figures_table(&mut t, o);
    failures_section(&mut t, o);
    let place = |key: &str| -> String {
        run.figures.places.get(key).map_or("?".into(), |p| {
            format!("{}:{}", shown_path(crate_dir, &p.file, cwd), p.line)
        })
    };
    let edit = |key: &str| run.edits.get(key).map_or("?", String::as_str).to_string();
    let survive: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.check == Check::SurvivesNow)
        .collect();
    if !survive.is_empty() {
        let _ = writeln!(
            t,
            "### Killed in the baseline, survive now ({})\n",
            survive.len()
        );
        let scopes = super::survives_by_key(o.comparison);
        push_all(
            &mut t,
            survive.iter().map(|f| {
                let key = f.key.as_deref().unwrap_or("?");
                let at = scopes
                    .iter()
                    .find(|(k, _)| k.as_str() == key)
                    .map_or(String::new(), |(_, s)| scopes_text(s));
                format!(
                    "- {} {at} · {}: edit → {}\n",
                    code(&place(key)),
                    code(key),
                    code(&edit(key))
                )
            }),
        );
        t.push('\n');
    }
    // Every new survivor, those a larger scope kills too (not annotated), said so.
    let new = by_key(
        o.comparison
            .changes
            .iter()
            .flat_map(|(&s, ch)| ch.new_surviving.iter().map(move |k| (s, k))),
    );
    if !new.is_empty() {
        let largest = run.figures.scopes.keys().max().copied();
        let _ = writeln!(t, "### New mutants that survive ({})\n", new.len());
        push_all(
            &mut t,
            new.iter().map(|(key, scopes)| {
                let killed = largest
                    .filter(|l| run.figures.mutants.get(*key).is_some_and(|k| k.contains(l)));
                format!(
                    "- {} {} · {}: edit → {}{}\n",
                    code(&place(key)),
                    scopes_text(scopes),
                    code(key),
                    code(&edit(key)),
                    killed.map_or(String::new(), |l| format!(" (killed at scope {l})"))
                )
            }),
        );
        t.push('\n');
    }
    if !o.notes.is_empty() {
        t.push_str("### Notes\n\n");
        push_all(&mut t, o.notes.iter().map(|n| format!("- {n}\n")));
        t.push('\n');
    }
    t.push_str(&where_reports_are(report_dir, cwd, run_url));
    t
}

/// The summary's figures per scope, baseline beside now (none on a partial basis).
fn figures_table(t: &mut String, o: &Outcome) {
    let run = o.run;
    let scopes: std::collections::BTreeSet<u32> = o
        .base
        .scopes
        .keys()
        .chain(run.figures.scopes.keys())
        .copied()
        .collect();
    if o.basis != super::Basis::Partial && !scopes.is_empty() {
        t.push_str(
            "| scope | kill rate % (baseline → now) | Δ points | code statements % | code branches % |\n",
        );
        t.push_str("|---:|---|---:|---|---|\n");
        for s in scopes {
            let (b, n) = (o.base.scopes.get(&s), run.figures.scopes.get(&s));
            let pair = |f: fn(&ScopeFigures) -> f64| {
                let one = |x: Option<&ScopeFigures>| {
                    x.map_or("–".to_string(), |x| format!("{:.2}", f(x)))
                };
                format!("{} → {}", one(b), one(n))
            };
            let delta = match (b, n) {
                (Some(b), Some(n)) => format!("{:+.2}", n.kill_rate - b.kill_rate),
                _ => "–".into(),
            };
            let _ = writeln!(
                t,
                "| {s} | {} | {delta} | {} | {} |",
                pair(|f| f.kill_rate),
                pair(|f| f.statement_coverage),
                pair(|f| f.branch_coverage)
            );
        }
        if o.basis == super::Basis::ChangedCode {
            t.push_str(
                "\nThe mutated code changed: these kill rates and coverages are of other code, not compared.\n",
            );
        }
        t.push('\n');
    }
}

/// The summary's failures, each apart (the annotations put those of a kind in one); the
/// survivors have sections of their own.
fn failures_section(t: &mut String, o: &Outcome) {
    let run = o.run;
    let failures: Vec<String> = match o.verdict {
        GateVerdict::Failed => o
            .comparison
            .failures
            .iter()
            .filter(|f| !matches!(f, Failure::Survives { .. } | Failure::NewSurvivor { .. }))
            .map(|f| format!("- {}\n", super::describe(f, run)))
            .collect(),
        _ => Vec::new(),
    };
    if !failures.is_empty() {
        t.push_str("### Failures\n\n");
        push_all(t, failures.into_iter());
        t.push('\n');
    }
}

/// The summary's closing line: where the run's reports are, and the workflow run's page,
/// whose artifacts hold them when the workflow uploads them.
fn where_reports_are(report_dir: &Path, cwd: &Path, run_url: Option<&str>) -> String {
    let dir = report_dir.strip_prefix(cwd).unwrap_or(report_dir);
    let mut t = format!(
        "The run's reports (`report.html`, `mutants.json`) are in {}",
        code(&dir.to_string_lossy())
    );
    if let Some(url) = run_url {
        let _ = write!(t, "; this run's artifacts: [{url}]({url})");
    }
    t.push_str(".\n\n");
    t
}

/// The step summary of a broken run: its reason.
pub fn broken_summary(benchmark: &str, broken: &Finding, run_url: Option<&str>) -> String {
    let mut t = format!(
        "## ferastrau gate: {benchmark} broken\n\n**{}**\n\n",
        broken.message
    );
    if let Some(url) = run_url {
        let _ = writeln!(t, "The job's log: [{url}]({url})\n");
    }
    t
}

/// Writes the annotations of a gate on stdout and its summary to the step summary.
pub fn write(g: &Github, o: &Outcome, findings: &[Finding], report_dir: &Path) -> Result<()> {
    let cwd = current_dir();
    print!("{}", annotations(findings, &g.crate_dir, &cwd));
    let report_dir = report_dir
        .canonicalize()
        .with_context(|| format!("cannot read {}", report_dir.display()))?;
    g.append_summary(&step_summary(
        o,
        findings,
        &g.crate_dir,
        &cwd,
        &report_dir,
        g.run_url.as_deref(),
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::findings::tests::{gated, run_of};
    use crate::gate::Thresholds;

    /// Fifteen mutants killed at every scope, of which twelve survive now, and fourteen new
    /// survivors: more than GitHub shows of either level.
    fn many() -> (super::super::run::GatedRun, super::super::run::GatedRun) {
        let keys: Vec<String> = (0..15).map(|i| format!("f{i:02} x")).collect();
        let new: Vec<String> = (0..14).map(|i| format!("n{i:02} x")).collect();
        let all = [1, 2, 3];
        let before: Vec<(&str, &[u32])> = keys.iter().map(|k| (k.as_str(), &all[..])).collect();
        let mut now: Vec<(&str, &[u32])> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| (k.as_str(), if i < 12 { &[][..] } else { &all[..] }))
            .collect();
        now.extend(new.iter().map(|k| (k.as_str(), &[][..])));
        (run_of(90.0, &before), run_of(40.0, &now))
    }

    #[test]
    fn at_most_ten_of_each_level_the_summary_first_the_last_saying_how_many_more() {
        let (before, now) = many();
        let t = Thresholds::default();
        let cwd = Path::new("/repo");
        let text = gated(&before, &now, &t, &["a note".into()], |o| {
            annotations(&o.findings(), Path::new("/repo/chain"), cwd)
        });
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].starts_with("::error title=ferastrau gate failed::the gate failed for chain: the kill rate at scope 3 fell from 90.00%25 to 40.00%25"),
            "{text}"
        );
        let errors: Vec<&&str> = lines.iter().filter(|l| l.starts_with("::error ")).collect();
        let warnings: Vec<&&str> = lines
            .iter()
            .filter(|l| l.starts_with("::warning "))
            .collect();
        assert_eq!((errors.len(), warnings.len()), (10, 10), "{text}");
        // 1 summary + 1 kill rate (at 3 scopes) + 12 survivors = 14 errors: 4 left out.
        assert!(
            errors[9].ends_with("%0A(and 4 more errors: see the job summary)"),
            "{text}"
        );
        assert!(
            warnings[9].ends_with("%0A(and 4 more warnings: see the job summary)"),
            "{text}"
        );
        assert!(
            errors[1].starts_with("::error title=ferastrau gate::scope 1: kill rate fell from 90.00%25 to 40.00%25 (-50.00 points); scope 2: "),
            "{text}"
        );
        assert!(
            errors[2].starts_with("::error file=chain/src/lib.rs,line=10,col=5,title=mutant survives::scopes 1..3: killed in the baseline, survives now: f00 x"),
            "{text}"
        );
        assert_eq!(
            lines.last().unwrap(),
            &"::notice title=ferastrau gate note::a note"
        );
    }

    #[test]
    fn the_step_summary_lists_every_regression_and_new_survivor() {
        let (before, now) = many();
        let t = Thresholds::default();
        let cwd = Path::new("/repo");
        let summary = gated(&before, &now, &t, &[], |o| {
            step_summary(
                o,
                &o.findings(),
                Path::new("/repo/chain"),
                cwd,
                Path::new("/repo/out"),
                Some("https://github.com/o/r/actions/runs/7"),
            )
        });
        assert!(
            summary.starts_with("## ferastrau gate: chain failed\n"),
            "{summary}"
        );
        assert!(
            summary.contains("| 3 | 90.00 → 40.00 | -50.00 | 90.00 → 90.00 | 80.00 → 80.00 |"),
            "{summary}"
        );
        assert!(
            summary.contains("\n- scope 2: kill rate fell from 90.00% to 40.00% (-50.00 points)\n"),
            "{summary}"
        );
        for i in 0..12 {
            assert!(
                summary.contains(&format!(
                    "- `chain/src/lib.rs:{}` scopes 1..3 · `f{i:02} x`",
                    10 + i
                )),
                "{i}: {summary}"
            );
        }
        for i in 0..14 {
            assert!(summary.contains(&format!("`n{i:02} x`")), "{summary}");
        }
        assert!(
            summary
                .contains("`out`; this run's artifacts: [https://github.com/o/r/actions/runs/7]"),
            "{summary}"
        );
        assert_eq!(code("a`b"), "``a`b``");
    }
}
