//! The worker protocol, defined once: the requests the harness sends a worker process and the
//! messages the worker sends back. Both sides use these types, so a field's type or name can
//! never differ between them (a limit sent as a float and parsed as an integer, say).
//!
//! A request travels as one JSON argument (`worker '{"original":{...}}'`). Messages travel as
//! JSON lines on a **dedicated pipe** whose descriptor the harness names in the environment
//! variable [`CHANNEL_ENV`]: the code under test shares the worker's stdout and stderr, and
//! anything it prints there is never read as protocol. Every request that completes ends with
//! [`Message::Done`]; a worker that ends without it did not finish, whatever its exit status
//! (an `exit(0)` in the code under test cannot pass for success).

pub mod cursor;
mod family;
mod limits;
mod message;
pub mod progress;
pub mod reach;
mod request;
pub mod store;

pub use family::Family;
pub use limits::{Limit, Limits, Reason};
pub use message::{
    Breach, CallOutcome, Clause, Fault, FoundCounterexample, Kill, KillRun, Message, Position,
    SearchCost, Sequence,
};
pub use request::{Comparison, DueMutant, Engine, Matching, Request, Span};

/// The environment variable holding the protocol pipe's file descriptor.
pub const CHANNEL_ENV: &str = "FERASTRAU_CHANNEL_FD";

/// The mutant id that switches every mutant off: the metamutant runs as the original.
pub const NO_MUTANT: u32 = ferastrau_probes::ORIGINAL;
