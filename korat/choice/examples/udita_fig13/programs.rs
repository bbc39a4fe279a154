//! The generator programs of UDITA's Fig. 13, in the paper's combined style: the shape built
//! imperatively where that is easy, the rest chosen and filtered by the invariant, which reads
//! the values in the order it checks them (so that delayed choice prunes after each read).
//!
//! What each program bounds, worked out from the figure's counts (and its explored paths,
//! which five of the programs match exactly in both modes):
//!
//! - **NQueens N**: a column per row in `0..N`, no two queens attacking: 4, 40, 92 for 6..8.
//!   Both modes explore exactly the figure's paths (746, 3,073, 13,756 delayed; N^N eager).
//! - **SortedList N**: size in `0..=N` (chosen at once), that many values in `0..N`,
//!   non-decreasing, checked in order: Σ_k C(N − 1 + k, k) = C(2N, N) = 924, 3,432, 12,870.
//!   Eager, Σ_k N^k = (N^(N+1) − 1)/(N − 1) paths (55,987 at 6), and delayed 3,967: both the
//!   figure's exactly. (N values in `0..=N` give the same counts from other paths: 4,753
//!   delayed and 7^6 eager at 6.)
//! - **SearchTree N**: exactly N nodes (shape by Fig. 23's size split), keys in `0..N`,
//!   non-decreasing in order (a duplicate key may go either side): Catalan(N) × C(2N − 1, N)
//!   = 490, 5,292, 60,984. Eager, Catalan(N) × N^N paths: the figure's baseline exactly.
//! - **HeapArray N**: size in `0..=N`, array length in `size..=N`, elements in `0..=N`, each
//!   at most its parent: 13,139, 117,562, 1,005,075 (Korat's HeapArray finitization). Both
//!   modes explore exactly the figure's paths (27,664 delayed against 160,132 eager at 6).
//! - **RBTree N**: exactly N nodes, keys 0..N in order (with N keys for N nodes only one
//!   assignment is ordered, so the program makes it rather than choosing it), a colour per
//!   node, red nodes' children black and one black count on every path, the root's colour
//!   free: 20, 35, 64. Eager, Catalan(N) × 2^N paths: the figure's baseline exactly.
//! - **DAG N**: Fig. 3's `initialize` — N nodes from a pool by `getNew`, each with
//!   `getInt(0, N − 1)` supertypes by `getAny` — filtered by Fig. 2's `isDAG` (no repeated
//!   supertype, no cycle): labeled DAGs whose nodes order their supertypes. 34 at N = 3, the
//!   figure's, but 1,757 and 487,656 at 4 and 5 where the figure has 2,352 and 769,894. No
//!   program we tried gives all three (supertypes as arrays or sets, with or without `isClass`
//!   and `isJavaInheritance`, up to isomorphism or not, null supertypes, shared arrays,
//!   Fig. 4's backbone, Korat's DAG finitization): with 34 at N = 3, a weight per node of
//!   each labeled DAG gives 941 + 136·w(3) at N = 4, never 2,352. The figure's 4,802 baseline
//!   paths at N = 3 are not Fig. 3's program either (ours: 3,112): with N nodes initialised in
//!   turn, each node's subtree of choices has a·C + b leaves over its continuation's C, and
//!   a³ + b(a² + a + 1) = 4,802 has no solution in integers; a size choice first (SortedList's
//!   case) fixes none of 72 variants tried either. UDITA's delayed pool as printed (Figs.
//!   11–12, whose forced `getAny` also offers a new object that then fails when the pool is
//!   full) explores 363 paths on Fig. 3's program at N = 3 by our reading (each node forced
//!   where `initialize` writes its fields), ours 251, the figure 321. Its
//!   counts at 4 and 5 come
//!   from UDITA's delayed pools alone (the baseline ran out of memory), whose level
//!   computation had a bug found later (the paper's Sec. 5.4); whether it shows here we cannot
//!   tell without its code.

use korat_choice::{Gen, Int, Pruned};

/// One row of the figure.
#[derive(Clone, Copy, Debug)]
pub struct Figure {
    pub n: usize,
    pub structures: u64,
    pub eager: Option<u64>,
    pub delayed: u64,
}

/// One program of the figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Program {
    Dag,
    HeapArray,
    NQueens,
    RbTree,
    SearchTree,
    SortedList,
}

