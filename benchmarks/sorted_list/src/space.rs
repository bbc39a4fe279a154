//! Korat's side: the finitizations (receiver and arguments as fields of one root object),
//! `merge`'s second list in the candidate view and the decoder, and rendering. The field ids,
//! the view of one list and its decoder are `#[derive(Korat)]`'s (`crate::list`).

use ferastrau_sdk::korat::view::{Root, View};
use ferastrau_sdk::korat::{Candidate, Domain, FieldId, Finitization};

use crate::invariant::ListView;
use crate::list::{EntryId, ListRef, SortedList};

/// What the root object holds besides `this`'s header and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Args {
    /// Nothing: `sort()` and the bare structure.
    None,
    /// The integer `x` of `insert(x)` / `remove(x)`, over 1..n.
    X,
    /// `merge(other)`'s second list: its header and size.
    Other,
}

pub use crate::list::SortedListFields as Fields;

/// The root's `header` of list `list`: `this`'s (0) or `merge`'s `other`'s (1, the
/// finitization's `otherHeader`).
#[inline(always)]
pub fn header_of(f: &Fields, list: usize) -> FieldId {
    match list {
        0 => f.header,
        _ => f
            .extra("otherHeader")
            .expect("this finitization has no other list"),
    }
}

/// The root's `size` of list `list` (`otherSize` for `merge`'s `other`).
#[inline(always)]
pub fn size_of(f: &Fields, list: usize) -> FieldId {
    match list {
        0 => f.size,
        _ => f
            .extra("otherSize")
            .expect("this finitization has no other list"),
    }
}

/// `finSortedList(n)` (the `#[korat]` domains of [`SortedList`]): n + 1 entries (or null);
/// size 0..n; each element null or one of the integers 1..n. Integers are plain values, outside
/// isomorphism breaking; the entries are objects. The root holds `this`'s header and size, then
/// (declared last, never read by the invariant, so Korat enumerates it after the list) `x` over
/// 1..n, or `other`'s header and size over the same n + 1 entries, so that both of `merge`'s
/// lists are generated jointly and canonicalised together.
pub fn finitization(root_name: &str, n: u32, args: Args) -> (Finitization, Fields) {
    let n64 = i64::from(n);
    let extra = match args {
        Args::None => vec![],
        Args::X => vec![("x", Domain::ints(1, n64))],
        Args::Other => vec![
            (
                "otherHeader",
                Domain::nullable(SortedList::class_id("Entry")),
            ),
            ("otherSize", Domain::ints(0, n64)),
        ],
    };
    SortedList::finitization(root_name, n, &extra)
}

/// One or two lists of a candidate: `this` is the derived view's, `other` the extra fields'.
impl ListView for View<'_, '_, Fields> {
    #[inline(always)]
    fn header(&mut self, list: usize) -> Option<u32> {
        self.c.obj(header_of(self.f, list), 0)
    }
    #[inline(always)]
    fn size(&mut self, list: usize) -> i64 {
        self.c.int(size_of(self.f, list), 0)
    }
}

/// The argument `x` of a valid candidate.
pub fn decode_x(c: &mut Candidate<'_>, f: &Fields) -> i64 {
    c.int(f.extra("x").expect("this finitization carries no x"), 0)
}

/// Builds `merge`'s two lists in one arena, as Java's one heap holds both: `this`'s entries
/// first (header at 0), then `other`'s from its header along `next` (the derived decoder's
/// order), so that no entry of one list has the id of an entry of the other and
/// `this.header != other.header`, as for two distinct Java objects.
pub fn decode_pair(c: &mut Candidate<'_>, f: &Fields) -> (SortedList, ListRef) {
    let (list, other) = SortedList::decode_with(c, f, &[("otherHeader", "Entry")]);
    let size = ListView::size(&mut View::new(c, f), 1);
    let header = other[0];
    (list, ListRef { header, size })
}

/// The elements of a list in order, following `next` from the header for at most `size`
/// steps (the list satisfies the invariant, so every element is present).
pub fn elements(list: &SortedList) -> Vec<i64> {
    elements_of(list, list.header, list.size)
}

/// The elements of the list with header `header` and size `size` in `list`'s arena (`merge`'s
/// `other`), as [`elements`] walks them.
pub fn elements_of(list: &SortedList, header: Option<EntryId>, size: i64) -> Vec<i64> {
    let mut out = Vec::new();
    let Some(h) = header else {
        return out;
    };
    let mut e = list.entries[h].next;
    while let Some(x) = e {
        if x == h || out.len() as i64 >= size {
            break;
        }
        out.push(list.entries[x].element.unwrap_or(i64::MIN));
        e = list.entries[x].next;
    }
    out
}

/// Renders a list as `[1, 1, 3]`.
pub fn render_list(list: &SortedList) -> String {
    render_elements(&elements(list))
}

/// Renders a sequence of elements as `[1, 1, 3]`.
pub fn render_elements(elements: &[i64]) -> String {
    let items: Vec<String> = elements.iter().map(i64::to_string).collect();
    format!("[{}]", items.join(", "))
}
