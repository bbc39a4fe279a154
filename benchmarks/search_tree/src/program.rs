//! SearchTree's inputs as a generator program (issue 33's combined style), the crate's second
//! engine (`--engine generator`): the same inputs as the finitization at every paper scope,
//! each once (`tests/generator_style.rs`). The shape is built imperatively (UDITA's Fig. 23
//! size split), each key an integer chosen where the in-order check first reads it, and the
//! invariant is checked over the real tree last; the tree is the benchmark's own `SearchTree`
//! in the arena layout `decode_tree` gives (pre-order). Everything but `generate` is the
//! finitized benchmark's (`Beside`).

use crate::invariant::rep_ok;
use crate::tree::Node;
use crate::{Call, SearchTree, SearchTreeBench};
use ferastrau_sdk::generator::{Gen, Int, Program, Pruned};
use ferastrau_sdk::korat::view::Real;

/// SearchTree's methods and judgement, its inputs from a program.
pub struct SearchTreeProgram;

/// A subtree of exactly `size` nodes, numbered in pre-order; each key a suspended choice.
fn subtree(
    g: &mut Gen<'_>,
    tree: &mut SearchTree,
    keys: &mut Vec<Int>,
    size: i64,
    n: i64,
) -> Result<Option<usize>, Pruned> {
    if size == 0 {
        return Ok(None);
    }
    let id = tree.nodes.len();
    tree.nodes.push(Node {
        left: None,
        right: None,
        info: 0,
    });
    keys.push(g.int(1..=n)?);
    let left = g.pick(0..=size - 1)?;
    tree.nodes[id].left = subtree(g, tree, keys, left, n)?;
    tree.nodes[id].right = subtree(g, tree, keys, size - 1 - left, n)?;
    Ok(Some(id))
}

fn in_order(tree: &SearchTree, n: Option<usize>, out: &mut Vec<usize>) {
    if let Some(n) = n {
        in_order(tree, tree.nodes[n].left, out);
        out.push(n);
        in_order(tree, tree.nodes[n].right, out);
    }
}

impl Program for SearchTreeProgram {
    type Bench = SearchTreeBench;

    fn bench(&self) -> &SearchTreeBench {
        &SearchTreeBench
    }

    /// The finitization's space: up to `scope` nodes, keys and the argument in 1..=scope.
    fn generate(&self, _m: usize, scope: u32, g: &mut Gen<'_>) -> Result<Call, Pruned> {
        let n = i64::from(scope);
        let size = g.pick(0..=n)?;
        let mut tree = SearchTree {
            root: None,
            size,
            nodes: Vec::new(),
        };
        let mut keys = Vec::new();
        tree.root = subtree(g, &mut tree, &mut keys, size, n)?;
        // Keys strictly increasing in order, each read (and so chosen) as the check reaches it.
        let mut order = Vec::new();
        in_order(&tree, tree.root, &mut order);
        let mut last = 0;
        for node in order {
            let key = g.get(keys[node]);
            g.assume(key > last)?;
            tree.nodes[node].info = key;
            last = key;
        }
        g.assume(rep_ok(&mut Real(&tree)))?;
        Ok(Call {
            tree,
            x: g.pick(1..=n)?,
        })
    }
}
