//! Korat: bounded-exhaustive generation of structurally complex inputs.
//!
//! Given a *finitization* (object pools, field domains) and a predicate written against
//! [`Candidate`] reads, [`search`] enumerates every non-isomorphic valid candidate, exploring
//! only the candidates the paper's Fig. 7 explores. Valid inputs stream out as state vectors;
//! [`Candidate::new`] turns a stored vector back into something the benchmark can decode.
//!
//! # Speed
//!
//! - **One thread, per candidate**: 90–160 ns on the paper's structures (BinomialHeap 7 to
//!   DisjSet 5, measured with `cargo bench -p ferastrau-speed` on a loaded 2-core box). A
//!   sampling profile of SearchTree 8's structure search (`perf record -e cpu-clock`, 3.6 M
//!   candidates) puts 92% of it in the predicate (`rep_ok` 41% with its breadth-first walk
//!   inlined, `num_nodes` 26%, `is_ordered` 25%) and 6% in the search itself (backtracking 4.4%,
//!   the loop 1.2%, a newly read slot's row of isomorphism-breaking maxima 0.7%, the reach walk
//!   after a valid candidate 0.1%): about 8 ns of engine per candidate. An invariant walks the
//!   whole candidate on every call, and each of its reads is a load of the slot's value plus
//!   a test of the slot's bit on the access list (both arrays indexed by slot, no hashing); so
//!   the way to fewer nanoseconds is fewer predicate calls, which the next two points give.
//! - **Arguments cost no predicate call** ([`search`]'s free product): a method's arguments that
//!   the precondition never reads are enumerated as a product after each valid structure.
//! - **Dedicated generators** ([`generators`], the paper's Sec. 5): an invariant written with
//!   these checks reads the same fields, but each read rules out the values that cannot satisfy
//!   it, so the search never assigns them: the same inputs in the same order from fewer
//!   predicate calls (SearchTree 8: 474,054 candidates instead of 3,625,977).
//! - **One structure search for several methods** ([`Transfer`]), and **all cores**
//!   ([`search_parallel`]: the space split by prefixes of the access list, with identical
//!   results in the same order).
//!
//! ```
//! use korat::{Domain, FinitizationBuilder, ROOT};
//! // A root with one nullable link to a pool of two nodes, each with an int in 0..=1.
//! let mut b = FinitizationBuilder::new("Root");
//! let node = b.class("Node", 2);
//! b.field(ROOT, "head", Domain::nullable(node));
//! b.field(node, "val", Domain::ints(0, 1));
//! let fin = b.build();
//! let head = fin.field(ROOT, "head");
//! let val = fin.field(node, "val");
//! let stats = korat::search(&fin, |c| match c.obj(head, 0) {
//!     None => true,
//!     Some(n) => c.int(val, n) >= 0,
//! }, |_| std::ops::ControlFlow::Continue(()));
//! assert_eq!(stats.valid, 3); // null, and one node holding 0 or 1
//! ```

// The library surface benchmark authors program against: every public item says what it is for.
#![warn(missing_docs)]

pub mod brute;
mod candidate;
mod finitization;
pub mod generators;
mod parts;
mod reach;
mod search;
mod transfer;
mod visited;

pub use candidate::Candidate;
pub use finitization::{
    ClassId, Domain, FieldId, Finitization, FinitizationBuilder, Part, Value, ROOT,
};
pub use parts::{search_parallel, search_structures, split, Prefix, PARTS_PER_THREAD};
pub use search::{search, search_with, Options, Stats};
pub use transfer::Transfer;
pub use visited::Visited;
