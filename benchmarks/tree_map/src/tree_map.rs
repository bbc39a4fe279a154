//! The code under test: `java.util.TreeMap`, a red-black tree with parent links, ported to an
//! arena.
//!
//! The algorithm is the textbook one (Cormen–Leiserson–Rivest, ch. 14: RB-INSERT's fix-up,
//! RB-DELETE, LEFT-/RIGHT-ROTATE) with the shape JDK 1.3's `java.util.TreeMap` gives it: an
//! inner entry to delete first swaps *places* with its successor (`swapPosition`: links and
//! colours, not keys and values, so that the `Map.Entry` objects an iterator handed out keep
//! their mappings — copying the successor's key and value in, as CLR and later JDKs do, is
//! not the code of the paper's era); the map keeps `root` and `size`; an entry keeps `key`,
//! `value`, `left`, `right`, `parent` and `color`; a new entry is black until
//! `fixAfterInsertion` paints it red; the fix-ups go through the null-safe helpers `colorOf`
//! (null is black), `parentOf`, `leftOf`, `rightOf` and `setColor` (no-op on null); a deleted
//! leaf serves as its own phantom replacement during `fixAfterDeletion` and is unlinked
//! afterwards.
//!
//! Java's `Entry` references become `Option<EntryId>`; `p.left` becomes `self.entry(p).left`,
//! which panics on `None` exactly where Java throws a `NullPointerException`. Keys are integers
//! compared as `Comparable`s; values are integers (the finitization fixes them to one value).

// Links are compared with `== None` / `!= None` on purpose: they are Java's `== null`, and the
// mutator's operators (e.g. `==` ↔ `!=`, variable replacement) map onto them as in Java.
#![allow(clippy::partialeq_to_none)]

/// Index of an entry in the arena.
pub type EntryId = usize;

/// The JDK's colours: `RED = false`, `BLACK = true`.
pub const RED: bool = false;
pub const BLACK: bool = true;

/// A tree entry (`TreeMap.Entry`).
#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Entry {
    #[korat(ints(1, n))]
    pub key: i64,
    #[korat(ints(crate::space::VALUE, crate::space::VALUE))]
    pub value: i64,
    pub left: Option<EntryId>,
    pub right: Option<EntryId>,
    pub parent: Option<EntryId>,
    pub color: bool,
}

/// A sorted map from integer keys to integer values.
#[derive(Clone, Debug, Default, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct TreeMap {
    pub root: Option<EntryId>,
    #[korat(ints(0, n))]
    pub size: i64,
    #[korat(pool(n))]
    pub entries: Vec<Entry>,
}

/// Java's `((Comparable) a).compareTo(b)` on integers: −1, 0 or 1 (`Ordering`'s discriminants).
pub fn compare(a: i64, b: i64) -> i64 {
    a.cmp(&b) as i64
}

impl TreeMap {
    /// The entry `p` points to; `None` is a null dereference.
    pub fn entry(&self, p: Option<EntryId>) -> &Entry {
        &self.entries[p.expect("null dereference")]
    }

    /// The entry `p` points to, for writing; `None` is a null dereference.
    pub fn entry_mut(&mut self, p: Option<EntryId>) -> &mut Entry {
        &mut self.entries[p.expect("null dereference")]
    }

    /// Java's `new Entry(key, value, parent)`: no children, black.
    pub fn new_entry(&mut self, key: i64, value: i64, parent: Option<EntryId>) -> Option<EntryId> {
        self.entries.push(Entry {
            key,
            value,
            left: None,
            right: None,
            parent,
            color: BLACK,
        });
        Some(self.entries.len() - 1)
    }

    /// The value mapped to `key`, `None` (Java's null) if there is none.
    pub fn get(&self, key: i64) -> Option<i64> {
        let p = self.get_entry(key);
        if p == None {
            return None;
        }
        Some(self.entry(p).value)
    }

    /// Whether some entry has `key`.
    pub fn contains_key(&self, key: i64) -> bool {
        self.get_entry(key) != None
    }

    /// The entry holding `key`, or `None`: a binary search from the root.
    pub fn get_entry(&self, key: i64) -> Option<EntryId> {
        let mut p = self.root;
        while p != None {
            let cmp = compare(key, self.entry(p).key);
            if cmp == 0 {
                return p;
            } else if cmp < 0 {
                p = self.entry(p).left;
            } else {
                p = self.entry(p).right;
            }
        }
        None
    }

