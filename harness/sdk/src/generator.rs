//! Benchmarks whose inputs are written as generator programs (UDITA's style), not as a
//! finitization, a view and a decoder.
//!
//! A [`Generator`] builds each input of a method as its **real type** — an arena or an
//! `Option<Box<Node>>` tree alike — through the choices of a [`Gen`] (`int`, `bool`, object
//! pools), and filters with [`Gen::assume`], typically the class invariant written once over
//! the real type. [`Generated`] turns it into a [`Benchmark`], so that everything after
//! generation (mutants, kill rates, coverage, kill matrices, the gate, reports) is unchanged.
//!
//! How: an input is stored as its **choice path**. [`Generated::finitize`] explores the
//! program once with delayed choice ([`korat_choice::explore`]) to learn how long its paths
//! are and how many alternatives each position takes, and lays out one int slot per position.
//! The precondition runs the program with its choices read from Korat's candidate, slot after
//! slot ([`korat_choice::run_with`]); Korat, which varies the last slot a rejected candidate
//! read, then walks exactly the program's choice tree in depth-first order, and every slot
//! past the end of a path must hold 0 (so a path is one candidate, not one per padding).
//! Decoding replays the stored path. The inputs come out in the order of the program's own
//! exploration, each once.

use std::sync::Mutex;

use korat::{Candidate, Domain, FieldId, Finitization, FinitizationBuilder, ROOT};
pub use korat_choice::{Bool, Gen, Int, Limits, Mode, Obj, Pool, ProgramError, Pruned};

use crate::Benchmark;

/// A benchmark described by generator programs: [`Benchmark`] without the finitization, the
/// precondition and the decoder, which [`Generator::generate`] replaces.
pub trait Generator: Send + Sync + 'static {
    /// One call's receiver and arguments, in the benchmark's real form.
    type Input: Clone + Send;
    /// A call's return value.
    type Ret: PartialEq + std::fmt::Debug + Send;
    /// The abstraction of a post-state, compared with `==`.
    type Abstraction: PartialEq + std::fmt::Debug + Send;

    /// Names of the target methods, in a fixed order.
    fn methods(&self) -> &'static [&'static str];

    /// Builds one input of `method` at `scope` through `g`'s choices, filtered by
    /// [`Gen::assume`] (the class invariant, and what the method requires of its arguments).
    /// Every execution that returns `Ok` is one input; it must be a function of its choices.
    fn generate(&self, method: usize, scope: u32, g: &mut Gen<'_>) -> Result<Self::Input, Pruned>;

    /// Runs `method` on `input`, leaving the post-state in it.
    fn run(&self, method: usize, input: &mut Self::Input) -> Self::Ret;

    /// The class invariant on a real (post-)state.
    fn invariant(&self, input: &Self::Input) -> bool;

    /// Why `input` breaks the invariant (see [`Benchmark::invariant_violation`]).
    fn invariant_violation(&self, input: &Self::Input) -> Option<String> {
        let _ = input;
        None
    }

    /// The abstract value of a state.
    fn abstraction(&self, input: &Self::Input) -> Self::Abstraction;

    /// Whether [`Generator::structure`] is defined (see [`Benchmark::STRUCTURE`]).
    const STRUCTURE: bool = false;

    /// The concrete state, for `--compare structural` (see [`Benchmark::structure`]).
    fn structure(&self, input: &Self::Input) -> String {
        let _ = input;
        unreachable!("Generator::structure is called only when Generator::STRUCTURE is true")
    }

    /// `method`'s postcondition (see [`Benchmark::postcondition`]). By default none beyond
    /// the invariant, which is checked after every call anyway: mutants are judged against the
    /// original's outputs and the invariant, so a postcondition matters for `ferastrau check`
    /// (is the original right?), not for kill rates.
    fn postcondition(
        &self,
        method: usize,
        pre: &Self::Input,
        post: &Self::Input,
        ret: &Self::Ret,
    ) -> Result<(), String> {
        let _ = (method, pre, post, ret);
        Ok(())
    }

    /// A readable rendering of an input.
    fn render(&self, method: usize, input: &Self::Input) -> String;
}

