//! A sum by recursion, `Countdown::total`, whose mutants include recursions without end
//! (`n - 1` becoming `n + 1`, `n * 1`, ...): each reaches its tick budget some 10,000 frames
//! deep on every input, and every frame holds a little heap memory. It is the fixture for
//! stopping such calls without unwinding them (the worker abandons them, leaking what their
//! frames hold) and for replacing a worker whose abandoned calls have leaked enough, before
//! the memory limit would blame a later input.

use ferastrau_sdk::korat::{Candidate, Domain, FieldId, Finitization, FinitizationBuilder, ROOT};
use ferastrau_sdk::Benchmark;

/// Inputs per scope: `from` runs over `0..=INPUTS_PER_SCOPE × scope`.
const INPUTS_PER_SCOPE: i64 = 20;

#[derive(Clone, Debug)]
pub struct Countdown {
    pub from: i64,
}

impl Countdown {
    /// `n + (n - 1) + … + 1`, by recursion; each frame keeps 8 KiB on the heap.
    pub fn total(&self, n: i64) -> i64 {
        let frame = std::hint::black_box(vec![n; 1024]);
        if n <= 0 {
            return 0;
        }
        frame[0] + self.total(n - 1)
    }
}

/// The invariant: a count that does not start below zero.
pub fn rep_ok(from: i64) -> bool {
    from >= 0
}

pub struct Deep;

pub struct Fields {
    from: FieldId,
}

impl Benchmark for Deep {
    type Fields = Fields;
    type Input = Countdown;
    type Ret = i64;
    type Abstraction = i64;

    fn methods(&self) -> &'static [&'static str] {
        &["total"]
    }
    fn finitize(&self, _m: usize, scope: u32) -> (Finitization, Fields) {
        let mut b = FinitizationBuilder::new("Countdown");
        b.field(
            ROOT,
            "from",
            Domain::ints(0, INPUTS_PER_SCOPE * i64::from(scope)),
        );
        let fin = b.build();
        let from = fin.field(ROOT, "from");
        (fin, Fields { from })
    }
    fn precondition(&self, _m: usize, f: &Fields, c: &mut Candidate<'_>) -> bool {
        rep_ok(c.int(f.from, 0))
    }
    fn decode(&self, _m: usize, f: &Fields, c: &mut Candidate<'_>) -> Countdown {
        Countdown {
            from: c.int(f.from, 0),
        }
    }
    fn run(&self, _m: usize, input: &mut Countdown) -> i64 {
        input.total(input.from)
    }
    fn invariant(&self, input: &Countdown) -> bool {
        rep_ok(input.from)
    }
    fn abstraction(&self, input: &Countdown) -> i64 {
        input.from
    }
    fn postcondition(
        &self,
        _m: usize,
        pre: &Countdown,
        _post: &Countdown,
        ret: &i64,
    ) -> Result<(), String> {
        let n = pre.from;
        if *ret == n * (n + 1) / 2 {
            Ok(())
        } else {
            Err(format!("expected {}", n * (n + 1) / 2))
        }
    }
    fn render(&self, _m: usize, input: &Countdown) -> String {
        format!("total({})", input.from)
    }
}

ferastrau_sdk::export!(Deep);
