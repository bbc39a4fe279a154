//! A fixture for `--compare structural`. `Bag::add(x)` on a bag of one value `v`: a new value
//! below the first goes in front, any other at the back. The abstraction is the set of values
//! (sorted), the structure the order they are kept in. So the mutant `x < first` → `x > first`
//! leaves the same set in the other order: no abstract comparison can kill it, a structural one
//! does. The bag is a `Vec`, not an arena: the engine must not assume arenas.

use ferastrau_sdk::korat::{Candidate, Domain, FieldId, Finitization, FinitizationBuilder, ROOT};
use ferastrau_sdk::Benchmark;

/// Distinct values, in the order `add` put them.
#[derive(Clone, Debug)]
pub struct Bag {
    pub items: Vec<i64>,
}

impl Bag {
    /// Adds `x` if absent (in front if below the first value, else at the back); returns
    /// whether it was absent.
    pub fn add(&mut self, x: i64) -> bool {
        if self.items.contains(&x) {
            return false;
        }
        if x < self.items[0] {
            self.items.insert(0, x);
        } else {
            self.items.push(x);
        }
        true
    }
}

/// No value twice, and never empty (a bag always holds its first value).
pub fn rep_ok(items: &[i64]) -> bool {
    !items.is_empty() && (1..items.len()).all(|i| !items[..i].contains(&items[i]))
}

pub struct Shapes;

pub struct Fields {
    v: FieldId,
    x: FieldId,
}

impl Benchmark for Shapes {
    type Fields = Fields;
    type Input = (Bag, i64);
    type Ret = bool;
    type Abstraction = Vec<i64>;

    fn methods(&self) -> &'static [&'static str] {
        &["add"]
    }
    fn finitize(&self, _m: usize, scope: u32) -> (Finitization, Fields) {
        let n = i64::from(scope);
        let mut b = FinitizationBuilder::new("Bag_add");
        b.field(ROOT, "v", Domain::ints(0, n));
        b.field(ROOT, "x", Domain::ints(0, n));
        let fin = b.build();
        let (v, x) = (fin.field(ROOT, "v"), fin.field(ROOT, "x"));
        (fin, Fields { v, x })
    }
    fn precondition(&self, _m: usize, f: &Fields, c: &mut Candidate<'_>) -> bool {
        rep_ok(&[c.int(f.v, 0)]) && c.int(f.x, 0) >= 0
    }
    fn decode(&self, _m: usize, f: &Fields, c: &mut Candidate<'_>) -> (Bag, i64) {
        let items = vec![c.int(f.v, 0)];
        (Bag { items }, c.int(f.x, 0))
    }
    fn run(&self, _m: usize, input: &mut (Bag, i64)) -> bool {
        input.0.add(input.1)
    }
    fn invariant(&self, input: &(Bag, i64)) -> bool {
        rep_ok(&input.0.items)
    }
    fn abstraction(&self, input: &(Bag, i64)) -> Vec<i64> {
        let mut v = input.0.items.clone();
        v.sort_unstable();
        v
    }
    const STRUCTURE: bool = true;
    fn structure(&self, input: &(Bag, i64)) -> String {
        format!("{:?}", input.0.items)
    }
    fn postcondition(
        &self,
        _m: usize,
        pre: &(Bag, i64),
        post: &(Bag, i64),
        ret: &bool,
    ) -> Result<(), String> {
        let mut want = self.abstraction(pre);
        let absent = !want.contains(&pre.1);
        if absent {
            want.push(pre.1);
            want.sort_unstable();
        }
        if self.abstraction(post) == want && *ret == absent {
            Ok(())
        } else {
            Err(format!("expected {want:?} and {absent}"))
        }
    }
    fn render(&self, _m: usize, input: &(Bag, i64)) -> String {
        format!("add({}) on {:?}", input.1, input.0.items)
    }
}

ferastrau_sdk::export!(Shapes);