impl Program {
    pub const ALL: [Program; 6] = [
        Program::Dag,
        Program::HeapArray,
        Program::NQueens,
        Program::RbTree,
        Program::SearchTree,
        Program::SortedList,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Program::Dag => "DAG",
            Program::HeapArray => "HeapArray",
            Program::NQueens => "NQueens",
            Program::RbTree => "RBTree",
            Program::SearchTree => "SearchTree",
            Program::SortedList => "SortedList",
        }
    }

    /// The figure's rows: size, structures, and paths explored eager (JPF's baseline; `None`
    /// where it ran out of memory) and delayed.
    pub fn figure(self) -> [Figure; 3] {
        let row = |n, structures, eager, delayed| Figure {
            n,
            structures,
            eager,
            delayed,
        };
        match self {
            Program::Dag => [
                row(3, 34, Some(4_802), 321),
                row(4, 2_352, None, 21_196),
                row(5, 769_894, None, 4_997_210),
            ],
            Program::HeapArray => [
                row(6, 13_139, Some(160_132), 27_664),
                row(7, 117_562, Some(2_739_136), 227_494),
                row(8, 1_005_075, Some(54_481_005), 2_325_069),
            ],
            Program::NQueens => [
                row(6, 4, Some(46_656), 746),
                row(7, 40, Some(823_543), 3_073),
                row(8, 92, Some(16_777_216), 13_756),
            ],
            Program::RbTree => [
                row(6, 20, Some(8_448), 3_588),
                row(7, 35, Some(54_912), 16_983),
                row(8, 64, Some(366_080), 80_470),
            ],
            Program::SearchTree => [
                row(4, 490, Some(3_584), 1_484),
                row(5, 5_292, Some(131_250), 21_210),
                row(6, 60_984, Some(6_158_592), 305_052),
            ],
            Program::SortedList => [
                row(6, 924, Some(55_987), 3_967),
                row(7, 3_432, Some(960_800), 18_026),
                row(8, 12_870, Some(19_173_961), 80_089),
            ],
        }
    }

    /// Runs the program for size `n` once; the input it builds, as the values it chose.
    pub fn run(self, g: &mut Gen, n: usize) -> Result<Vec<i64>, Pruned> {
        match self {
            Program::Dag => dag(g, n),
            Program::HeapArray => heap_array(g, n),
            Program::NQueens => n_queens(g, n),
            Program::RbTree => rb_tree(g, n),
            Program::SearchTree => search_tree(g, n),
            Program::SortedList => sorted_list(g, n),
        }
    }
}

fn values(g: &mut Gen, xs: &[Int]) -> Vec<i64> {
    xs.iter().map(|&x| g.get(x)).collect()
}

fn n_queens(g: &mut Gen, n: usize) -> Result<Vec<i64>, Pruned> {
    let n = n as i64;
    let columns = (0..n)
        .map(|_| g.int(0..=n - 1))
        .collect::<Result<Vec<_>, _>>()?;
    for row in 0..columns.len() {
        let c = g.get(columns[row]);
        for (earlier, &other) in columns[..row].iter().enumerate() {
            let d = g.get(other);
            g.assume(c != d && (c - d).abs() != (row - earlier) as i64)?;
        }
    }
    Ok(values(g, &columns))
}

fn sorted_list(g: &mut Gen, n: usize) -> Result<Vec<i64>, Pruned> {
    let size = g.pick(0..=n as i64)?;
    let values_ = (0..size)
        .map(|_| g.int(0..=n as i64 - 1))
        .collect::<Result<Vec<_>, _>>()?;
    for pair in values_.windows(2) {
        let (a, b) = (g.get(pair[0]), g.get(pair[1]));
        g.assume(a <= b)?;
    }
    Ok(values(g, &values_))
}

/// A binary tree's shape in an arena: `left`/`right` indices of each node, root 0.
#[derive(Default)]
struct Shape {
    left: Vec<Option<usize>>,
    right: Vec<Option<usize>>,
}

/// Fig. 23's `generateTreeBackbone` for exactly `n` nodes: the left subtree's size is chosen,
/// the right one's follows. Returns the subtree's root.
fn backbone(g: &mut Gen, shape: &mut Shape, n: usize) -> Result<Option<usize>, Pruned> {
    if n == 0 {
        return Ok(None);
    }
    let node = shape.left.len();
    shape.left.push(None);
    shape.right.push(None);
    let left = g.pick(0..=n as i64 - 1)? as usize;
    shape.left[node] = backbone(g, shape, left)?;
    shape.right[node] = backbone(g, shape, n - 1 - left)?;
    Ok(Some(node))
}

/// The nodes of `root`'s subtree in order.
fn in_order(shape: &Shape, root: Option<usize>, out: &mut Vec<usize>) {
    if let Some(n) = root {
        in_order(shape, shape.left[n], out);
        out.push(n);
        in_order(shape, shape.right[n], out);
    }
}

/// The nodes in order (root 0, if any).
fn nodes_in_order(shape: &Shape) -> Vec<usize> {
    let mut order = Vec::new();
    in_order(
        shape,
        Some(0).filter(|_| !shape.left.is_empty()),
        &mut order,
    );
    order
}

fn encode_shape(shape: &Shape) -> impl Iterator<Item = i64> + '_ {
    let index = |c: &Option<usize>| c.map_or(-1, |c| c as i64);
    shape
        .left
        .iter()
        .zip(&shape.right)
        .flat_map(move |(l, r)| [index(l), index(r)])
}

