//! TreeMap's inputs as a generator program (issue 33's combined style), the crate's
//! second engine (`--engine generator`): the same inputs as the finitization at every paper
//! scope, each once (`tests/generator_style.rs`). The shape is built by the
//! size of each left subtree (parents set as it goes), each key chosen where the in-order
//! check first reads it, each colour a choice, and the red-black invariant is checked over the
//! real map last (UDITA's combined style, its RBTree of Fig. 13 with keys and sizes free).
//! Everything but `generate` is the finitized benchmark's (`Beside`).

use crate::invariant::rep_ok;
use crate::space::VALUE;
use crate::tree_map::Entry;
use crate::{Call, TreeMap, TreeMapBench};
use ferastrau_sdk::generator::{Bool, Gen, Int, Program, Pruned};
use ferastrau_sdk::korat::view::Real;

/// TreeMap's methods and judgement, its inputs from a program.
pub struct TreeMapProgram;

/// A subtree of exactly `size` entries, numbered in pre-order; keys and colours suspended.
fn subtree(
    g: &mut Gen<'_>,
    map: &mut TreeMap,
    choices: &mut Vec<(Int, Bool)>,
    size: i64,
    parent: Option<usize>,
    n: i64,
) -> Result<Option<usize>, Pruned> {
    if size == 0 {
        return Ok(None);
    }
    let id = map.entries.len();
    let entry = Entry {
        key: 0,
        value: VALUE,
        left: None,
        right: None,
        parent,
        color: false,
    };
    map.entries.push(entry);
    choices.push((g.int(1..=n)?, g.bool()));
    let left = g.pick(0..=size - 1)?;
    map.entries[id].left = subtree(g, map, choices, left, Some(id), n)?;
    map.entries[id].right = subtree(g, map, choices, size - 1 - left, Some(id), n)?;
    Ok(Some(id))
}

fn in_order(map: &TreeMap, e: Option<usize>, out: &mut Vec<usize>) {
    if let Some(e) = e {
        in_order(map, map.entries[e].left, out);
        out.push(e);
        in_order(map, map.entries[e].right, out);
    }
}

impl Program for TreeMapProgram {
    type Bench = TreeMapBench;

    fn bench(&self) -> &TreeMapBench {
        &TreeMapBench
    }

    /// The finitization's space: up to `scope` entries, keys and the argument in 1..=scope,
    /// the one value, either colour.
    fn generate(&self, _m: usize, scope: u32, g: &mut Gen<'_>) -> Result<Call, Pruned> {
        let n = i64::from(scope);
        let size = g.pick(0..=n)?;
        let mut map = TreeMap {
            root: None,
            size,
            entries: Vec::new(),
        };
        let mut choices = Vec::new();
        map.root = subtree(g, &mut map, &mut choices, size, None, n)?;
        let mut order = Vec::new();
        in_order(&map, map.root, &mut order);
        let mut last = 0;
        for e in order {
            let key = g.get(choices[e].0);
            g.assume(key > last)?;
            map.entries[e].key = key;
            last = key;
        }
        for (e, &(_, colour)) in choices.iter().enumerate() {
            map.entries[e].color = g.get_bool(colour);
        }
        g.assume(rep_ok(&mut Real(&map)))?;
        Ok(Call {
            map,
            key: g.pick(1..=n)?,
        })
    }
}
