//! SortedList as a Ferastrau benchmark (the paper's SortedList row): a list structurally
//! identical to `java.util.LinkedList` whose integer elements are kept sorted.
//!
//! Target methods `insert(x)`, `remove(x)`, `sort()` and `merge(other)`, each with its own
//! precondition: `insert` and `remove` take a sorted list and `x` over 1..n; `sort` takes any
//! well-formed list, sorted or not; `merge` takes two sorted lists drawn from one pool of
//! entries and sharing none. A call's output is its return value, for `insert` and `remove`
//! the post-state's answer to `contains(x)` (the query the JML `ensures` clauses make, which is
//! how the paper's helper `contains` takes part in those checks), and the post-state's
//! abstraction: the elements of `this` and of `other`.

pub mod dedicated;
pub mod invariant;
pub mod list;
pub mod program;
pub mod space;

use ferastrau_sdk::generator::{Beside, Generated};
use ferastrau_sdk::korat::{Candidate, Finitization};
use ferastrau_sdk::structure::Writer;
use ferastrau_sdk::Benchmark;

use ferastrau_sdk::korat::view::{Real, Root, View};
use invariant::{rep_ok, rep_ok_pair, Pair};
pub use list::{ListRef, SortedList};
use space::{
    decode_pair, decode_x, elements, elements_of, render_elements, render_list, Args, Fields,
};

/// The benchmark.
pub struct SortedListBench;

/// One call: the receiver and the arguments (`x` for `insert` and `remove`, `other` for
/// `merge`; the others hold 0 and `None`). `merge`'s `other` lives in `list`'s arena (Java's
/// one heap), under ids distinct from `this`'s.
#[derive(Clone, Debug)]
pub struct Call {
    pub list: SortedList,
    pub x: i64,
    pub other: Option<ListRef>,
}

impl Call {
    /// The elements of `other` (empty when the method has none).
    pub fn other_elements(&self) -> Vec<i64> {
        self.other
            .map(|o| elements_of(&self.list, o.header, o.size))
            .unwrap_or_default()
    }
}

/// What a call returns: the method's result (`None` for the `void` methods) and, for
/// `insert` and `remove`, `contains(x)` on the post-state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub result: Option<bool>,
    pub contains_after: Option<bool>,
}

/// The abstraction of a call's state: the elements of `this` and of `other` (empty when the
/// method has no `other`).
pub type Abstraction = (Vec<i64>, Vec<i64>);

const METHODS: &[&str] = &["insert", "remove", "sort", "merge"];

/// What the root object of `method`'s finitization holds besides `this`.
pub fn args_of(method: usize) -> Args {
    match method {
        0 | 1 => Args::X,
        2 => Args::None,
        _ => Args::Other,
    }
}

impl Benchmark for SortedListBench {
    type Fields = Fields;
    type Input = Call;
    type Ret = Outcome;
    type Abstraction = Abstraction;