    /// Maps `key` to `value`; returns the previous value (`None` if the key was absent). A new
    /// key goes in as a leaf below the last entry of the search, then the colours are fixed.
    pub fn put(&mut self, key: i64, value: i64) -> Option<i64> {
        let mut t = self.root;
        if t == None {
            self.size += 1;
            self.root = self.new_entry(key, value, None);
            return None;
        }
        loop {
            let cmp = compare(key, self.entry(t).key);
            if cmp == 0 {
                return Some(self.set_value(t, value));
            } else if cmp < 0 {
                if self.entry(t).left != None {
                    t = self.entry(t).left;
                } else {
                    self.size += 1;
                    self.entry_mut(t).left = self.new_entry(key, value, t);
                    self.fix_after_insertion(self.entry(t).left);
                    return None;
                }
            } else if self.entry(t).right != None {
                t = self.entry(t).right;
            } else {
                self.size += 1;
                self.entry_mut(t).right = self.new_entry(key, value, t);
                self.fix_after_insertion(self.entry(t).right);
                return None;
            }
        }
    }

    /// Removes the mapping for `key`; returns its value (`None` if the key was absent).
    pub fn remove(&mut self, key: i64) -> Option<i64> {
        let p = self.get_entry(key);
        if p == None {
            return None;
        }
        let old_value = self.entry(p).value;
        self.delete_entry(p);
        Some(old_value)
    }

    /// Unlinks entry `p` and rebalances (CLR's RB-DELETE).
    pub fn delete_entry(&mut self, p: Option<EntryId>) {
        self.size -= 1;

        // An inner entry first swaps places with its successor, which has no left child: p is
        // then deleted from there.
        if self.entry(p).left != None && self.entry(p).right != None {
            let s = self.successor(p);
            self.swap_position(s, p);
        }

        // The fix-up starts at the replacement, if there is one.
        let replacement = if self.entry(p).left != None {
            self.entry(p).left
        } else {
            self.entry(p).right
        };

        if replacement != None {
            // Link the replacement to p's parent.
            self.entry_mut(replacement).parent = self.entry(p).parent;
            if self.entry(p).parent == None {
                self.root = replacement;
            } else if p == self.entry(self.entry(p).parent).left {
                self.entry_mut(self.entry(p).parent).left = replacement;
            } else {
                self.entry_mut(self.entry(p).parent).right = replacement;
            }

            // Detach p so that the fix-up cannot reach it.
            self.entry_mut(p).left = None;
            self.entry_mut(p).right = None;
            self.entry_mut(p).parent = None;

            if self.entry(p).color == BLACK {
                self.fix_after_deletion(replacement);
            }
        } else if self.entry(p).parent == None {
            // p was the only entry.
            self.root = None;
        } else {
            // No children: p is its own phantom replacement during the fix-up, then goes.
            if self.entry(p).color == BLACK {
                self.fix_after_deletion(p);
            }
            if self.entry(p).parent != None {
                if p == self.entry(self.entry(p).parent).left {
                    self.entry_mut(self.entry(p).parent).left = None;
                } else if p == self.entry(self.entry(p).parent).right {
                    self.entry_mut(self.entry(p).parent).right = None;
                }
                self.entry_mut(p).parent = None;
            }
        }
    }

    /// Exchanges the places of entries `x` and `y` in the tree (JDK 1.3's `swapPosition`): each
    /// takes the other's parent, children and colour — a link that named the entry itself then
    /// names the other, which covers one being the other's parent — and the root follows. Keys
    /// and values stay with their entries.
    pub fn swap_position(&mut self, x: Option<EntryId>, y: Option<EntryId>) {
        let px = self.entry(x).parent;
        let lx = self.entry(x).left;
        let rx = self.entry(x).right;
        let py = self.entry(y).parent;
        let ly = self.entry(y).left;
        let ry = self.entry(y).right;
        // Read before any link changes: x and y may be siblings.
        let x_is_left = px != None && self.entry(px).left == x;
        let y_is_left = py != None && self.entry(py).left == y;

        // The parents (other than x and y themselves) point at the entry that takes the place.
        if px != None && px != y {
            if x_is_left {
                self.entry_mut(px).left = y;
            } else {
                self.entry_mut(px).right = y;
            }
        }
        if py != None && py != x {
            if y_is_left {
                self.entry_mut(py).left = x;
            } else {
                self.entry_mut(py).right = x;
            }
        }

        // Each entry takes the other's links; a link to itself becomes a link to the other.
        self.entry_mut(x).parent = if py == x { y } else { py };
        self.entry_mut(x).left = if ly == x { y } else { ly };
        self.entry_mut(x).right = if ry == x { y } else { ry };
        self.entry_mut(y).parent = if px == y { x } else { px };
        self.entry_mut(y).left = if lx == y { x } else { lx };
        self.entry_mut(y).right = if rx == y { x } else { rx };

        // The children of both point back at their new parents.
        if self.entry(x).left != None {
            let c = self.entry(x).left;
            self.entry_mut(c).parent = x;
        }
        if self.entry(x).right != None {
            let c = self.entry(x).right;
            self.entry_mut(c).parent = x;
        }
        if self.entry(y).left != None {
            let c = self.entry(y).left;
            self.entry_mut(c).parent = y;
        }
        if self.entry(y).right != None {
            let c = self.entry(y).right;
            self.entry_mut(c).parent = y;
        }

        // The colours belong to the places.
        let c = self.entry(x).color;
        self.entry_mut(x).color = self.entry(y).color;
        self.entry_mut(y).color = c;

        if self.root == x {
            self.root = y;
        } else if self.root == y {
            self.root = x;
        }
    }

