//! The one trait a benchmark crate implements.

use std::fmt::Debug;

use korat::{Candidate, Finitization};

/// A data-structure benchmark: its target methods, how Korat generates their inputs, and how
/// to run and judge a call.
///
/// The class invariant is written once, generically over a read-only view, and used both by
/// [`Benchmark::precondition`] (on Korat's candidates, whose reads drive the search) and by
/// [`Benchmark::invariant`] (on real post-states). Methods are numbered by their position in
/// [`Benchmark::methods`].
pub trait Benchmark: Send + Sync + 'static {
    /// Field ids resolved from a finitization, so the precondition never looks a name up.
    type Fields: Send + Sync;
    /// One call's receiver and arguments in the benchmark's real (arena) form.
    type Input: Clone + Send;
    /// A call's return value.
    type Ret: PartialEq + Debug + Send;
    /// The abstraction of a post-state (e.g. the set of elements), compared with `==`.
    type Abstraction: PartialEq + Debug + Send;

    /// Names of the target methods, in a fixed order.
    fn methods(&self) -> &'static [&'static str];

    /// The finitization of `method`'s inputs at `scope` (the root object holds the receiver
    /// and the arguments) with the field ids the precondition and the decoder use.
    fn finitize(&self, method: usize, scope: u32) -> (Finitization, Self::Fields);

    /// `method`'s precondition on a candidate: the class invariant plus whatever the method
    /// requires of its arguments.
    fn precondition(&self, method: usize, fields: &Self::Fields, c: &mut Candidate<'_>) -> bool;

    /// Whether `method`'s precondition is the class invariant alone: one function of the
    /// receiver, the same for every method that says so, reading none of the method's
    /// arguments. Generation then searches the receiver's structure once per scope for all of
    /// them and enumerates each one's arguments over their domains — the same inputs in the
    /// same order with the same counts as a search per method, in a fraction of the time. The
    /// default, `false`, searches the method on its own (always correct).
    fn precondition_is_invariant(&self, method: usize) -> bool {
        let _ = method;
        false
    }

    /// Whether the preconditions have a variant with dedicated generators
    /// ([`Benchmark::precondition_dedicated`]); `generate --generators` searches with it. A
    /// method without one of its own leaves `precondition_dedicated` to the plain precondition.
    const HAS_DEDICATED: bool = false;

    /// `method`'s precondition written with dedicated generators (the paper's Sec. 5, see
    /// `korat::dedicated`): it must accept exactly the candidates
    /// [`Benchmark::precondition`] accepts and read the same fields in the same order, each
    /// read ruling out the values that cannot satisfy it — the same inputs in the same order
    /// from fewer candidates. The default is the plain precondition (nothing ruled out).
    fn precondition_dedicated(
        &self,
        method: usize,
        fields: &Self::Fields,
        c: &mut Candidate<'_>,
    ) -> bool {
        self.precondition(method, fields, c)
    }

    /// Builds the real input from a valid candidate.
    fn decode(&self, method: usize, fields: &Self::Fields, c: &mut Candidate<'_>) -> Self::Input;

    /// Runs `method` on `input`, leaving the post-state in it.
    fn run(&self, method: usize, input: &mut Self::Input) -> Self::Ret;

    /// The class invariant on a real (post-)state: the same function Korat runs.
    fn invariant(&self, input: &Self::Input) -> bool;

    /// Why `input` breaks the class invariant, for `check`'s counterexample: called only on a
    /// post-state of the original that [`Benchmark::invariant`] rejected, never while mutants
    /// run. The default, `None`, reports only that the invariant is false; a benchmark that can
    /// name the broken property (e.g. `"node 3: key 5 is not below its parent's 4"`) returns it.
    fn invariant_violation(&self, input: &Self::Input) -> Option<String> {
        let _ = input;
        None
    }

    /// The abstract value of a state; only called on states that satisfy the invariant.
    fn abstraction(&self, input: &Self::Input) -> Self::Abstraction;

    /// Whether [`Benchmark::structure`] is defined. `evaluate --compare structural` refuses
    /// a benchmark that leaves this `false` (the default).
    const STRUCTURE: bool = false;

    /// The concrete state, for `--compare structural` (Java serialization's comparison of
    /// the paper's Sec. 7.2): every field of every object the receiver reaches, in a form
    /// that is the same for isomorphic states — objects numbered in the order a walk from the
    /// root meets them, never by arena index, since a mutant may allocate in another order.
    /// Only called on states that satisfy the invariant, and only when
    /// [`Benchmark::STRUCTURE`] is `true`.
    fn structure(&self, input: &Self::Input) -> String {
        let _ = input;
        unreachable!("Benchmark::structure is called only when Benchmark::STRUCTURE is true")
    }

    /// `method`'s postcondition (the paper's JML `ensures`), given the pre-state, the
    /// post-state and the return value. `Err` describes the violation. Called only on a
    /// post-state that satisfies the invariant: the runner judges `ensures repOk()` itself
    /// (a broken post-state is an invariant violation, `Outcome::Broken`), so the
    /// postcondition checks the rest.
    fn postcondition(
        &self,
        method: usize,
        pre: &Self::Input,
        post: &Self::Input,
        ret: &Self::Ret,
    ) -> Result<(), String>;

    /// A readable rendering of an input, e.g. `(2 (1) (3)), x = 4`.
    fn render(&self, method: usize, input: &Self::Input) -> String;

    /// `input` as Rust code that builds it through the crate's public API (its constructor
    /// and methods, no struct literal of the structure), for `ferastrau export-tests`:
    /// statements that bind `bench` to this benchmark and `mut input` to the input, naming
    /// the crate by its library name (the test then calls `bench.run(method, &mut input)`).
    /// `None` (the default): no calls build this input; `export-tests` then builds it directly
    /// (the decoder on Korat's candidate), saying so.
    fn construct(&self, method: usize, input: &Self::Input) -> Option<String> {
        let _ = (method, input);
        None
    }

    /// The benchmark's algebraic properties (the paper's Sec. 6.3), e.g. "`add(e)` then
    /// `remove(e)` gives back the abstract state when `e` was absent", each over the inputs of
    /// one target method. Ferastrau tests each as a target of its own (after the methods, under
    /// the axiom's name): on every input of its method at each scope, `check` reports it where it
    /// fails on the original, and a mutant whose axiom's verdict, return values or post-state
    /// differ from the original's is killed like any other target's. Default: none.
    fn axioms(&self) -> &'static [Axiom] {
        &[]
    }

    /// Runs axiom `axiom` (its position in [`Benchmark::axioms`]) on `input`, an input of the
    /// axiom's method, through the crate's methods: the calls leave their post-state in `input`
    /// (judged by the invariant and compared like a method's); `Err` says why the property
    /// fails. Called only for the axioms [`Benchmark::axioms`] declares.
    fn axiom(&self, axiom: usize, input: &mut Self::Input) -> Result<(), String> {
        let _ = input;
        unreachable!("Benchmark::axiom({axiom}) is called only for a declared axiom")
    }

    /// For `ferastrau sequences` (the JPF paper's method sequences): an input whose receiver
    /// every sequence starts from (the empty structure) at `scope`. `None` (the default): the
    /// benchmark builds no sequences.
    fn initial(&self, scope: u32) -> Option<Self::Input> {
        let _ = scope;
        None
    }

    /// The input that calls `method` with argument `arg` on `state`'s receiver (for
    /// `ferastrau sequences`, which calls it only when [`Benchmark::initial`] gives a start).
    fn with_argument(&self, method: usize, state: &Self::Input, arg: i64) -> Self::Input {
        let _ = (method, arg);
        state.clone()
    }
}

/// One algebraic property of [`Benchmark::axioms`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Axiom {
    /// Its name, under which reports list it beside the methods (e.g. `add_then_remove`).
    pub name: &'static str,
    /// The target method whose inputs it takes (its receiver and arguments).
    pub inputs_of: &'static str,
}