    fn methods(&self) -> &'static [&'static str] {
        METHODS
    }

    fn finitize(&self, method: usize, scope: u32) -> (Finitization, Fields) {
        space::finitization(
            &format!("SortedList_{}", METHODS[method]),
            scope,
            args_of(method),
        )
    }

    /// `insert` and `remove` require the sorted list alone and share one structure search;
    /// `sort` (any order) and `merge` (a pair of lists) have preconditions of their own.
    fn precondition_is_invariant(&self, method: usize) -> bool {
        method != 2 && method != 3
    }

    fn precondition(&self, method: usize, f: &Fields, c: &mut Candidate<'_>) -> bool {
        let v = &mut View::new(c, f);
        match method {
            // sort() requires a well-formed list only; its elements may be in any order.
            2 => rep_ok(v, 0, false),
            3 => rep_ok_pair(v),
            _ => rep_ok(v, 0, true),
        }
    }

    const HAS_DEDICATED: bool = true;

    fn precondition_dedicated(&self, method: usize, f: &Fields, c: &mut Candidate<'_>) -> bool {
        match method {
            2 => dedicated::rep_ok_dedicated(c, f, 0, false),
            3 => dedicated::rep_ok_pair_dedicated(c, f),
            _ => dedicated::rep_ok_dedicated(c, f, 0, true),
        }
    }

    fn decode(&self, method: usize, f: &Fields, c: &mut Candidate<'_>) -> Call {
        match args_of(method) {
            Args::Other => {
                let (list, other) = decode_pair(c, f);
                Call {
                    list,
                    x: 0,
                    other: Some(other),
                }
            }
            args => Call {
                list: SortedList::decode(c, f),
                x: if args == Args::X { decode_x(c, f) } else { 0 },
                other: None,
            },
        }
    }

    fn run(&self, method: usize, input: &mut Call) -> Outcome {
        let x = input.x;
        match method {
            0 => {
                input.list.insert(x);
                Outcome {
                    result: None,
                    contains_after: Some(input.list.contains(x)),
                }
            }
            1 => {
                let result = input.list.remove(x);
                Outcome {
                    result: Some(result),
                    contains_after: Some(input.list.contains(x)),
                }
            }
            2 => {
                input.list.sort();
                Outcome {
                    result: None,
                    contains_after: None,
                }
            }
            _ => {
                let other = input.other.expect("merge has an argument");
                input.list.merge(other);
                Outcome {
                    result: None,
                    contains_after: None,
                }
            }
        }
    }

    /// The class invariant (sorted) of `this` and, when present, of `other` (each checked on
    /// its own, as Java's `this.repOk() && other.repOk()`).
    fn invariant(&self, input: &Call) -> bool {
        match input.other {
            None => rep_ok(&mut Real(&input.list), 0, true),
            Some(other) => {
                let v = &mut Real(&Pair(&input.list, other));
                rep_ok(v, 0, true) && rep_ok(v, 1, true)
            }
        }
    }

    fn abstraction(&self, input: &Call) -> Abstraction {
        (elements(&input.list), input.other_elements())
    }

    const STRUCTURE: bool = true;

    /// Java serialization of the receiver (`header`, `size` and every entry they reach, with
    /// `element`, `next`, `previous`) and of `merge`'s argument list, whose entries share the
    /// arena (so an entry one list took from the other is written once, referred to after).
    fn structure(&self, input: &Call) -> String {
        let l = &input.list;
        let mut w = Writer::new();
        w.object(l, l.header);
        w.int(l.size);
        if let Some(o) = &input.other {
            w.object(l, o.header);
            w.int(o.size);
        }
        w.finish()
    }

    fn postcondition(
        &self,
        method: usize,
        pre: &Call,
        post: &Call,
        ret: &Outcome,
    ) -> Result<(), String> {
        let before = self.abstraction(pre);
        let after = self.abstraction(post);
        let x = pre.x;
        let mut expected = before.clone();
        let mut result = None;
        match method {
            // ensures repOk() && elements == \old(elements) ∪ {x} (as multisets)
            0 => expected.0.push(x),
            // ensures repOk() && elements == \old(elements) − {x}
            //      && \result == \old(contains(x))
            1 => {
                let i = expected.0.iter().position(|&y| y == x);
                if let Some(i) = i {
                    expected.0.remove(i);
                }
                result = Some(i.is_some());
            }
            // ensures repOk() && elements == \old(elements) (as multisets)
            2 => {}
            // ensures repOk() && elements == \old(elements) ∪ other.elements
            //      && other.elements == \old(other.elements)
            _ => expected.0.extend_from_slice(&before.1),
        }
        expected.0.sort_unstable();
        if after != expected {
            return Err(format!(
                "elements {after:?} after {}, expected {expected:?}",
                METHODS[method]
            ));
        }
        let want = Outcome {
            result,
            contains_after: (method < 2).then(|| expected.0.contains(&x)),
        };
        if *ret != want {
            return Err(format!("returned {ret:?}, expected {want:?}"));
        }
        Ok(())
    }

    fn render(&self, method: usize, input: &Call) -> String {
        let this = render_list(&input.list);
        match args_of(method) {
            Args::X => format!("{}({}) on {this}", METHODS[method], input.x),
            Args::None => format!("{}() on {this}", METHODS[method]),
            Args::Other => format!(
                "{}({}) on {this}",
                METHODS[method],
                render_elements(&input.other_elements())
            ),
        }
    }
}

ferastrau_sdk::export!(
    SortedListBench,
    generator: Generated::new(Beside(program::SortedListProgram))
);
