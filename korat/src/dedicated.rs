//! Dedicated generators (the paper's Sec. 5): library checks an invariant calls like any
//! function, each a read through [`Candidate::get_where`] that says which values the field
//! must hold — `is_in` a value, within an ordering interval, a link to an object not visited
//! yet — so the search never assigns the others. Written with them, an invariant accepts
//! exactly the candidates its plain version accepts and reads the same fields in the same
//! order, so Korat finds the same inputs in the same order from fewer candidates.
//!
//! The rules may depend only on values read before (or held fixed below, see
//! [`Candidate::fixed`]): that is what makes ruling out exact.

use std::ops::RangeBounds;

use crate::candidate::Candidate;
use crate::finitization::{FieldId, Value};
use crate::visited::Visited;

impl Candidate<'_> {
    /// `is_in`: whether the object field `f` of `obj` holds `target` (`None`: null) — a parent
    /// or back link that must point where the walk came from, a field that must be null.
    #[inline]
    pub fn obj_is(&mut self, f: FieldId, obj: u32, target: Option<u32>) -> bool {
        self.get_where(f, obj, |v| {
            v.obj() == target && (target.is_some() || v == Value::Null)
        })
        .is_some()
    }

    /// `is_in` for an integer field: whether `f` of `obj` holds `want` (a size that must equal
    /// the count of a walk, a degree fixed by the shape).
    #[inline]
    pub fn int_is(&mut self, f: FieldId, obj: u32, want: i64) -> bool {
        self.get_where(f, obj, |v| v == Value::Int(want)).is_some()
    }

    /// Ordering: the integer in `f` of `obj` if it lies in `range` (an open interval between
    /// an ancestor's keys, at least the previous element, at most a parent's key); `None`
    /// (reject) otherwise, null included.
    #[inline]
    pub fn int_in(&mut self, f: FieldId, obj: u32, range: impl RangeBounds<i64>) -> Option<i64> {
        self.get_where(f, obj, |v| v.int().is_some_and(|i| range.contains(&i)))
            .and_then(Value::int)
    }

    /// An object field read under a rule on its target (`None`: null): `Some(target)` if
    /// `allowed` accepts it, `None` (reject) otherwise.
    #[inline]
    pub fn obj_where(
        &mut self,
        f: FieldId,
        obj: u32,
        allowed: impl Fn(Option<u32>) -> bool,
    ) -> Option<Option<u32>> {
        self.get_where(f, obj, |v| {
            matches!(v, Value::Null | Value::Obj(..)) && allowed(v.obj())
        })
        .map(Value::obj)
    }

    /// A tree link: null or an object not in `visited` (`Some(target)`); `None` (reject) if it
    /// points back into the walk.
    #[inline]
    pub fn link_unvisited(
        &mut self,
        f: FieldId,
        obj: u32,
        visited: &Visited,
    ) -> Option<Option<u32>> {
        self.obj_where(f, obj, |t| t.is_none_or(|n| !visited.contains(n)))
    }

    /// A link that must be non-null and not in `visited`: the next node of a shape whose
    /// length is already known (a binomial tree's next child).
    #[inline]
    pub fn link_fresh(&mut self, f: FieldId, obj: u32, visited: &Visited) -> Option<u32> {
        self.obj_where(f, obj, |t| t.is_some_and(|n| !visited.contains(n)))
            .flatten()
    }
}

