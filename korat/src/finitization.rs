//! Finitizations: the bounds that turn a predicate's input into a finite state space.
//!
//! A finitization declares *classes* (object pools of a fixed size), each with *fields* whose
//! *field domain* is a union of parts: `null`, the objects of a class, or an integer range.
//! Class 0 is the *root class*: exactly one object, whose fields hold a method's receiver and
//! arguments (the paper's `SearchTree_remove { This, info }`).
//!
//! The state space has one *slot* per (object, field), ordered by class (declaration order),
//! then object index, then field (declaration order) — the order the original Korat uses, which
//! the candidate counts depend on.

use std::fmt;

/// A class (object pool) of a finitization. Class 0 is the root class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClassId(pub u16);

/// The root class: one object holding the receiver and the arguments.
pub const ROOT: ClassId = ClassId(0);

/// A field of a class, resolved to slot arithmetic so that reading it on a candidate is one
/// multiply-add: `slot = first + object * stride`, where `first` is the field's slot in
/// object 0 (the class's first slot plus the field's position, added once here rather than on
/// every read).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FieldId {
    pub(crate) class: u16,
    pub(crate) first: u32,
    pub(crate) stride: u32,
    pub(crate) offset: u32,
}

impl FieldId {
    /// The slot of this field in object `obj` of its class.
    #[inline(always)]
    pub fn slot(self, obj: u32) -> usize {
        (self.first + obj * self.stride) as usize
    }

    /// The class that declares this field.
    pub fn class(self) -> ClassId {
        ClassId(self.class)
    }

    /// The field's position among its class's fields (declaration order).
    pub fn index(self) -> usize {
        self.offset as usize
    }

    /// The field `k` positions later in its class's declaration order (what
    /// [`Finitization::field_at`] gives for `index() + k`): an array's element `i + k` when
    /// its elements are one field wide.
    #[inline(always)]
    pub(crate) fn after(self, k: u32) -> FieldId {
        FieldId {
            first: self.first + k,
            offset: self.offset + k,
            ..self
        }
    }
}

/// A value a slot can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// No object (an object field's `None`).
    Null,
    /// Object `index` of `class`.
    Obj(ClassId, u32),
    /// A primitive value.
    Int(i64),
}

impl Value {
    /// The object index if this is an object (of any class).
    pub fn obj(self) -> Option<u32> {
        match self {
            Value::Obj(_, i) => Some(i),
            _ => None,
        }
    }

    /// The integer, or `None` for null and objects.
    pub fn int(self) -> Option<i64> {
        match self {
            Value::Int(v) => Some(v),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => write!(f, "null"),
            Value::Obj(c, i) => write!(f, "#{}.{}", c.0, i),
            Value::Int(v) => write!(f, "{v}"),
        }
    }
}

/// One part of a field domain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// `null`, listed first in the paper's object domains.
    Null,
    /// Every object of a class, by index.
    Objects(ClassId),
    /// The integers `lo..=hi`.
    Ints(i64, i64),
}

/// A field domain: an ordered union of parts. Korat enumerates a slot's values in this order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Domain(pub Vec<Part>);

impl Domain {
    /// `null` followed by the objects of `class` — the usual domain of a nullable link.
    pub fn nullable(class: ClassId) -> Self {
        Domain(vec![Part::Null, Part::Objects(class)])
    }
    /// The objects of `class`, without null.
    pub fn objects(class: ClassId) -> Self {
        Domain(vec![Part::Objects(class)])
    }
    /// The integers `lo..=hi`.
    pub fn ints(lo: i64, hi: i64) -> Self {
        Domain(vec![Part::Ints(lo, hi)])
    }
    /// Only `null`.
    pub fn null() -> Self {
        Domain(vec![Part::Null])
    }
    /// This domain followed by `other`'s parts.
    pub fn or(mut self, other: Domain) -> Self {
        self.0.extend(other.0);
        self
    }
}

/// One entry of a slot's concrete domain: the value and, for objects, its class and index
/// within the class (what isomorphism breaking compares).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub value: Value,
    /// The same value as a search keeps it for the predicate's reads (not listed).
    pub cell: Cell,
    /// Class of an object entry, `u16::MAX` for null and integers (never iso-broken).
    pub class: u16,
    /// Index of the object within its class; 0 otherwise.
    pub index: u32,
    /// Index in the slot's table of the last entry of this entry's class segment.
    pub segment_end: u32,
}

