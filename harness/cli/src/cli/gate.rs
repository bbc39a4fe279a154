//! `gate`: a run's reports (or a suite's run) judged against a baseline, and which crate the
//! reports are of (for the annotations' paths), apart from the other commands because the
//! gate's own setup (thresholds, formats, the reports' crate) is most of its code.

use anyhow::Result;

use super::args::*;
use super::show::Show;
use ferastrau_console::exit_code::usage;

pub(super) fn cmd_gate(a: GateArgs) -> Result<()> {
    if let Some(suite) = a.run.suite.clone() {
        return gate_suite(a, &suite);
    }
    refused(&a)?;
    // With --format json the gate's document is the only thing on stdout: the evaluation it
    // runs prints nothing (its reports are in their directory, named in the document).
    let json = a.run.output.json();
    let ci = a.run.output.ci();
    // Where annotations place the mutants' files: the gated crate, located before the run;
    // with --current, the crate whose reports they are (and one named too must be it).
    let annotated = match &a.current {
        Some(dir) => crate_of_reports(dir, &a.run.target, ci)?,
        None if ci => {
            let bench = a.run.target.locate()?;
            Some((bench.name, bench.dir))
        }
        None => None,
    };
    use ferastrau_report::gate::{github::Github, gitlab::Gitlab, Print};
    let (benchmark, print) = match (json, annotated) {
        (true, _) => (None, Print::Json),
        (false, Some((name, crate_dir))) if a.run.output.github() => {
            (Some(name), Print::Github(Github::from_env(crate_dir)))
        }
        (false, Some((name, crate_dir))) if a.run.output.gitlab() => (
            Some(name),
            Print::Gitlab(Gitlab {
                crate_dir,
                code_quality: a
                    .code_quality
                    .clone()
                    .unwrap_or_else(|| ferastrau_report::gate::gitlab::DEFAULT_FILE.into()),
            }),
        ),
        (false, _) => (None, Print::Table),
    };
    let show = if json { Show::Nothing } else { Show::Summary };
    let dir = match a.current {
        Some(dir) => dir,
        None => match super::evaluate::run_evaluation(a.run, show) {
            Ok(Some(dir)) => dir,
            // `--in-diff` of a change nothing depends on: said by the evaluation; no verdict
            // is weaker than the baseline's.
            Ok(None) => {
                if !json {
                    println!("gate passed: nothing to gate");
                }
                if let Some(name) = &benchmark {
                    print.nothing_to_gate(name)?;
                }
                return Ok(());
            }
            // A broken run has no verdict, and a CI job shows only what it is told: the
            // reason (naming the failing input) goes to it too, as the gate's own broken
            // runs' do (the status stays the evaluation's).
            Err(e) => {
                if let Some(name) = benchmark.as_deref().filter(|_| {
                    ferastrau_console::exit_code::of(&e)
                        == ferastrau_console::exit_code::Exit::Broken
                }) {
                    if let Err(w) = print.broken(name, &format!("{e:#}")) {
                        ferastrau_console::warning!("{w:#}");
                    }
                }
                return Err(e);
            }
        },
    };
    let thresholds = ferastrau_report::gate::Thresholds {
        min_kill_rate: a.min_kill_rate,
        min_kill_rate_scope: a.min_kill_rate_scope,
        tolerance: a.tolerance,
        fail_on_new_survivors: a.fail_on_new_survivors,
        accept_unmatched: a.accept_unmatched,
    };
    // Held while the gate reads the reports: a run that has taken the directory is clearing
    // them.
    let _reading = ferastrau_harness::outdir::OutputDir::read(&dir)?;
    ferastrau_report::gate::gate(&dir, &a.baseline, &thresholds, a.update_baseline, &print)
}

/// The gate's options that no gated run could mean, refused before anything runs: a shard,
/// chosen mutants, another comparison than the baselines', `--code-quality` without GitLab's
/// format.
fn refused(a: &GateArgs) -> Result<()> {
    if a.run.shard.is_some() {
        return Err(usage(
            "gate takes a whole run: evaluate the shards, `ferastrau merge` them, then gate with --current DIR",
        ));
    }
    // Refused before it runs, as its reports would be.
    if !a.run.only_mutants.is_empty() {
        return Err(usage(format!(
            "gate --only-mutants: a run of chosen mutants is {}",
            ferastrau_report::gate::run::ONLY_MUTANTS
        )));
    }
    if a.run.compare != ferastrau_protocol::Comparison::Abstract {
        return Err(usage(format!(
            "gate --compare {}: the gate and its baselines compare abstract values (leave --compare out)",
            a.run.compare
        )));
    }
    if a.code_quality.is_some() && !a.run.output.gitlab() {
        return Err(usage(
            "--code-quality FILE is where --format gitlab writes its report: add --format gitlab",
        ));
    }
    Ok(())
}

