//! The code under test: the Intentional Naming System's name-tree and its LOOKUP-NAME, in the
//! corrected form that exhaustive testing led to (Khurshid and Marinov, via TestEra).
//!
//! A name-tree alternates levels of values and attributes below a root value: a value has a
//! list of child attributes, an attribute a non-empty list of child values, and a value may
//! hold a name-record (the service whose name passes through it). A query (an intentional
//! name, INS's name-specifier) is a list of top-level attributes with the same shape below,
//! one value per attribute; its values may be the wildcard `*`.
//!
//! A record *conforms* to a query when the query is a subtree of the record's name (the paths
//! from the root to the values that hold the record), a wildcard matching any value. LOOKUP-NAME
//! walks the query's attributes: for each one, the name-tree must have the attribute at that
//! point (otherwise nothing conforms — the fix of the published algorithm, which skipped such
//! attributes as if they were wildcards); a wildcard value takes every record below every child
//! value of that attribute; a plain value must exist below the attribute, and then a leaf of the
//! query takes every record below it while an inner query value recurses. The answers for the
//! attributes are intersected, starting from every record below the current value.
//!
//! Java's references become `Option<Id>` into the arenas (`v.attributes` is `self.value(v)
//! .attributes`, a panic on `None` for Java's NPE); record sets are `boolean[]` arrays.

// Links compare with `== None` on purpose: Java's `== null`, mutated as in Java.
#![allow(clippy::partialeq_to_none)]

/// Index of a value, an attribute or a record in its arena.
pub type ValueId = usize;
pub type AttributeId = usize;
pub type RecordId = usize;

/// The name of the wildcard value `*`.
pub const WILDCARD: i64 = 0;

/// A value node: `name` is `WILDCARD` or a value name `1..` (INS names compare by identity),
/// `attributes` the first child, `next` the next sibling, `record` the name-record held here.
#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
#[korat(decode(name, record, attributes, next))]
pub struct Value {
    #[korat(names(0, Wildcard, VName))]
    pub name: i64,
    pub attributes: Option<AttributeId>,
    pub next: Option<ValueId>,
    pub record: Option<RecordId>,
}

/// An attribute node: `name` an attribute name `1..`, `values` the first child value, `next`
/// the next attribute under the same parent value.
#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Attribute {
    #[korat(names(1, AName))]
    pub name: i64,
    pub values: Option<ValueId>,
    pub next: Option<AttributeId>,
}

/// A name-record (a service); only its identity matters (`next`: records never chained here).
#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Record {
    #[korat(skip)]
    pub next: Option<RecordId>,
}

/// A name-tree, and the arena its query lives in too; names are Korat objects (`#[korat]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, ferastrau_sdk::Korat)]
#[korat(objects(VName, n), objects(AName, n), objects(Wildcard, 1))]
pub struct AvTree {
    pub root: Option<ValueId>,
    #[korat(pool(n))]
    pub values: Vec<Value>,
    #[korat(pool(n))]
    pub attributes: Vec<Attribute>,
    #[korat(pool(n))]
    pub records: Vec<Record>,
}

impl AvTree {
    /// The value `v` points to; `None` is a null dereference.
    pub fn value(&self, v: Option<ValueId>) -> &Value {
        &self.values[v.expect("null dereference")]
    }

    /// The attribute `a` points to; `None` is a null dereference.
    pub fn attribute(&self, a: Option<AttributeId>) -> &Attribute {
        &self.attributes[a.expect("null dereference")]
    }

    /// The record `r` points to; `None` is a null dereference.
    pub fn record(&self, r: Option<RecordId>) -> &Record {
        &self.records[r.expect("null dereference")]
    }

    /// LOOKUP-NAME: the records (in increasing id order) that conform to the query whose
    /// top-level attributes start at `query` (null: the empty query, which every record of
    /// the name-tree conforms to).
    pub fn lookup(&self, query: Option<AttributeId>) -> Vec<RecordId> {
        let found = self.lookup_name(self.root, query);
        let mut result = Vec::new();
        let mut r = 0;
        while r < found.len() {
            if found[r] {
                result.push(r);
            }
            r += 1;
        }
        result
    }

    /// INS's recursive LOOKUP-NAME(T, n): the records below the name-tree value `t` that
    /// conform to the query av-pairs starting at `n` (the attributes below a query value).
    pub fn lookup_name(&self, t: Option<ValueId>, n: Option<AttributeId>) -> Vec<bool> {
        let count = self.records.len();
        let mut s = self.extract(t);
        let mut pa = n;
        while pa != None {
            let na = self.attribute(pa).name;
            let nv = self.attribute(pa).values;

            // Ta: the child attribute of t with the query attribute's name.
            let mut ta = self.value(t).attributes;
            while ta != None && self.attribute(ta).name != na {
                ta = self.attribute(ta).next;
            }
            if ta == None {
                // The name-tree lacks the attribute here: no record below t conforms.
                return vec![false; count];
            }

            let mut s1 = vec![false; count];
            if self.value(nv).name == WILDCARD {
                // Wildcard matching: every record below every value of Ta.
                let mut tv = self.attribute(ta).values;
                while tv != None {
                    let below = self.extract(tv);
                    let mut r = 0;
                    while r < count {
                        if below[r] {
                            s1[r] = true;
                        }
                        r += 1;
                    }
                    tv = self.value(tv).next;
                }
            } else {
                // Normal matching: the value of Ta with the query value's name.
                let mut tv = self.attribute(ta).values;
                while tv != None && self.value(tv).name != self.value(nv).name {
                    tv = self.value(tv).next;
                }
                if tv == None {
                    return vec![false; count];
                }
                if self.value(nv).attributes == None {
                    s1 = self.extract(tv);
                } else {
                    s1 = self.lookup_name(tv, self.value(nv).attributes);
                }
            }

            // S = S ∩ S1
            let mut r = 0;
            while r < count {
                s[r] = s[r] && s1[r];
                r += 1;
            }
            pa = self.attribute(pa).next;
        }
        s
    }

    /// The records held by `t` and by every value below it.
    pub fn extract(&self, t: Option<ValueId>) -> Vec<bool> {
        let mut s = vec![false; self.records.len()];
        let mut r = self.value(t).record;
        while r != None {
            s[r.expect("null dereference")] = true;
            r = self.record(r).next;
        }
        let mut a = self.value(t).attributes;
        while a != None {
            let mut v = self.attribute(a).values;
            while v != None {
                let below = self.extract(v);
                let mut i = 0;
                while i < below.len() {
                    if below[i] {
                        s[i] = true;
                    }
                    i += 1;
                }
                v = self.value(v).next;
            }
            a = self.attribute(a).next;
        }
        s
    }
}
