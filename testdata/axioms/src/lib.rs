//! A fixture for axioms (the paper's Sec. 6.3): a set kept as a strictly increasing array,
//! whose `insert` and `remove` have no postconditions — their specification is two algebraic
//! properties, `insert_then_remove` (inserting an absent `x` and removing it again gives back
//! the set, both calls saying they changed it) and `remove_twice` (a second `remove(x)` finds
//! nothing and changes nothing).

use ferastrau_sdk::korat::{
    Candidate, ClassId, Domain, FieldId, Finitization, FinitizationBuilder, ROOT,
};
use ferastrau_sdk::{Axiom, Benchmark};

#[derive(Clone, Debug, Default)]
pub struct SortedSet {
    pub items: Vec<i64>,
}

impl SortedSet {
    /// Adds `x` where it belongs; returns whether it was absent.
    pub fn insert(&mut self, x: i64) -> bool {
        let mut at = 0;
        while at < self.items.len() && self.items[at] < x {
            at += 1;
        }
        if at < self.items.len() && self.items[at] == x {
            return false;
        }
        self.items.insert(at, x);
        true
    }

    /// Removes `x`; returns whether it was present.
    pub fn remove(&mut self, x: i64) -> bool {
        let mut i = 0;
        while i < self.items.len() {
            if self.items[i] == x {
                self.items.remove(i);
                return true;
            }
            i += 1;
        }
        false
    }
}

/// Strictly increasing.
pub fn rep_ok(items: &[i64]) -> bool {
    items.windows(2).all(|w| w[0] < w[1])
}

pub struct Axioms;

pub struct Fields {
    length: FieldId,
    class: ClassId,
    x: FieldId,
}

fn items(f: &Fields, c: &mut Candidate<'_>) -> Vec<i64> {
    let len = c.int(f.length, 0) as u32;
    let fin = c.finitization();
    (0..len)
        .map(|k| c.int(fin.element(f.class, k, 0), 0))
        .collect()
}

impl Benchmark for Axioms {
    type Fields = Fields;
    type Input = (SortedSet, i64);
    type Ret = bool;
    type Abstraction = Vec<i64>;

    fn methods(&self) -> &'static [&'static str] {
        &["insert", "remove"]
    }
    /// Arrays of up to `scope` values in 1..=`scope`, and `x` in the same range.
    fn finitize(&self, _m: usize, scope: u32) -> (Finitization, Fields) {
        let n = i64::from(scope);
        let mut b = FinitizationBuilder::new("SortedSet_call");
        let arr = b.array(
            "Array",
            1,
            Domain::ints(0, n),
            scope,
            &[("v", Domain::ints(1, n))],
        );
        b.field(ROOT, "items", Domain::objects(arr));
        b.field(ROOT, "x", Domain::ints(1, n));
        let fin = b.build();
        let f = Fields {
            length: fin.field(arr, "length"),
            class: arr,
            x: fin.field(ROOT, "x"),
        };
        (fin, f)
    }
    fn precondition(&self, _m: usize, f: &Fields, c: &mut Candidate<'_>) -> bool {
        rep_ok(&items(f, c))
    }
    fn precondition_is_invariant(&self, _m: usize) -> bool {
        true
    }
    fn decode(&self, _m: usize, f: &Fields, c: &mut Candidate<'_>) -> (SortedSet, i64) {
        let x = c.int(f.x, 0);
        (SortedSet { items: items(f, c) }, x)
    }
    fn run(&self, m: usize, input: &mut (SortedSet, i64)) -> bool {
        match m {
            0 => input.0.insert(input.1),
            _ => input.0.remove(input.1),
        }
    }
    fn invariant(&self, input: &(SortedSet, i64)) -> bool {
        rep_ok(&input.0.items)
    }
    fn abstraction(&self, input: &(SortedSet, i64)) -> Vec<i64> {
        input.0.items.clone()
    }
    /// None: the axioms are the specification.
    fn postcondition(
        &self,
        _: usize,
        _: &(SortedSet, i64),
        _: &(SortedSet, i64),
        _: &bool,
    ) -> Result<(), String> {
        Ok(())
    }
    fn render(&self, m: usize, input: &(SortedSet, i64)) -> String {
        format!("{}({}) on {:?}", self.methods()[m], input.1, input.0.items)
    }
    fn axioms(&self) -> &'static [Axiom] {
        &[
            Axiom {
                name: "insert_then_remove",
                inputs_of: "insert",
            },
            Axiom {
                name: "remove_twice",
                inputs_of: "remove",
            },
        ]
    }
    fn axiom(&self, axiom: usize, input: &mut (SortedSet, i64)) -> Result<(), String> {
        let (set, x) = input;
        let before = set.items.clone();
        match axiom {
            0 => {
                if before.contains(x) {
                    return Ok(());
                }
                let inserted = set.insert(*x);
                let removed = set.remove(*x);
                if !(inserted && removed) {
                    return Err(format!(
                        "insert({x}) said {inserted}, then remove({x}) said {removed}"
                    ));
                }
                if set.items != before {
                    return Err(format!("insert({x}); remove({x}) left {:?}", set.items));
                }
            }
            _ => {
                set.remove(*x);
                let once = set.items.clone();
                if set.remove(*x) {
                    return Err(format!("a second remove({x}) found it again in {once:?}"));
                }
                if set.items != once {
                    return Err(format!(
                        "a second remove({x}) changed {once:?} to {:?}",
                        set.items
                    ));
                }
            }
        }
        Ok(())
    }
}

ferastrau_sdk::export!(Axioms);
