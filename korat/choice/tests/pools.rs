//! Delayed object pools against their eager meaning (UDITA tested its own implementation the
//! same way, and found a bug only sequences mixing `getNew` with as many `getAny`s as the pool
//! has objects showed): random sequences of `new`/`any` calls on pools of every size, read in
//! random orders, must give exactly the eager structures, each once.

use std::collections::BTreeSet;

use korat_choice::{explore, Gen, Limits, Mode, Obj, Pruned};

/// A small deterministic generator of test cases (xorshift64*).
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) % n
    }
}

#[derive(Clone, Debug)]
struct Case {
    size: usize,
    nullable: bool,
    /// true: `new`, false: `any`.
    calls: Vec<bool>,
    /// The order the symbols are read in; a symbol may be read twice, some never.
    reads: Vec<usize>,
}

fn case(rng: &mut Rng) -> Case {
    let size = 1 + rng.below(4) as usize;
    let calls: Vec<bool> = (0..1 + rng.below(7)).map(|_| rng.below(3) == 0).collect();
    let reads = (0..calls.len() + 2)
        .map(|_| rng.below(calls.len() as u64) as usize)
        .collect();
    Case {
        size,
        nullable: rng.below(2) == 0,
        calls,
        reads,
    }
}

/// The structure an execution built: which symbols share an object (objects renamed in the
/// order of the symbols), `None` for null and for a symbol never read.
fn run(g: &mut Gen, c: &Case) -> Result<Vec<Option<usize>>, Pruned> {
    let pool = g.pool(c.size, c.nullable);
    let mut symbols: Vec<Obj> = Vec::new();
    for &new in &c.calls {
        symbols.push(if new { g.new_obj(pool)? } else { g.any(pool)? });
    }
    let mut value = vec![None; symbols.len()];
    for &r in &c.reads {
        value[r] = Some(g.obj(symbols[r]));
    }
    // Unread symbols stay open in delayed mode; eager mode chose them anyway, so the two
    // modes agree only on what was read: read the rest too, at the end.
    for (r, v) in value.iter_mut().enumerate() {
        if v.is_none() {
            *v = Some(g.obj(symbols[r]));
        }
    }
    let mut names = Vec::new();
    Ok(value
        .into_iter()
        .map(|v| {
            v.unwrap().map(|o| {
                if !names.contains(&o) {
                    names.push(o);
                }
                names.iter().position(|&n| n == o).unwrap()
            })
        })
        .collect())
}

fn structures(mode: Mode, c: &Case) -> (Vec<Vec<Option<usize>>>, u64) {
    let mut found = Vec::new();
    let stats = explore(mode, Limits::default(), |g| run(g, c), |s, _| found.push(s)).unwrap();
    assert!(stats.complete);
    (found, stats.explored)
}

#[test]
fn delayed_pools_build_exactly_the_eager_structures_each_once() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut delayed_paths, mut eager_paths) = (0, 0);
    for _ in 0..3000 {
        let c = case(&mut rng);
        let (delayed, d) = structures(Mode::Delayed, &c);
        let (eager, e) = structures(Mode::Eager, &c);
        let once: BTreeSet<_> = delayed.iter().cloned().collect();
        assert_eq!(
            once.len(),
            delayed.len(),
            "a structure came out twice: {c:?}"
        );
        let eager_set: BTreeSet<_> = eager.iter().cloned().collect();
        assert_eq!(
            eager_set.len(),
            eager.len(),
            "eager built a structure twice: {c:?}"
        );
        assert_eq!(once, eager_set, "{c:?}");
        delayed_paths += d;
        eager_paths += e;
    }
    assert!(
        delayed_paths <= eager_paths,
        "{delayed_paths} > {eager_paths}"
    );
}

#[test]
fn udita_s_example_needs_the_three_anys_equal() {
    // Sec. 4.2: in a pool of 3, n1 = new; a1, a2, a3 = any; n2, n3 = new; read a1, a2, a3.
    // Only a1 = a2 = a3 (= n1) leaves room for n2 and n3.
    let program = |g: &mut Gen| {
        let p = g.pool(3, false);
        let n1 = g.new_obj(p)?;
        let a = [g.any(p)?, g.any(p)?, g.any(p)?];
        let (n2, n3) = (g.new_obj(p)?, g.new_obj(p)?);
        let read: Vec<_> = a.iter().map(|&x| g.obj(x)).collect();
        Ok((read, [n1, n2, n3].map(|x| g.obj(x))))
    };
    let mut found = Vec::new();
    let stats = explore(Mode::Delayed, Limits::default(), program, |s, _| {
        found.push(s)
    })
    .unwrap();
    assert_eq!(stats.structures, 1);
    assert_eq!(
        stats.explored, 1,
        "delayed choice never offers a value that cannot fit"
    );
    let (anys, news) = &found[0];
    assert!(anys.iter().all(|&a| a == anys[0]) && news[0] == anys[0]);
}

/// Binary trees built declaratively through a nullable pool (each child `any`, the tree
/// checked as it is walked): every shape of n nodes exactly once, Catalan(n) of them, because
/// objects are numbered in the order they are read — what Korat's isomorphism breaking gives.
#[test]
fn trees_through_a_pool_come_out_once_per_shape() {
    for (n, catalan) in [(1, 1), (2, 2), (3, 5), (4, 14), (5, 42)] {
        for mode in [Mode::Delayed, Mode::Eager] {
            let mut shapes = BTreeSet::new();
            let stats = explore(
                mode,
                Limits::default(),
                |g| {
                    let pool = g.pool(n, true);
                    let root = g.new_obj(pool)?;
                    // Breadth first: each node read once, its children asked for and read.
                    let mut queue = vec![g.obj(root).expect("new is not null")];
                    let mut shape = Vec::new();
                    let mut seen = vec![queue[0]];
                    while let Some(node) = queue.pop() {
                        for _ in 0..2 {
                            let child = g.any(pool)?;
                            let child = g.obj(child);
                            if let Some(c) = child {
                                g.assume(!seen.contains(&c))?; // a tree: no sharing, no cycle
                                seen.push(c);
                                queue.insert(0, c);
                            }
                            shape.push((node, child));
                        }
                    }
                    g.assume(seen.len() == n)?;
                    Ok(shape)
                },
                |shape, _| assert!(shapes.insert(shape), "a shape came out twice"),
            )
            .unwrap();
            assert_eq!(stats.structures, catalan, "{mode:?}, {n} nodes");
        }
    }
}
