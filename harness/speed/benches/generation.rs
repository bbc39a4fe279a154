//! `cargo bench -p ferastrau-speed [-- FILTER]`: Korat's generation speed per structure and
//! scope, structure-only and whole-scope (every method), on one thread and on all threads.
//!
//! Prints first what each case finds and explores (one run each, so the timing table below is
//! about the same work) and, per benchmark, `generate`'s time against the sum of its methods'
//! structure-only searches (best of 3, one thread; issue 13 asks for a ratio ≤ 1.5), then
//! divan's timings (5 samples of one run; read the `fastest`
//! column as best-of-5).

use ferastrau_sdk::korat;
use ferastrau_speed::{korat1, GENERATIONS, STRUCTURES};

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |name: &str| {
        filter.is_empty()
            || filter
                .iter()
                .any(|f| name.replace(' ', "_").contains(f.as_str()) || name.contains(f.as_str()))
    };
    println!(
        "{:<22} {:>10} {:>12} {:>14}  korat 1.0 (whole, warm) [s]",
        "structure", "found", "explored", "cand./s (1 thr)"
    );
    for s in STRUCTURES.iter().filter(|s| wanted(s.name)) {
        let st = (s.run)(1);
        let k = korat1(s.name).map_or(String::new(), |(w, j)| format!("{w} {j}"));
        println!(
            "{:<22} {:>10} {:>12} {:>14.0}  {k}",
            s.name,
            st.valid,
            st.explored,
            st.explored as f64 / st.seconds
        );
    }
    // `generate` against the sum of its methods' structure-only searches (`generate
    // --structure`): what the arguments and the other methods add to the receiver's search.
    println!(
        "{:<22} {:>10} {:>12} {:>14} {:>14} {:>7}",
        "generation", "inputs", "candidates", "seconds", "structure [s]", "ratio"
    );
    let seconds = |st: &[korat::Stats]| st.iter().map(|s| s.seconds).sum::<f64>();
    for g in GENERATIONS.iter().filter(|g| wanted(g.name)) {
        // Best of 3 of each, one thread.
        let runs: Vec<_> = (0..3).map(|_| (g.run)(1, false)).collect();
        let st = &runs[0];
        let secs = runs.iter().map(|r| seconds(r)).fold(f64::MAX, f64::min);
        let structure = (0..3)
            .map(|_| seconds(&(g.run)(1, true)))
            .fold(f64::MAX, f64::min);
        let inputs: u64 = st.iter().map(|s| s.valid).sum();
        let explored: u64 = st.iter().map(|s| s.explored).sum();
        println!(
            "{:<22} {:>10} {:>12} {:>14.4} {:>14.4} {:>7.2}",
            g.name,
            inputs,
            explored,
            secs,
            structure,
            secs / structure
        );
    }
    println!("threads available: {}", threads());
    divan::main();
}

fn structure_names() -> Vec<&'static str> {
    STRUCTURES.iter().map(|s| s.name).collect()
}

fn generation_names() -> Vec<&'static str> {
    GENERATIONS.iter().map(|g| g.name).collect()
}

/// Structure-only search; `JOBS` 0 is every available thread.
#[divan::bench(args = structure_names(), consts = [1, 0], sample_count = 5, sample_size = 1)]
fn structure<const JOBS: usize>(name: &str) -> u64 {
    let s = STRUCTURES.iter().find(|s| s.name == name).expect("listed");
    let jobs = if JOBS == 0 { threads() } else { JOBS };
    (s.run)(jobs).explored
}

/// Every method of a benchmark at one scope; `JOBS` 0 is every available thread.
#[divan::bench(args = generation_names(), consts = [1, 0], sample_count = 5, sample_size = 1)]
fn generate<const JOBS: usize>(name: &str) -> u64 {
    let g = GENERATIONS.iter().find(|g| g.name == name).expect("listed");
    let jobs = if JOBS == 0 { threads() } else { JOBS };
    (g.run)(jobs, false).iter().map(|s| s.explored).sum()
}
