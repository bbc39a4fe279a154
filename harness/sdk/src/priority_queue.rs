//! A [`Benchmark`] for any mergeable priority queue of integer keys with the four methods
//! `insert(x)`, `extractMin()`, `union(k)` and `delete(x)`: the method table, the argument
//! domains, the calls, their postconditions (the multiset of keys) and their rendering, written
//! once. A heap crate implements [`PriorityQueue`] — its heap type (finitized and decoded by
//! `#[derive(Korat)]`), invariant and the four operations — and gets [`Benchmark`] from the
//! blanket implementation below.
//!
//! Why here and not in each crate: the paper's heap benchmarks state the same four
//! specifications over the same abstraction (the sorted keys), so the adapter was the same
//! 130 lines twice; only the heap differs. Nothing here names a benchmark.
//!
//! Inputs at scope n, every heap paired with every argument value (generated jointly):
//! - `insert(x)`, x over 0..n (the n key values and one larger): n+1 inputs per heap;
//! - `extractMin()`: one input per heap;
//! - `union(k)`, k over 1..n: the heap is united with a second heap of k nodes holding the
//!   keys n−k..n−1 ([`PriorityQueue::other_heap`]): n inputs per heap;
//! - `delete(x)`, x over 0..n: n+1 inputs per heap.
//!
//! Together 3(n+1) inputs per heap. Outputs are the return value and the multiset of keys of
//! the post-state.
//!
//! The heap's `Default`, the empty heap, starts `ferastrau sequences` ([`Benchmark::initial`],
//! [`Benchmark::with_argument`]), and `export-tests` builds its inputs by the calls that reach
//! them.

use std::fmt::Debug;

use korat::view::{Finitized, Root};
use korat::{Candidate, ClassId, Domain, Finitization, ROOT};

use crate::Benchmark;

/// Method indices, in the order of [`METHODS`]: `insert(x)`, x over 0..n.
pub const INSERT: usize = 0;
/// `extractMin()`, no argument.
pub const EXTRACT_MIN: usize = 1;
/// `union(k)`: the second heap of `k` nodes (1..n) is built outside the code under test.
pub const UNION: usize = 2;
/// `delete(x)`, x over 0..n.
pub const DELETE: usize = 3;

/// The target methods, by their Java names.
pub const METHODS: &[&str] = &["insert", "extractMin", "union", "delete"];

/// The argument domain of `method` at scope `n`, `None` for a method without argument.
pub fn arg_domain(method: usize, n: u32) -> Option<(i64, i64)> {
    let n = i64::from(n);
    match method {
        INSERT | DELETE => Some((0, n)),
        UNION => Some((1, n)),
        _ => None,
    }
}

/// What a heap crate provides. Methods take `&self` (the crate's unit benchmark type) so that
/// the mutator, which offers a crate's functions of compatible signature as call mutants, never
/// sees them as alternatives to the heap's own methods.
pub trait PriorityQueue: Send + Sync + 'static {
    /// The heap in its real (arena) form: finitized and decoded by `#[derive(Korat)]`'s
    /// [`Finitized`] and [`Root`] (the argument `x`, when a method has one, is a root field
    /// after the heap's own); its `Default` is the empty heap.
    type Heap: Clone + Debug + Send + Default + Finitized + Root<Fields: Send + Sync>;

    /// The class name, prefix of each method's finitization (`<name>_insert`, ...).
    fn name(&self) -> &'static str;
    /// The class invariant on a candidate.
    fn candidate_ok(&self, f: &<Self::Heap as Root>::Fields, c: &mut Candidate<'_>) -> bool;
    /// Whether [`PriorityQueue::candidate_ok_dedicated`] is a dedicated-generator variant.
    const HAS_DEDICATED: bool = false;
    /// The class invariant with dedicated generators ([`Benchmark::precondition_dedicated`]);
    /// the plain one by default.
    fn candidate_ok_dedicated(
        &self,
        f: &<Self::Heap as Root>::Fields,
        c: &mut Candidate<'_>,
    ) -> bool {
        self.candidate_ok(f, c)
    }
    /// `union(k)`'s second heap at scope `n`: `k` nodes holding the keys n−k..n−1.
    fn other_heap(&self, k: i64, n: i64) -> Self::Heap;
    /// The class invariant on a real heap.
    fn rep_ok(&self, h: &Self::Heap) -> bool;
    /// The keys, sorted (the abstraction; `h` satisfies the invariant).
    fn sorted_keys(&self, h: &Self::Heap) -> Vec<i64>;
    /// Whether [`PriorityQueue::structure`] is defined ([`Benchmark::STRUCTURE`]).
    const STRUCTURE: bool = false;
    /// The heap's concrete structure ([`Benchmark::structure`]; `h` satisfies the invariant).
    fn structure(&self, h: &Self::Heap) -> String {
        let _ = h;
        unreachable!("PriorityQueue::structure is called only when STRUCTURE is true")
    }
    /// A readable rendering of a heap.
    fn render_heap(&self, h: &Self::Heap) -> String;

    /// The code under test's `insert(x)`.
    fn insert(&self, h: &mut Self::Heap, x: i64);
    /// The code under test's `extractMin()`: the least key, `None` on an empty heap.
    fn extract_min(&self, h: &mut Self::Heap) -> Option<i64>;
    /// The code under test's `union(other)`: `other` is moved into `h`'s arena.
    fn union(&self, h: &mut Self::Heap, other: Self::Heap);
    /// The code under test's `delete(x)`: whether `x` was found and removed.
    fn delete(&self, h: &mut Self::Heap, x: i64) -> bool;
}

