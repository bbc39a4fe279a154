//! `reports/<b>/EQUIVALENT.md`: the argued list of the mutants that survive a committed run at
//! its largest scope, kept in step with that run's `mutants.json` and `evaluation.json`.
//!
//! A document is a hand-written head (title, what the outputs are, how the run was made)
//! followed by a generated part: `## Summary` (the kill rates of the largest scope and a count
//! of verdicts) and `## Survivors`, one entry per surviving mutant with its heading, its content
//! key (the stable identity: ids move when the source changes), its diff, and the only other
//! hand-written text, the argument, which starts with a bold verdict. Rendering keeps each
//! argument by key, so regenerating after a new run drops the entries of mutants that are now
//! killed and adds placeholders for new survivors; a document is current exactly when it equals
//! its own re-rendering and holds no placeholder.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

use anyhow::{bail, Context, Result};
use ferastrau_artifacts::{Artifact as _, Evaluation, Mutants, Status};
use ferastrau_mutator::{mutated_source, Mutant};
use ferastrau_report::html::model::Listed;

// The document's format and its parser live in the harness (the page reads the verdicts
// with it); this module renders and checks documents against a run.
pub use ferastrau_report::html::equivalent::{
    parse, Conclusion, Doc, FILE, KEY_PREFIX, PLACEHOLDER, SUMMARY, SURVIVORS,
};

/// A mutant that survived the largest scope, with what its entry shows.
#[derive(Clone, Debug)]
pub struct Survivor {
    pub mutant: Mutant,
    pub key: String,
    /// `-` lines of the source, then `+` lines of the mutant.
    pub diff: String,
    /// What the largest scope + 1 said (`ferastrau-paper reproduce`), if it was tried.
    pub next_scope: Option<NextScope>,
}

/// `mutants.json`'s `next_scope`: the survivor run again at the largest scope + 1.
pub use ferastrau_artifacts::NextScope;

/// The line an entry shows under its key.
fn next_scope_line(n: &NextScope) -> String {
    match n {
        NextScope::Survived { scope } => format!("Scope {scope}: survives s+1."),
        NextScope::Killed { scope, reason } => {
            format!("Scope {scope}: killed at s+1 ({reason}).")
        }
        NextScope::NotRun { scope, why } => format!("Scope {scope}: s+1 not run ({why})."),
    }
}

/// The largest scope's figures of `evaluation.json`.
pub use ferastrau_artifacts::EvaluationScope;

/// What a committed report says about its largest scope.
#[derive(Clone, Debug)]
pub struct Run {
    pub benchmark: String,
    pub largest: EvaluationScope,
    pub survivors: Vec<Survivor>,
}

/// Reads a report directory; the benchmark's source (for the diffs) is `crate_dir`.
pub fn read_run(report_dir: &Path, crate_dir: &Path) -> Result<Run> {
    let evaluation = Evaluation::read(&report_dir.join("evaluation.json"))?;
    let listed = Mutants::read(&report_dir.join("mutants.json"))?;
    if listed.benchmark != evaluation.benchmark {
        bail!(
            "{}: mutants.json is of {}, evaluation.json of {}",
            report_dir.display(),
            listed.benchmark,
            evaluation.benchmark
        );
    }
    let largest = evaluation
        .scopes
        .into_iter()
        .max_by_key(|s| s.scope)
        .with_context(|| format!("{}: evaluation.json has no scope", report_dir.display()))?;
    let mut survivors = Vec::new();
    for entry in listed.mutants {
        let m = Listed::from(entry);
        let Some(status) = m.scopes.get(&largest.scope) else {
            continue; // not evaluated at all (not viable)
        };
        match status.status {
            Status::Killed => continue,
            Status::Survived => {}
            Status::Skipped => bail!(
                "{}: mutant {} is skipped at scope {}: a committed report evaluates every mutant it lists",
                report_dir.display(),
                m.mutant.id,
                largest.scope
            ),
        }
        let key = m.key.with_context(|| {
            format!(
                "{}: mutant {} has no key (a report older than keys: regenerate it)",
                report_dir.display(),
                m.mutant.id
            )
        })?;
        let diff = line_diff(crate_dir, &m.mutant)?;
        survivors.push(Survivor {
            mutant: m.mutant,
            key,
            diff,
            next_scope: m.next_scope,
        });
    }
    survivors.sort_by_key(|s| s.mutant.id);
    let alive = largest.mutants - largest.killed;
    if survivors.len() != alive as usize {
        bail!(
            "{}: evaluation.json counts {alive} survivors at scope {}, mutants.json {}",
            report_dir.display(),
            largest.scope,
            survivors.len()
        );
    }
    Ok(Run {
        benchmark: evaluation.benchmark,
        largest,
        survivors,
    })
}

