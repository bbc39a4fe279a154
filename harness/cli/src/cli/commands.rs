//! `generate`, `export-tests`, `sequences`, `mutants`, `overhead` and `init`: the smaller commands
//! around `evaluate` (`check` is in [`super::check`], `gate` in [`super::gate`]), and the
//! helpers they share with them (printing a JSON document, the sampled catalog).

use std::time::Duration;

use anyhow::{Context, Result};

use super::args::*;
use ferastrau_console::exit_code::usage;
use ferastrau_harness::evaluate::Preparation;
use ferastrau_harness::generate;
use ferastrau_harness::outdir::Scratch;
use ferastrau_harness::subject;
use ferastrau_protocol::{Message, Request};

pub(super) fn cmd_generate(a: GenerateArgs) -> Result<()> {
    let bench = a.target.locate()?;
    if !bench.engine.is_korat() && (a.structure || a.generators) {
        // Both search a finitization's candidates: a generator program has choices instead.
        return Err(usage(format!(
            "--structure and --generators search Korat's finitization: leave them out with \
             --engine {}",
            bench.engine
        )));
    }
    let worker = subject::original_worker(&bench)?;
    let progress = ferastrau_console::term::progress();
    let json = a.output.json();
    let mode = generate::Mode {
        jobs: a
            .jobs
            .map(usize::from)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        structure: a.structure,
        generators: a.generators,
    };
    let stats = generate::generate(&worker, a.scopes, a.print, mode, |s| {
        if progress {
            eprint!("\rscope {} done ({} inputs)   ", s.scope, s.inputs);
        }
        ferastrau_console::detail!(
            "scope {}: {} inputs in {:.2} s",
            s.scope,
            s.inputs,
            s.seconds
        );
        if !json && a.print > 0 {
            print!("{}", generate::render_examples(s));
        }
    })?;
    if progress {
        eprint!("\r{:40}\r", "");
    }
    if let Some(s) = stats.iter().find(|s| s.inputs == 0) {
        return Err(ferastrau_harness::evaluate::prepare::no_input(
            &bench,
            s.scope,
            s.candidates,
        ));
    }
    if json {
        ferastrau_console::term::print_json(&serde_json::to_value(generate::document(
            &bench, mode, &stats,
        ))?)?;
    } else {
        print!(
            "{}",
            generate::render_table(&bench, &stats, a.structure, a.generators)
        );
    }
    Ok(())
}

pub(super) fn cmd_export_tests(a: ExportTestsArgs) -> Result<()> {
    let bench = a.target.locate()?;
    let worker = subject::original_worker(&bench)?;
    use ferastrau_harness::export_tests::{test_file, ExportedInputs};
    let selection = match (&a.scopes, &a.reduced) {
        (Some(scopes), _) => ExportedInputs::Scopes(scopes.clone()),
        (None, Some(file)) => ExportedInputs::Reduced({
            // Not while a run holds the directory it is in (clearing it).
            let _reading = match file.parent() {
                Some(dir) => Some(ferastrau_harness::outdir::OutputDir::read(dir)?),
                None => None,
            };
            <ferastrau_artifacts::ReducedSuite as ferastrau_artifacts::Artifact>::read(file)
                .map_err(|e| usage(format!("--reduced {}: {e:#}", file.display())))?
        }),
        (None, None) => unreachable!("clap requires --scopes or --reduced"),
    };
    let text = test_file(&bench, &worker, &selection)?;
    std::fs::write(&a.out, &text)
        .map_err(|e| usage(format!("cannot write {}: {e}", a.out.display())))?;
    let tests = text.matches("#[test]").count();
    let scopes = match &selection {
        ExportedInputs::Scopes(s) => format!("at scopes {}..{}", s.start(), s.end()),
        ExportedInputs::Reduced(r) => format!(
            "(the reduced suite of scope {}, of {} inputs)",
            r.scope, r.of
        ),
    };
    println!(
        "{tests} tests of {} {scopes} in {}",
        bench.name,
        a.out.display()
    );
    Ok(())
}

