//! `report.html`: one self-contained page per run (our own CSS and script inline, the chart
//! as inline SVG, nothing fetched), for a person to open in a browser.
//!
//! The page lists every mutant under the source line it changes, coloured by its fate at the
//! run's largest scope. The status counts are written from `mutants.json`, and the page's
//! script counts the mutant elements again when it loads and writes what it counted into
//! `#counted`: the headless-browser test compares those with `evaluation.json`, so a page
//! that drops or mislabels a mutant fails.

use std::collections::BTreeMap;

use ferastrau_protocol::Reason;
use maud::{html, Markup, PreEscaped, DOCTYPE};

use super::chart::chart;
use super::equivalent::Conclusion;
use super::model::{EvaluationScope, Fate, LineCoverage, Listed, NextScope, Report};

const CSS: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");
/// Runs before anything else on the page: records uncaught errors into `#js-errors`, where a
/// reader (and the test, through the DOM dump) sees them.
const ERROR_TRAP: &str = include_str!("trap.js");

/// The statuses a reader can filter by, in display order, and whether they are shown when
/// the page opens: killed mutants are hidden (one click shows them), survivors come first.
const FILTERS: [(&str, &str, bool); 5] = [
    ("survived", "survived", true),
    ("killed", "killed", false),
    ("not-run", "not run", true),
    ("skipped", "skipped", true),
    ("not-viable", "not viable", true),
];

/// The whole page.
pub fn page(report: &Report) -> Markup {
    let ev = &report.evaluation;
    let last = report.last_scope().unwrap_or(0);
    let counts = report.counts(last);
    let first = ev.scopes.iter().map(|s| s.scope).min().unwrap_or(0);
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "ferastrau: " (ev.benchmark) }
                script { (PreEscaped(ERROR_TRAP)) }
                style { (PreEscaped(CSS)) }
            }
            body data-scope=(last) class=(hidden_classes()) {
                header {
                    h1 { (ev.benchmark) }
                    p.sub {
                        "Mutation report of ferastrau " (env!("CARGO_PKG_VERSION"))
                        ": scopes " (first) "–" (last) ", "
                        (report.mutants.len()) " mutants listed. Fates are those at scope "
                        (last) ", the largest."
                    }
                    @if let Some(why) = &ev.broken {
                        p.banner.broken { "This run is broken, its kill rate means nothing: " (why) }
                    }
                    @if let Some(diff) = &ev.in_diff {
                        p.banner { "Only the mutants on the lines of " code { (diff) } " were evaluated." }
                    }
                    @if let Some(shard) = &ev.shard {
                        p.banner { "One shard (" (shard) ") of a run: the other shards' mutants show as not run." }
                    }
                    @if let Some(row) = ev.scopes.iter().find(|r| r.scope == last) {
                        p #headline {
                            "Kill rate at scope " (last) " (the largest): "
                            b #kill-rate { (format!("{:.2}", row.kill_rate)) "%" }
                            " — " (row.killed) " of " (row.mutants) " mutants killed, "
                            (row.mutants.saturating_sub(row.killed)) " survive."
                        }
                    }
                    pre #js-errors {}
                }
                main {
                    (survivor_list(report, last))
                    section #summary {
                        (cards(&counts))
                        p #count-check {}
                        pre #counted hidden {}
                    }
                    section #scopes {
                        h2 { "Per scope" }
                        div.row {
                            (scope_table(&ev.scopes))
                            (chart(&ev.scopes))
                        }
                    }
                    section #source {
                        h2 { "Mutated source" }
                        (notation(report))
                        p.filters {
                            "Show: "
                            @for (class, label, shown) in FILTERS {
                                label.filter { input type="checkbox" checked[shown] data-filter=(class); " " span.swatch.(class) {} " " (label) }
                            }
                            button #expand type="button" { "open all shown" }
                            button #collapse type="button" { "close all" }
                        }
                        p #shown {}
                        pre #shown-counted hidden {}
                        (coverage_legend(report, last))
                        @for (file, text) in &report.sources {
                            (source_file(file, text, report, last))
                        }
                    }
                }
                footer {
                    "Written by ferastrau from evaluation.json and mutants.json (regenerate with "
                    code { "ferastrau report DIR" } "). The same run in the mutation-testing-report-schema format: "
                    a href="mutation-testing-report.json" { "mutation-testing-report.json" } "."
                }
                pre #test-trail hidden {}
                script { (PreEscaped(SCRIPT)) }
            }
        }
    }
}

