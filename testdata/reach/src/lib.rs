//! A fixture for reach selection. `Gauge::set(x)` on a gauge with scale `top` (the scope):
//! Korat enumerates `x` from 0 to `top`, so the branch `x == top` is reached by the last input
//! only, and the branch `x > top` by no input. The mutants inside the first branch can be
//! killed only by the last input; those inside the second survive every scope without running.
//! `Gauge::reading` runs only while the post-state is judged (the abstraction calls it), after
//! `set` returned: every input reaches it all the same.

use ferastrau_sdk::korat::{
    Candidate, Domain, FieldId, Finitization, FinitizationBuilder, ROOT,
};
use ferastrau_sdk::Benchmark;

#[derive(Clone, Debug)]
pub struct Gauge {
    pub level: i64,
    pub top: i64,
}

impl Gauge {
    /// Sets the level to `x`, counting a full scale as one more; returns the level.
    pub fn set(&mut self, x: i64) -> i64 {
        self.level = x;
        if x == self.top {
            self.level = self.level + 1;
        }
        if x > self.top {
            self.level = self.level * 3;
        }
        self.level
    }

    /// The level in tenths: only the abstraction calls it, while the post-state is judged.
    pub fn reading(&self) -> i64 {
        self.level * 10
    }
}

/// The level is within the scale (one more at full scale).
pub fn rep_ok(level: i64, top: i64) -> bool {
    level >= 0 && level <= top + 1
}

pub struct Reach;

pub struct Fields {
    x: FieldId,
    top: i64,
}

impl Benchmark for Reach {
    type Fields = Fields;
    type Input = (Gauge, i64);
    type Ret = i64;
    type Abstraction = i64;

    fn methods(&self) -> &'static [&'static str] {
        &["set"]
    }
    fn finitize(&self, _m: usize, scope: u32) -> (Finitization, Fields) {
        let top = i64::from(scope);
        let mut b = FinitizationBuilder::new("Gauge_set");
        b.field(ROOT, "x", Domain::ints(0, top));
        let fin = b.build();
        let x = fin.field(ROOT, "x");
        (fin, Fields { x, top })
    }
    fn precondition(&self, _m: usize, f: &Fields, c: &mut Candidate<'_>) -> bool {
        rep_ok(0, f.top) && c.int(f.x, 0) >= 0
    }
    fn decode(&self, _m: usize, f: &Fields, c: &mut Candidate<'_>) -> (Gauge, i64) {
        let x = c.int(f.x, 0);
        (Gauge { level: 0, top: f.top }, x)
    }
    fn run(&self, _m: usize, input: &mut (Gauge, i64)) -> i64 {
        input.0.set(input.1)
    }
    fn invariant(&self, input: &(Gauge, i64)) -> bool {
        rep_ok(input.0.level, input.0.top)
    }
    fn abstraction(&self, input: &(Gauge, i64)) -> i64 {
        input.0.reading()
    }
    fn postcondition(
        &self,
        _m: usize,
        pre: &(Gauge, i64),
        post: &(Gauge, i64),
        ret: &i64,
    ) -> Result<(), String> {
        let want = pre.1 + i64::from(pre.1 == pre.0.top);
        if post.0.level == want && *ret == want {
            Ok(())
        } else {
            Err(format!("expected level {want}"))
        }
    }
    fn render(&self, _m: usize, input: &(Gauge, i64)) -> String {
        format!("set({}) on top {}", input.1, input.0.top)
    }
}

ferastrau_sdk::export!(Reach);
