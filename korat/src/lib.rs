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
//!   DisjSet 5, measured with `cargo bench -p ferastrau-speed` on a loaded 2-core box). Most of
//!   it is the predicate itself: an invariant walks the whole candidate on every call (a
//!   breadth-first walk, a count, an order check), and each read is a table load plus a check of
//!   the access list's membership bit; the search's own work per candidate is one backtracking
//!   step (an increment, or a pop and a reset) and, for a slot newly read, one row of the
//!   isomorphism-breaking maxima.
//! - **Arguments cost no predicate call** ([`search`]'s free product): a method's arguments that
//!   the precondition never reads are enumerated as a product after each valid structure.
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
