//! Korat's side: the finitization (the space of candidate inputs per scope), the candidate
//! seen through the invariant's view, and decoding a valid candidate into a real set.

use ferastrau_sdk::korat::{Candidate, Domain, FieldId, Finitization, FinitizationBuilder, ROOT};

use crate::invariant::SetView;
use crate::set::{IntSet, Node};

/// Field ids of a finitization, resolved once so the precondition never looks a name up.
pub struct Fields {
    pub head: FieldId,
    pub size: FieldId,
    pub next: FieldId,
    pub value: FieldId,
    /// The argument `x` of `add(x)`; `remove_first()` has none.
    pub x: Option<FieldId>,
}

/// At most `n` nodes, `size` over 0..=n, values (and `x`) over 1..=n. The root object holds
/// the receiver's fields and the method's arguments, so that both are generated jointly.
pub fn finitization(root_name: &str, n: u32, with_x: bool) -> (Finitization, Fields) {
    let n64 = i64::from(n);
    let mut b = FinitizationBuilder::new(root_name);
    let node = b.class("Node", n);
    b.field(ROOT, "head", Domain::nullable(node));
    b.field(ROOT, "size", Domain::ints(0, n64));
    if with_x {
        b.field(ROOT, "x", Domain::ints(1, n64));
    }
    b.field(node, "next", Domain::nullable(node));
    b.field(node, "value", Domain::ints(1, n64));
    let fin = b.build();
    let fields = Fields {
        head: fin.field(ROOT, "head"),
        size: fin.field(ROOT, "size"),
        next: fin.field(node, "next"),
        value: fin.field(node, "value"),
        x: with_x.then(|| fin.field(ROOT, "x")),
    };
    (fin, fields)
}

/// A candidate seen as a set; Korat records every first read of a field.
pub struct CandidateSet<'c, 'a> {
    pub c: &'c mut Candidate<'a>,
    pub f: &'c Fields,
}

impl SetView for CandidateSet<'_, '_> {
    // Called millions of times at larger scopes: inline them into the invariant.
    #[inline(always)]
    fn head(&mut self) -> Option<u32> {
        self.c.obj(self.f.head, 0)
    }
    #[inline(always)]
    fn size(&mut self) -> i64 {
        self.c.int(self.f.size, 0)
    }
    #[inline(always)]
    fn next(&mut self, n: u32) -> Option<u32> {
        self.c.obj(self.f.next, n)
    }
    #[inline(always)]
    fn value(&mut self, n: u32) -> i64 {
        self.c.int(self.f.value, n)
    }
}

/// The real set of a valid candidate: its reachable nodes, in list order.
pub fn decode_set(c: &mut Candidate<'_>, f: &Fields) -> IntSet {
    let mut view = CandidateSet { c, f };
    let mut set = IntSet {
        head: None,
        size: view.size(),
        nodes: Vec::new(),
    };
    let mut current = view.head();
    while let Some(n) = current {
        let id = set.nodes.len();
        set.nodes.push(Node {
            next: None,
            value: view.value(n),
        });
        if id == 0 {
            set.head = Some(0);
        } else {
            set.nodes[id - 1].next = Some(id);
        }
        current = view.next(n);
    }
    set
}

/// The elements in list order (the abstraction of a set that satisfies the invariant).
pub fn elements(s: &IntSet) -> Vec<i64> {
    let mut out = Vec::new();
    let mut current = s.head;
    while let Some(n) = current {
        out.push(s.nodes[n].value);
        current = s.nodes[n].next;
    }
    out
}
