//! Generator programs: bounded-exhaustive inputs written as code with non-deterministic choice.
//!
//! Korat asks for a finitization and a predicate; UDITA (Gligoric et al., ICSE 2010) asks for a
//! *program* that builds an input with choices — [`Gen::int`], [`Gen::bool`], object
//! [`Pool`]s with [`Gen::new_obj`] (an object not returned before) and [`Gen::any`] (any object
//! of the pool) — and filters with [`Gen::assume`]. [`explore`] runs the program once per
//! combination of choices, so that every execution that passes its assumptions is one input.
//!
//! # Delayed choice
//!
//! In [`Mode::Delayed`] (UDITA's Sec. 4) a choice is made where its value is first *read*
//! ([`Gen::get`], [`Gen::obj`]), not where it is asked for: a program that asks for every value
//! first and then checks them in order prunes after each read instead of after the last one.
//! Object pools are delayed too: a symbolic object is made equal to an earlier one or a new one
//! only when read, under the constraints its [`Gen::new_obj`]/[`Gen::any`] history imposes (a
//! `new` object differs from everything returned before it), and a choice is offered only when
//! the pool still has room for every object the constraints need (the pool's minimal model, `gen/pool.rs`).
//! Objects are numbered in the order they are first read, so structures built through pools
//! come out once per isomorphism class, as in Korat. [`Mode::Eager`] chooses every value where
//! it is asked for (UDITA's baseline, its Fig. 10 for pools): the same inputs, more executions.
//!
//! # Failures of the program itself
//!
//! A panic in the program, or a path that makes more than [`Limits::steps`] calls of the
//! [`Gen`] (a generation loop that does not end), stops the exploration with a
//! [`ProgramError`] naming the choice sequence that leads there; [`replay`] runs that one path
//! again. (A loop that never calls the `Gen` cannot be stopped from inside the process; run
//! such programs under the harness's process limits.)
//!
//! ```
//! use korat_choice::{explore, Mode, Limits};
//! // Sorted 4-tuples over 0..=1: delayed choice prunes after each read.
//! let program = |g: &mut korat_choice::Gen| {
//!     let xs: Vec<_> = (0..4).map(|_| g.int(0..=1)).collect::<Result<_, _>>()?;
//!     for w in xs.windows(2) {
//!         let (a, b) = (g.get(w[0]), g.get(w[1]));
//!         g.assume(a <= b)?;
//!     }
//!     Ok(xs.iter().map(|&x| g.get(x)).collect::<Vec<_>>())
//! };
//! let delayed = explore(Mode::Delayed, Limits::default(), program, |_, _| {}).unwrap();
//! let eager = explore(Mode::Eager, Limits::default(), program, |_, _| {}).unwrap();
//! assert_eq!((delayed.structures, eager.structures), (5, 5));
//! assert_eq!((delayed.explored, eager.explored), (11, 16));
//! ```

#![warn(missing_docs)]

mod explore;
mod gen;
mod trail;

pub use explore::{explore, replay, run_with, Limits, ProgramError, Stats};
pub use gen::{Bool, Gen, Int, Mode, Obj, Pool, Pruned};
