//! A Ferastrau benchmark written by `ferastrau init`: a set of integers kept as a sorted
//! linked list in an arena, with two target methods, `add(x) -> bool` and
//! `remove_first() -> i64`. Replace the structure with yours; keep the shape:
//!
//! - `set.rs`: the code under test (what `mutate` names in Cargo.toml);
//! - `invariant.rs`: the class invariant, once, over the view trait that
//!   `#[derive(ferastrau_sdk::Korat)]` makes of `set.rs`'s types (the `specification`);
//! - `space.rs`: Korat's finitization (the derive writes the candidate view and the decoder);
//! - this file: the `Benchmark` impl and `ferastrau_sdk::export!`;
//! - `tests/counts.rs`: exact input counts per scope and the brute-force check.

pub mod invariant;
pub mod set;
pub mod space;

use ferastrau_sdk::korat::view::{Real, Root, View};
use ferastrau_sdk::korat::{Candidate, Finitization};
use ferastrau_sdk::Benchmark;

use invariant::rep_ok;
pub use set::IntSet;
use set::IntSetView;
use space::{elements, Fields};

/// The benchmark: what `ferastrau_sdk::export!` hands to the worker.
pub struct FerastrauInitBenchmark;

/// One call: the receiver and the argument (`None` for `remove_first()`, which takes none).
#[derive(Clone, Debug)]
pub struct Call {
    pub set: IntSet,
    pub x: Option<i64>,
}

/// What a call returns. The trait has one return type for all methods: methods that return
/// different types share an enum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ret {
    Add(bool),
    RemoveFirst(i64),
}

/// The target methods; their positions are the method numbers of the trait.
pub const METHODS: &[&str] = &["add", "remove_first"];
const ADD: usize = 0;
const REMOVE_FIRST: usize = 1;

impl Benchmark for FerastrauInitBenchmark {
    type Fields = Fields;
    type Input = Call;
    type Ret = Ret;
    type Abstraction = Vec<i64>;

    fn methods(&self) -> &'static [&'static str] {
        METHODS
    }

    fn finitize(&self, method: usize, scope: u32) -> (Finitization, Fields) {
        space::finitization(&format!("IntSet_{}", METHODS[method]), scope, method == ADD)
    }

    fn precondition(&self, method: usize, f: &Fields, c: &mut Candidate<'_>) -> bool {
        let mut view = View::new(c, f);
        // `remove_first` fails on the empty set, and the original must not fail on any
        // generated input: its precondition requires an element.
        rep_ok(&mut view) && (method != REMOVE_FIRST || view.head().is_some())
    }

    fn decode(&self, _method: usize, f: &Fields, c: &mut Candidate<'_>) -> Call {
        let x = f.extra("x").map(|x| c.int(x, 0));
        Call {
            set: IntSet::decode(c, f),
            x,
        }
    }

    fn run(&self, method: usize, input: &mut Call) -> Ret {
        match method {
            ADD => Ret::Add(input.set.add(input.x.expect("add takes x"))),
            _ => Ret::RemoveFirst(input.set.remove_first()),
        }
    }

    fn invariant(&self, input: &Call) -> bool {
        rep_ok(&mut Real(&input.set))
    }

    fn abstraction(&self, input: &Call) -> Vec<i64> {
        elements(&input.set)
    }

    fn postcondition(
        &self,
        method: usize,
        pre: &Call,
        post: &Call,
        ret: &Ret,
    ) -> Result<(), String> {
        let before = elements(&pre.set);
        let after = elements(&post.set);
        match method {
            ADD => {
                let x = pre.x.expect("add takes x");
                let mut expected = before.clone();
                if !expected.contains(&x) {
                    expected.push(x);
                    expected.sort_unstable();
                }
                if after != expected {
                    return Err(format!("add({x}) on {before:?} left {after:?}"));
                }
                let absent = !before.contains(&x);
                if *ret != Ret::Add(absent) {
                    return Err(format!("add({x}) returned {ret:?}, expected Add({absent})"));
                }
            }
            _ => {
                if *ret != Ret::RemoveFirst(before[0]) || after != before[1..] {
                    return Err(format!(
                        "remove_first() on {before:?} returned {ret:?} and left {after:?}"
                    ));
                }
            }
        }
        Ok(())
    }

    /// The notation of inputs in every report (killing inputs, counterexamples): the call,
    /// then the receiver's elements in order, e.g. `add(2) on [1, 3]`.
    fn render(&self, method: usize, input: &Call) -> String {
        let arg = input.x.map(|x| x.to_string()).unwrap_or_default();
        format!("{}({arg}) on {:?}", METHODS[method], elements(&input.set))
    }

    // The trait's optional methods, with their defaults; uncomment one to change it.
    //
    // /// Whether `method`'s precondition is the class invariant alone (reads none of its
    // /// arguments): generation then searches the receiver once per scope for all such
    // /// methods. Here `remove_first` also requires an element, so not for it.
    // fn precondition_is_invariant(&self, method: usize) -> bool {
    //     method == ADD
    // }
    //
    // /// Whether the preconditions are also written with dedicated generators (Korat's
    // /// Sec. 5; `generate --generators` searches with them).
    // const HAS_DEDICATED: bool = false;
    //
    // /// That precondition: it must accept exactly what `precondition` accepts, reading the
    // /// same fields in the same order, each read ruling out values that cannot satisfy it.
    // fn precondition_dedicated(&self, method: usize, f: &Fields, c: &mut Candidate<'_>) -> bool {
    //     self.precondition(method, f, c)
    // }
    //
    // /// Why a post-state breaks the invariant, for `ferastrau check`'s counterexample
    // /// (called only on a post-state of the original that `invariant` rejected).
    // fn invariant_violation(&self, input: &Call) -> Option<String> {
    //     let e = elements(&input.set);
    //     e.windows(2)
    //         .find(|w| w[0] >= w[1])
    //         .map(|w| format!("{} is not below the next element {}", w[0], w[1]))
    // }
}

ferastrau_sdk::export!(FerastrauInitBenchmark);