/// [`Cell::tag`] of a null value.
pub(crate) const NULL: u8 = 0;
/// [`Cell::tag`] of an object.
pub(crate) const OBJ: u8 = 1;
/// [`Cell::tag`] of an integer that fits in 32 bits.
pub(crate) const INT: u8 = 2;
/// [`Cell::tag`] of a wider integer: not held in the cell, read from the domain table.
const WIDE: u8 = 3;
/// [`Cell::tag`]'s bit for a slot on the access list.
pub(crate) const LISTED: u8 = 0x80;

/// What a search keeps per slot for the predicate's reads: the slot's current value and
/// whether the slot is on the access list, together in 8 bytes. A predicate reads almost only
/// slots already listed (a candidate differs from the previous one in the top slot), so such a
/// read is one bounds check, one load and one test, with no second array to consult: the kind
/// of value and the listed bit share a byte, so that a candidate's `obj` and `int` reads
/// (which read `tag` and `payload` themselves: the hottest code of a search) test both with
/// one comparison, and 8 bytes index with the address arithmetic's own scale. Integers beyond 32 bits (never
/// met in the paper's finitizations) take the slow path. Kept here, beside the domain tables,
/// because each [`Entry`] holds its value ready as a cell for the search to copy.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct Cell {
    /// [`NULL`], [`OBJ`], [`INT`] or [`WIDE`], plus [`LISTED`] while the slot is listed.
    pub(crate) tag: u8,
    /// An object's class.
    class: u16,
    /// An object's index within its class, or an [`INT`] as `i32` bits.
    pub(crate) payload: u32,
}

impl Cell {
    /// `v`, not listed.
    pub fn new(v: Value) -> Self {
        let (tag, class, payload) = match v {
            Value::Null => (NULL, 0, 0),
            Value::Obj(c, i) => (OBJ, c.0, i),
            Value::Int(v) => match i32::try_from(v) {
                Ok(v) => (INT, 0, v as u32),
                Err(_) => (WIDE, 0, 0),
            },
        };
        Cell {
            tag,
            class,
            payload,
        }
    }

    /// Whether the slot is on the access list.
    #[inline(always)]
    pub fn listed(self) -> bool {
        self.tag & LISTED != 0
    }

    /// Puts the slot on the access list or takes it off.
    #[inline(always)]
    pub fn set_listed(&mut self, on: bool) {
        self.tag = if on {
            self.tag | LISTED
        } else {
            self.tag & !LISTED
        };
    }

    /// The value of a listed slot, `None` if it is not listed or holds a [`WIDE`] integer.
    #[inline(always)]
    pub fn listed_value(self) -> Option<Value> {
        match self.tag {
            t if t == LISTED | OBJ => Some(Value::Obj(ClassId(self.class), self.payload)),
            t if t == LISTED | INT => Some(Value::Int(i64::from(self.payload as i32))),
            t if t == LISTED | NULL => Some(Value::Null),
            _ => None,
        }
    }

    /// The object held, as (class, index), if any.
    #[inline(always)]
    pub fn object(self) -> Option<(u16, u32)> {
        (self.tag & !LISTED == OBJ).then_some((self.class, self.payload))
    }

    /// Holds the value of `c` (a domain table's cell), staying listed or not.
    #[inline(always)]
    pub fn set(&mut self, c: Cell) {
        *self = Cell {
            tag: c.tag | (self.tag & LISTED),
            ..c
        };
    }
}

#[derive(Clone, Debug)]
pub(crate) struct ClassSpec {
    pub name: String,
    pub count: u32,
    pub fields: Vec<(String, Domain)>,
    /// For array classes: number of leading non-element fields (the length field is the first);
    /// element `k` is reachable only when `k < length`.
    pub array: Option<ArraySpec>,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct ArraySpec {
    /// Field index of the length.
    pub length_field: u32,
    /// Field index of element 0; elements are consecutive.
    pub first_element: u32,
    /// Number of element fields per element (1 for plain arrays).
    pub element_width: u32,
}

/// Builds a [`Finitization`]. Declare classes and fields, then [`FinitizationBuilder::build`].
#[derive(Clone, Debug)]
pub struct FinitizationBuilder {
    classes: Vec<ClassSpec>,
}

impl FinitizationBuilder {
    /// A finitization whose root class is called `root_name` (one object).
    pub fn new(root_name: &str) -> Self {
        FinitizationBuilder {
            classes: vec![ClassSpec {
                name: root_name.to_string(),
                count: 1,
                fields: Vec::new(),
                array: None,
            }],
        }
    }

