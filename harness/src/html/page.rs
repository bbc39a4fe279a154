//! `report.html`: one self-contained page per run (our own CSS and script inline, the chart
//! as inline SVG, nothing fetched), for a person to open in a browser.
//!
//! The page lists every mutant under the source line it changes, coloured by its fate at the
//! run's largest scope. The status counts are written from `mutants.json`, and the page's
//! script counts the mutant elements again when it loads and writes what it counted into
//! `#counted`: the headless-browser test compares those with `evaluation.json`, so a page
//! that drops or mislabels a mutant fails.

use std::collections::BTreeMap;

use ferastrau_worker::protocol::Reason;
use maud::{html, Markup, PreEscaped, DOCTYPE};

use super::chart::chart;
use super::model::{Fate, Listed, Report, ScopeRow};

const CSS: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");
/// Runs before anything else on the page: records uncaught errors into `#js-errors`, where a
/// reader (and the test, through the DOM dump) sees them.
const ERROR_TRAP: &str = include_str!("trap.js");

/// The statuses a reader can filter by, in display order.
const FILTERS: [(&str, &str); 5] = [
    ("survived", "survived"),
    ("killed", "killed"),
    ("not-run", "not run"),
    ("skipped", "skipped"),
    ("not-viable", "not viable"),
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
            body data-scope=(last) {
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
                    pre #js-errors {}
                }
                main {
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
                        p.filters {
                            "Show: "
                            @for (class, label) in FILTERS {
                                label.filter { input type="checkbox" checked data-filter=(class); " " span.swatch.(class) {} " " (label) }
                            }
                            button #expand type="button" { "open all shown" }
                            button #collapse type="button" { "close all" }
                        }
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
                script { (PreEscaped(SCRIPT)) }
            }
        }
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

fn scope_table(rows: &[ScopeRow]) -> Markup {
    html! {
        table.scopes {
            thead { tr {
                th { "scope" } th { "inputs" } th { "code st. %" } th { "code br. %" }
                th { "spec st. %" } th { "spec br. %" } th { "killed" } th { "kill rate %" }
                th { "paper's 3 %" } th { "killed by" } th { "skipped" }
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
                        td { (format!("{:.2}", r.paper_kill_rate)) " (" (r.paper_killed) "/" (r.paper_mutants) ")" }
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
    html! {
        h3.file { (file) }
        div.src {
            @for (i, line) in text.lines().enumerate() {
                @let n = i + 1;
                @let here = on.get(&n).map(Vec::as_slice).unwrap_or(&[]);
                @let worst = here.iter().map(|m| m.fate(last)).max_by_key(|f| f.urgency());
                div class=(format!("line{}", worst.map(|f| format!(" s-{}", f.class())).unwrap_or_default())) {
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
                @if let Some(why) = &m.skipped { p { "Skipped by the crate's skip list: " (why) } }
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
