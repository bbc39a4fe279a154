//! A suite's run as `report.html`: the headline figures, then every survivor — where it is, its
//! key, and its line with the edit in place — first, since they are what a user acts on, then
//! the killed mutants with what killed them. One self-contained page (no script, no fetch).

use std::collections::BTreeMap;

use ferastrau_mutator::{Catalog, Mutant};
use maud::{html, Markup, PreEscaped, DOCTYPE};

use ferastrau_artifacts::{SuiteRun, SuiteStatus as Status};

use super::killed_by;

const CSS: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:70em;padding:0 1em}\
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top}\
code{font:13px ui-monospace,monospace}del{color:#a40000}ins{color:#006400;text-decoration:none;font-weight:bold}\
.survived{background:#fff3f0}h2{margin-top:1.5em}";

/// The mutated line of `m` in `sources`, with the edit shown in place (`del`/`ins`), when the
/// edit lies on one line.
fn line(m: &Mutant, sources: &BTreeMap<String, String>) -> Markup {
    let e = &m.edit;
    let text = sources
        .get(&m.file)
        .and_then(|s| s.lines().nth(e.start.line.saturating_sub(1)));
    match text {
        Some(text) if e.start.line == e.end.line => {
            let chars: Vec<char> = text.chars().collect();
            let (a, b) = (e.start.column - 1, (e.end.column - 1).min(chars.len()));
            if a > b {
                return html! { code { (text.trim()) } };
            }
            let before: String = chars[..a].iter().collect();
            let old: String = chars[a..b].iter().collect();
            let after: String = chars[b..].iter().collect();
            html! { code { (before.trim_start()) del { (old) } ins { (e.new) } (after) } }
        }
        _ => html! { code { (m.original) " → " (m.replacement) } },
    }
}

/// The page for `run` over `catalog`, with the crate's `sources` as they were run.
pub fn page(run: &SuiteRun, catalog: &Catalog, sources: &BTreeMap<String, String>) -> Markup {
    let by: Vec<String> = killed_by(run)
        .iter()
        .map(|(r, n)| format!("{r} {n}"))
        .collect();
    let (survivors, killed): (Vec<_>, Vec<_>) = run
        .verdicts
        .iter()
        .filter_map(|v| Some((v, catalog.get(v.id)?)))
        .partition(|(v, _)| v.status == Status::Survived);
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { "ferastrau: " (run.benchmark) ", the suite " (run.suite) }
                style { (PreEscaped(CSS)) }
            }
            body {
                h1 { (run.benchmark) ": the suite " code { (run.suite) } }
                p #headline {
                    "Killed " strong { (run.killed) " of " (run.mutants) } " mutants ("
                    (format!("{:.2}", run.kill_rate)) " %) with " (run.tests.len())
                    " tests (" (format!("{:.3}", run.original_seconds)) " s on the original)"
                    @if !by.is_empty() { "; by " (by.join(", ")) } "."
                }
                h2 #survivors { (survivors.len()) " survive the suite" }
                @if !survivors.is_empty() {
                    table {
                        tr { th { "place" } th { "mutant" } th { "the line, mutated" } }
                        @for (v, m) in &survivors {
                            tr.survived {
                                td { code { (m.file) ":" (m.line) ":" (m.column) } }
                                td { (v.key.as_deref().unwrap_or(&m.function)) }
                                td { (line(m, sources)) }
                            }
                        }
                    }
                }
                h2 #killed { (killed.len()) " killed" }
                table {
                    tr { th { "place" } th { "mutant" } th { "killed by" } }
                    @for (v, m) in &killed {
                        tr {
                            td { code { (m.file) ":" (m.line) ":" (m.column) } }
                            td { (v.key.as_deref().unwrap_or(&m.function)) }
                            td {
                                @match (&v.test, v.reason) {
                                    (Some(test), _) => { "the test " code { (test) } }
                                    (None, Some(r)) => { "the suite's run: " (r.as_str()) }
                                    (None, None) => { "—" }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
