//! Korat's side: the finitization (receiver and argument as fields of one root object), the
//! argument's decoding and rendering. The field ids, the views and the decoder are
//! `#[derive(Korat)]`'s (`crate::list`).

use ferastrau_sdk::korat::{Domain, Finitization};

pub use crate::list::LinkedListFields as Fields;
use crate::list::{ElemId, LinkedList};

/// `finLinkedList(n)` (the `#[korat]` domains of [`LinkedList`]). With `with_arg`, the root
/// also holds `o` over null and the same element objects, declared last: the invariant never
/// reads it, so Korat appends it after the structure's fields (and after the elements) and
/// canonicalises it jointly with them — `o` is null, an element already in the list, or one
/// fresh object.
pub fn finitization(root_name: &str, n: u32, with_arg: bool) -> (Finitization, Fields) {
    let o = [("o", Domain::nullable(LinkedList::class_id("Elem")))];
    LinkedList::finitization(root_name, n, if with_arg { &o } else { &[] })
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
