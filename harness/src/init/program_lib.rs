//! A Ferastrau benchmark written by `ferastrau init --style generator`: a set of integers kept
//! as a sorted linked list in an arena, with two target methods, `add(x) -> bool` and
//! `remove_first() -> i64`, whose inputs are a **generator program**. Replace the structure
//! with yours; keep the shape:
//!
//! - `set.rs`: the code under test (what `mutate` names in Cargo.toml);
//! - this file: the class invariant over the real type (the `specification`), the program that
//!   builds each method's inputs (`generate`), and `ferastrau_sdk::export!`;
//! - `tests/counts.rs`: exact input counts per scope.
//!
//! `generate` builds the real input through the choices of a `Gen` (`g.pick(lo..=hi)`,
//! `g.int`/`g.get` for a value chosen where it is first read, object pools) and keeps it only
//! if `g.assume(...)` holds: every execution that returns `Ok` is one input, and Ferastrau runs
//! the program once per combination of choices.

pub mod set;

use ferastrau_sdk::generator::{Gen, Generated, Generator, Pruned};

pub use set::{IntSet, Node};

/// The class invariant, once, over the real set: a strictly increasing list whose length is
/// `size`, every node reached once.
pub fn rep_ok(set: &IntSet) -> bool {
    let mut seen = vec![false; set.nodes.len()];
    let mut count = 0;
    let mut last: Option<i64> = None;
    let mut current = set.head;
    while let Some(n) = current {
        if n >= seen.len() || std::mem::replace(&mut seen[n], true) {
            return false; // outside the arena, or a cycle
        }
        let value = set.nodes[n].value;
        if last.is_some_and(|l| l >= value) {
            return false;
        }
        last = Some(value);
        count += 1;
        current = set.nodes[n].next;
    }
    count == set.size
}

/// The elements in order: the abstraction the outputs are compared by.
pub fn elements(set: &IntSet) -> Vec<i64> {
    let mut out = Vec::new();
    let mut current = set.head;
    while let Some(n) = current {
        out.push(set.nodes[n].value);
        current = set.nodes[n].next;
    }
    out
}

/// The benchmark: what `ferastrau_sdk::export!` hands to the worker.
pub struct FerastrauInitBenchmark;

/// One call: the receiver and the argument (`None` for `remove_first()`, which takes none).
#[derive(Clone, Debug)]
pub struct Call {
    pub set: IntSet,
    pub x: Option<i64>,
}

/// What a call returns (one type for all methods: methods that return different types share an
/// enum).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ret {
    Add(bool),
    RemoveFirst(i64),
}

/// The target methods; their positions are the method numbers of the trait.
pub const METHODS: &[&str] = &["add", "remove_first"];
const ADD: usize = 0;

impl Generator for FerastrauInitBenchmark {
    type Input = Call;
    type Ret = Ret;
    type Abstraction = Vec<i64>;

    fn methods(&self) -> &'static [&'static str] {
        METHODS
    }

    /// At scope n: every set of values in 1..=n as a list of up to n nodes, each value a
    /// choice, kept when the invariant holds; `add` takes x in 1..=n, `remove_first` needs an
    /// element (the original must not fail on any input).
    fn generate(&self, method: usize, scope: u32, g: &mut Gen<'_>) -> Result<Call, Pruned> {
        let n = i64::from(scope);
        let size = g.pick(0..=n)?;
        let mut set = IntSet {
            head: None,
            size,
            nodes: Vec::new(),
        };
        for i in 0..size as usize {
            let value = g.pick(1..=n)?;
            let next = (i + 1 < size as usize).then_some(i + 1);
            set.nodes.push(Node { next, value });
        }
        set.head = (size > 0).then_some(0);
        g.assume(rep_ok(&set))?;
        let x = if method == ADD {
            Some(g.pick(1..=n)?)
        } else {
            None
        };
        g.assume(method == ADD || size > 0)?;
        Ok(Call { set, x })
    }

    fn run(&self, method: usize, input: &mut Call) -> Ret {
        match method {
            ADD => Ret::Add(input.set.add(input.x.expect("add takes x"))),
            _ => Ret::RemoveFirst(input.set.remove_first()),
        }
    }

    fn invariant(&self, input: &Call) -> bool {
        rep_ok(&input.set)
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
        let (before, after) = (elements(&pre.set), elements(&post.set));
        let expected = match method {
            ADD => {
                let x = pre.x.expect("add takes x");
                let mut e = before.clone();
                if !e.contains(&x) {
                    e.push(x);
                    e.sort_unstable();
                }
                (e, Ret::Add(!before.contains(&x)))
            }
            _ => (before[1..].to_vec(), Ret::RemoveFirst(before[0])),
        };
        if !rep_ok(&post.set) || (after.clone(), ret.clone()) != expected {
            return Err(format!(
                "on {before:?}: {ret:?} leaving {after:?}, expected {expected:?}"
            ));
        }
        Ok(())
    }

    /// The notation of inputs in every report: the call, then the receiver's elements.
    fn render(&self, method: usize, input: &Call) -> String {
        let arg = input.x.map(|x| x.to_string()).unwrap_or_default();
        format!("{}({arg}) on {:?}", METHODS[method], elements(&input.set))
    }
}

ferastrau_sdk::export!(Generated::new(FerastrauInitBenchmark));