    /// Declares a class of `count` objects.
    pub fn class(&mut self, name: &str, count: u32) -> ClassId {
        self.classes.push(ClassSpec {
            name: name.to_string(),
            count,
            fields: Vec::new(),
            array: None,
        });
        ClassId((self.classes.len() - 1) as u16)
    }

    /// Declares a field of `class` with the given domain. Returns its position; resolve it to a
    /// [`FieldId`] with [`Finitization::field`] after building (or use the builder's `fields`).
    pub fn field(&mut self, class: ClassId, name: &str, domain: Domain) -> usize {
        let c = &mut self.classes[class.0 as usize];
        assert!(
            c.array.is_none() || c.fields.is_empty(),
            "array classes take their fields from `array`"
        );
        c.fields.push((name.to_string(), domain));
        c.fields.len() - 1
    }

    /// Declares an array class: `count` arrays, each with a `length` field over `length` and
    /// `max_len` element groups of `element` fields (one field for a plain array, several for
    /// an array of records stored inline). Elements at or past the length are unreachable.
    pub fn array(
        &mut self,
        name: &str,
        count: u32,
        length: Domain,
        max_len: u32,
        element: &[(&str, Domain)],
    ) -> ClassId {
        let mut fields = vec![("length".to_string(), length)];
        for k in 0..max_len {
            for (fname, d) in element {
                fields.push((format!("{fname}[{k}]"), d.clone()));
            }
        }
        self.classes.push(ClassSpec {
            name: name.to_string(),
            count,
            fields,
            array: Some(ArraySpec {
                length_field: 0,
                first_element: 1,
                element_width: element.len() as u32,
            }),
        });
        ClassId((self.classes.len() - 1) as u16)
    }

    /// Freezes the declarations into a state space.
    pub fn build(self) -> Finitization {
        Finitization::from_classes(self.classes)
    }
}

/// A frozen finitization: classes, slots and each slot's concrete domain table.
#[derive(Clone, Debug)]
pub struct Finitization {
    pub(crate) classes: Vec<ClassSpec>,
    /// First slot of each class.
    pub(crate) class_base: Vec<u32>,
    /// For each slot: (class, object, field).
    pub(crate) slot_owner: Vec<(u16, u32, u32)>,
    /// For each slot: its domain table.
    pub(crate) tables: Vec<std::sync::Arc<[Entry]>>,
    /// For each slot: whether its value can never change what is reachable (no object in its
    /// domain, not an array's length). Such a slot, left unread by a valid candidate, can be
    /// enumerated without running the predicate again: see `search`'s free product.
    pub(crate) free: Vec<bool>,
}

impl Finitization {
    fn from_classes(classes: Vec<ClassSpec>) -> Self {
        assert_eq!(classes[0].count, 1, "the root class has exactly one object");
        let mut class_base = Vec::with_capacity(classes.len());
        let mut slot_owner = Vec::new();
        let mut tables = Vec::new();
        for (ci, c) in classes.iter().enumerate() {
            class_base.push(slot_owner.len() as u32);
            let per_field: Vec<std::sync::Arc<[Entry]>> = c
                .fields
                .iter()
                .map(|(name, d)| {
                    let t = table(&classes, d);
                    assert!(
                        !t.is_empty(),
                        "field {}.{} has an empty domain",
                        c.name,
                        name
                    );
                    t.into()
                })
                .collect();
            for o in 0..c.count {
                for (fi, t) in per_field.iter().enumerate() {
                    slot_owner.push((ci as u16, o, fi as u32));
                    tables.push(t.clone());
                }
            }
        }
        let free = slot_owner
            .iter()
            .zip(&tables)
            .map(|(&(c, _, f), t)| {
                let is_length = classes[c as usize]
                    .array
                    .is_some_and(|a| a.length_field == f);
                !is_length && t.iter().all(|e| e.class == u16::MAX)
            })
            .collect();
        Finitization {
            classes,
            class_base,
            slot_owner,
            tables,
            free,
        }
    }

    /// The field called `name` of `class`. Panics with the known names if there is none: a
    /// misspelt field is a bug in the benchmark's own code.
    pub fn field(&self, class: ClassId, name: &str) -> FieldId {
        self.field_named(class, name).unwrap_or_else(|| {
            let c = &self.classes[class.0 as usize];
            let names: Vec<&str> = c.fields.iter().map(|(n, _)| n.as_str()).collect();
            panic!("class {} has no field {name:?} (has {names:?})", c.name)
        })
    }

