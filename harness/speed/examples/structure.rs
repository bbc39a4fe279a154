//! `cargo run --profile bench -p ferastrau-speed --example structure -- BENCH SCOPE [JOBS]`: one
//! structure-only search and nothing else, printing what it found and explored — small enough
//! to run under `valgrind --tool=callgrind` for instruction counts per candidate. With
//! `--digest`, also a digest of the valid inputs in order (a slower run, not for timing).

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let digest = args.iter().any(|a| a == "--digest");
    args.retain(|a| a != "--digest");
    let (Some(bench), Some(scope)) = (args.first(), args.get(1).and_then(|s| s.parse().ok()))
    else {
        eprintln!("usage: structure BENCH SCOPE [JOBS]   (e.g. search_tree 7)");
        std::process::exit(2);
    };
    let jobs = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let run = if digest {
        ferastrau_speed::structure_digest(bench, scope, jobs).map(|(s, d)| (s, Some(d)))
    } else {
        ferastrau_speed::structure(bench, scope, jobs).map(|s| (s, None))
    };
    let Some((st, d)) = run else {
        eprintln!("unknown benchmark {bench:?}");
        std::process::exit(2);
    };
    let d = d.map_or(String::new(), |d| format!(" digest {d:016x}"));
    println!(
        "{bench} {scope}: found {} explored {} in {:.3} s{d}",
        st.valid, st.explored, st.seconds
    );
}