/// A generator program for a benchmark that also has a finitization: it writes only
/// `generate`, and everything else — the methods, the calls, the invariant, the abstraction,
/// the structure, the postconditions, the rendering — is the finitized benchmark's, through
/// [`Beside`]. So the two engines can differ in nothing but how the inputs are made.
pub trait Program: Send + Sync + 'static {
    /// The finitized benchmark whose inputs the program builds.
    type Bench: Benchmark;

    /// That benchmark.
    fn bench(&self) -> &Self::Bench;

    /// Builds one input of `method` at `scope` (see [`Generator::generate`]).
    fn generate(
        &self,
        method: usize,
        scope: u32,
        g: &mut Gen<'_>,
    ) -> Result<<Self::Bench as Benchmark>::Input, Pruned>;
}

/// A [`Program`] as a [`Generator`]: `Generated::new(Beside(MyProgram))`.
pub struct Beside<P>(pub P);

impl<P: Program> Generator for Beside<P> {
    type Input = <P::Bench as Benchmark>::Input;
    type Ret = <P::Bench as Benchmark>::Ret;
    type Abstraction = <P::Bench as Benchmark>::Abstraction;

    fn methods(&self) -> &'static [&'static str] {
        self.0.bench().methods()
    }
    fn generate(&self, method: usize, scope: u32, g: &mut Gen<'_>) -> Result<Self::Input, Pruned> {
        self.0.generate(method, scope, g)
    }
    fn run(&self, method: usize, input: &mut Self::Input) -> Self::Ret {
        self.0.bench().run(method, input)
    }
    fn invariant(&self, input: &Self::Input) -> bool {
        self.0.bench().invariant(input)
    }
    fn invariant_violation(&self, input: &Self::Input) -> Option<String> {
        self.0.bench().invariant_violation(input)
    }
    fn abstraction(&self, input: &Self::Input) -> Self::Abstraction {
        self.0.bench().abstraction(input)
    }
    const STRUCTURE: bool = <P::Bench as Benchmark>::STRUCTURE;
    fn structure(&self, input: &Self::Input) -> String {
        self.0.bench().structure(input)
    }
    fn postcondition(
        &self,
        method: usize,
        pre: &Self::Input,
        post: &Self::Input,
        ret: &Self::Ret,
    ) -> Result<(), String> {
        self.0.bench().postcondition(method, pre, post, ret)
    }
    fn render(&self, method: usize, input: &Self::Input) -> String {
        self.0.bench().render(method, input)
    }
}

/// A [`Generator`] as a [`Benchmark`]: `ferastrau_sdk::export!(Generated::new(MyBench))`.
pub struct Generated<G> {
    generator: G,
    /// Slot widths found per (method, scope): each process asks for a method's finitization
    /// more than once, and exploring the program is the one costly step.
    widths: Mutex<Vec<(MethodScope, Vec<i64>)>>,
}

/// A method and a scope.
type MethodScope = (usize, u32);

impl<G: Generator> Generated<G> {
    /// Wraps `generator`.
    pub fn new(generator: G) -> Generated<G> {
        Generated {
            generator,
            widths: Mutex::new(Vec::new()),
        }
    }

    /// The wrapped generator.
    pub fn generator(&self) -> &G {
        &self.generator
    }

    /// For each position of the program's paths at (`method`, `scope`), the number of
    /// alternatives its inputs take there (1 + the largest).
    fn widths(&self, method: usize, scope: u32) -> Vec<i64> {
        let mut cache = self.widths.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, w)) = cache.iter().find(|(k, _)| *k == (method, scope)) {
            return w.clone();
        }
        let mut widths: Vec<i64> = Vec::new();
        // The program's own panics are caught by the exploration, which names the path: not
        // reported as they happen (`panics::expected`), but as the error below, path included.
        let explored = crate::panics::expected(|| {
            korat_choice::explore(
                Mode::Delayed,
                Limits::default(),
                |g| self.generator.generate(method, scope, g),
                |_, path| {
                    if widths.len() < path.len() {
                        widths.resize(path.len(), 1);
                    }
                    for (w, &t) in widths.iter_mut().zip(path) {
                        *w = (*w).max(i64::from(t) + 1);
                    }
                },
            )
        });
        let name = self.generator.methods()[method];
        match explored {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => panic!("{name}'s generator at scope {scope}: {e}"),
            Err((payload, _)) => std::panic::resume_unwind(payload),
        }
        cache.push(((method, scope), widths.clone()));
        widths
    }

    /// Runs the generator with its choices read from `c`'s slots, in order; `None` if the
    /// candidate is not a path to an input (a choice it does not have, a slot past the path
    /// not 0).
    fn replay(&self, method: usize, f: &Slots, c: &mut Candidate<'_>) -> Option<G::Input> {
        let mut at = 0;
        let run = crate::panics::expected(|| {
            korat_choice::run_with(
                Mode::Delayed,
                Limits::default(),
                |g| self.generator.generate(method, f.scope, g),
                &mut |count| {
                    let slot = *f.slots.get(at)?;
                    at += 1;
                    u32::try_from(c.int(slot, 0)).ok().filter(|&t| t < count)
                },
            )
        });
        let name = self.generator.methods()[method];
        let input = match run {
            Ok(Ok(Ok(input))) => input,
            Ok(Ok(Err(Pruned))) => return None,
            Ok(Err(e)) => panic!("{name}'s generator at scope {}: {e}", f.scope),
            Err((payload, _)) => std::panic::resume_unwind(payload),
        };
        f.slots[at..]
            .iter()
            .all(|&s| c.int(s, 0) == 0)
            .then_some(input)
    }
}

