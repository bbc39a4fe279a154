//! Prints, per scope, the structures and the inputs of each target method with the candidates
//! Korat explored and the time: `cargo run --release -p tree_map --example counts [max_scope]`.

use ferastrau_sdk::korat::view::View;
use std::ops::ControlFlow;

use ferastrau_sdk::korat;
use ferastrau_sdk::testing;
use tree_map::invariant::rep_ok;
use tree_map::space::finitization;
use tree_map::TreeMapBench;

fn main() {
    let max: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(7);
    println!("scope structures explored | put explored | remove explored | inputs seconds");
    for n in 1..=max {
        let (fin, f) = finitization("TreeMap", n, false);
        let s = korat::search(
            &fin,
            |c| rep_ok(&mut View::new(c, &f)),
            |_| ControlFlow::Continue(()),
        );
        let mut line = format!("{n} {} {}", s.valid, s.explored);
        let (mut total, mut secs) = (0, 0.0);
        for m in 0..2 {
            let st = testing::search_method(&TreeMapBench, m, n);
            line += &format!(" | {} {}", st.valid, st.explored);
            total += st.valid;
            secs += st.seconds;
        }
        println!("{line} | {total} {secs:.3}");
    }
}
