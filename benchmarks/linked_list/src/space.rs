//! Korat's side: the finitization (receiver and argument as fields of one root object), the
//! candidate view, decoding a valid candidate and rendering.

use ferastrau_sdk::korat::{Candidate, Domain, FieldId, Finitization, FinitizationBuilder, ROOT};

use crate::invariant::ListView;
use crate::list::{ElemId, Entry, LinkedList};

/// Field ids of a linked-list finitization.
pub struct Fields {
    pub header: FieldId,
    pub size: FieldId,
    pub element: FieldId,
    pub next: FieldId,
    pub previous: FieldId,
    /// The argument `o` of `add(o)` / `remove(o)`; absent for `reverse()` and the bare list.
    pub arg: Option<FieldId>,
}

/// `finLinkedList(n)`: n + 1 entries (the header and n data entries) or null; size 0..n; each
/// element null or one of n element objects. Element objects are objects, so they take part
/// in isomorphism breaking: two lists that differ only by a renaming of their elements are one
/// input. With `with_arg`, the root also holds `o` over null and the same element objects,
/// declared last: the invariant never reads it, so Korat appends it after the structure's
/// fields (and after the elements) and canonicalises it jointly with them — `o` is null, an
/// element already in the list, or one fresh object.
pub fn finitization(root_name: &str, n: u32, with_arg: bool) -> (Finitization, Fields) {
    let mut b = FinitizationBuilder::new(root_name);
    let entry = b.class("Entry", n + 1);
    let object = b.class("Object", n);
    b.field(ROOT, "header", Domain::nullable(entry));
    b.field(ROOT, "size", Domain::ints(0, i64::from(n)));
    if with_arg {
        b.field(ROOT, "o", Domain::nullable(object));
    }
    b.field(entry, "element", Domain::nullable(object));
    b.field(entry, "next", Domain::nullable(entry));
    b.field(entry, "previous", Domain::nullable(entry));
    let fin = b.build();
    let fields = Fields {
        header: fin.field(ROOT, "header"),
        size: fin.field(ROOT, "size"),
        element: fin.field(entry, "element"),
        next: fin.field(entry, "next"),
        previous: fin.field(entry, "previous"),
        arg: with_arg.then(|| fin.field(ROOT, "o")),
    };
    (fin, fields)
}

/// A candidate seen as a list; every first read of a field is recorded by Korat.
pub struct CandidateList<'c, 'a> {
    pub c: &'c mut Candidate<'a>,
    pub f: &'c Fields,
}

impl ListView for CandidateList<'_, '_> {
    fn header(&mut self) -> Option<u32> {
        self.c.obj(self.f.header, 0)
    }
    fn size(&mut self) -> i64 {
        self.c.int(self.f.size, 0)
    }
    fn element(&mut self, e: u32) -> Option<u32> {
        self.c.obj(self.f.element, e)
    }
    fn next(&mut self, e: u32) -> Option<u32> {
        self.c.obj(self.f.next, e)
    }
    fn previous(&mut self, e: u32) -> Option<u32> {
        self.c.obj(self.f.previous, e)
    }
}

/// The argument `o` of a valid candidate (element objects keep their Korat index).
pub fn decode_arg(c: &mut Candidate<'_>, f: &Fields) -> Option<ElemId> {
    let arg = f.arg.expect("this finitization carries no argument");
    c.obj(arg, 0).map(|o| ElemId(o as usize))
}

/// Builds the real list of a valid candidate: the header becomes entry 0 and the data entries
/// follow in list order; element objects keep their Korat index.
pub fn decode_list(c: &mut Candidate<'_>, f: &Fields) -> LinkedList {
    let mut v = CandidateList { c, f };
    let header = v.header().expect("a valid list has a header");
    let mut order = vec![header];
    let mut e = v.next(header).expect("a valid list is a ring");
    while e != header {
        order.push(e);
        e = v.next(e).expect("a valid list is a ring");
    }
    let k = order.len();
    let mut entries = Vec::with_capacity(k);
    for (i, &e) in order.iter().enumerate() {
        entries.push(Entry {
            element: v.element(e).map(|x| ElemId(x as usize)),
            next: Some((i + 1) % k),
            previous: Some((i + k - 1) % k),
        });
    }
    LinkedList {
        header: Some(0),
        size: v.size(),
        entries,
    }
}

/// The elements of a list in order, following `next` from the header for at most `size`
/// steps (the list satisfies the invariant).
pub fn elements(list: &LinkedList) -> Vec<Option<ElemId>> {
    let mut out = Vec::new();
    let Some(h) = list.header else {
        return out;
    };
    let mut e = list.entries[h].next;
    while let Some(x) = e {
        if x == h || out.len() as i64 >= list.size {
            break;
        }
        out.push(list.entries[x].element);
        e = list.entries[x].next;
    }
    out
}

/// Renders an element: `null` or `o0`, `o1`, ...
pub fn render_elem(o: Option<ElemId>) -> String {
    match o {
        None => "null".to_string(),
        Some(ElemId(k)) => format!("o{k}"),
    }
}

/// Renders a list as `[o0, null, o1]`.
pub fn render_list(list: &LinkedList) -> String {
    let items: Vec<String> = elements(list).into_iter().map(render_elem).collect();
    format!("[{}]", items.join(", "))
}