/// The lines the mutant changes, before and after. Fails when the source no longer holds the
/// text the report recorded (a report older than its source).
fn line_diff(crate_dir: &Path, mutant: &Mutant) -> Result<String> {
    let (original, mutated) = mutated_source(crate_dir, mutant)?;
    let first = mutant.edit.start.line - 1;
    let old_lines = mutant.edit.end.line - mutant.edit.start.line + 1;
    let new_lines =
        old_lines + mutant.edit.new.matches('\n').count() - mutant.edit.old.matches('\n').count();
    let mut out = String::new();
    for l in original.lines().skip(first).take(old_lines) {
        writeln!(out, "-{l}").unwrap();
    }
    for l in mutated.lines().skip(first).take(new_lines) {
        writeln!(out, "+{l}").unwrap();
    }
    Ok(out)
}

/// The document for `run`, with `doc`'s head and its arguments kept by key (a placeholder for
/// a survivor without one).
pub fn render(doc: &Doc, run: &Run) -> String {
    let arguments: BTreeMap<&str, &str> = doc
        .arguments
        .iter()
        .map(|(k, a)| (k.as_str(), a.as_str()))
        .collect();
    let argument = |s: &Survivor| *arguments.get(s.key.as_str()).unwrap_or(&PLACEHOLDER);
    let s = &run.largest;
    let mut out = doc.head.clone();
    writeln!(out, "{SUMMARY}\n").unwrap();
    writeln!(
        out,
        "Generated from `reports/{b}/mutants.json` and `evaluation.json` (`FERASTRAU_BLESS=1 cargo \
         test --release -p ferastrau --test integration equivalent::` rewrites everything below the head, \
         keeping each argument by key). At scope {}: {} of {} mutants killed ({:.2}%; by family: \
         {}). {} survive:",
        s.scope,
        s.killed,
        s.mutants,
        s.kill_rate,
        s.by_family
            .iter()
            .map(|(f, k)| format!("{} {} of {}", f.as_str(), k.killed, k.mutants))
            .collect::<Vec<_>>()
            .join(", "),
        run.survivors.len(),
        b = run.benchmark,
    )
    .unwrap();
    writeln!(out, "\n| verdict | survivors |\n|---|---|").unwrap();
    let mut counts: BTreeMap<Option<Conclusion>, usize> = BTreeMap::new();
    for v in run.survivors.iter().map(|s| Conclusion::of(argument(s))) {
        *counts.entry(v).or_default() += 1;
    }
    for (v, n) in &counts {
        let label = v.map_or("Not yet argued", Conclusion::label);
        writeln!(out, "| {label} | {n} |").unwrap();
    }
    let tried: Vec<&NextScope> = run
        .survivors
        .iter()
        .filter_map(|s| s.next_scope.as_ref())
        .collect();
    if !tried.is_empty() {
        let n = |f: fn(&NextScope) -> bool| tried.iter().filter(|t| f(t)).count();
        writeln!(
            out,
            "\nAt scope {} (`ferastrau-paper reproduce`): {} survive s+1, {} killed at s+1, {} not run.",
            s.scope + 1,
            n(|t| matches!(t, NextScope::Survived { .. })),
            n(|t| matches!(t, NextScope::Killed { .. })),
            n(|t| matches!(t, NextScope::NotRun { .. })),
        )
        .unwrap();
    }
    writeln!(out, "\n{SURVIVORS}").unwrap();
    for sv in &run.survivors {
        let m = &sv.mutant;
        writeln!(
            out,
            "\n### {} · `{}` {}:{} · {}: `{}` → `{}`\n\n{KEY_PREFIX}{}`{}\n\n```diff\n{}```\n\n{}",
            m.id,
            m.function,
            m.line,
            m.column,
            m.family.as_str(),
            m.original,
            m.replacement,
            sv.key,
            sv.next_scope
                .as_ref()
                .map(|n| format!("\n\n{}", next_scope_line(n)))
                .unwrap_or_default(),
            sv.diff,
            argument(sv),
        )
        .unwrap();
    }
    out
}