pub(super) fn cmd_sequences(a: SequencesArgs) -> Result<()> {
    use ferastrau_harness::sequences::{explore, ExplorationRequest};
    let bench = a.target.locate()?;
    // The metamutant's worker, the original switched on: its probes count coverage.
    let subject = subject::prepare(&bench)?;
    let probes = subject
        .meta
        .probes
        .iter()
        .map(ferastrau_harness::evaluate::report::probe)
        .collect::<Result<Vec<_>>>()?;
    let ask = ExplorationRequest {
        length: a.length,
        scope: a.scope.unwrap_or(a.length),
        matching: a.matching,
        calls: a.export.is_some(),
    };
    let exploration = explore(
        &bench.name,
        &subject.worker,
        subject.methods.clone(),
        &probes,
        ask,
    )?;
    if let Some(file) = &a.export {
        let text = exploration.test_file(&bench)?;
        std::fs::write(file, &text)
            .map_err(|e| usage(format!("cannot write {}: {e}", file.display())))?;
        ferastrau_console::stage!(
            "Wrote",
            "{} tests of {}'s calls to {}",
            text.matches("#[test]").count(),
            bench.name,
            file.display()
        );
    }
    let report = exploration.report;
    if a.output.json() {
        ferastrau_console::term::print_json(&serde_json::to_value(&report)?)?;
    } else {
        print!("{}", ferastrau_harness::sequences::render_table(&report));
    }
    Ok(())
}

/// Prints a typed `--format json` document (its schema is committed with the artifacts').
pub(super) fn print_document(doc: &impl ferastrau_artifacts::Printed) -> Result<()> {
    println!("{}", doc.to_text()?);
    Ok(())
}

pub(super) fn cmd_mutants(a: MutantsArgs) -> Result<()> {
    if a.diff.is_some() && a.output.json() {
        return Err(usage(
            "--diff prints a unified diff, not JSON: leave out --format json",
        ));
    }
    let bench = a.target.locate()?;
    let meta = subject::metamutant(&bench)?;
    let catalog = ferastrau_harness::evaluate::sampled(&meta.catalog, a.sampling.mark());
    match a.diff.as_deref() {
        Some("all") => {
            for m in &catalog.mutants {
                print!("{}", ferastrau_mutator::diff(&bench.dir, m)?);
            }
        }
        Some(id) => {
            let id: u32 = id
                .parse()
                .map_err(|_| usage(format!("--diff takes a mutant id or `all`, not {id:?}")))?;
            let m = catalog
                .get(id)
                .ok_or_else(|| usage(format!("{} has no mutant {id}", bench.name)))?;
            print!("{}", ferastrau_mutator::diff(&bench.dir, m)?);
        }
        None if a.output.json() => println!("{}", catalog.to_json()),
        None => print!("{}", catalog.table()),
    }
    Ok(())
}

/// A preparation of scopes into `scratch` under `limits`, for `check` and `overhead`.
pub(super) fn preparation(
    scratch: &Scratch,
    limits: &OriginalLimits,
    methods: Vec<String>,
    coverage: bool,
) -> Preparation {
    Preparation {
        inputs_dir: scratch.path().join("inputs"),
        scratch_dir: scratch.path().to_path_buf(),
        coverage,
        memory_limit: Some(limits.memory_limit),
        original_timeout: limits.original_timeout,
        max_bytes: limits.max_scratch,
        scratch_bound: ferastrau_harness::evaluate::ScratchBound::Option {
            max: limits.max_scratch,
            used: 0,
        },
        methods,
        reach: false,
        // The search on every core the address-space limit leaves room for.
        jobs: ferastrau_harness::process::generation_threads(
            std::thread::available_parallelism().map_or(1, |n| n.get()),
            Some(limits.memory_limit),
        ),
    }
}

