//! The process-wide progress counters (`korat::progress`) climb while a search runs and hold
//! its figures once it ends, on one thread and on several. One test in its own binary: the
//! counters are the process's, and another test searching at the same time would move them.

use std::cell::Cell;
use std::ops::ControlFlow;

use korat::{Candidate, Domain, FinitizationBuilder, ROOT};

#[test]
fn the_counters_move_during_a_search_and_end_at_its_figures() {
    // Sorted lists of up to 8 nodes with values in 0..8: tens of thousands of candidates.
    let n = 8;
    let mut b = FinitizationBuilder::new("List");
    let node = b.class("Node", n);
    b.field(ROOT, "head", Domain::nullable(node));
    b.field(node, "next", Domain::nullable(node));
    b.field(node, "value", Domain::ints(0, i64::from(n) - 1));
    let fin = b.build();
    let (head, next, value) = (
        fin.field(ROOT, "head"),
        fin.field(node, "next"),
        fin.field(node, "value"),
    );
    let sorted = |c: &mut Candidate<'_>| {
        let mut seen = Vec::new();
        let mut at = c.obj(head, 0);
        let mut last = i64::MIN;
        while let Some(i) = at {
            if seen.contains(&i) {
                return false;
            }
            seen.push(i);
            let v = c.int(value, i);
            if v < last {
                return false;
            }
            last = v;
            at = c.obj(next, i);
        }
        true
    };

    let before = korat::progress::counts();
    // The most the counters said while the search ran, read from its own callback.
    let seen_during = Cell::new(0u64);
    let stats = korat::search(&fin, sorted, |_| {
        seen_during.set(korat::progress::counts().explored - before.explored);
        ControlFlow::Continue(())
    });
    assert!(
        stats.explored > 4 * 4096,
        "too small to publish during the search: {}",
        stats.explored
    );
    assert!(
        seen_during.get() >= 4096 && seen_during.get() < stats.explored,
        "{} of {} candidates seen during the search",
        seen_during.get(),
        stats.explored
    );
    let after = korat::progress::counts();
    assert_eq!(after.explored - before.explored, stats.explored);
    assert_eq!(after.valid - before.valid, stats.valid);

    // On several threads, every part's counts arrive.
    let (par, _) = korat::search_parallel(
        &fin,
        korat::SearchSwitches::default(),
        3,
        sorted,
        || (),
        |_, _| ControlFlow::Continue(()),
    );
    let end = korat::progress::counts();
    assert_eq!(end.explored - after.explored, par.explored);
    assert_eq!(end.valid - after.valid, par.valid);
    assert_eq!((par.valid, par.explored), (stats.valid, stats.explored));
}