/// Everything wrong with `text` as the document of `run`; empty when it is current.
pub fn check(text: &str, run: &Run) -> Vec<String> {
    let doc = match parse(text) {
        Ok(d) => d,
        Err(e) => return vec![format!("{e:#}")],
    };
    let mut problems = Vec::new();
    if doc.head.contains("TODO") {
        problems.push("the head still has a TODO".to_string());
    }
    let listed: BTreeSet<&str> = doc.arguments.iter().map(|(k, _)| k.as_str()).collect();
    if listed.len() != doc.arguments.len() {
        problems.push("a key has more than one entry".to_string());
    }
    let alive: BTreeSet<&str> = run.survivors.iter().map(|s| s.key.as_str()).collect();
    for k in listed.difference(&alive) {
        problems.push(format!("`{k}` has an entry but does not survive"));
    }
    for k in alive.difference(&listed) {
        problems.push(format!("`{k}` survives but has no entry"));
    }
    for (k, a) in &doc.arguments {
        if Conclusion::of(a).is_none() && alive.contains(k.as_str()) {
            problems.push(format!(
                "`{k}`: the argument does not start with a verdict ({}) followed by a reason",
                Conclusion::ALL
                    .map(|v| format!("**{}.**", v.label()))
                    .join(", ")
            ));
        }
    }
    // Arguments point at each other by mutant id ("see 275"); ids move when the mutated
    // functions change, so a reference must name an entry of this document.
    let ids: BTreeSet<u32> = run.survivors.iter().map(|s| s.mutant.id).collect();
    for (k, a) in &doc.arguments {
        for id in references(a) {
            if !ids.contains(&id) {
                problems.push(format!(
                    "`{k}` refers to mutant {id}, which has no entry here"
                ));
            }
        }
    }
    // A kill at scope + 1 refutes every verdict but "not equivalent".
    let arguments: BTreeMap<&str, &str> = doc
        .arguments
        .iter()
        .map(|(k, a)| (k.as_str(), a.as_str()))
        .collect();
    for sv in &run.survivors {
        if let (Some(NextScope::Killed { scope, .. }), Some(a)) =
            (&sv.next_scope, arguments.get(sv.key.as_str()))
        {
            if let Some(v) = Conclusion::of(a).filter(|v| *v != Conclusion::NotEquivalent) {
                problems.push(format!(
                    "`{}` is argued \"{}\" but scope {scope} kills it",
                    sv.key,
                    v.label()
                ));
            }
        }
    }
    if problems.is_empty() {
        let expected = render(&doc, run);
        if expected != text {
            let line = expected
                .lines()
                .zip(text.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| expected.lines().count().min(text.lines().count()));
            problems.push(format!(
                "the generated part is stale from line {} (expected `{}`)",
                line + 1,
                expected.lines().nth(line).unwrap_or("<end>")
            ));
        }
    }
    problems
}

/// The mutant ids an argument refers to: the numbers after "see " (also "see 12, 14 and 20").
pub fn references(argument: &str) -> Vec<u32> {
    let mut ids = Vec::new();
    for (i, _) in argument.match_indices("see ") {
        let rest = argument[i + 4..].trim_start_matches("also ");
        let list: String = rest
            .chars()
            .take_while(|c| c.is_ascii_digit() || matches!(c, ',' | ' ' | 'a' | 'n' | 'd'))
            .collect();
        ids.extend(
            list.split(|c: char| !c.is_ascii_digit())
                .filter_map(|n| n.parse::<u32>().ok()),
        );
    }
    ids
}

/// A new document's head, for a benchmark that has none yet.
pub fn new_head(run: &Run) -> String {
    format!(
        "# {}: the mutants alive at scope {}\n\nTODO: how the run was made and what the outputs \
         compare.\n",
        run.benchmark, run.largest.scope
    )
}