fn search_tree(g: &mut Gen, n: usize) -> Result<Vec<i64>, Pruned> {
    let mut shape = Shape::default();
    backbone(g, &mut shape, n)?;
    let keys = (0..n)
        .map(|_| g.int(0..=n as i64 - 1))
        .collect::<Result<Vec<_>, _>>()?;
    for pair in nodes_in_order(&shape).windows(2) {
        let (a, b) = (g.get(keys[pair[0]]), g.get(keys[pair[1]]));
        g.assume(a <= b)?;
    }
    let keys = values(g, &keys);
    Ok(encode_shape(&shape).chain(keys).collect())
}

fn rb_tree(g: &mut Gen, n: usize) -> Result<Vec<i64>, Pruned> {
    let mut shape = Shape::default();
    let root = backbone(g, &mut shape, n)?;
    let mut keys = vec![0; n];
    for (key, node) in nodes_in_order(&shape).into_iter().enumerate() {
        keys[node] = key as i64;
    }
    let red: Vec<_> = (0..n).map(|_| g.bool()).collect();
    /// The black nodes on every path from `node` down to a leaf, or pruned if they differ or
    /// a red node has a red child.
    fn black_height(
        g: &mut Gen,
        shape: &Shape,
        red: &[korat_choice::Bool],
        node: Option<usize>,
    ) -> Result<u32, Pruned> {
        let Some(n) = node else { return Ok(1) };
        let is_red = g.get_bool(red[n]);
        for child in [shape.left[n], shape.right[n]].into_iter().flatten() {
            if is_red {
                let child_red = g.get_bool(red[child]);
                g.assume(!child_red)?;
            }
        }
        let left = black_height(g, shape, red, shape.left[n])?;
        let right = black_height(g, shape, red, shape.right[n])?;
        g.assume(left == right)?;
        Ok(left + u32::from(!is_red))
    }
    black_height(g, &shape, &red, root)?;
    let colours: Vec<i64> = red.iter().map(|&r| i64::from(g.get_bool(r))).collect();
    Ok(encode_shape(&shape).chain(keys).chain(colours).collect())
}

fn heap_array(g: &mut Gen, n: usize) -> Result<Vec<i64>, Pruned> {
    let size = g.pick(0..=n as i64)?;
    let length = g.pick(size..=n as i64)?;
    let elements = (0..size)
        .map(|_| g.int(0..=n as i64))
        .collect::<Result<Vec<_>, _>>()?;
    for child in 1..elements.len() {
        let parent = g.get(elements[(child - 1) / 2]);
        let value = g.get(elements[child]);
        g.assume(parent >= value)?;
    }
    Ok([size, length]
        .into_iter()
        .chain(values(g, &elements))
        .collect())
}

fn dag(g: &mut Gen, n: usize) -> Result<Vec<i64>, Pruned> {
    let pool = g.pool(n, false);
    let nodes = (0..n)
        .map(|_| g.new_obj(pool))
        .collect::<Result<Vec<_>, _>>()?;
    let mut supertypes = Vec::with_capacity(n);
    for _ in 0..n {
        let count = g.pick(0..=n as i64 - 1)?;
        supertypes.push(
            (0..count)
                .map(|_| g.any(pool))
                .collect::<Result<Vec<_>, _>>()?,
        );
    }
    // Which node each object is: the nodes were all made by `new_obj`, so every object of
    // the pool is one of them.
    let mut node_of = vec![usize::MAX; n];
    for (i, &node) in nodes.iter().enumerate() {
        let o = g.obj(node).expect("new objects are never null");
        node_of[o] = i;
    }
    // Fig. 2's isDAG: every node visited once, a depth-first walk with the current path.
    let mut edges = vec![Vec::new(); n];
    let mut visited = vec![false; n];
    let mut on_path = vec![false; n];
    fn in_cycle_free(
        g: &mut Gen,
        node: usize,
        supertypes: &[Vec<korat_choice::Obj>],
        node_of: &[usize],
        edges: &mut [Vec<usize>],
        visited: &mut [bool],
        on_path: &mut [bool],
    ) -> Result<(), Pruned> {
        g.assume(!on_path[node])?;
        if visited[node] {
            return Ok(()); // its supertypes were walked: no cycle through them
        }
        on_path[node] = true;
        visited[node] = true;
        for i in 0..supertypes[node].len() {
            let s = node_of[g.obj(supertypes[node][i]).expect("a non-null pool")];
            g.assume(!edges[node].contains(&s))?;
            edges[node].push(s);
            in_cycle_free(g, s, supertypes, node_of, edges, visited, on_path)?;
        }
        on_path[node] = false;
        Ok(())
    }
    for node in 0..n {
        if !visited[node] {
            in_cycle_free(
                g,
                node,
                &supertypes,
                &node_of,
                &mut edges,
                &mut visited,
                &mut on_path,
            )?;
        }
    }
    Ok(edges
        .iter()
        .flat_map(|e| std::iter::once(-1).chain(e.iter().map(|&s| s as i64)))
        .collect())
}