/// One call: the receiver, the argument, and for `union` the second heap built from it.
#[derive(Clone, Debug)]
pub struct Call<H> {
    /// The receiver.
    pub heap: H,
    /// The argument (`x` of insert/delete, `k` of union; 0 for extractMin).
    pub x: i64,
    /// `union`'s second heap.
    pub other: Option<H>,
}

/// A call's return value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ret {
    /// `insert` and `union` return nothing.
    Void,
    /// `delete`: whether the key was present.
    Bool(bool),
    /// `extractMin`: the smallest key, `None` on the empty heap.
    Key(Option<i64>),
}

const SECOND_HEAP: &str = "union carries its second heap";

impl<Q: PriorityQueue> Benchmark for Q {
    type Fields = <Q::Heap as Root>::Fields;
    type Input = Call<Q::Heap>;
    type Ret = Ret;
    type Abstraction = Vec<i64>;

    fn methods(&self) -> &'static [&'static str] {
        METHODS
    }

    fn finitize(&self, method: usize, scope: u32) -> (Finitization, <Q::Heap as Root>::Fields) {
        let root = format!("{}_{}", self.name(), METHODS[method]);
        let x = arg_domain(method, scope).map(|(lo, hi)| ("x", Domain::ints(lo, hi)));
        Q::Heap::finitization(&root, scope, x.as_slice())
    }

    /// The precondition is the queue's invariant (`candidate_ok`) for every method: one structure search serves them all.
    fn precondition_is_invariant(&self, _method: usize) -> bool {
        true
    }

    fn precondition(
        &self,
        _method: usize,
        f: &<Q::Heap as Root>::Fields,
        c: &mut Candidate<'_>,
    ) -> bool {
        self.candidate_ok(f, c)
    }

    const HAS_DEDICATED: bool = Q::HAS_DEDICATED;

    fn precondition_dedicated(
        &self,
        _method: usize,
        f: &<Q::Heap as Root>::Fields,
        c: &mut Candidate<'_>,
    ) -> bool {
        self.candidate_ok_dedicated(f, c)
    }

    fn decode(
        &self,
        method: usize,
        f: &<Q::Heap as Root>::Fields,
        c: &mut Candidate<'_>,
    ) -> Call<Q::Heap> {
        // The argument is the root's `x`; the scope, the size of the heap's node pool (its
        // finitization's first class).
        let fin = c.finitization();
        let arg = fin.field_named(ROOT, "x");
        let scope = i64::from(fin.count(ClassId(1)));
        let x = arg.map_or(0, |a| c.int(a, 0));
        let other = (method == UNION).then(|| self.other_heap(x, scope));
        Call {
            heap: Q::Heap::decode(c, f),
            x,
            other,
        }
    }

    fn run(&self, method: usize, input: &mut Call<Q::Heap>) -> Ret {
        match method {
            INSERT => {
                self.insert(&mut input.heap, input.x);
                Ret::Void
            }
            EXTRACT_MIN => Ret::Key(self.extract_min(&mut input.heap)),
            UNION => {
                let other = input.other.clone().expect(SECOND_HEAP);
                self.union(&mut input.heap, other);
                Ret::Void
            }
            _ => Ret::Bool(self.delete(&mut input.heap, input.x)),
        }
    }

    fn invariant(&self, input: &Call<Q::Heap>) -> bool {
        self.rep_ok(&input.heap)
    }

    fn abstraction(&self, input: &Call<Q::Heap>) -> Vec<i64> {
        self.sorted_keys(&input.heap)
    }

    const STRUCTURE: bool = Q::STRUCTURE;

    /// The receiver's structure: after `union` it holds the second heap's nodes too.
    fn structure(&self, input: &Call<Q::Heap>) -> String {
        PriorityQueue::structure(self, &input.heap)
    }

    fn postcondition(
        &self,
        method: usize,
        pre: &Call<Q::Heap>,
        post: &Call<Q::Heap>,
        ret: &Ret,
    ) -> Result<(), String> {
        let before = self.sorted_keys(&pre.heap);
        let after = self.sorted_keys(&post.heap);
        let mut expected = before.clone();
        let expected_ret = match method {
            // ensures repOk() && keys() == \old(keys()) ∪ {x}
            INSERT => {
                expected.push(pre.x);
                Ret::Void
            }
            // ensures repOk() && \result == \old(min()) && keys() == \old(keys()) − {\result}
            EXTRACT_MIN => {
                let min = before.first().copied();
                if !expected.is_empty() {
                    expected.remove(0);
                }
                Ret::Key(min)
            }
            // ensures repOk() && keys() == \old(keys()) ∪ other.keys()
            UNION => {
                let other = pre.other.as_ref().expect(SECOND_HEAP);
                expected.extend(self.sorted_keys(other));
                Ret::Void
            }
            // ensures repOk() && \result == \old(contains(x)) && keys() == \old(keys()) − {x}
            _ => {
                let at = before.iter().position(|&k| k == pre.x);
                if let Some(i) = at {
                    expected.remove(i);
                }
                Ret::Bool(at.is_some())
            }
        };
        expected.sort_unstable();
        if *ret != expected_ret {
            return Err(format!("returned {ret:?}, expected {expected_ret:?}"));
        }
        if after != expected {
            return Err(format!("keys after are {after:?}, expected {expected:?}"));
        }
        Ok(())
    }

    fn render(&self, method: usize, input: &Call<Q::Heap>) -> String {
        let heap = self.render_heap(&input.heap);
        match method {
            EXTRACT_MIN => format!("extractMin() on {heap}"),
            UNION => format!(
                "union({}) on {heap}",
                self.render_heap(input.other.as_ref().expect(SECOND_HEAP))
            ),
            _ => format!("{}({}) on {heap}", METHODS[method], input.x),
        }
    }

    /// Sequences start from the empty heap, the heap's `Default`.
    fn initial(&self, _scope: u32) -> Option<Call<Q::Heap>> {
        Some(Call {
            heap: Q::Heap::default(),
            x: 0,
            other: None,
        })
    }

    /// The call of `method` with the sequences' argument `arg` (1..=n at scope n) on `state`'s
    /// heap. Korat's keys at scope n are 0..n−1, so argument `arg` stands for key `arg − 1`:
    /// sequences use the n keys of Korat's heaps, which they are compared with. The calls:
    /// `insert(arg − 1)`; `extractMin()`, which takes no argument (every `arg` makes the same
    /// call); `delete(arg − 1)`, of the first node holding that key if there is one (the
    /// input's `x`, as Korat's `delete(x)` inputs have it); and `union` with the one-node heap
    /// holding `arg − 1` (`other_heap(1, arg)`; `x` is its 1 node, as Korat's `union(k)`
    /// counts them). `ferastrau sequences` also calls it with `arg` 0 on Korat's inputs, of
    /// which it reads only the receiver.
    fn with_argument(&self, method: usize, state: &Call<Q::Heap>, arg: i64) -> Call<Q::Heap> {
        let heap = state.heap.clone();
        match method {
            EXTRACT_MIN => Call {
                heap,
                x: 0,
                other: None,
            },
            UNION => Call {
                heap,
                x: 1,
                other: Some(self.other_heap(1, arg)),
            },
            _ => Call {
                heap,
                x: arg - 1,
                other: None,
            },
        }
    }
}

