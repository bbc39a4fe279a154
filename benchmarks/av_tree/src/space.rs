//! Korat's side: `lookup`'s finitization (`AvTree`'s derived one and the query), decoding a
//! valid candidate into the real input, and rendering.
//!
//! The finitization is the member `Config::CHOSEN` of the family the count search ranges over
//! (`examples/config/`; the README says why this one): the query is given by its list of
//! top-level attributes and draws them from the name-tree's pools, kept disjoint from the
//! tree by the invariant; names are objects (`#[korat(names(..))]`), so that Korat's
//! isomorphism renames them.

use ferastrau_sdk::korat::view::Root;
use ferastrau_sdk::korat::{Candidate, Domain, FieldId, Finitization};

use crate::av_tree::{AvTree, WILDCARD};

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
/// numbered in the order met, a value before its record, its attributes and its next sibling
/// (`Value`'s `#[korat(decode(..))]`).
pub fn decode(c: &mut Candidate<'_>, f: &Fields) -> (AvTree, Option<usize>) {
    let (tree, query) = AvTree::decode_with(c, f, &[("query", "Attribute")]);
    (tree, query[0])
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