/// The body's classes when the page opens: one `hide-<status>` per filter off by default.
fn hidden_classes() -> String {
    FILTERS
        .iter()
        .filter(|(_, _, shown)| !shown)
        .map(|(class, _, _)| format!("hide-{class}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The survivors of the largest scope, first thing on the page: each with its key, place,
/// mutated line, and what else is known about it (its `EQUIVALENT.md` verdict, scope + 1,
/// whether any input reached it), linked to its entry in the source.
fn survivor_list(report: &Report, last: u32) -> Markup {
    let survivors = report.survivors(last);
    let unreached = survivors
        .iter()
        .filter(|m| m.reached(last) == Some(false))
        .count();
    html! {
        section #survivors {
            h2 { "Survivors at scope " (last) " (" span #survivor-count { (survivors.len()) } ")" }
            @if survivors.is_empty() {
                p { "Every mutant run at scope " (last) " was killed." }
            } @else {
                p.keys {
                    "Keys: " kbd { "n" } " or " kbd { "j" } " next survivor, "
                    kbd { "p" } " or " kbd { "k" } " previous survivor (each opens it in the source below). "
                    span #nav-pos {}
                }
                @if unreached > 0 {
                    p { (unreached) " of them ran on no input: reach selection found no input of scope "
                        (last) " that evaluates their mutation point, so no test there can tell them apart." }
                }
                @if report.equivalent.is_some() {
                    p { "Verdicts and arguments are those of " code { "EQUIVALENT.md" } " beside these reports." }
                }
                ol #survivor-list {
                    @for m in &survivors {
                        li data-id=(format!("m{}", m.mutant.id)) {
                            a href=(format!("#m{}", m.mutant.id)) { "#" (m.mutant.id) }
                            " " span.place { (m.place()) }
                            @if let Some(key) = &m.key { " " code.key { (key) } }
                            " " (survivor_tags(m, report, last))
                            @if let Some(line) = report.mutated_line(m) { br; code.edit { (line) } }
                        }
                    }
                }
            }
        }
    }
}

/// What is known about a survivor besides its survival, as tags.
fn survivor_tags(m: &Listed, report: &Report, last: u32) -> Markup {
    html! {
        @if m.reached(last) == Some(false) { span.tag.no-reach { "no input reaches it" } " " }
        @if let Some(next) = &m.next_scope { span class=(format!("tag next {}", next_class(next))) { (next.to_string()) } " " }
        @match report.argument(m) {
            None => {}
            Some(None) => { span.tag.verdict.none { "no entry in EQUIVALENT.md" } }
            Some(Some(a)) => {
                @match Conclusion::of(a) {
                    Some(v) => { span class=(format!("tag verdict {}", v.class())) { (v.label()) } }
                    None => { span.tag.verdict.none { "not yet argued" } }
                }
            }
        }
    }
}

fn next_class(next: &NextScope) -> &'static str {
    match next {
        NextScope::Survived { .. } => "survived",
        NextScope::Killed { .. } => "killed",
        NextScope::NotRun { .. } => "not-run",
    }
}

/// A little Markdown, as `EQUIVALENT.md`'s arguments use it: paragraphs, `code` and
/// **bold**; everything else is text.
fn markdown(text: &str) -> Markup {
    html! {
        @for para in text.split("\n\n").filter(|p| !p.trim().is_empty()) {
            p {
                @for (i, part) in para.split('`').enumerate() {
                    @if i % 2 == 1 {
                        code { (part) }
                    } @else {
                        @for (j, t) in part.split("**").enumerate() {
                            @if j % 2 == 1 { b { (t) } } @else { (t) }
                        }
                    }
                }
            }
        }
    }
}

/// The benchmark's own account of how its `render` writes an input (its manifest's
/// `input-notation`), so that a killing input can be read.
fn notation(report: &Report) -> Markup {
    html! {
        details #notation open {
            summary { "How inputs are written" }
            @match &report.facts.input_notation {
                Some(text) => { div.notation { (markdown(text)) } }
                None => {
                    p.notation { "The benchmark does not document its inputs' notation (it would in "
                        code { "input-notation" } " of its " code { "[package.metadata.ferastrau]" } ")." }
                }
            }
        }
    }
}