    /// The entry with the next larger key, or `None` (CLR's TREE-SUCCESSOR).
    pub fn successor(&self, t: Option<EntryId>) -> Option<EntryId> {
        if t == None {
            None
        } else if self.entry(t).right != None {
            let mut p = self.entry(t).right;
            while self.entry(p).left != None {
                p = self.entry(p).left;
            }
            p
        } else {
            let mut p = self.entry(t).parent;
            let mut ch = t;
            while p != None && ch == self.entry(p).right {
                ch = p;
                p = self.entry(p).parent;
            }
            p
        }
    }

    /// Java's `colorOf(p)`: null counts as black.
    pub fn color_of(&self, p: Option<EntryId>) -> bool {
        if p == None {
            BLACK
        } else {
            self.entry(p).color
        }
    }

    /// Java's `parentOf(p)`: null for null.
    pub fn parent_of(&self, p: Option<EntryId>) -> Option<EntryId> {
        if p == None {
            None
        } else {
            self.entry(p).parent
        }
    }

    /// Java's `leftOf(p)`: null for null.
    pub fn left_of(&self, p: Option<EntryId>) -> Option<EntryId> {
        if p == None {
            None
        } else {
            self.entry(p).left
        }
    }

    /// Java's `rightOf(p)`: null for null.
    pub fn right_of(&self, p: Option<EntryId>) -> Option<EntryId> {
        if p == None {
            None
        } else {
            self.entry(p).right
        }
    }

    /// `Entry.setValue`: replaces the entry's value and returns the old one (`put` on a key
    /// already present is `return t.setValue(value)` in the JDK; not mutated, like the JDK's
    /// `Entry` methods).
    pub fn set_value(&mut self, t: Option<EntryId>, value: i64) -> i64 {
        let old_value = self.entry(t).value;
        self.entry_mut(t).value = value;
        old_value
    }

    /// Java's `setColor(p, c)`: does nothing on null.
    pub fn set_color(&mut self, p: Option<EntryId>, c: bool) {
        if p != None {
            self.entry_mut(p).color = c;
        }
    }

    /// CLR's LEFT-ROTATE around `p`: its right child takes its place.
    pub fn rotate_left(&mut self, p: Option<EntryId>) {
        let r = self.entry(p).right;
        self.entry_mut(p).right = self.entry(r).left;
        if self.entry(r).left != None {
            self.entry_mut(self.entry(r).left).parent = p;
        }
        self.entry_mut(r).parent = self.entry(p).parent;
        if self.entry(p).parent == None {
            self.root = r;
        } else if self.entry(self.entry(p).parent).left == p {
            self.entry_mut(self.entry(p).parent).left = r;
        } else {
            self.entry_mut(self.entry(p).parent).right = r;
        }
        self.entry_mut(r).left = p;
        self.entry_mut(p).parent = r;
    }

    /// CLR's RIGHT-ROTATE around `p`: its left child takes its place.
    pub fn rotate_right(&mut self, p: Option<EntryId>) {
        let l = self.entry(p).left;
        self.entry_mut(p).left = self.entry(l).right;
        if self.entry(l).right != None {
            self.entry_mut(self.entry(l).right).parent = p;
        }
        self.entry_mut(l).parent = self.entry(p).parent;
        if self.entry(p).parent == None {
            self.root = l;
        } else if self.entry(self.entry(p).parent).right == p {
            self.entry_mut(self.entry(p).parent).right = l;
        } else {
            self.entry_mut(self.entry(p).parent).left = l;
        }
        self.entry_mut(l).right = p;
        self.entry_mut(p).parent = l;
    }