    /// The field called `name` of `class`, if it has one (a method's argument that only some
    /// finitizations hold).
    pub fn field_named(&self, class: ClassId, name: &str) -> Option<FieldId> {
        let c = &self.classes[class.0 as usize];
        let offset = c.fields.iter().position(|(n, _)| n == name)?;
        Some(self.field_at(class, offset))
    }

    /// The field at position `offset` of `class`.
    pub fn field_at(&self, class: ClassId, offset: usize) -> FieldId {
        let c = &self.classes[class.0 as usize];
        FieldId {
            class: class.0,
            first: self.class_base[class.0 as usize] + offset as u32,
            stride: c.fields.len() as u32,
            offset: offset as u32,
        }
    }

    /// For an array class: the field of element `k`'s `part`-th component.
    pub fn element(&self, class: ClassId, k: u32, part: u32) -> FieldId {
        let a = self.classes[class.0 as usize]
            .array
            .expect("element() needs an array class");
        self.field_at(
            class,
            (a.first_element + k * a.element_width + part) as usize,
        )
    }

    /// Number of slots (the length of a state vector).
    pub fn slots(&self) -> usize {
        self.tables.len()
    }

    /// Number of values slot `s` can take.
    pub fn domain_size(&self, s: usize) -> usize {
        self.tables[s].len()
    }

    /// The value of slot `s` at domain index `i`.
    pub fn value(&self, s: usize, i: u32) -> Value {
        self.tables[s][i as usize].value
    }

    /// Number of objects of `class`.
    pub fn count(&self, class: ClassId) -> u32 {
        self.classes[class.0 as usize].count
    }

    /// Number of classes (the root included).
    pub fn class_count(&self) -> usize {
        self.classes.len()
    }

    /// Name of `class`.
    pub fn class_name(&self, class: ClassId) -> &str {
        &self.classes[class.0 as usize].name
    }

    /// Human-readable name of slot `s`, e.g. `Node#1.left`.
    pub fn slot_name(&self, s: usize) -> String {
        let (c, o, f) = self.slot_owner[s];
        let cls = &self.classes[c as usize];
        format!("{}#{}.{}", cls.name, o, cls.fields[f as usize].0)
    }

    /// log2 of the size of the whole state space (the product of all domain sizes).
    pub fn state_space_log2(&self) -> f64 {
        self.tables.iter().map(|t| (t.len() as f64).log2()).sum()
    }

    /// How many candidates assign every value of their domains to `slots` (the product of the
    /// domain sizes): what a free product enumerates.
    pub fn combinations(&self, slots: impl IntoIterator<Item = u32>) -> u64 {
        slots
            .into_iter()
            .try_fold(1u64, |n, s| {
                n.checked_mul(self.tables[s as usize].len() as u64)
            })
            .expect("a free product of more than 2^64 combinations")
    }

    /// The slots of the fields of object `obj` of `class` that are reachable when the object
    /// is: all of them, except array elements at or past the array's current length.
    #[inline]
    pub(crate) fn live_fields(
        &self,
        class: u16,
        obj: u32,
        state: &[u32],
    ) -> std::ops::Range<usize> {
        let c = &self.classes[class as usize];
        let base = (self.class_base[class as usize] + obj * c.fields.len() as u32) as usize;
        let mut end = base + c.fields.len();
        if let Some(a) = c.array {
            let ls = base + a.length_field as usize;
            let len = self.tables[ls][state[ls] as usize]
                .value
                .int()
                .unwrap_or(0)
                .max(0) as usize;
            end = end.min(base + (a.first_element + a.element_width * len as u32) as usize);
        }
        base..end
    }
}

fn table(classes: &[ClassSpec], d: &Domain) -> Vec<Entry> {
    let mut t = Vec::new();
    for part in &d.0 {
        match *part {
            Part::Null => t.push(Entry {
                value: Value::Null,
                cell: Cell::new(Value::Null),
                class: u16::MAX,
                index: 0,
                segment_end: t.len() as u32,
            }),
            Part::Ints(lo, hi) => {
                for v in lo..=hi {
                    t.push(Entry {
                        value: Value::Int(v),
                        cell: Cell::new(Value::Int(v)),
                        class: u16::MAX,
                        index: 0,
                        segment_end: t.len() as u32,
                    })
                }
            }
            Part::Objects(c) => {
                let n = classes[c.0 as usize].count;
                let start = t.len() as u32;
                for i in 0..n {
                    t.push(Entry {
                        value: Value::Obj(c, i),
                        cell: Cell::new(Value::Obj(c, i)),
                        class: c.0,
                        index: i,
                        segment_end: start + n - 1,
                    })
                }
            }
        }
    }
    t
}