/// The crate whose reports `dir` holds (its name and directory), when `needed` (for
/// annotations, whose paths are its files): the crate that wrote them (the directory's owner
/// stamp), else the one the command line names, else the current directory's crate if the
/// reports are of its name, else the built-in benchmark of that name. Never the command
/// line's default crate as such: that is, in a checkout, `search_tree`, and annotations at
/// another crate's files point at lines that say nothing. A crate named on the command line
/// that is not the one whose reports they are is refused, needed or not: the gate would judge
/// one crate's run as another's.
fn crate_of_reports(
    dir: &std::path::Path,
    target: &Target,
    needed: bool,
) -> Result<Option<(String, std::path::PathBuf)>> {
    use ferastrau_artifacts::{Artifact, Evaluation};
    use ferastrau_harness::locate::locate_declared;
    let named = target.benchmark.is_some() || target.benchmark_path.is_some();
    if !named && !needed {
        return Ok(None);
    }
    // Reports that cannot be read are the gate's to refuse, with its message.
    let Ok(evaluation) = Evaluation::read(&dir.join("evaluation.json")) else {
        return Ok(None);
    };
    let name = evaluation.benchmark;
    let owner = ferastrau_harness::outdir::recorded_owner(dir).filter(|o| o.is_dir());
    let mismatch = |other: &str| {
        usage(format!(
            "the reports in {} are of {}, not of {other}: leave out --benchmark/--benchmark-path (gate --current takes the crate from its reports) or gate that crate's reports",
            dir.display(),
            match &owner {
                Some(o) => format!("the crate at {}", o.display()),
                None => format!("benchmark {name}"),
            }
        ))
    };
    if named {
        let owned_by = |d: &std::path::Path| {
            owner
                .as_ref()
                .and_then(|o| o.canonicalize().ok())
                .as_deref()
                == Some(d)
        };
        let bench = match (&owner, target.named().dir()) {
            (Some(_), Some(n)) if !owned_by(&n) => {
                return Err(mismatch(&format!("the crate at {}", n.display())))
            }
            (Some(_), Some(_)) if !needed => return Ok(None),
            _ => target.locate()?,
        };
        let same = match &owner {
            Some(_) => owned_by(&bench.dir),
            None => bench.name == name,
        };
        if !same {
            return Err(mismatch(&format!(
                "{} (the crate at {})",
                bench.name,
                bench.dir.display()
            )));
        }
        return Ok(Some((bench.name, bench.dir)));
    }
    if let Some(o) = owner {
        return Ok(Some((name, o)));
    }
    // No owner recorded (reports copied from elsewhere): the crate of the current directory
    // if it is the reports' one, else the built-in benchmark of their name.
    if let Some(here) = target.locate().ok().filter(|b| b.name == name) {
        return Ok(Some((here.name, here.dir)));
    }
    let bench = locate_declared(Some(&name), None).map_err(|e| {
        usage(format!(
            "cannot tell which crate the reports in {} are of (no owner recorded, and {e:#}): name it with --benchmark-path",
            dir.display()
        ))
    })?;
    Ok(Some((bench.name, bench.dir)))
}

/// `gate --suite FILE`: the suite's run against a baseline that is an earlier run's
/// `suite.json` (`ferastrau_report::gate::suite_gate`).
fn gate_suite(a: GateArgs, suite: &std::path::Path) -> Result<()> {
    let refused = [
        (a.current.is_some(), "--current"),
        (a.min_kill_rate_scope.is_some(), "--min-kill-rate-scope"),
        (a.fail_on_new_survivors, "--fail-on-new-survivors"),
        (
            a.run.output.json() || a.run.output.ci(),
            "--format json|github|gitlab",
        ),
        (a.code_quality.is_some(), "--code-quality"),
    ];
    if let Some((_, option)) = refused.iter().find(|(given, _)| *given) {
        return Err(usage(format!(
            "gate --suite takes no {option}: it runs the suite and prints a table (a suite has no scopes, and its baseline knows every mutant it ran)"
        )));
    }
    let dir = super::suite::run_suite(&a.run, suite, Show::Summary)?;
    let run = <ferastrau_harness::suite::SuiteRun as ferastrau_artifacts::Artifact>::read(
        &dir.join("suite.json"),
    )?;
    let thresholds = ferastrau_report::gate::Thresholds {
        min_kill_rate: a.min_kill_rate,
        min_kill_rate_scope: None,
        tolerance: a.tolerance,
        fail_on_new_survivors: false,
        accept_unmatched: false,
    };
    ferastrau_report::gate::suite_gate::gate(&run, &a.baseline, &thresholds, a.update_baseline)
}