/// How the coverage bar beside the source lines reads.
fn coverage_legend(report: &Report, last: u32) -> Markup {
    html! {
        @if !report.facts.probes.is_empty() {
            p.cov-legend {
                "The bar left of a line number: what the original reached at scope " (last) " on the lines with coverage probes — "
                span.cov.cov-full {} " every statement and branch outcome, "
                span.cov.cov-part {} " some missed, "
                span.cov.cov-none {} " none. Hover over a bar for the probes missed and the scope from which the line is covered."
            }
        }
    }
}

/// A line's coverage bar: class and title.
fn coverage_bar(cov: Option<&LineCoverage>, first: u32) -> Markup {
    let Some(cov) = cov.filter(|c| !c.probes.is_empty()) else {
        return html! { span.cov {} };
    };
    let missed: Vec<String> = cov
        .probes
        .iter()
        .filter(|(_, m)| *m)
        .map(|(p, _)| what(p))
        .collect();
    let (statements, branches) = cov.probes.iter().fold((0, 0), |(s, b), (p, _)| {
        if p.kind == "statement" {
            (s + 1, b)
        } else {
            (s, b + 1)
        }
    });
    let class = if missed.is_empty() {
        "cov-full"
    } else if missed.len() == cov.probes.len() {
        "cov-none"
    } else {
        "cov-part"
    };
    let mut title = format!(
        "{statements} statement{}, {branches} branch outcome{}",
        if statements == 1 { "" } else { "s" },
        if branches == 1 { "" } else { "s" }
    );
    if missed.is_empty() {
        if let Some(s) = cov.covered_from.filter(|&s| s > first) {
            title.push_str(&format!("; all reached from scope {s}"));
        } else {
            title.push_str("; all reached");
        }
    } else {
        title.push_str(&format!("; missed: {}", missed.join(", ")));
    }
    html! { span class=(format!("cov {class}")) title=(title) {} }
}

/// A probe for people: `statement`, `if true`, `match arm 2`.
fn what(p: &ferastrau_mutator::Probe) -> String {
    match (&p.construct, &p.outcome) {
        (Some(c), Some(o)) => format!("{c} {o}"),
        _ => p.kind.clone(),
    }
}

/// The counts by fate at the largest scope, killed split by reason.
fn cards(counts: &BTreeMap<Fate, usize>) -> Markup {
    let killed: usize = counts
        .iter()
        .filter(|(f, _)| matches!(f, Fate::Killed(_)))
        .map(|(_, n)| n)
        .sum();
    let n = |f: Fate| counts.get(&f).copied().unwrap_or(0);
    html! {
        div.cards {
            div.card.killed {
                b data-count="killed" { (killed) } " killed"
                ul.reasons {
                    @for r in Reason::ALL {
                        li { b data-count=(r.as_str()) { (n(Fate::Killed(r))) } " " (r.as_str()) }
                    }
                }
            }
            @for f in [Fate::Survived, Fate::NotRun, Fate::Skipped, Fate::NotViable] {
                div.card.(f.class()) { b data-count=(f.class()) { (n(f)) } " " (f.label()) }
            }
        }
    }
}

