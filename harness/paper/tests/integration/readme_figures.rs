//! README.md's "Figures" against the committed reproduction: the block is generated from the
//! reports under `reports/` (each benchmark's `evaluation.json`, `mutants.json`, `code.json` and
//! `EQUIVALENT.md`, the full run's under `reports/full/`, the paper's
//! `reports/paper/table4.csv`, read with this crate's reader): the block between [`BEGIN`] and
//! [`END`] must equal what this file renders from them, so a figure cannot disagree with the
//! reports it quotes. `FERASTRAU_BLESS=1 cargo test --release -p ferastrau-paper --test
//! integration readme_figures::` rewrites the block (review the diff). (The README's other
//! checks, which need nothing of the paper, are the CLI's: `harness/cli/tests/integration/readme.rs`.)

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use ferastrau_artifacts::{CodeFacts, Evaluation, EvaluationScope, Mutants, NextScope};
use ferastrau_harness::html::equivalent::{parse, Verdict};
use ferastrau_paper::paper::{Paper, Table4Row};

/// Where the generated block starts (the whole line).
const BEGIN: &str = "<!-- figures: generated from reports/ by harness/paper/tests/integration/readme_figures.rs; \
                     FERASTRAU_BLESS=1 cargo test --release -p ferastrau-paper --test integration readme_figures:: \
                     rewrites it -->";
/// Where it ends.
const END: &str = "<!-- /figures -->";

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
    format!(
        "{} ({}/{})",
        pct(run.largest.paper_kill_rate),
        run.largest.paper_killed,
        run.largest.paper_mutants
    )
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
        "**The committed reproduction** (`reports/<benchmark>/`, made by `bash reports/reproduce.sh`; \
         see \"Reproduction results\"), at each benchmark's largest scope S, the paper's (Table 4) \
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
            let v = Verdict::of(argument)
                .unwrap_or_else(|| panic!("{}: {key} has no verdict", path.display()));
            counts[Verdict::ALL.iter().position(|w| *w == v).unwrap()] += 1;
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
    for v in Verdict::ALL {
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
        "\n**Every viable mutant** (`reports/full/<benchmark>/`, see \"Every viable mutant, and one \
         scope past the paper\"); \"S + 1\": the survivors of S run again at S + 1 (survived / \
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
            pct(run.largest.paper_kill_rate),
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

/// README.md's block between the markers, and the text around it.
fn split(readme: &str) -> (&str, &str, &str) {
    let start = readme
        .find(&format!("{BEGIN}\n"))
        .expect("README.md has the figures' start marker");
    let body = start + BEGIN.len() + 1;
    // From the start marker's newline, so that an empty block is found too.
    let end = body
        + readme[body - 1..]
            .find(&format!("\n{END}\n"))
            .expect("README.md has the figures' end marker");
    (&readme[..body], &readme[body..end], &readme[end..])
}

#[test]
fn figures_match_the_committed_reports() {
    let path = repo().join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let (before, block, after) = split(&readme);
    let want = figures();
    if block == want {
        return;
    }
    if std::env::var_os("FERASTRAU_BLESS").is_some_and(|v| !v.is_empty() && v != "0") {
        std::fs::write(&path, format!("{before}{want}{after}")).unwrap();
        return;
    }
    let first = block
        .lines()
        .zip(want.lines())
        .find(|(a, b)| a != b)
        .map(|(a, b)| format!("README.md: {a}\nreports:   {b}"))
        .unwrap_or_else(|| "the block is longer or shorter than the reports give".to_string());
    panic!(
        "README.md's figures differ from the committed reports (`FERASTRAU_BLESS=1 cargo test \
         --release -p ferastrau-paper --test integration readme_figures::` rewrites them; review \
         the diff); first difference:\n{first}"
    );
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
