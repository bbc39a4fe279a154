//! `cargo run --release -p ferastrau-speed --example structure -- BENCH SCOPE [JOBS]`: one
//! structure-only search and nothing else, printing what it found and explored — small enough
//! to run under `valgrind --tool=callgrind` for instruction counts per candidate.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(bench), Some(scope)) = (args.first(), args.get(1).and_then(|s| s.parse().ok()))
    else {
        eprintln!("usage: structure BENCH SCOPE [JOBS]   (e.g. search_tree 7)");
        std::process::exit(2);
    };
    let jobs = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let Some(st) = ferastrau_speed::structure(bench, scope, jobs) else {
        eprintln!("unknown benchmark {bench:?}");
        std::process::exit(2);
    };
    println!(
        "{bench} {scope}: found {} explored {} in {:.3} s",
        st.valid, st.explored, st.seconds
    );
}
