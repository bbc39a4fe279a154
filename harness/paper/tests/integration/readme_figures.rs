//! The book's "Figures" (`docs/src/reproduction.md`, [`FIGURES`]) and the committed reports'
//! front page (`reports/index.html`, [`INDEX`]) against the committed reproduction: both are
//! generated from the reports under `reports/` (each benchmark's `evaluation.json`,
//! `mutants.json`, `code.json` and `EQUIVALENT.md`, the full run's under `reports/full/`, the
//! paper's `reports/paper/table4.csv`, read with this crate's reader, and `reports/table4.json`):
//! the block between [`BEGIN`] and [`END`], and the page, must equal what this file renders from
//! them, so a figure cannot disagree with the reports it quotes. `FERASTRAU_BLESS=1 cargo test
//! --release -p ferastrau-paper --test integration readme_figures::` rewrites both (review the
//! diff). (The checks of the README and the book that need nothing of the paper are the CLI's:
//! `harness/cli/tests/integration/readme.rs`.)

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use ferastrau_artifacts::{CodeFacts, Evaluation, EvaluationScope, Mutants, NextScope};
use ferastrau_paper::paper::{Paper, Table4Row};
use ferastrau_report::html::equivalent::{parse, Conclusion};

/// Where the generated block starts (the whole line).
const BEGIN: &str = "<!-- figures: generated from reports/ by harness/paper/tests/integration/readme_figures.rs; \
                     FERASTRAU_BLESS=1 cargo test --release -p ferastrau-paper --test integration readme_figures:: \
                     rewrites it -->";
/// Where it ends.
const END: &str = "<!-- /figures -->";
/// The chapter that holds the block, from the checkout's root.
const FIGURES: &str = "docs/src/reproduction.md";
/// The committed reports' front page, from the checkout's root.
const INDEX: &str = "reports/index.html";

/// The committed benchmarks in the paper's order (Table 1's rows): directory, class name.
const BENCHMARKS: [(&str, &str); 10] = [
    ("search_tree", "SearchTree"),
    ("disj_set", "DisjSet"),
    ("heap_array", "HeapArray"),
    ("binomial_heap", "BinomialHeap"),
    ("fibonacci_heap", "FibonacciHeap"),
    ("linked_list", "LinkedList"),
    ("sorted_list", "SortedList"),
    ("tree_map", "TreeMap"),
    ("hash_set", "HashSet"),
    ("av_tree", "AVTree"),
];

fn repo() -> PathBuf {
    crate::common::workspace_root()
}

/// A report file, read through its artifact type.
fn read<A: ferastrau_artifacts::Artifact>(path: &Path) -> A {
    A::read(path).unwrap_or_else(|e| panic!("{}: {e:#}", path.display()))
}

/// `1234567` → `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn pct(v: f64) -> String {
    format!("{v:.2}")
}

/// One run of one benchmark as its reports give it, at its largest scope.
struct Run {
    scope: u32,
    largest: EvaluationScope,
    code: CodeFacts,
    /// Mutants that survive the largest scope.
    survivors: u64,
    /// `next_scope` of the survivors: survived, killed, not run; and the first reason why not.
    next: [u64; 3],
    why_not: Option<String>,
}

fn read_run(dir: &Path) -> Run {
    let evaluation: Evaluation = read(&dir.join("evaluation.json"));
    let largest = evaluation
        .scopes
        .last()
        .unwrap_or_else(|| panic!("{}: no scope", dir.display()))
        .clone();
    let scope = largest.scope;
    let mutants: Mutants = read(&dir.join("mutants.json"));
    let mut survivors = 0;
    let mut next = [0; 3];
    let mut why_not = None;
    for m in &mutants.mutants {
        if m.scopes
            .get(&scope)
            .is_some_and(|o| o.status == ferastrau_artifacts::Status::Survived)
        {
            survivors += 1;
        }
        match &m.next_scope {
            None => {}
            Some(NextScope::Survived { .. }) => next[0] += 1,
            Some(NextScope::Killed { .. }) => next[1] += 1,
            Some(NextScope::NotRun { why, .. }) => {
                next[2] += 1;
                why_not.get_or_insert_with(|| why.clone());
            }
        }
    }
    Run {
        scope,
        code: read(&dir.join("code.json")),
        largest,
        survivors,
        next,
        why_not,
    }
}