/// The tests every priority-queue crate has, generic over [`PriorityQueue`] (the crates' own
/// tests call them with their exact counts).
pub mod checks {
    use korat::Stats;

    use super::{PriorityQueue, Ret, DELETE, EXTRACT_MIN, INSERT, UNION};
    use crate::{testing, Benchmark};

    /// At each scope n of `paper` (the paper's `# inputs` from scope 1), `heaps(n)` (Korat on
    /// the bare heap) finds `structures[n − 1]` heaps, and each method pairs every heap with
    /// every value of its argument — an argument no precondition reads, so each value beyond
    /// the first costs exactly one more candidate per heap: 3(n+1) inputs per heap in all.
    pub fn assert_inputs<Q: PriorityQueue>(
        q: &Q,
        structures: &[u64],
        paper: &[u64],
        heaps: impl Fn(u32) -> Stats,
    ) {
        testing::assert_counts(q, paper, |n, methods| {
            let heaps = heaps(n);
            assert_eq!(
                heaps.valid,
                structures[n as usize - 1],
                "heaps at scope {n}"
            );
            for (m, s) in methods.iter().enumerate() {
                let d = match m {
                    INSERT | DELETE => u64::from(n) + 1,
                    UNION => u64::from(n),
                    _ => 1,
                };
                assert_eq!(s.valid, heaps.valid * d, "method {m} at scope {n}");
                assert_eq!(s.explored, heaps.explored + heaps.valid * (d - 1));
            }
            let total: u64 = methods.iter().map(|s| s.valid).sum();
            assert_eq!(total, 3 * (u64::from(n) + 1) * heaps.valid);
        });
    }

