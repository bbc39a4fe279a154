//! `generate`, `export-tests`, `sequences`, `mutants`, `overhead` and `init`: the smaller commands
//! around `evaluate` (`check` and `gate` have files of their own). Each makes its command line
//! into the harness's options, calls the command's `run` and prints what comes back.

use anyhow::Result;

use super::args::*;
use ferastrau_harness::evaluate::overhead;
use ferastrau_harness::export_tests;
use ferastrau_harness::generate;
use ferastrau_harness::init;
use ferastrau_harness::mutants;
use ferastrau_harness::sequences;

pub(super) fn cmd_generate(a: GenerateArgs) -> Result<()> {
    let progress = ferastrau_console::term::progress();
    let json = a.output.json();
    let options = generate::Options {
        target: a.target.named(),
        scopes: a.scopes,
        print: a.print,
        structure: a.structure,
        generators: a.generators,
        jobs: a.jobs.map(usize::from),
    };
    let outcome = generate::run(&options, |s| {
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
    });
    if progress {
        eprint!("\r{:40}\r", "");
    }
    let outcome = outcome?;
    if json {
        ferastrau_console::term::print_json(&serde_json::to_value(outcome.document())?)?;
    } else {
        print!("{}", outcome.table());
    }
    Ok(())
}

pub(super) fn cmd_export_tests(a: ExportTestsArgs) -> Result<()> {
    use export_tests::{Asked, ExportedInputs};
    let inputs = match (a.scopes, a.reduced) {
        (Some(scopes), _) => Asked::Scopes(scopes),
        (None, Some(file)) => Asked::Reduced(file),
        (None, None) => unreachable!("clap requires --scopes or --reduced"),
    };
    let outcome = export_tests::run(&export_tests::Options {
        target: a.target.named(),
        inputs,
        out: a.out,
    })?;
    let scopes = match &outcome.inputs {
        ExportedInputs::Scopes(s) => format!("at scopes {}..{}", s.start(), s.end()),
        ExportedInputs::Reduced(r) => format!(
            "(the reduced suite of scope {}, of {} inputs)",
            r.scope, r.of
        ),
    };
    println!(
        "{} tests of {} {scopes} in {}",
        outcome.tests,
        outcome.benchmark,
        outcome.out.display()
    );
    Ok(())
}

pub(super) fn cmd_sequences(a: SequencesArgs) -> Result<()> {
    let report = sequences::run(&sequences::Options {
        target: a.target.named(),
        length: a.length,
        scope: a.scope,
        matching: a.matching,
        export: a.export,
    })?;
    if a.output.json() {
        ferastrau_console::term::print_json(&serde_json::to_value(&report)?)?;
    } else {
        print!("{}", sequences::render_table(&report));
    }
    Ok(())
}

pub(super) fn cmd_mutants(a: MutantsArgs) -> Result<()> {
    let options = mutants::Options {
        target: a.target.named(),
        diff: a.diff,
        json: a.output.json(),
        sample: a.sampling.mark(),
    };
    match mutants::run(&options)? {
        mutants::Outcome::Diffs(text) => print!("{text}"),
        mutants::Outcome::Catalog(catalog) if options.json => println!("{}", catalog.to_json()),
        mutants::Outcome::Catalog(catalog) => print!("{}", catalog.table()),
    }
    Ok(())
}

pub(super) fn cmd_overhead(a: OverheadArgs) -> Result<()> {
    let o = overhead::run(&overhead::Options {
        target: a.target.named(),
        scope: a.scope,
        repeat: a.repeat,
    })?;
    if a.output.json() {
        ferastrau_console::term::print_json(&serde_json::to_value(&o)?)?;
    } else {
        println!(
            "{} scope {}: {} executions; untouched crate {:.4} s, metamutant (no mutant active) {:.4} s: {:.2}x",
            o.benchmark,
            o.scope,
            o.executions,
            o.untouched_seconds,
            o.metamutant_seconds,
            o.ratio
        );
    }
    Ok(())
}

pub(super) fn cmd_init(a: InitArgs) -> Result<()> {
    let sdk = match (a.sdk_path, a.git) {
        (Some(p), _) => init::SdkSource::Path(p),
        (None, Some(url)) => init::SdkSource::Git { url, rev: a.rev },
        (None, None) => init::SdkSource::this_version(),
    };
    let style = match a.style {
        InitStyle::Korat => init::Style::Korat,
        InitStyle::Generator => init::Style::Program,
    };
    let outcome = init::run(&init::Options {
        dir: a.dir.clone(),
        name: a.name,
        style,
        sdk,
    })?;
    let dir = a.dir.display();
    println!("wrote a benchmark crate `{}` in {dir}:", outcome.name);
    for f in outcome.files {
        println!("  {f}");
    }
    println!(
        "next: (cd {dir} && cargo test), then\n  ferastrau generate --benchmark-path {dir} --scopes 1..4\n  \
         ferastrau check --benchmark-path {dir} --scopes 1..4\n  \
         ferastrau evaluate --benchmark-path {dir} --scopes 1..4"
    );
    Ok(())
}
