//! Korat: bounded-exhaustive generation of structurally complex inputs.
//!
//! Given a *finitization* (object pools, field domains) and a predicate written against
//! [`Candidate`] reads, [`search`] enumerates every non-isomorphic valid candidate, exploring
//! only the candidates the paper's Fig. 7 explores. Valid inputs stream out as state vectors;
//! [`Candidate::new`] turns a stored vector back into something the benchmark can decode.
//!
//! # Speed
//!
//! - **One thread, per candidate**: SearchTree 8's structure search (3.6 M candidates) takes
//!   0.23 s, about 64 ns a candidate, and HeapArray 8's (5.2 M) 0.22 s, about 42 ns (best of 5
//!   of `examples/structure` in `harness/speed`, on a 2-core box at load average 8.7). In
//!   instructions (callgrind, deterministic): about 1,130 a candidate for SearchTree 7, 760
//!   for HeapArray 7, 510 for BinomialHeap 7, predicate included. The predicate is most of it:
//!   for SearchTree the engine (backtracking, the loop, listing a newly read slot) is under
//!   10%, and the rest is the invariant's own code, its reads and its visited set. A read of
//!   a slot already on the access list — nearly every read — is one bounds-checked load of
//!   the slot's 8-byte cell and one comparison of its tag, which holds both the kind of value
//!   and the listed bit; first reads go out of line. After a valid candidate the reach walk
//!   runs only when what it depends on changed, else its last result is replayed. So the way
//!   to fewer nanoseconds is fewer predicate calls, which the next two points give.
//! - **Arguments cost no predicate call** ([`search`]'s free product): a method's arguments that
//!   the precondition never reads are enumerated as a product after each valid structure, or
//!   only counted ([`count_parallel`], [`Transfer::count`]) when nobody needs the inputs.
//! - **Dedicated generators** ([`dedicated`], the paper's Sec. 5): an invariant written with
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
pub mod dedicated;
mod finitization;
mod parts;
pub mod progress;
mod search;
mod transfer;
mod unread;
pub mod view;
mod visited;

pub use candidate::Candidate;
pub use finitization::{
    ClassId, Domain, FieldId, Finitization, FinitizationBuilder, Part, Value, ROOT,
};
pub use parts::{
    count_parallel, search_parallel, search_structures, split, Prefix, PARTS_PER_THREAD,
};
pub use search::{search, search_with, Product, SearchSwitches, Stats};
pub use transfer::Transfer;
pub use visited::Visited;
