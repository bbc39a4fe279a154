//! Korat's side: the finitization (`finDisjSet(n)` with the method's arguments beside the
//! receiver) and rendering. The field ids, the view and the decoder are `#[derive(Korat)]`'s
//! (`crate::disj_set`): `Record[] elements` is the arena `elements` listed in slot order.

use ferastrau_sdk::korat::{Domain, Finitization};

use crate::disj_set::DisjSet;

pub use crate::disj_set::DisjSetFields as Fields;

/// `finDisjSet(n)` (the `#[korat]` domains of [`DisjSet`]): a pool of `n` records (no null)
/// and one record array of length 0..n whose slots point into the pool; `size` 0..n; each
/// record's `parent` and `rank` over 0..n−1. With `args` > 0 the root also holds that many
/// arguments (`a`, then `b`) over 0..n−1, so receiver and arguments are generated jointly; the
/// precondition never reads them. Slots: root (`elements`, `size`, arguments), then each record
/// (`parent`, `rank`), then the array (`length`, `e[0..n]`), in the order the original
/// declares its class domains.
pub fn finitization(root_name: &str, n: u32, args: usize) -> (Finitization, Fields) {
    assert!(n >= 1, "DisjSet scopes start at 1");
    assert!(args <= 2, "union takes two arguments, find one");
    let arg = |name| (name, Domain::ints(0, i64::from(n) - 1));
    DisjSet::finitization(root_name, n, &[arg("a"), arg("b")][..args])
}

/// Renders parents and ranks by index, `p=[0, 0] r=[1, 0]` (`p=[] r=[]` when empty).
pub fn render_set(s: &DisjSet) -> String {
    let parents: Vec<i64> = s.elements.iter().map(|r| r.parent).collect();
    let ranks: Vec<i64> = s.elements.iter().map(|r| r.rank).collect();
    format!("p={parents:?} r={ranks:?}")
}
