//! The choice trail: which alternative each choice point of the current execution takes, and
//! how the next execution differs (depth-first, the last choice point with an alternative left
//! moves on and everything after it is made afresh).
//!
//! Executions are re-run from the start rather than restored from a snapshot: a generator
//! program is ordinary Rust code whose state the engine cannot copy, and re-running costs one
//! execution of the program per path, which is what a path costs anyway.

/// One choice point of an execution: the alternative taken and how many there were.
#[derive(Clone, Copy, Debug)]
struct Point {
    taken: u32,
    count: u32,
}

/// Where the choices come from: the trail's own depth-first order, or a caller
/// ([`crate::run_with`]) that answers each choice point (and may refuse it).
pub(crate) type External<'a> = &'a mut dyn FnMut(u32) -> Option<u32>;

/// Raised (by unwinding, without the panic hook) when an external chooser refuses a choice
/// point: the execution ends without an input.
pub(crate) struct Refused;

#[derive(Default)]
pub(crate) struct Trail<'a> {
    points: Vec<Point>,
    /// The next choice point of the current execution.
    at: usize,
    /// Choices forced from outside ([`crate::replay`]).
    fixed: bool,
    /// The first choice point that does not fit: in a replay, past the given sequence's end or
    /// an alternative the point does not have (the sequence is not a path of this program); in
    /// an exploration, a point whose number of alternatives changed when its path was re-run.
    pub(crate) misfit: Option<usize>,
    external: Option<External<'a>>,
}

impl<'a> Trail<'a> {
    pub(crate) fn external(choose: External<'a>) -> Trail<'a> {
        Trail {
            external: Some(choose),
            ..Trail::default()
        }
    }

    pub(crate) fn fixed(choices: &[u32]) -> Trail<'a> {
        let points = choices
            .iter()
            .map(|&taken| Point {
                taken,
                count: taken + 1,
            })
            .collect();
        Trail {
            points,
            fixed: true,
            ..Trail::default()
        }
    }

    /// A choice among `count` alternatives (`count` ≥ 1): the one this execution takes.
    pub(crate) fn choose(&mut self, count: u32) -> u32 {
        debug_assert!(count > 0);
        let at = self.at;
        self.at += 1;
        if let Some(choose) = self.external.as_mut() {
            let taken = match choose(count) {
                Some(t) if t < count => t,
                _ => {
                    self.at -= 1; // the path ends before this point
                    std::panic::resume_unwind(Box::new(Refused))
                }
            };
            self.points.push(Point { taken, count });
            return taken;
        }
        match self.points.get_mut(at) {
            Some(p) if self.fixed => {
                p.count = count;
                if p.taken >= count {
                    self.misfit.get_or_insert(at);
                    p.taken = 0;
                }
                p.taken
            }
            Some(p) => {
                // Re-running a path asks the same questions, unless the program is not a
                // function of its choices (a clock, a random number, state kept across runs).
                if p.count != count {
                    self.misfit.get_or_insert(at);
                    p.count = count;
                    p.taken = p.taken.min(count - 1);
                }
                p.taken
            }
            None => {
                if self.fixed {
                    self.misfit.get_or_insert(at);
                }
                self.points.push(Point { taken: 0, count });
                0
            }
        }
    }

    /// The choices this execution has taken so far.
    pub(crate) fn taken(&self) -> Vec<u32> {
        self.points[..self.at].iter().map(|p| p.taken).collect()
    }

    /// Moves to the next execution; false when every execution has been made.
    pub(crate) fn advance(&mut self) -> bool {
        // Choice points past `at` belong to an earlier, longer execution: not this path's.
        self.points.truncate(self.at);
        self.at = 0;
        while let Some(last) = self.points.last_mut() {
            if last.taken + 1 < last.count {
                last.taken += 1;
                return true;
            }
            self.points.pop();
        }
        false
    }
}
