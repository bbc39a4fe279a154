//! Counts only: the structures and each method's inputs at one scope, with the candidates
//! Korat explored and the seconds it took. `cargo run --release -p binomial_heap --example
//! binomial_counts -- 7`.

use ferastrau_sdk::korat::view::View;
use std::ops::ControlFlow;

use binomial_heap::invariant::rep_ok;
use binomial_heap::{BinomialHeap, BinomialHeapBench};
use ferastrau_sdk::korat;
use ferastrau_sdk::testing;
use ferastrau_sdk::Benchmark;

fn main() {
    let n: u32 = match std::env::args().nth(1).map(|s| s.parse()) {
        Some(Ok(n)) => n,
        _ => {
            eprintln!("usage: binomial_counts SCOPE");
            std::process::exit(2);
        }
    };
    let (fin, f) = BinomialHeap::finitization("BinomialHeap", n, &[]);
    let s = korat::search(
        &fin,
        |c| rep_ok(&mut View::new(c, &f)),
        |_| ControlFlow::Continue(()),
    );
    println!(
        "scope {n}: {} structures, {} candidates, {:.2} s",
        s.valid, s.explored, s.seconds
    );
    let (mut inputs, mut explored, mut seconds) = (0, 0, 0.0);
    for (m, name) in BinomialHeapBench.methods().iter().enumerate() {
        let s = testing::search_method(&BinomialHeapBench, m, n);
        println!(
            "  {name}: {} inputs, {} candidates, {:.2} s",
            s.valid, s.explored, s.seconds
        );
        inputs += s.valid;
        explored += s.explored;
        seconds += s.seconds;
    }
    println!("  total: {inputs} inputs, {explored} candidates, {seconds:.2} s");
}
