//! The decoder's memory of the links it resolved: each candidate object's index in its arena.

/// The memo of a derived decoder: which arena index each decoded candidate object got, and
/// which objects a `Box` link owns ([`Linker::own`]).
///
/// Every mutant's run decodes its input again (the runner executes more than a million
/// inputs a minute), and the links are most of a decode: so a class's objects are a dense
/// table indexed by the candidate object (objects are numbered from 0 within their class's
/// small pool), found by the class name's address before its text (the decoder passes the
/// class's `NAME` constant). A hash map keyed by the name's text cost 38% of a BinomialHeap
/// worker's time, hashing the name at every link. Its tables are reused from one decode to the
/// next on the same thread ([`SPARE_MEMO`]): made anew, they were two allocations and two
/// frees per decode.
pub struct Memo {
    classes: Vec<Memoed>,
}

thread_local! {
    /// The tables of this thread's last finished [`Memo`], emptied, for its next one.
    static SPARE_MEMO: std::cell::Cell<Vec<Memoed>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Default for Memo {
    fn default() -> Memo {
        Memo {
            classes: SPARE_MEMO.take(),
        }
    }
}

impl Drop for Memo {
    fn drop(&mut self) {
        let mut classes = std::mem::take(&mut self.classes);
        for m in &mut classes {
            m.index.clear();
            m.owned.clear();
        }
        // Whatever an inner decode left there goes: one set of tables is enough.
        SPARE_MEMO.set(classes);
    }
}

/// One class's part of a [`Memo`].
struct Memoed {
    class: &'static str,
    /// By candidate object: its arena index, [`Memoed::NONE`] if not met yet.
    index: Vec<usize>,
    /// By candidate object: whether a `Box` link owns it.
    owned: Vec<bool>,
}

impl Memoed {
    const NONE: usize = usize::MAX;
}

impl Memo {
    /// The part of `class`, if it has one.
    #[inline]
    fn find(&self, class: &'static str) -> Option<&Memoed> {
        self.classes
            .iter()
            .find(|m| std::ptr::eq(m.class, class) || m.class == class)
    }

    /// The part of `class`, made on its first use.
    fn find_mut(&mut self, class: &'static str) -> &mut Memoed {
        let at = match self
            .classes
            .iter()
            .position(|m| std::ptr::eq(m.class, class) || m.class == class)
        {
            Some(at) => at,
            None => {
                // Room for a typical pool at once: growing a table one object at a time
                // reallocated it several times per decode.
                self.classes.push(Memoed {
                    class,
                    index: Vec::with_capacity(16),
                    owned: Vec::new(),
                });
                self.classes.len() - 1
            }
        };
        &mut self.classes[at]
    }

    /// The index `obj` of `class` got, if it was met before.
    #[inline]
    pub fn get(&self, class: &'static str, obj: u32) -> Option<usize> {
        let &i = self.find(class)?.index.get(obj as usize)?;
        (i != Memoed::NONE).then_some(i)
    }

    /// Records that `obj` of `class` is at `index`.
    pub fn insert(&mut self, class: &'static str, obj: u32, index: usize) {
        let m = self.find_mut(class);
        let o = obj as usize;
        if m.index.len() <= o {
            m.index.resize(o + 1, Memoed::NONE);
        }
        m.index[o] = index;
    }

    /// [`Linker::own`]: panics when `obj` of `class` was owned before.
    pub fn own(&mut self, class: &'static str, obj: u32) {
        let m = self.find_mut(class);
        let o = obj as usize;
        if m.owned.len() <= o {
            m.owned.resize(o + 1, false);
        }
        if std::mem::replace(&mut m.owned[o], true) {
            panic!(
                "object {class}#{obj} is reached twice through Box links: a Box-linked structure \
                 is a tree, so the invariant must reject candidates that share an object or \
                 close a cycle"
            );
        }
    }
}
