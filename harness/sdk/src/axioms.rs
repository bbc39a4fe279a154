//! A benchmark's axioms as targets of their own (the paper's Sec. 6.3: "these methods can now
//! be tested in the same way that `remove` is tested").
//!
//! [`WithAxioms`] wraps a benchmark so that each axiom of [`Benchmark::axioms`] is one more
//! target method after the benchmark's own: its inputs are those of the method it is declared
//! over (the same finitization, precondition and decoder), its call is
//! [`Benchmark::axiom`], its return value the verdict, and its postcondition that the verdict
//! holds. Everything that takes targets — generation, `check`, the mutants' runs and their
//! comparison, coverage, the kill matrix — then tests axioms with no code of its own. A
//! benchmark without axioms passes through unchanged: the same methods, numbers and outputs.

use std::fmt;

use korat::{Candidate, Finitization};

use crate::Benchmark;

/// What a target of [`WithAxioms`] returns.
pub enum Returned<R> {
    /// A method of the benchmark returned this.
    Method(R),
    /// An axiom's verdict: `Err` says why the property fails.
    Axiom(Result<(), String>),
}

/// Return values compare as the benchmark's; verdicts compare by whether the axiom holds (not
/// by the words of the failure, which may name values a mutant computes differently).
impl<R: PartialEq> PartialEq for Returned<R> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Returned::Method(a), Returned::Method(b)) => a == b,
            (Returned::Axiom(a), Returned::Axiom(b)) => a.is_ok() == b.is_ok(),
            _ => false,
        }
    }
}

/// A method's return value as the benchmark's own `Debug` writes it (reports do not change
/// for a benchmark with axioms); a verdict as the paper's axiom methods return it, `true`, or
/// `false` with why.
impl<R: fmt::Debug> fmt::Debug for Returned<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Returned::Method(r) => r.fmt(f),
            Returned::Axiom(Ok(())) => f.write_str("true"),
            Returned::Axiom(Err(why)) => write!(f, "false ({why})"),
        }
    }
}

/// A benchmark whose axioms are targets after its methods.
pub struct WithAxioms<B> {
    bench: B,
    /// The benchmark's methods, then its axioms' names.
    methods: &'static [&'static str],
    /// For each target, the benchmark's method whose inputs it takes.
    inputs_of: Vec<usize>,
}

impl<B: Benchmark> WithAxioms<B> {
    /// Wraps `bench`. Panics when an axiom names a method the benchmark does not have (a
    /// mistake in the benchmark, reported by the worker as its panic).
    pub fn new(bench: B) -> WithAxioms<B> {
        let own = bench.methods();
        let axioms = bench.axioms();
        let mut inputs_of: Vec<usize> = (0..own.len()).collect();
        for a in axioms {
            let Some(m) = own.iter().position(|&m| m == a.inputs_of) else {
                panic!(
                    "axiom {} is declared over the inputs of {}, which is not one of the benchmark's methods {own:?}",
                    a.name, a.inputs_of
                );
            };
            inputs_of.push(m);
        }
        let methods = if axioms.is_empty() {
            own
        } else {
            let all: Vec<&'static str> = own
                .iter()
                .copied()
                .chain(axioms.iter().map(|a| a.name))
                .collect();
            // Once per worker process: the trait hands out a 'static list.
            Box::leak(all.into_boxed_slice())
        };
        WithAxioms {
            bench,
            methods,
            inputs_of,
        }
    }

    /// The benchmark itself, whose targets are its methods alone.
    pub fn inner(&self) -> &B {
        &self.bench
    }

    /// The axiom that target `m` is, if it is one.
    fn axiom(&self, m: usize) -> Option<usize> {
        m.checked_sub(self.bench.methods().len())
    }
}

impl<B: Benchmark> Benchmark for WithAxioms<B> {
    type Fields = B::Fields;
    type Input = B::Input;
    type Ret = Returned<B::Ret>;
    type Abstraction = B::Abstraction;

    fn methods(&self) -> &'static [&'static str] {
        self.methods
    }

    fn finitize(&self, method: usize, scope: u32) -> (Finitization, Self::Fields) {
        self.bench.finitize(self.inputs_of[method], scope)
    }

    fn precondition(&self, method: usize, fields: &Self::Fields, c: &mut Candidate<'_>) -> bool {
        self.bench.precondition(self.inputs_of[method], fields, c)
    }

    fn precondition_is_invariant(&self, method: usize) -> bool {
        self.bench.precondition_is_invariant(self.inputs_of[method])
    }

    const HAS_DEDICATED: bool = B::HAS_DEDICATED;

    fn precondition_dedicated(
        &self,
        method: usize,
        fields: &Self::Fields,
        c: &mut Candidate<'_>,
    ) -> bool {
        self.bench
            .precondition_dedicated(self.inputs_of[method], fields, c)
    }

    fn decode(&self, method: usize, fields: &Self::Fields, c: &mut Candidate<'_>) -> Self::Input {
        self.bench.decode(self.inputs_of[method], fields, c)
    }

    fn run(&self, method: usize, input: &mut Self::Input) -> Self::Ret {
        match self.axiom(method) {
            None => Returned::Method(self.bench.run(method, input)),
            Some(a) => Returned::Axiom(self.bench.axiom(a, input)),
        }
    }

    fn invariant(&self, input: &Self::Input) -> bool {
        self.bench.invariant(input)
    }

    fn invariant_violation(&self, input: &Self::Input) -> Option<String> {
        self.bench.invariant_violation(input)
    }

    fn abstraction(&self, input: &Self::Input) -> Self::Abstraction {
        self.bench.abstraction(input)
    }

    const STRUCTURE: bool = B::STRUCTURE;

    fn structure(&self, input: &Self::Input) -> String {
        self.bench.structure(input)
    }

    fn postcondition(
        &self,
        method: usize,
        pre: &Self::Input,
        post: &Self::Input,
        ret: &Self::Ret,
    ) -> Result<(), String> {
        match ret {
            Returned::Method(r) => self.bench.postcondition(method, pre, post, r),
            Returned::Axiom(Ok(())) => Ok(()),
            Returned::Axiom(Err(why)) => Err(format!(
                "the axiom {} is false: {why}",
                self.methods[method]
            )),
        }
    }

    /// An axiom's input is written as its method's, after the axiom's name.
    fn render(&self, method: usize, input: &Self::Input) -> String {
        let shown = self.bench.render(self.inputs_of[method], input);
        match self.axiom(method) {
            None => shown,
            Some(_) => format!("{} on {shown}", self.methods[method]),
        }
    }

    fn construct(&self, method: usize, input: &Self::Input) -> Option<String> {
        match self.axiom(method) {
            None => self.bench.construct(method, input),
            Some(_) => None,
        }
    }

    fn initial(&self, scope: u32) -> Option<Self::Input> {
        self.bench.initial(scope)
    }

    fn with_argument(&self, method: usize, state: &Self::Input, arg: i64) -> Self::Input {
        self.bench.with_argument(self.inputs_of[method], state, arg)
    }
}