/// The slots of a generator's choice paths at one scope.
pub struct Slots {
    scope: u32,
    slots: Vec<FieldId>,
}

impl<G: Generator> Benchmark for Generated<G> {
    type Fields = Slots;
    type Input = G::Input;
    type Ret = G::Ret;
    type Abstraction = G::Abstraction;

    fn methods(&self) -> &'static [&'static str] {
        self.generator.methods()
    }

    fn finitize(&self, method: usize, scope: u32) -> (Finitization, Slots) {
        let widths = self.widths(method, scope);
        let name = format!("{}_path", self.generator.methods()[method]);
        let mut b = FinitizationBuilder::new(&name);
        for (i, &w) in widths.iter().enumerate() {
            b.field(ROOT, &format!("choice{i}"), Domain::ints(0, w - 1));
        }
        let fin = b.build();
        let slots = (0..widths.len())
            .map(|i| fin.field(ROOT, &format!("choice{i}")))
            .collect();
        (fin, Slots { scope, slots })
    }

    fn precondition(&self, method: usize, f: &Slots, c: &mut Candidate<'_>) -> bool {
        self.replay(method, f, c).is_some()
    }

    fn decode(&self, method: usize, f: &Slots, c: &mut Candidate<'_>) -> G::Input {
        self.replay(method, f, c)
            .expect("a stored input is a path of its generator")
    }

    fn run(&self, method: usize, input: &mut G::Input) -> G::Ret {
        self.generator.run(method, input)
    }

    fn invariant(&self, input: &G::Input) -> bool {
        self.generator.invariant(input)
    }

    fn invariant_violation(&self, input: &G::Input) -> Option<String> {
        self.generator.invariant_violation(input)
    }

    fn abstraction(&self, input: &G::Input) -> G::Abstraction {
        self.generator.abstraction(input)
    }

    const STRUCTURE: bool = G::STRUCTURE;

    fn structure(&self, input: &G::Input) -> String {
        self.generator.structure(input)
    }

    fn postcondition(
        &self,
        method: usize,
        pre: &G::Input,
        post: &G::Input,
        ret: &G::Ret,
    ) -> Result<(), String> {
        self.generator.postcondition(method, pre, post, ret)
    }

    fn render(&self, method: usize, input: &G::Input) -> String {
        self.generator.render(method, input)
    }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use super::*;

    /// Non-decreasing lists of `scope` values in `0..=scope`, and an argument in `0..scope`:
    /// the precondition is the whole check, the decoder rebuilds the list.
    struct Sorted;

    impl Generator for Sorted {
        type Input = (Vec<i64>, i64);
        type Ret = ();
        type Abstraction = Vec<i64>;
        fn methods(&self) -> &'static [&'static str] {
            &["touch"]
        }
        fn generate(&self, _m: usize, scope: u32, g: &mut Gen<'_>) -> Result<Self::Input, Pruned> {
            let n = i64::from(scope);
            let xs = (0..n)
                .map(|_| g.int(0..=n))
                .collect::<Result<Vec<_>, _>>()?;
            for w in xs.windows(2) {
                let (a, b) = (g.get(w[0]), g.get(w[1]));
                g.assume(a <= b)?;
            }
            let list = xs.iter().map(|&x| g.get(x)).collect();
            Ok((list, g.pick(0..=n - 1)?))
        }
        fn run(&self, _m: usize, _input: &mut Self::Input) {}
        fn invariant(&self, input: &Self::Input) -> bool {
            input.0.windows(2).all(|w| w[0] <= w[1])
        }
        fn abstraction(&self, input: &Self::Input) -> Vec<i64> {
            input.0.clone()
        }
        fn postcondition(
            &self,
            _m: usize,
            _: &Self::Input,
            _: &Self::Input,
            _: &(),
        ) -> Result<(), String> {
            Ok(())
        }
        fn render(&self, _m: usize, input: &Self::Input) -> String {
            format!("{input:?}")
        }
    }

    /// Korat over the choice slots finds exactly the program's inputs, in its order, each
    /// once: the candidates are the choice paths.
    #[test]
    fn korat_over_the_slots_finds_the_program_s_inputs_in_its_order() {
        let bench = Generated::new(Sorted);
        for scope in 1..=5 {
            let mut program = Vec::new();
            korat_choice::explore(
                Mode::Delayed,
                Limits::default(),
                |g| Sorted.generate(0, scope, g),
                |input, _| program.push(input),
            )
            .unwrap();
            let (fin, slots) = bench.finitize(0, scope);
            let mut korat = Vec::new();
            let stats = korat::search(
                &fin,
                |c| bench.precondition(0, &slots, c),
                |c| {
                    let mut c = Candidate::new(c.finitization(), c.state());
                    korat.push(bench.decode(0, &slots, &mut c));
                    ControlFlow::Continue(())
                },
            );
            // C(2s, s) lists, s arguments each.
            let lists = (1..=u64::from(scope)).fold(1, |a, k| a * (u64::from(scope) + k) / k);
            assert_eq!(
                program.len() as u64,
                lists * u64::from(scope),
                "scope {scope}"
            );
            assert_eq!(korat, program, "scope {scope}");
            assert_eq!(stats.valid, program.len() as u64);
        }
    }

    /// Up to two bits, as many as the first choice says: paths of 1 to 3 choices.
    struct Prefix;

    impl Generator for Prefix {
        type Input = Vec<i64>;
        type Ret = ();
        type Abstraction = Vec<i64>;
        fn methods(&self) -> &'static [&'static str] {
            &["touch"]
        }
        fn generate(&self, _m: usize, _s: u32, g: &mut Gen<'_>) -> Result<Vec<i64>, Pruned> {
            let n = g.pick(0..=2)?;
            (0..n).map(|_| g.pick(0..=1)).collect()
        }
        fn run(&self, _m: usize, _input: &mut Vec<i64>) {}
        fn invariant(&self, _input: &Vec<i64>) -> bool {
            true
        }
        fn abstraction(&self, input: &Vec<i64>) -> Vec<i64> {
            input.clone()
        }
        fn postcondition(
            &self,
            _m: usize,
            _: &Vec<i64>,
            _: &Vec<i64>,
            _: &(),
        ) -> Result<(), String> {
            Ok(())
        }
        fn render(&self, _m: usize, input: &Vec<i64>) -> String {
            format!("{input:?}")
        }
    }

    /// A candidate that is not a path (a check that fails, padding that is not 0) is no
    /// input, and Korat finds each path once: 1 + 2 + 4 of them.
    #[test]
    fn a_candidate_off_every_path_is_refused_and_each_path_found_once() {
        let bench = Generated::new(Sorted);
        let (fin, slots) = bench.finitize(0, 2);
        // Two values in 0..=2, then the argument: three slots.
        assert_eq!(slots.slots.len(), 3);
        let accepts =
            |state: &[u32]| bench.precondition(0, &slots, &mut Candidate::new(&fin, state));
        assert!(accepts(&[0, 2, 1]), "[0, 2], 1");
        assert!(!accepts(&[2, 0, 0]), "not sorted");

        let bench = Generated::new(Prefix);
        let (fin, slots) = bench.finitize(0, 1);
        assert_eq!(slots.slots.len(), 3);
        let accepts =
            |state: &[u32]| bench.precondition(0, &slots, &mut Candidate::new(&fin, state));
        assert!(accepts(&[2, 1, 0]) && accepts(&[0, 0, 0]) && accepts(&[1, 1, 0]));
        assert!(
            !accepts(&[0, 1, 0]),
            "a path of one choice, padded with a 1"
        );
        assert!(
            !accepts(&[1, 0, 1]),
            "a path of two choices, padded with a 1"
        );
        let stats = korat::search(
            &fin,
            |c| bench.precondition(0, &slots, c),
            |_| ControlFlow::Continue(()),
        );
        assert_eq!(stats.valid, 7);
    }
}
