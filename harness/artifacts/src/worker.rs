//! Conversions from and to the worker protocol's types (`ferastrau_worker::protocol`), which
//! the harness computes with: the same values under the same names, without schemars in the
//! worker crate. Only with the `worker` feature.

use ferastrau_worker::protocol as p;

use crate::common::{Clause, Limit, Limits, Reason};

impl From<p::Reason> for Reason {
    fn from(r: p::Reason) -> Reason {
        match r {
            p::Reason::Invariant => Reason::Invariant,
            p::Reason::Output => Reason::Output,
            p::Reason::Timeout => Reason::Timeout,
            p::Reason::Memory => Reason::Memory,
            p::Reason::Crash => Reason::Crash,
        }
    }
}

impl From<Reason> for p::Reason {
    fn from(r: Reason) -> p::Reason {
        match r {
            Reason::Invariant => p::Reason::Invariant,
            Reason::Output => p::Reason::Output,
            Reason::Timeout => p::Reason::Timeout,
            Reason::Memory => p::Reason::Memory,
            Reason::Crash => p::Reason::Crash,
        }
    }
}

impl From<p::Clause> for Clause {
    fn from(c: p::Clause) -> Clause {
        match c {
            p::Clause::Postcondition => Clause::Postcondition,
            p::Clause::Invariant => Clause::Invariant,
        }
    }
}

impl From<p::Limit> for Limit {
    fn from(l: p::Limit) -> Limit {
        match l {
            p::Limit::Ticks => Limit::Ticks,
            p::Limit::Clock => Limit::Clock,
            p::Limit::Guard => Limit::Guard,
        }
    }
}

impl From<Limit> for p::Limit {
    fn from(l: Limit) -> p::Limit {
        match l {
            Limit::Ticks => p::Limit::Ticks,
            Limit::Clock => p::Limit::Clock,
            Limit::Guard => p::Limit::Guard,
        }
    }
}

impl From<p::Limits> for Limits {
    fn from(l: p::Limits) -> Limits {
        Limits {
            tick_factor: l.tick_factor,
            tick_floor: l.tick_floor,
            timeout_factor: l.timeout_factor,
            timeout_floor: l.timeout_floor,
        }
    }
}

impl From<Limits> for p::Limits {
    fn from(l: Limits) -> p::Limits {
        p::Limits {
            tick_factor: l.tick_factor,
            tick_floor: l.tick_floor,
            timeout_factor: l.timeout_factor,
            timeout_floor: l.timeout_floor,
        }
    }
}
