//! The glue that makes `heap.rs` a Ferastrau benchmark, in generator style: the invariant over
//! the real heap, a program that builds every input (`generate`), and what is compared. Fewer
//! lines than the code under test (`harness/cli/tests/integration/generator.rs` counts them).

pub mod heap;

use ferastrau_sdk::generator::{Gen, Generated, Generator, Pruned};
pub use heap::{Heap, Node};

type Tree = Option<Box<Node>>;

/// The invariant (the specification): keys in heap order, every rank the length of its right
/// spine, no left rank below its right one, and `size` nodes.
pub fn rep_ok(h: &Heap) -> bool {
    fn ok(t: &Tree, above: i64) -> bool {
        let Some(n) = t else { return true };
        let r = |t: &Tree| t.as_ref().map_or(0, |c| c.rank);
        n.key >= above
            && n.rank == r(&n.right) + 1
            && r(&n.left) >= r(&n.right)
            && ok(&n.left, n.key)
            && ok(&n.right, n.key)
    }
    ok(&h.root, i64::MIN) && keys(h).len() as i64 == h.size
}

/// Every heap of `size` nodes with keys in `low..=n`: the shape by the left subtree's size,
/// each key no smaller than its parent's, kept only where the leftist property holds.
fn tree(g: &mut Gen<'_>, size: i64, low: i64, n: i64) -> Result<Tree, Pruned> {
    if size == 0 {
        return Ok(None);
    }
    let key = g.pick(low..=n)?;
    let l = g.pick(0..=size - 1)?;
    let (left, right) = (tree(g, l, key, n)?, tree(g, size - 1 - l, key, n)?);
    let rank = |t: &Tree| t.as_ref().map_or(0, |c| c.rank);
    g.assume(rank(&left) >= rank(&right))?;
    Ok(Some(Box::new(Node { key, rank: rank(&right) + 1, left, right })))
}

/// A call: the heap, `merge`'s other heap (empty for the others), and the key of `insert` and
/// `contains` (0 for the others).
#[derive(Clone, Debug)]
pub struct Call(pub Heap, pub Heap, pub i64);

/// The keys, sorted: the abstraction (walked here, not by the mutated `drain_sorted`).
fn keys(h: &Heap) -> Vec<i64> {
    let (mut out, mut todo) = (Vec::new(), vec![&h.root]);
    while let Some(Some(n)) = todo.pop() {
        out.push(n.key);
        todo.extend([&n.left, &n.right].into_iter().filter(|t| t.is_some()));
    }
    out.sort_unstable();
    out
}

fn show(t: &Tree) -> String {
    t.as_ref().map_or("_".into(), |n| format!("({} {} {})", n.key, show(&n.left), show(&n.right)))
}

pub struct LeftistBenchmark;

impl Generator for LeftistBenchmark {
    type Input = Call;
    type Ret = String;
    type Abstraction = (Vec<i64>, Vec<i64>);

    fn methods(&self) -> &'static [&'static str] {
        &["insert", "extract_min", "merge", "peek", "len", "is_empty", "drain_sorted", "contains"]
    }

    /// At scope n: heaps of up to n keys in 1..=n; `insert`'s key in 1..=n; `merge`'s two heaps
    /// of n keys at most together.
    fn generate(&self, method: usize, scope: u32, g: &mut Gen<'_>) -> Result<Call, Pruned> {
        let n = i64::from(scope);
        let size = g.pick(0..=n)?;
        let heap = Heap { root: tree(g, size, 1, n)?, size };
        let other_size = if method == 2 { g.pick(0..=n - size)? } else { 0 };
        let other = Heap { root: tree(g, other_size, 1, n)?, size: other_size };
        let x = if method == 0 || method == 7 { g.pick(1..=n)? } else { 0 };
        Ok(Call(heap, other, x))
    }

    /// What each returns, as `Debug` writes it (`()` for `insert` and `merge`).
    fn run(&self, method: usize, c: &mut Call) -> String {
        match method {
            0 => format!("{:?}", c.0.insert(c.2)),
            1 => format!("{:?}", c.0.extract_min()),
            2 => format!("{:?}", c.0.merge(&mut c.1)),
            3 => format!("{:?}", c.0.peek()),
            4 => format!("{:?}", c.0.len()),
            5 => format!("{:?}", c.0.is_empty()),
            6 => format!("{:?}", c.0.drain_sorted()),
            _ => format!("{:?}", c.0.contains(c.2)),
        }
    }

    fn invariant(&self, c: &Call) -> bool {
        rep_ok(&c.0) && rep_ok(&c.1)
    }

    fn abstraction(&self, c: &Call) -> (Vec<i64>, Vec<i64>) {
        (keys(&c.0), keys(&c.1))
    }

    fn render(&self, m: usize, c: &Call) -> String {
        let arg = match m {
            0 | 7 => c.2.to_string(),
            2 => show(&c.1.root),
            _ => String::new(),
        };
        format!("{}({arg}) on {}", self.methods()[m], show(&c.0.root))
    }
}

ferastrau_sdk::export!(Generated::new(LeftistBenchmark));