/// `is_tree(root, links)`: a breadth-first walk from `root` (which must be in `visited`, the
/// walk's queue, on entry) along the `links` of each node in turn, each link null or an object
/// not visited yet; `child(c, parent, child)` then checks each new child (its parent link,
/// say) before the walk goes on. False as soon as a check fails; `visited` then holds the
/// whole tree in breadth-first order.
pub fn is_tree(
    c: &mut Candidate<'_>,
    visited: &mut Visited,
    links: &[FieldId],
    mut child: impl FnMut(&mut Candidate<'_>, u32, u32) -> bool,
) -> bool {
    let mut next = 0;
    while next < visited.len() {
        let current = visited.get(next);
        next += 1;
        for &link in links {
            match c.link_unvisited(link, current, visited) {
                None => return false,
                Some(Some(n)) => {
                    visited.insert(n);
                    if !child(c, current, n) {
                        return false;
                    }
                }
                Some(None) => {}
            }
        }
    }
    true
}

/// A circular doubly-linked list through `first` (which must be in `visited` on entry): for
/// each node `x` in turn, `node(c, x, visited)` checks it, then `next` of `x` is non-null and
/// either `first` (the ring closes) or a node not visited yet, and `prev` of that node is
/// `x`. With `len`, the ring has exactly `len` nodes, so `next` must close the ring exactly
/// at the `len`-th node. Returns the number of nodes, `None` as soon as a check fails.
pub fn is_ring(
    c: &mut Candidate<'_>,
    visited: &mut Visited,
    first: u32,
    [next, prev]: [FieldId; 2],
    len: Option<u64>,
    mut node: impl FnMut(&mut Candidate<'_>, u32, &mut Visited) -> bool,
) -> Option<u64> {
    let mut x = first;
    let mut count = 1;
    loop {
        if !node(c, x, visited) {
            return None;
        }
        let closes = len.is_none_or(|l| count == l);
        let opens = len.is_none_or(|l| count < l);
        let seen = &*visited;
        let after = c
            .obj_where(next, x, |t| match t {
                None => false,
                Some(n) if n == first => closes,
                Some(n) => opens && !seen.contains(n),
            })?
            .expect("the rule rejects null");
        if !c.obj_is(prev, after, Some(x)) {
            return None;
        }
        if after == first {
            return Some(count);
        }
        visited.insert(after);
        count += 1;
        x = after;
    }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use super::*;
    use crate::{search, Domain, FinitizationBuilder, ROOT};

    /// A ring of up to `n` nodes with `next`/`prev`, searched with the plain check and with
    /// [`is_ring`]: the same states, in the same order, from fewer candidates.
    #[test]
    fn is_ring_finds_the_plain_rings_from_fewer_candidates() {
        for n in 1..=4u32 {
            let mut b = FinitizationBuilder::new("R");
            let node = b.class("N", n);
            b.field(ROOT, "first", Domain::nullable(node));
            b.field(node, "next", Domain::nullable(node));
            b.field(node, "prev", Domain::nullable(node));
            let fin = b.build();
            let (first, next, prev) = (
                fin.field(ROOT, "first"),
                fin.field(node, "next"),
                fin.field(node, "prev"),
            );
            let plain = |c: &mut Candidate<'_>| {
                let Some(h) = c.obj(first, 0) else {
                    return false;
                };
                let mut seen = Visited::new();
                seen.insert(h);
                let mut x = h;
                loop {
                    let Some(y) = c.obj(next, x) else {
                        return false;
                    };
                    if c.obj(prev, y) != Some(x) {
                        return false;
                    }
                    if y == h {
                        return true;
                    }
                    if !seen.insert(y) {
                        return false;
                    }
                    x = y;
                }
            };
            let ded = |c: &mut Candidate<'_>| {
                let Some(h) = c.obj(first, 0) else {
                    return false;
                };
                let mut seen = Visited::new();
                seen.insert(h);
                is_ring(c, &mut seen, h, [next, prev], None, |_, _, _| true).is_some()
            };
            let run = |p: &dyn Fn(&mut Candidate<'_>) -> bool| {
                let mut out = Vec::new();
                let s = search(&fin, p, |c| {
                    out.push(c.state().to_vec());
                    ControlFlow::Continue(())
                });
                (s, out)
            };
            let (ps, pv) = run(&plain);
            let (ds, dv) = run(&ded);
            assert_eq!(dv, pv, "scope {n}");
            assert_eq!(ps.valid, u64::from(n), "one ring per length");
            // One node leaves nothing to rule out (its links are null or itself).
            assert!(
                ds.explored < ps.explored || n == 1,
                "scope {n}: {ds:?} vs {ps:?}"
            );
        }
    }

    #[test]
    fn the_checks_accept_what_they_say() {
        let mut b = FinitizationBuilder::new("R");
        let node = b.class("N", 2);
        b.field(ROOT, "link", Domain::nullable(node));
        b.field(ROOT, "k", Domain::ints(0, 3));
        let fin = b.build();
        let (link, k) = (fin.field(ROOT, "link"), fin.field(ROOT, "k"));
        // link = N1, k = 2
        let state = [2, 2];
        let mut c = Candidate::new(&fin, &state);
        assert!(c.obj_is(link, 0, Some(1)));
        assert!(!c.obj_is(link, 0, None));
        assert!(c.int_is(k, 0, 2));
        assert_eq!(c.int_in(k, 0, 1..3), Some(2));
        assert_eq!(c.int_in(k, 0, 3..), None);
        let mut v = Visited::new();
        assert_eq!(c.link_unvisited(link, 0, &v), Some(Some(1)));
        assert_eq!(c.link_fresh(link, 0, &v), Some(1));
        v.insert(1);
        assert_eq!(c.link_unvisited(link, 0, &v), None);
        assert_eq!(c.fixed(k, 0), Some(Value::Int(2)));
    }
}