fn scope_table(rows: &[EvaluationScope]) -> Markup {
    html! {
        table.scopes {
            thead { tr {
                th { "scope" } th { "inputs" } th { "code st. %" } th { "code br. %" }
                th { "spec st. %" } th { "spec br. %" } th { "killed" } th { "kill rate %" }
                th { "by family, kill rate %" } th { "killed by" } th { "skipped" }
            } }
            tbody {
                @for r in rows {
                    tr {
                        td { (r.scope) } td { (r.inputs) }
                        td { (format!("{:.2}", r.statement_coverage)) }
                        td { (format!("{:.2}", r.branch_coverage)) }
                        td { (format!("{:.2}", r.spec_statement_coverage)) }
                        td { (format!("{:.2}", r.spec_branch_coverage)) }
                        td { (r.killed) "/" (r.mutants) }
                        td { b { (format!("{:.2}", r.kill_rate)) } }
                        td.by {
                            @for (family, k) in &r.by_family {
                                span { (family.as_str()) " " (format!("{:.2}", k.kill_rate)) } " "
                            }
                        }
                        td.by {
                            @for (reason, n) in ferastrau_artifacts::Reason::ALL.iter().map(|&x| (x, r.killed_by.get(x))).filter(|(_, n)| *n > 0) {
                                span { (reason.as_str()) " " (n) } " "
                            }
                        }
                        td { (r.skipped) }
                    }
                }
            }
        }
    }
}

/// One source file: its lines, each with the mutants that start on it.
fn source_file(file: &str, text: &str, report: &Report, last: u32) -> Markup {
    let mut on: BTreeMap<usize, Vec<&Listed>> = BTreeMap::new();
    for m in report.mutants.iter().filter(|m| m.mutant.file == file) {
        on.entry(m.mutant.line).or_default().push(m);
    }
    let coverage = report.line_coverage(file);
    let first = report
        .evaluation
        .scopes
        .iter()
        .map(|s| s.scope)
        .min()
        .unwrap_or(0);
    html! {
        h3.file { (file) }
        div.src {
            @for (i, line) in text.lines().enumerate() {
                @let n = i + 1;
                @let here = on.get(&n).map(Vec::as_slice).unwrap_or(&[]);
                @let worst = here.iter().map(|m| m.fate(last)).max_by_key(|f| f.urgency());
                div class=(format!("line{}", worst.map(|f| format!(" s-{}", f.class())).unwrap_or_default())) {
                    (coverage_bar(coverage.get(&n), first))
                    span.ln { (n) }
                    code { (line) }
                    @if !here.is_empty() {
                        span.marks {
                            @for m in here {
                                a class=(format!("badge {}", m.fate(last).class())) href=(format!("#m{}", m.mutant.id))
                                    title=(m.fate(last).label()) { (m.mutant.id) }
                            }
                        }
                    }
                }
                @if !here.is_empty() {
                    div.muts {
                        @for m in here { (mutant(m, report, last)) }
                    }
                }
            }
        }
    }
}