/// `mutants` evaluated, with the viable count when a sample was evaluated.
fn mutants_cell(run: &Run) -> String {
    let evaluated = u64::from(run.largest.mutants);
    let viable = u64::from(run.code.mutants_viable);
    match evaluated == viable {
        true => thousands(evaluated),
        false => format!("{} of {}", thousands(evaluated), thousands(viable)),
    }
}

fn paper_ops_cell(run: &Run) -> String {
    let k = ferastrau_paper::table3::kills(&run.largest);
    format!("{} ({}/{})", pct(k.kill_rate), k.killed, k.mutants)
}

fn next_cell(run: &Run) -> String {
    match run.next {
        [0, 0, 0] => "—".to_string(),
        [s, k, 0] => format!("{s} / {k}"),
        [s, k, n] => format!("{s} / {k} / {n} not run"),
    }
}

/// The paper's Table 4 row of `class` at `scope` (`reports/paper/table4.csv`).
fn paper_row(paper: &Paper, class: &str, scope: u32) -> Table4Row {
    paper
        .table4
        .values()
        .flatten()
        .find(|r| r.benchmark == class && r.scope == scope)
        .unwrap_or_else(|| panic!("reports/paper/table4.csv: no row for {class} at scope {scope}"))
        .clone()
}

/// The generated block, without its markers.
fn figures() -> String {
    let reports = repo().join("reports");
    let mut out = String::new();

    // The committed reproduction.
    out.push_str(
        "**The committed reproduction** (`reports/<benchmark>/`, made by `bash reports/reproduce.sh`), \
         at each benchmark's largest scope S, the paper's (Table 4) \
         beside ours. \"3 families\" counts only the paper's operator, variable and call mutants \
         (killed/evaluated); \"mutants\" is those evaluated, of the viable ones when a sample was \
         evaluated; \"S + 1\" is what the survivors did one scope further (survived / killed), \
         run by `reproduce` when it fitted its budget:\n\n",
    );
    out.push_str(
        "| benchmark | S | inputs | mutants | killed %, all | killed %, 3 families | paper | code st / br % (paper) | survivors | S + 1 |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let transcribed = Paper::read(&reports.join("paper")).expect("reports/paper/");
    let mut total_survivors = 0;
    let mut verdicts: Vec<(&str, [u64; 4])> = Vec::new();
    for (dir, class) in BENCHMARKS {
        let run = read_run(&reports.join(dir));
        let paper = paper_row(&transcribed, class, run.scope);
        let inputs = run.largest.inputs;
        let paper_inputs = paper.inputs;
        let inputs = match inputs == paper_inputs {
            true => thousands(inputs),
            false => format!("{} (paper {})", thousands(inputs), thousands(paper_inputs)),
        };
        let l = &run.largest;
        writeln!(
            out,
            "| {class} | {} | {inputs} | {} | {} | {} | {} | {} / {} ({} / {}) | {} | {} |",
            run.scope,
            mutants_cell(&run),
            pct(l.kill_rate),
            paper_ops_cell(&run),
            pct(paper.kill_rate),
            pct(l.statement_coverage),
            pct(l.branch_coverage),
            pct(paper.statement_coverage),
            pct(paper.branch_coverage),
            run.survivors,
            next_cell(&run),
        )
        .unwrap();
        total_survivors += run.survivors;

        // The survivors' verdicts, from the argued list beside the report.
        let path = reports.join(dir).join("EQUIVALENT.md");
        let doc = parse(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut counts = [0u64; 4];
        for (key, argument) in &doc.arguments {
            let v = Conclusion::of(argument)
                .unwrap_or_else(|| panic!("{}: {key} has no verdict", path.display()));
            counts[Conclusion::ALL.iter().position(|w| *w == v).unwrap()] += 1;
        }
        assert_eq!(
            counts.iter().sum::<u64>(),
            run.survivors,
            "{}: as many entries as survivors (the `equivalent::` test says which)",
            path.display()
        );
        verdicts.push((class, counts));
    }

    // The verdicts.
    write!(
        out,
        "\n**The survivors' verdicts**, argued by hand in `reports/<benchmark>/EQUIVALENT.md` \
         ({total_survivors} survivors at the largest scopes):\n\n| benchmark |"
    )
    .unwrap();
    for v in Conclusion::ALL {
        write!(out, " {} |", v.label()).unwrap();
    }
    out.push_str("\n|---|---:|---:|---:|---:|\n");
    let mut totals = [0u64; 4];
    for (class, counts) in &verdicts {
        write!(out, "| {class} |").unwrap();
        for (i, c) in counts.iter().enumerate() {
            write!(out, " {c} |").unwrap();
            totals[i] += c;
        }
        out.push('\n');
    }
    out.push_str("| all |");
    for t in totals {
        write!(out, " {t} |").unwrap();
    }
    out.push('\n');

    // The full run.
    out.push_str(
        "\n**Every viable mutant** (`reports/full/<benchmark>/`, see [Every viable mutant, and one \
         scope past the paper](#every-viable-mutant-and-one-scope-past-the-paper)); \"S + 1\": the survivors of S run again at S + 1 (survived / \
         killed, and not run when the estimate was over the budget or the run failed):\n\n\
         | benchmark | S | inputs | mutants | killed %, all | killed %, 3 families | the sample's killed %, all | survivors | S + 1 |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let (mut all, mut viable) = (0, 0);
    let mut not_run = Vec::new();
    for (dir, class) in BENCHMARKS {
        let run = read_run(&reports.join("full").join(dir));
        let sample = read_run(&reports.join(dir));
        all += u64::from(run.code.mutants_all);
        viable += u64::from(run.code.mutants_viable);
        let sample_rate = match sample.largest.mutants == run.largest.mutants {
            true => format!("{} (all)", pct(sample.largest.kill_rate)),
            false => pct(sample.largest.kill_rate),
        };
        writeln!(
            out,
            "| {class} | {} | {} | {} | {} | {} | {sample_rate} | {} | {} |",
            run.scope,
            thousands(run.largest.inputs),
            mutants_cell(&run),
            pct(run.largest.kill_rate),
            pct(ferastrau_paper::table3::kill_rate(&run.largest)),
            run.survivors,
            next_cell(&run),
        )
        .unwrap();
        if let Some(why) = &run.why_not {
            not_run.push(format!("{class}: {why}"));
        }
    }
    writeln!(
        out,
        "\n{} mutants in all, {} viable. Why S + 1 was not run (`next_scope.why` in `mutants.json`):\n",
        thousands(all),
        thousands(viable)
    )
    .unwrap();
    for why in not_run {
        writeln!(out, "- {why}").unwrap();
    }
    out
}

/// The chapter's block between the markers, and the text around it.
fn split(chapter: &str) -> (&str, &str, &str) {
    let start = chapter
        .find(&format!("{BEGIN}\n"))
        .unwrap_or_else(|| panic!("{FIGURES} has the figures' start marker"));
    let body = start + BEGIN.len() + 1;
    // From the start marker's newline, so that an empty block is found too.
    let end = body
        + chapter[body - 1..]
            .find(&format!("\n{END}\n"))
            .unwrap_or_else(|| panic!("{FIGURES} has the figures' end marker"));
    (&chapter[..body], &chapter[body..end], &chapter[end..])
}

/// Passes when `got` (the committed text of `file`) is `want`; with `FERASTRAU_BLESS` set,
/// writes `whole` (the file with `want` in place) instead. Otherwise fails at the first line
/// that differs.
fn compare_or_bless(file: &str, got: &str, want: &str, whole: String) {
    if got == want {
        return;
    }
    if std::env::var_os("FERASTRAU_BLESS").is_some_and(|v| !v.is_empty() && v != "0") {
        std::fs::write(repo().join(file), whole).unwrap();
        return;
    }
    let first = got
        .lines()
        .zip(want.lines())
        .find(|(a, b)| a != b)
        .map(|(a, b)| format!("{file}: {a}\nreports: {b}"))
        .unwrap_or_else(|| "it is longer or shorter than the reports give".to_string());
    panic!(
        "{file} differs from the committed reports (`FERASTRAU_BLESS=1 cargo test --release -p \
         ferastrau-paper --test integration readme_figures::` rewrites it; review the diff); \
         first difference:\n{first}"
    );
}

#[test]
fn figures_match_the_committed_reports() {
    let chapter = std::fs::read_to_string(repo().join(FIGURES)).unwrap();
    let (before, block, after) = split(&chapter);
    let want = figures();
    compare_or_bless(FIGURES, block, &want, format!("{before}{want}{after}"));
}

/// `&`, `<`, `>` and `"` escaped for HTML text and attribute values.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Table 4's measures on the index page, a table each: the key of `reports/table4.json`'s
/// `cells` (the three families' kill rate is a field of the row, beside the paper's kill rate),
/// the heading, and whether the figures are whole numbers.
const MEASURES: [(&str, &str, bool); 10] = [
    ("kill_rate", "Kill rate, every mutant (%)", false),
    (
        "kill_rate_3_families",
        "Kill rate, the paper's operator, variable and call mutants (%)",
        false,
    ),
    ("inputs", "Inputs", true),
    ("statement_coverage", "Code statement coverage (%)", false),
    ("branch_coverage", "Code branch coverage (%)", false),
    (
        "spec_statement_coverage",
        "Specification statement coverage (%)",
        false,
    ),
    (
        "spec_branch_coverage",
        "Specification branch coverage (%)",
        false,
    ),
    ("gen_seconds", "Generation (s)", false),
    (
        "ded_gen_seconds",
        "Generation with the dedicated generators (s)",
        false,
    ),
    ("checking_seconds", "Checking the original (s)", false),
];

/// A figure of Table 4 as the page writes it: "—" for none.
fn figure_text(v: Option<f64>, integer: bool) -> String {
    match v {
        None => "—".to_string(),
        Some(v) if integer => thousands(v.round() as u64),
        Some(v) => format!("{v:.2}"),
    }
}

/// Ours and the paper's figure of `measure` in a row of `reports/table4.json`.
fn measure(row: &serde_json::Value, measure: &str) -> (Option<f64>, Option<f64>) {
    match measure {
        "kill_rate_3_families" => (
            row["kill_rate_3_families"].as_f64(),
            row["cells"]["kill_rate"]["paper"].as_f64(),
        ),
        m => (
            row["cells"][m]["ours"].as_f64(),
            row["cells"][m]["paper"].as_f64(),
        ),
    }
}

/// `reports/index.html`: the ten pages with each benchmark's figures at its largest scope,
/// Figure 9, and Table 4 one measure at a time (every table fits a 1,400-pixel screen).
fn index_html() -> String {
    let reports = repo().join("reports");
    let transcribed = Paper::read(&reports.join("paper")).expect("reports/paper/");
    let mut out = String::from(
        r##"<!DOCTYPE html>
<!-- Generated from the reports in this directory by harness/paper/tests/integration/readme_figures.rs:
     FERASTRAU_BLESS=1 cargo test --release -p ferastrau-paper --test integration readme_figures::
     rewrites it. -->
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ferastrau: the committed reproduction</title>
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; margin: 0 auto;
       max-width: 1360px; padding: 1.5rem 1.25rem 3rem; line-height: 1.45; }
h1 { margin-bottom: 0.25rem; }
h2 { margin-top: 2.25rem; border-bottom: 1px solid #d1d9e0; padding-bottom: 0.25rem; }
h3 { margin: 1.5rem 0 0.4rem; font-size: 1.05rem; }
code { font-size: 0.9em; background: #f6f8fa; padding: 0.1em 0.3em; border-radius: 4px; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; margin: 0.4rem 0 0.8rem; }
th, td { padding: 0.3rem 0.65rem; border-bottom: 1px solid #d1d9e0; text-align: right; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
th:first-child, td:first-child { text-align: left; }
td { white-space: nowrap; }
td .paper { display: block; color: #656d76; font-size: 0.85em; }
td.rate { font-weight: 600; }
img.figure { display: block; width: 100%; height: auto; border: 1px solid #d1d9e0; }
nav a { margin-right: 1rem; }
</style>
</head>
<body>
<h1>Ferastrau: the committed reproduction</h1>
<p>The paper's ten benchmarks (<i>An Evaluation of Exhaustive Testing for Data Structures</i>,
Marinov, Andoni, Daniliuc, Khurshid, Rinard, 2003), evaluated at the paper's scopes by
<code>bash reports/reproduce.sh</code>. <a href="REPRODUCTION.md">REPRODUCTION.md</a> judges the
paper's hypotheses on these runs and explains every disagreement with the paper.</p>
<nav><a href="#benchmarks">The benchmarks</a><a href="#figure-9">Figure 9</a><a href="#table-4">Table 4</a>
<a href="table1.md">Table 1</a><a href="table2.md">Table 2</a><a href="table4.md">Table 4 as Markdown</a>
<a href="full/REPRODUCTION.md">Every viable mutant</a></nav>

<h2 id="benchmarks">The benchmarks at their largest scope</h2>
<p>Each name opens the benchmark's page: the survivors first, then every mutant in the mutated
source. The paper's figures are Table 4's; "3 families" counts only the paper's operator, variable
and call mutants (killed / evaluated); "mutants" is those evaluated, of the viable ones when a
sample was evaluated; each survivor is argued in the benchmark's <code>EQUIVALENT.md</code>.</p>
<table>
<thead><tr><th>benchmark</th><th>scope</th><th>inputs</th><th>mutants</th><th>kill rate %</th><th>3 families %</th><th>paper %</th><th>code statements %</th><th>code branches %</th><th>paper's code st / br %</th><th>survivors</th></tr></thead>
<tbody>
"##,
    );
    for (dir, class) in BENCHMARKS {
        let run = read_run(&reports.join(dir));
        let paper = paper_row(&transcribed, class, run.scope);
        let l = &run.largest;
        writeln!(
            out,
            "<tr><td><a href=\"{dir}/report.html\">{}</a></td><td>{}</td><td>{}</td><td>{}</td>\
             <td class=\"rate\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} / {}</td>\
             <td><a href=\"{dir}/EQUIVALENT.md\">{}</a></td></tr>",
            esc(class),
            run.scope,
            thousands(l.inputs),
            esc(&mutants_cell(&run)),
            pct(l.kill_rate),
            esc(&paper_ops_cell(&run)),
            pct(paper.kill_rate),
            pct(l.statement_coverage),
            pct(l.branch_coverage),
            pct(paper.statement_coverage),
            pct(paper.branch_coverage),
            run.survivors,
        )
        .unwrap();
    }
    out.push_str(
        r##"</tbody>
</table>

<h2 id="figure-9">Figure 9</h2>
<p>Kill rate and statement coverage against scope, ours and the paper's, for the ten benchmarks
(<a href="figure9.svg">figure9.svg</a>).</p>
<img class="figure" src="figure9.svg" alt="Figure 9: kill rate and statement coverage against scope, ours and the paper's, for each of the ten benchmarks">

<h2 id="table-4">Table 4, one measure at a time</h2>
<p>Per benchmark and scope, ours and, beneath in grey, the paper's. Seconds are ours on the
machine the reproduction ran on and the paper's on a 1.8 GHz Pentium 4: compare their growth,
not their values. The whole table, with the differences, is
<a href="table4.md">table4.md</a>.</p>
"##,
    );
    let rows: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(reports.join("table4.json")).unwrap())
            .expect("reports/table4.json");
    let rows = rows.as_array().expect("table4.json is a list of rows");
    let largest = rows
        .iter()
        .filter_map(|r| r["scope"].as_u64())
        .max()
        .expect("table4.json has rows");
    for (key, title, integer) in MEASURES {
        write!(
            out,
            "\n<h3 id=\"{}\">{}</h3>\n<table>\n<thead><tr><th>benchmark</th>",
            key.replace('_', "-"),
            esc(title)
        )
        .unwrap();
        for s in 1..=largest {
            write!(out, "<th>scope {s}</th>").unwrap();
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for (_, class) in BENCHMARKS {
            write!(out, "<tr><td>{}</td>", esc(class)).unwrap();
            for s in 1..=largest {
                let row = rows.iter().find(|r| {
                    r["benchmark"].as_str() == Some(class) && r["scope"].as_u64() == Some(s)
                });
                match row {
                    None => out.push_str("<td></td>"),
                    Some(row) => {
                        let (ours, paper) = measure(row, key);
                        write!(
                            out,
                            "<td>{}<span class=\"paper\">{}</span></td>",
                            figure_text(ours, integer),
                            figure_text(paper, integer)
                        )
                        .unwrap();
                    }
                }
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

#[test]
fn the_index_page_matches_the_committed_reports() {
    let want = index_html();
    let got = std::fs::read_to_string(repo().join(INDEX)).unwrap_or_default();
    compare_or_bless(INDEX, &got, &want, want.clone());
    // Every page, document and picture it links is committed beside it.
    let reports = repo().join("reports");
    for attribute in ["href=\"", "src=\""] {
        for piece in want.split(attribute).skip(1) {
            let target = &piece[..piece.find('"').unwrap()];
            if target.starts_with('#') {
                continue;
            }
            assert!(
                reports.join(target).is_file(),
                "{INDEX} links {target}, which is not in reports/"
            );
        }
    }
}

#[test]
fn every_committed_report_is_in_the_figures() {
    let mut dirs: Vec<String> = std::fs::read_dir(repo().join("reports"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("evaluation.json").is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    let mut listed: Vec<String> = BENCHMARKS.iter().map(|(d, _)| d.to_string()).collect();
    listed.sort();
    assert_eq!(
        dirs, listed,
        "BENCHMARKS in readme.rs lists every reports/<b>/"
    );
}
