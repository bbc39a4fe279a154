//! Sequences of method calls (the JPF paper's way to inputs): every sequence of the target
//! methods' calls from [`Benchmark::initial`], breadth first, arguments 1..=scope, a state
//! explored once however many sequences reach it. `ferastrau sequences` reports what they
//! reach, `export-tests` builds inputs by the shortest of them, and benchmark crates test what
//! they reach — all through [`explore`].

use std::collections::HashMap;

use crate::inputs::for_each_input;
use crate::{panics, Benchmark};

/// One call [`explore`] made, handed to its visitor.
pub struct Call<'a, B: Benchmark> {
    /// The state it was made on (0: the initial state).
    pub state: u64,
    /// The method called, by its number.
    pub method: usize,
    /// Its argument.
    pub arg: i64,
    /// What it returned, or `None` when it panicked (its sequence ends there).
    pub ret: Option<&'a B::Ret>,
    /// The post-state (the pre-state's copy the call changed).
    pub post: &'a B::Input,
    /// The id of the state the call reached when it was new, else `None`.
    pub new_state: Option<u64>,
}

/// One finished length of [`explore`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The length finished.
    pub length: u32,
    /// Distinct states reached so far (the initial one included).
    pub states: u64,
    /// Those first reached at this length.
    pub new_states: u64,
    /// Calls made so far.
    pub calls: u64,
}

/// The states reached: for each, by its key, the calls (method, argument) that
/// first reached it from the initial state.
pub struct Reached {
    states: HashMap<String, Vec<(usize, i64)>>,
}

impl Reached {
    /// The calls that first reached the state with key `key`, if any sequence reached it.
    pub fn path(&self, key: &str) -> Option<&[(usize, i64)]> {
        self.states.get(key).map(Vec::as_slice)
    }

    /// Whether some sequence reached the state with key `key`.
    pub fn contains(&self, key: &str) -> bool {
        self.states.contains_key(key)
    }
}

/// Explores every sequence of up to `length` calls from `bench.initial(scope)` (`None` when
/// the benchmark has none), arguments 1..=`scope`, states told apart by `key`. Each call runs
/// through `run` (the caller's way to call the method, e.g. with coverage counted); a call
/// that panics ends its sequence. `visit` sees every call, `level` every finished length.
pub fn explore<B: Benchmark>(
    bench: &B,
    length: u32,
    scope: u32,
    key: impl Fn(&B::Input) -> String,
    run: impl FnMut(usize, &mut B::Input) -> B::Ret,
    visit: impl FnMut(Call<'_, B>) -> std::io::Result<()>,
    level: impl FnMut(Level) -> std::io::Result<()>,
) -> std::io::Result<Option<Reached>> {
    explore_within(bench, length, usize::MAX, scope, key, run, visit, level)
}

/// [`explore`], stopping after the first length at which more than `max_states` states are
/// known, or at which no new state appeared (with a finite `max_states`: [`explore`] reports
/// every length it is asked for).
#[allow(clippy::too_many_arguments)]
pub fn explore_within<B: Benchmark>(
    bench: &B,
    length: u32,
    max_states: usize,
    scope: u32,
    key: impl Fn(&B::Input) -> String,
    mut run: impl FnMut(usize, &mut B::Input) -> B::Ret,
    mut visit: impl FnMut(Call<'_, B>) -> std::io::Result<()>,
    mut level: impl FnMut(Level) -> std::io::Result<()>,
) -> std::io::Result<Option<Reached>> {
    let Some(start) = bench.initial(scope) else {
        return Ok(None);
    };
    let mut states = HashMap::from([(key(&start), Vec::new())]);
    let mut frontier = vec![(0u64, Vec::new(), start)];
    let mut calls = 0u64;
    for len in 1..=length {
        let mut next = Vec::new();
        for (id, path, state) in &frontier {
            for m in 0..bench.methods().len() {
                for arg in 1..=i64::from(scope) {
                    let mut post = bench.with_argument(m, state, arg);
                    calls += 1;
                    let ret = panics::expected(|| run(m, &mut post)).ok();
                    let mut new_state = None;
                    if ret.is_some() {
                        let k = key(&post);
                        if !states.contains_key(&k) {
                            let new = states.len() as u64;
                            let mut reached: Vec<(usize, i64)> = path.clone();
                            reached.push((m, arg));
                            states.insert(k, reached.clone());
                            new_state = Some(new);
                            next.push((new, reached, post.clone()));
                        }
                    }
                    visit(Call {
                        state: *id,
                        method: m,
                        arg,
                        ret: ret.as_ref(),
                        post: &post,
                        new_state,
                    })?;
                }
            }
        }
        level(Level {
            length: len,
            states: states.len() as u64,
            new_states: next.len() as u64,
            calls,
        })?;
        if next.is_empty() && max_states != usize::MAX || states.len() > max_states {
            break;
        }
        frontier = next;
    }
    Ok(Some(Reached { states }))
}

/// The input of `method` with argument `arg` on the state `path` reaches from
/// `bench.initial(scope)`, every call through `bench.run`; `None` without an initial state or
/// when a call panics.
pub fn replay<B: Benchmark>(
    bench: &B,
    scope: u32,
    path: &[(usize, i64)],
    method: usize,
    arg: i64,
) -> Option<B::Input> {
    let mut state = bench.initial(scope)?;
    for &(m, a) in path {
        state = bench.with_argument(m, &state, a);
        panics::expected(|| bench.run(m, &mut state)).ok()?;
    }
    Some(bench.with_argument(method, &state, arg))
}

/// The keys of the distinct receivers of Korat's inputs at `scope`, over every method (the
/// receiver of an input is `with_argument(m, input, 0)`'s).
pub fn korat_receivers<B: Benchmark>(
    bench: &B,
    scope: u32,
    key: impl Fn(&B::Input) -> String,
) -> std::collections::HashSet<String> {
    let mut receivers = std::collections::HashSet::new();
    for m in 0..bench.methods().len() {
        for_each_input(bench, m, scope, |input| {
            receivers.insert(key(&bench.with_argument(m, &input, 0)));
        });
    }
    receivers
}

/// Of Korat's distinct receivers at `scope`, how many sequences of up to `length` calls
/// reach, states matched by structure (for benchmark crates' tests); `(reached, receivers)`.
pub fn reach<B: Benchmark>(bench: &B, length: u32, scope: u32) -> (usize, usize) {
    let key = |i: &B::Input| bench.structure(i);
    let reached = explore(
        bench,
        length,
        scope,
        key,
        |m, i| bench.run(m, i),
        |_| Ok(()),
        |_| Ok(()),
    )
    .expect("nothing to fail")
    .expect("the benchmark has an initial state");
    let receivers = korat_receivers(bench, scope, key);
    let n = receivers.iter().filter(|k| reached.contains(k)).count();
    (n, receivers.len())
}