    /// CLR's RB-INSERT fix-up from the new entry `x`: paint it red, then push a red-red
    /// violation up by recolouring, or remove it with one or two rotations.
    pub fn fix_after_insertion(&mut self, mut x: Option<EntryId>) {
        self.entry_mut(x).color = RED;

        while x != None && x != self.root && self.entry(self.entry(x).parent).color == RED {
            if self.parent_of(x) == self.left_of(self.parent_of(self.parent_of(x))) {
                let y = self.right_of(self.parent_of(self.parent_of(x)));
                if self.color_of(y) == RED {
                    self.set_color(self.parent_of(x), BLACK);
                    self.set_color(y, BLACK);
                    self.set_color(self.parent_of(self.parent_of(x)), RED);
                    x = self.parent_of(self.parent_of(x));
                } else {
                    if x == self.right_of(self.parent_of(x)) {
                        x = self.parent_of(x);
                        self.rotate_left(x);
                    }
                    self.set_color(self.parent_of(x), BLACK);
                    self.set_color(self.parent_of(self.parent_of(x)), RED);
                    if self.parent_of(self.parent_of(x)) != None {
                        self.rotate_right(self.parent_of(self.parent_of(x)));
                    }
                }
            } else {
                let y = self.left_of(self.parent_of(self.parent_of(x)));
                if self.color_of(y) == RED {
                    self.set_color(self.parent_of(x), BLACK);
                    self.set_color(y, BLACK);
                    self.set_color(self.parent_of(self.parent_of(x)), RED);
                    x = self.parent_of(self.parent_of(x));
                } else {
                    if x == self.left_of(self.parent_of(x)) {
                        x = self.parent_of(x);
                        self.rotate_right(x);
                    }
                    self.set_color(self.parent_of(x), BLACK);
                    self.set_color(self.parent_of(self.parent_of(x)), RED);
                    if self.parent_of(self.parent_of(x)) != None {
                        self.rotate_left(self.parent_of(self.parent_of(x)));
                    }
                }
            }
        }
        self.entry_mut(self.root).color = BLACK;
    }

    /// CLR's RB-DELETE fix-up from `x`, which carries an extra black: move it up by recolouring
    /// the sibling, or absorb it with rotations (the four cases, and their mirror images).
    pub fn fix_after_deletion(&mut self, mut x: Option<EntryId>) {
        while x != self.root && self.color_of(x) == BLACK {
            if x == self.left_of(self.parent_of(x)) {
                let mut sib = self.right_of(self.parent_of(x));

                if self.color_of(sib) == RED {
                    self.set_color(sib, BLACK);
                    self.set_color(self.parent_of(x), RED);
                    self.rotate_left(self.parent_of(x));
                    sib = self.right_of(self.parent_of(x));
                }

                if self.color_of(self.left_of(sib)) == BLACK
                    && self.color_of(self.right_of(sib)) == BLACK
                {
                    self.set_color(sib, RED);
                    x = self.parent_of(x);
                } else {
                    if self.color_of(self.right_of(sib)) == BLACK {
                        self.set_color(self.left_of(sib), BLACK);
                        self.set_color(sib, RED);
                        self.rotate_right(sib);
                        sib = self.right_of(self.parent_of(x));
                    }
                    self.set_color(sib, self.color_of(self.parent_of(x)));
                    self.set_color(self.parent_of(x), BLACK);
                    self.set_color(self.right_of(sib), BLACK);
                    self.rotate_left(self.parent_of(x));
                    x = self.root;
                }
            } else {
                let mut sib = self.left_of(self.parent_of(x));

                if self.color_of(sib) == RED {
                    self.set_color(sib, BLACK);
                    self.set_color(self.parent_of(x), RED);
                    self.rotate_right(self.parent_of(x));
                    sib = self.left_of(self.parent_of(x));
                }

                if self.color_of(self.right_of(sib)) == BLACK
                    && self.color_of(self.left_of(sib)) == BLACK
                {
                    self.set_color(sib, RED);
                    x = self.parent_of(x);
                } else {
                    if self.color_of(self.left_of(sib)) == BLACK {
                        self.set_color(self.right_of(sib), BLACK);
                        self.set_color(sib, RED);
                        self.rotate_left(sib);
                        sib = self.left_of(self.parent_of(x));
                    }
                    self.set_color(sib, self.color_of(self.parent_of(x)));
                    self.set_color(self.parent_of(x), BLACK);
                    self.set_color(self.left_of(sib), BLACK);
                    self.rotate_right(self.parent_of(x));
                    x = self.root;
                }
            }
        }
        self.set_color(x, BLACK);
    }
}
