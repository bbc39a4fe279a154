//! Korat's side: `lookup`'s finitization (`AvTree`'s derived one and the query), decoding a
//! valid candidate into the real input, and rendering.
//!
//! The finitization is the member `Config::CHOSEN` of the family the count search ranges over
//! (`examples/config/`; the README says why this one): the query is given by its list of
//! top-level attributes and draws them from the name-tree's pools, kept disjoint from the
//! tree by the invariant; names are objects (`#[korat(names(..))]`), so that Korat's
//! isomorphism renames them.

use ferastrau_sdk::korat::view::View;
use ferastrau_sdk::korat::{Candidate, Domain, FieldId, Finitization};

use crate::av_tree::WILDCARD;
use crate::av_tree::{Attribute, AttributeView, AvTree, AvTreeView, Record, Value, ValueView};

pub use crate::av_tree::AvTreeFields as Fields;

/// `lookup`'s finitization at scope `n`: `AvTree`'s (n values, attributes, records, value
/// names and attribute names, and the wildcard), and the root's `query`, null (the empty
/// query) or the query's first top-level attribute.
pub fn finitization(n: u32) -> (Finitization, Fields) {
    let query = Domain::nullable(AvTree::class_id("Attribute"));
    AvTree::finitization("AVTree_lookup", n, &[("query", query)])
}

/// The root's `query` field.
pub fn query(f: &Fields) -> FieldId {
    f.extra("query").expect("lookup's finitization has a query")
}

/// The real input of a valid candidate: the name-tree and, in the same arena (as one Java
/// heap holds both), the query, whose first top-level attribute is returned. Objects are
/// numbered in the order met (a value before its record, its attributes, its siblings).
pub fn decode(c: &mut Candidate<'_>, f: &Fields) -> (AvTree, Option<usize>) {
    let mut d = Decoder {
        v: View::new(c, f),
        tree: AvTree::default(),
        values: Vec::new(),
        attributes: Vec::new(),
        records: Vec::new(),
    };
    let root = d.v.root();
    d.tree.root = d.value(root);
    let q = d.v.c.obj(query(f), 0);
    let query = d.attribute(q);
    (d.tree, query)
}

struct Decoder<'c, 'a> {
    v: View<'c, 'a, Fields>,
    tree: AvTree,
    /// Candidate object → arena id, per class.
    values: Vec<(u32, usize)>,
    attributes: Vec<(u32, usize)>,
    records: Vec<(u32, usize)>,
}

/// The arena id `memo` gave candidate object `o`, if any.
fn known(memo: &[(u32, usize)], o: u32) -> Option<usize> {
    memo.iter().find(|&&(x, _)| x == o).map(|&(_, id)| id)
}

impl Decoder<'_, '_> {
    fn value(&mut self, v: Option<u32>) -> Option<usize> {
        let v = v?;
        if let Some(id) = known(&self.values, v) {
            return Some(id);
        }
        let id = self.tree.values.len();
        self.values.push((v, id));
        self.tree.values.push(Value {
            name: ValueView::name(&mut self.v, v),
            attributes: None,
            next: None,
            record: None,
        });
        let record = self.v.record(v).map(|r| self.record(r));
        let a = ValueView::attributes(&mut self.v, v);
        let attributes = self.attribute(a);
        let n = ValueView::next(&mut self.v, v);
        let next = self.value(n);
        let value = &mut self.tree.values[id];
        value.record = record;
        value.attributes = attributes;
        value.next = next;
        Some(id)
    }

    fn attribute(&mut self, a: Option<u32>) -> Option<usize> {
        let a = a?;
        if let Some(id) = known(&self.attributes, a) {
            return Some(id);
        }
        let id = self.tree.attributes.len();
        self.attributes.push((a, id));
        self.tree.attributes.push(Attribute {
            name: AttributeView::name(&mut self.v, a),
            values: None,
            next: None,
        });
        let v = AttributeView::values(&mut self.v, a);
        let values = self.value(v);
        let n = AttributeView::next(&mut self.v, a);
        let next = self.attribute(n);
        self.tree.attributes[id].values = values;
        self.tree.attributes[id].next = next;
        Some(id)
    }

    fn record(&mut self, r: u32) -> usize {
        known(&self.records, r).unwrap_or_else(|| {
            let id = self.tree.records.len();
            self.records.push((r, id));
            self.tree.records.push(Record { next: None });
            id
        })
    }
}

/// Renders a name-tree from its root value: `{a1=v1#0{a2=(v1|*)} a2=v2}`, with `*` for the
/// wildcard, `#k` for record k, `(..|..)` for several values of one attribute; the root's own
/// name is left out.
pub fn render_tree(t: &AvTree) -> String {
    let mut s = String::new();
    match t.root {
        None => s.push_str("null"),
        Some(r) => {
            render_records(t, r, &mut s);
            render_attributes(t, t.values[r].attributes, 0, &mut s);
            if s.is_empty() {
                s.push_str("{}");
            }
        }
    }
    s
}

/// Renders a query from its first top-level attribute, `{}` for the empty query.
pub fn render_query(t: &AvTree, query: Option<usize>) -> String {
    let mut s = String::new();
    render_attributes(t, query, 0, &mut s);
    if s.is_empty() {
        s.push_str("{}");
    }
    s
}

fn render_records(t: &AvTree, v: usize, out: &mut String) {
    let mut r = t.values[v].record;
    let mut guard = 0;
    while let Some(id) = r {
        out.push_str(&format!("#{id}"));
        r = t.records[id].next;
        guard += 1;
        if guard > t.records.len() {
            break;
        }
    }
}

fn render_attributes(t: &AvTree, first: Option<usize>, depth: usize, out: &mut String) {
    if first.is_none() {
        return;
    }
    if depth > t.values.len() + t.attributes.len() {
        // A cycle (only in a faulty state): stop rather than recurse forever.
        out.push_str("{...}");
        return;
    }
    out.push('{');
    let mut a = first;
    let mut guard = 0;
    while let Some(ai) = a {
        if guard > 0 {
            out.push(' ');
        }
        out.push_str(&format!("a{}=", t.attributes[ai].name));
        let mut vi = t.attributes[ai].values;
        let several = vi.is_some_and(|x| t.values[x].next.is_some());
        if several {
            out.push('(');
        }
        let mut guard_v = 0;
        while let Some(x) = vi {
            if guard_v > 0 {
                out.push('|');
            }
            let value = &t.values[x];
            if value.name == WILDCARD {
                out.push('*');
            } else {
                out.push_str(&format!("v{}", value.name));
            }
            render_records(t, x, out);
            render_attributes(t, value.attributes, depth + 1, out);
            vi = value.next;
            guard_v += 1;
            if guard_v > t.values.len() {
                break;
            }
        }
        if several {
            out.push(')');
        }
        a = t.attributes[ai].next;
        guard += 1;
        if guard > t.attributes.len() {
            break;
        }
    }
    out.push('}');
}