pub(super) fn cmd_overhead(a: OverheadArgs) -> Result<()> {
    if a.scope == 0 {
        return Err(usage("scope 0 is empty: scopes start at 1"));
    }
    let bench = a.target.locate()?;
    let original = subject::original_worker(&bench)?;
    let subject = subject::prepare(&bench)?;
    let scratch = Scratch::new(&bench)?;
    let limits = OriginalLimits {
        memory_limit: 1 << 30,
        original_timeout: Duration::from_secs(10),
        max_scratch: 20 << 30,
    };
    let prep = preparation(&scratch, &limits, original.methods()?, false);
    let run = prep.scope(&original, a.scope, 0)?;
    if let Some(e) = ferastrau_harness::evaluate::prepare::broken_original(&run) {
        return Err(e);
    }
    let replay = |w: &ferastrau_harness::worker::Worker| -> Result<(u64, f64)> {
        let request = Request::Replay {
            scope: a.scope,
            dir: prep.inputs_dir.clone(),
            repeat: a.repeat,
        };
        w.call(&request)?
            .into_iter()
            .find_map(|m| match m {
                Message::Replay {
                    executions,
                    seconds,
                } => Some((executions, seconds)),
                _ => None,
            })
            .context("the worker sent no timing")
    };
    let (executions, plain) = replay(&original)?;
    let (_, meta) = replay(&subject.worker)?;
    if a.output.json() {
        ferastrau_console::term::print_json(&serde_json::json!({
            "benchmark": bench.name,
            "scope": a.scope,
            "repeat": a.repeat,
            "executions": executions,
            "untouched_seconds": plain,
            "metamutant_seconds": meta,
            "ratio": meta / plain,
        }))?;
    } else {
        println!(
            "{} scope {}: {} executions; untouched crate {:.4} s, metamutant (no mutant active) {:.4} s: {:.2}x",
            bench.name,
            a.scope,
            executions,
            plain,
            meta,
            meta / plain
        );
    }
    Ok(())
}

/// The crate name `init DIR` gives without `--name`: DIR's last component (of the current
/// directory for `.`), checked like a given name by `init`.
fn default_crate_name(dir: &std::path::Path) -> Result<String> {
    let absolute = std::path::absolute(dir).with_context(|| format!("{}", dir.display()))?;
    let normal: std::path::PathBuf = absolute.components().collect();
    normal
        .file_name()
        .and_then(|n| n.to_str())
        .map(str::to_string)
        .ok_or_else(|| {
            usage(format!(
                "{} has no name to give the crate: pass --name NAME",
                dir.display()
            ))
        })
}

pub(super) fn cmd_init(a: InitArgs) -> Result<()> {
    use ferastrau_harness::init::{init, SdkSource, Style};
    let sdk = match (a.sdk_path, a.git) {
        (Some(p), _) => {
            // A relative path would be relative to the new crate in its Cargo.toml: make it
            // absolute here, where the user meant it.
            if !p.join("Cargo.toml").is_file() {
                return Err(usage(format!(
                    "--sdk-path {}: no Cargo.toml there (give the checkout's harness/sdk directory)",
                    p.display()
                )));
            }
            SdkSource::Path(
                p.canonicalize()
                    .with_context(|| format!("cannot read {}", p.display()))?,
            )
        }
        (None, Some(url)) => SdkSource::Git { url, rev: a.rev },
        (None, None) => SdkSource::this_version(),
    };
    let style = match a.style {
        InitStyle::Korat => Style::Korat,
        InitStyle::Generator => Style::Program,
    };
    let name = match a.name {
        Some(name) => name,
        None => default_crate_name(&a.dir)?,
    };
    let files = init(&a.dir, &name, &sdk, style)?;
    let dir = a.dir.display();
    println!("wrote a benchmark crate `{name}` in {dir}:");
    for f in files {
        println!("  {f}");
    }
    println!(
        "next: (cd {dir} && cargo test), then\n  ferastrau generate --benchmark-path {dir} --scopes 1..4\n  \
         ferastrau check --benchmark-path {dir} --scopes 1..4\n  \
         ferastrau evaluate --benchmark-path {dir} --scopes 1..4"
    );
    Ok(())
}
