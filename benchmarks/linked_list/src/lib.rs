//! `java.util.LinkedList` as a Ferastrau benchmark (the paper's LinkedList row).
//!
//! Target methods `add(o)`, `remove(o)` and `reverse()`. The inputs of `add` and `remove` are
//! (list, o) pairs that Korat generates jointly, `o` being null, an element of the list or a
//! fresh object; `reverse` takes the list alone. A call's output is its return value, the
//! post-state's answer to `contains(o)` (the query the JML `ensures` clauses make, which is how
//! the paper's helper `contains` takes part in every add/remove check), and the post-state's
//! abstraction: the sequence of elements.

pub mod dedicated;
pub mod invariant;
pub mod list;
pub mod space;

use ferastrau_sdk::korat::view::{Real, Root, View};
use ferastrau_sdk::korat::{Candidate, Finitization};
use ferastrau_sdk::Benchmark;

use invariant::rep_ok;
use list::ElemId;
pub use list::{LinkedList, ListItr};
use space::{elements, render_elem, render_list, Fields};

/// The benchmark.
pub struct LinkedListBench;

/// One call: the receiver and the argument (unused by `reverse`).
#[derive(Clone, Debug)]
pub struct Call {
    pub list: LinkedList,
    pub o: Option<ElemId>,
}

/// What a call returns: the method's result (`None` for `reverse`, which is `void`) and, for
/// `add` and `remove`, `contains(o)` on the post-state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub result: Option<bool>,
    pub contains_after: Option<bool>,
}

const METHODS: &[&str] = &["add", "remove", "reverse"];

/// Whether `method` takes the argument `o`.
pub fn takes_arg(method: usize) -> bool {
    method < 2
}

impl Benchmark for LinkedListBench {
    type Fields = Fields;
    type Input = Call;
    type Ret = Outcome;
    type Abstraction = Vec<Option<ElemId>>;

    fn methods(&self) -> &'static [&'static str] {
        METHODS
    }

    fn finitize(&self, method: usize, scope: u32) -> (Finitization, Fields) {
        space::finitization(
            &format!("LinkedList_{}", METHODS[method]),
            scope,
            takes_arg(method),
        )
    }

    /// The precondition is `rep_ok` for every method: one structure search serves them all.
    fn precondition_is_invariant(&self, _method: usize) -> bool {
        true
    }

    fn precondition(&self, _method: usize, f: &Fields, c: &mut Candidate<'_>) -> bool {
        rep_ok(&mut View::new(c, f))
    }

    const HAS_DEDICATED: bool = true;

    fn precondition_dedicated(&self, _method: usize, f: &Fields, c: &mut Candidate<'_>) -> bool {
        dedicated::rep_ok_dedicated(c, f)
    }

    /// The list, then `o` (an element keeps its Korat index, in the list or not).
    fn decode(&self, method: usize, f: &Fields, c: &mut Candidate<'_>) -> Call {
        let args: &[_] = if takes_arg(method) {
            &[("o", "Elem")]
        } else {
            &[]
        };
        let (list, o) = LinkedList::decode_with(c, f, args);
        let o = o.first().copied().flatten().map(ElemId);
        Call { list, o }
    }

    fn run(&self, method: usize, input: &mut Call) -> Outcome {
        let o = input.o;
        match method {
            0 => {
                let result = input.list.add(o);
                Outcome {
                    result: Some(result),
                    contains_after: Some(input.list.contains(o)),
                }
            }
            1 => {
                let result = input.list.remove(o);
                Outcome {
                    result: Some(result),
                    contains_after: Some(input.list.contains(o)),
                }
            }
            _ => {
                input.list.reverse();
                Outcome {
                    result: None,
                    contains_after: None,
                }
            }
        }
    }

    fn invariant(&self, input: &Call) -> bool {
        rep_ok(&mut Real(&input.list))
    }

    fn abstraction(&self, input: &Call) -> Vec<Option<ElemId>> {
        elements(&input.list)
    }

    fn postcondition(
        &self,
        method: usize,
        pre: &Call,
        post: &Call,
        ret: &Outcome,
    ) -> Result<(), String> {
        let before = elements(&pre.list);
        let after = elements(&post.list);
        let o = pre.o;
        let mut expected = before.clone();
        let result = match method {
            // ensures repOk() && elements == \old(elements) + [o] && \result
            0 => {
                expected.push(o);
                Some(true)
            }
            // ensures repOk() && elements == \old(elements) minus the first occurrence of o
            //      && \result == \old(contains(o))
            1 => match expected.iter().position(|&x| x == o) {
                Some(i) => {
                    expected.remove(i);
                    Some(true)
                }
                None => Some(false),
            },
            // ensures repOk() && elements == reverse(\old(elements))
            _ => {
                expected.reverse();
                None
            }
        };
        if after != expected {
            return Err(format!(
                "elements {after:?} after {}, expected {expected:?}",
                METHODS[method]
            ));
        }
        let contains_after = takes_arg(method).then(|| expected.contains(&o));
        let want = Outcome {
            result,
            contains_after,
        };
        if *ret != want {
            return Err(format!("returned {ret:?}, expected {want:?}"));
        }
        Ok(())
    }

    fn render(&self, method: usize, input: &Call) -> String {
        if takes_arg(method) {
            format!(
                "{}({}) on {}",
                METHODS[method],
                render_elem(input.o),
                render_list(&input.list)
            )
        } else {
            format!("{}() on {}", METHODS[method], render_list(&input.list))
        }
    }
}

ferastrau_sdk::export!(LinkedListBench);