fn mutant(m: &Listed, report: &Report, last: u32) -> Markup {
    let fate = m.fate(last);
    let reason = match fate {
        Fate::Killed(r) => r.as_str(),
        _ => "",
    };
    let first_kill = m.first_kill();
    html! {
        details.mutant id=(format!("m{}", m.mutant.id)) data-status=(fate.class()) data-reason=(reason) {
            summary {
                span class=(format!("tag {}", fate.class())) { (fate.label()) }
                " #" (m.mutant.id) " " span.family { (m.mutant.family.as_str()) } " "
                code { (m.mutant.original) } " → " code { (m.mutant.replacement) }
                " in " (m.mutant.function)
                @if let Some((scope, _)) = first_kill { span.first { " · first killed at scope " (scope) } }
            }
            div.body {
                @if let Some(key) = &m.key { p.key { "key: " code { (key) } } }
                @if fate == Fate::Survived { (survivor_notes(m, report, last)) }
                @if let Some(why) = &m.skipped { p { "Skipped by the crate's skip list: " (why) } }
                @if fate == Fate::Skipped && m.skipped.is_none() {
                    @match m.compiler {
                        Some(ferastrau_artifacts::CompilerVerdict::Equivalent) => p { "Not run: the compiler found it equivalent to the original (the same optimised code), so no input can kill it; " code { "--count-equivalents" } " runs it." },
                        Some(ferastrau_artifacts::CompilerVerdict::Duplicate { of }) => p { "Not run: the compiler found it a duplicate of #" (of) " (the same optimised code), which it would follow on every input; " code { "--count-equivalents" } " runs it." },
                        None => {},
                    }
                }
                @if fate == Fate::NotViable { p { "Not viable: it does not compile (compile-pruned), so it never ran." } }
                @if let Some((scope, o)) = first_kill {
                    p.kill {
                        "Killed at scope " (scope) " by " b { (o.reason.map_or("?", |r| r.as_str())) }
                        @if let Some(l) = o.limit { " (" (l.as_str()) " limit)" }
                        @if let Some(d) = &o.detail { ": " (d) }
                        @if let (Some(method), Some(index)) = (&o.method, o.index) {
                            br; "killing input: " (method) " #" (index)
                            @if let Some(input) = &o.input { " " code.input { (input) } }
                        }
                    }
                }
                @if !m.scopes.is_empty() {
                    table.fates {
                        tr { th { "scope" } th { "fate" } th { "inputs run" } th { "killing input" } }
                        @for row in &report.evaluation.scopes {
                            @let o = m.scopes.get(&row.scope);
                            @let f = m.fate(row.scope);
                            tr {
                                td { (row.scope) }
                                td { span class=(format!("tag {}", f.class())) { (f.label()) } }
                                td { (o.and_then(|o| o.executions).map(|e| e.to_string()).unwrap_or_default()) }
                                td { @if let Some(input) = o.and_then(|o| o.input.as_ref()) { code.input { (input) } } }
                            }
                        }
                    }
                }
                @if let Some(diff) = report.diffs.get(&m.mutant.id) { (diff_block(diff)) }
            }
        }
    }
}

/// A survivor's entry: whether an input reached it, scope + 1, and its `EQUIVALENT.md`
/// verdict with the argument.
fn survivor_notes(m: &Listed, report: &Report, last: u32) -> Markup {
    html! {
        div.survivor-notes {
            @if m.reached(last) == Some(false) {
                p.no-reach { b { "No input reaches it" } " at scope " (last)
                    ": it ran on none of the scope's inputs (none evaluates its mutation point)." }
            } @else {
                p.why { b { "Why it survived: " } (super::survivors::why(m, report, last)) "." }
            }
            @if let Some(next) = &m.next_scope {
                p.next { "Scope + 1: " span class=(format!("tag {}", next_class(next))) { (next.to_string()) } }
            }
            @match report.argument(m) {
                None => {}
                Some(None) => { p.verdict { code { "EQUIVALENT.md" } " has no entry for it." } }
                Some(Some(a)) => {
                    div.verdict {
                        @match Conclusion::of(a) {
                            Some(v) => {
                                p { "EQUIVALENT.md: " span class=(format!("tag verdict {}", v.class())) { (v.label()) } }
                                (markdown(Conclusion::strip(a)))
                            }
                            None => {
                                p { "EQUIVALENT.md: " span.tag.verdict.none { "not yet argued" } }
                                (markdown(a))
                            }
                        }
                    }
                }
            }
        }
    }
}

fn diff_block(diff: &str) -> Markup {
    html! {
        pre.diff {
            @for line in diff.lines() {
                @let class = if line.starts_with("+++") || line.starts_with("---") {
                    "dh"
                } else if line.starts_with('+') {
                    "da"
                } else if line.starts_with('-') {
                    "dd"
                } else if line.starts_with("@@") {
                    "dh"
                } else {
                    "dc"
                };
                span class=(class) { (line) } "\n"
            }
        }
    }
}
