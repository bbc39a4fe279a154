//! SortedList's inputs as a generator program (issue 33's combined style), the crate's second
//! engine (`--engine generator`): the same inputs as the finitization at every paper scope,
//! each once (`tests/generator_style.rs`). Each list is built as the ring the derived decoder gives
//! (header first, then the data entries in list order), its length a choice and each element
//! an integer chosen where the order check first reads it; the invariant is checked over the
//! real list last. `merge`'s two lists share the finitization's pool of n + 1 entries, so their
//! lengths and two headers fit in it. Everything but `generate` is the finitized benchmark's
//! (`Beside`).

use ferastrau_sdk::generator::{Gen, Int, Program, Pruned};

use crate::invariant::{rep_ok, rep_ok_pair, Pair};
use crate::list::{Entry, ListRef};
use crate::space::Args;
use crate::{args_of, Call, SortedList, SortedListBench};
use ferastrau_sdk::korat::view::Real;

/// SortedList's methods and judgement, its inputs from a program.
pub struct SortedListProgram;

/// Appends a ring of a header and `size` data entries to `entries` (as `decode_into` lays one
/// out) with elements in 1..=n, chosen as they are read: in order and, if `sorted`, no smaller
/// than the one before. Returns the header's id.
fn ring(
    g: &mut Gen<'_>,
    entries: &mut Vec<Entry>,
    size: i64,
    n: i64,
    sorted: bool,
) -> Result<usize, Pruned> {
    let base = entries.len();
    let k = size as usize + 1;
    let elements: Vec<Int> = (0..size).map(|_| g.int(1..=n)).collect::<Result<_, _>>()?;
    let mut last = 1;
    for i in 0..k {
        let element = match i {
            0 => None,
            _ => {
                let e = g.get(elements[i - 1]);
                if sorted {
                    g.assume(e >= last)?;
                    last = e;
                }
                Some(e)
            }
        };
        entries.push(Entry {
            element,
            next: Some(base + (i + 1) % k),
            previous: Some(base + (i + k - 1) % k),
        });
    }
    Ok(base)
}

impl Program for SortedListProgram {
    type Bench = SortedListBench;

    fn bench(&self) -> &SortedListBench {
        &SortedListBench
    }

    /// The finitization's space: n + 1 entries, sizes 0..n, elements and `x` in 1..n.
    fn generate(&self, method: usize, scope: u32, g: &mut Gen<'_>) -> Result<Call, Pruned> {
        let n = i64::from(scope);
        let mut list = SortedList {
            header: None,
            size: 0,
            entries: Vec::new(),
        };
        match args_of(method) {
            Args::Other => {
                // Two headers and both lists' entries among the pool's n + 1.
                let size = g.pick(0..=n - 1)?;
                let other_size = g.pick(0..=n - 1 - size)?;
                list.size = size;
                list.header = Some(ring(g, &mut list.entries, size, n, true)?);
                let other = ListRef {
                    header: Some(ring(g, &mut list.entries, other_size, n, true)?),
                    size: other_size,
                };
                let input = Call {
                    list,
                    x: 0,
                    other: Some(other),
                };
                g.assume(rep_ok_pair(&mut Real(&Pair(&input.list, other))))?;
                Ok(input)
            }
            args => {
                // `sort` takes any well-formed list; `insert` and `remove` a sorted one.
                let sorted = args == Args::X;
                list.size = g.pick(0..=n)?;
                list.header = Some(ring(g, &mut list.entries, list.size, n, sorted)?);
                g.assume(rep_ok(&mut Real(&list), 0, sorted))?;
                let x = if sorted { g.pick(1..=n)? } else { 0 };
                Ok(Call {
                    list,
                    x,
                    other: None,
                })
            }
        }
    }
}