    /// `union(k)`'s second heap at scopes 1..=max is a valid heap of the k keys n−k..n−1.
    pub fn assert_second_heaps<Q: PriorityQueue>(q: &Q, max: i64) {
        for n in 1..=max {
            for k in 1..=n {
                let h = q.other_heap(k, n);
                assert!(q.rep_ok(&h), "k={k}, n={n}");
                assert_eq!(q.sorted_keys(&h), ((n - k)..n).collect::<Vec<_>>());
            }
        }
    }

    /// `extractMin`'s inputs at `scope`: `count` of them, the empty heap first, `example` among
    /// them, and no two rendered alike (isomorphic inputs would be).
    pub fn assert_extract_min_inputs<Q: PriorityQueue>(
        q: &Q,
        scope: u32,
        count: usize,
        example: &str,
    ) {
        let shown = testing::renders(q, EXTRACT_MIN, scope);
        assert_eq!(shown.len(), count);
        assert_eq!(shown[0], "extractMin() on []");
        assert!(shown.iter().any(|s| s == example), "{shown:?}");
        let distinct: std::collections::HashSet<&String> = shown.iter().collect();
        assert_eq!(distinct.len(), count);
    }

    /// On a scope-3 heap of three keys holding 1, each method's real post-state meets its
    /// postcondition and the unchanged pre-state does not, nor does a wrong return value.
    pub fn assert_postconditions_reject_wrong_outputs<Q: PriorityQueue>(q: &Q) {
        let call = testing::method_inputs(q, DELETE, 3)
            .into_iter()
            .find(|c| c.x == 1 && q.sorted_keys(&c.heap) == [0, 1, 2])
            .expect("a heap of the keys 0, 1, 2");
        for m in [INSERT, EXTRACT_MIN, UNION, DELETE] {
            let mut pre = call.clone();
            if m == UNION {
                pre.other = Some(q.other_heap(1, 3));
            }
            let mut post = pre.clone();
            let ret = q.run(m, &mut post);
            assert!(q.postcondition(m, &pre, &post, &ret).is_ok(), "method {m}");
            // The unchanged pre-state is a wrong post-state for every method here.
            let wrong = q.postcondition(m, &pre, &pre, &ret);
            assert!(wrong.is_err(), "method {m}");
        }
        let mut post = call.clone();
        let ret = q.run(DELETE, &mut post);
        assert_eq!(ret, Ret::Bool(true));
        assert!(q
            .postcondition(DELETE, &call, &post, &Ret::Bool(false))
            .is_err());
    }

    /// A deterministic pseudo-random mix of the four operations on `empty`, against a sorted
    /// `Vec`: the invariant and the multiset of keys hold after each of 4,000 steps.
    pub fn assert_long_sequences<Q: PriorityQueue>(q: &Q, empty: Q::Heap) {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m) as i64
        };
        let mut h = empty;
        let mut model: Vec<i64> = Vec::new();
        for step in 0..4000 {
            // Mostly extractions once the heap is large, to keep each step's checks cheap.
            let op = if model.len() > 60 { 2 } else { next(5) };
            match op {
                0 | 1 => {
                    let k = next(20);
                    q.insert(&mut h, k);
                    model.push(k);
                }
                2 => {
                    model.sort_unstable();
                    let expected = (!model.is_empty()).then(|| model.remove(0));
                    assert_eq!(q.extract_min(&mut h), expected, "step {step}");
                }
                3 => {
                    let k = next(20);
                    let at = model.iter().position(|&x| x == k);
                    if let Some(i) = at {
                        model.remove(i);
                    }
                    assert_eq!(q.delete(&mut h, k), at.is_some(), "step {step}");
                }
                _ => {
                    let k = next(6) + 1;
                    let other = q.other_heap(k, 20);
                    model.extend(q.sorted_keys(&other));
                    q.union(&mut h, other);
                }
            }
            assert!(q.rep_ok(&h), "step {step}");
            model.sort_unstable();
            assert_eq!(q.sorted_keys(&h), model, "step {step}");
        }
    }
}
