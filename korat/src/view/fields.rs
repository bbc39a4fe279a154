//! Finding a derived type's fields in the benchmark's finitization, by name (the Rust name or
//! its camelCase form) and by what they hold, refusing a finitization that does not fit the
//! type once, at the lookup, rather than at every read.

use crate::{Candidate, ClassId, Domain, FieldId, Finitization, Part};

/// The class called `name` in `fin`, if it has one.
fn class_opt(fin: &Finitization, name: &str) -> Option<ClassId> {
    (0..fin.class_count())
        .map(|i| ClassId(i as u16))
        .find(|&c| fin.class_name(c) == name)
}

/// The number of objects of the class called `name` in `fin` (0 if it has none): how large a
/// derived decoder makes the arena it stages that class's objects in.
pub fn objects(fin: &Finitization, name: &str) -> usize {
    class_opt(fin, name).map_or(0, |c| fin.count(c) as usize)
}

/// The class called `name` in `fin`; panics with the known names if there is none.
pub fn class(fin: &Finitization, name: &str) -> ClassId {
    class_opt(fin, name).unwrap_or_else(|| {
        let names: Vec<&str> = (0..fin.class_count())
            .map(|i| fin.class_name(ClassId(i as u16)))
            .collect();
        panic!("the finitization has no class {name:?} (has {names:?})")
    })
}

/// The position among `class`'s fields of the one called `name` or its camelCase form.
fn position(fin: &Finitization, class: ClassId, name: &str) -> Option<usize> {
    fin.classes[class.0 as usize]
        .fields
        .iter()
        .position(|(n, _)| matches(name, n))
}

/// The field of `class` called `name` or its camelCase form (`load_factor`: `loadFactor`);
/// panics with the known names if there is neither.
pub fn field(fin: &Finitization, class: ClassId, name: &str) -> FieldId {
    match position(fin, class, name) {
        Some(i) => fin.field_at(class, i),
        None => fin.field(class, name),
    }
}

/// What a derived field's Rust type can hold, to check against the finitization's domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holds {
    /// An integer or a `bool`: integers only.
    Int,
    /// `Option` of an integer: integers and null.
    NullableInt,
    /// A link (`XId`, `Option<XId>`) to objects of class `class` (any class, when the
    /// finitization has none of that name: an opaque element's), and null if `nullable`.
    Link {
        /// The class linked to.
        class: &'static str,
        /// Whether null is a value.
        nullable: bool,
    },
}

impl std::fmt::Display for Holds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Holds::Int => write!(f, "an integer"),
            Holds::NullableInt => write!(f, "null or an integer"),
            Holds::Link {
                class,
                nullable: true,
            } => write!(f, "null or a {class}"),
            Holds::Link {
                class,
                nullable: false,
            } => write!(f, "a {class}, never null"),
        }
    }
}

/// [`field`], checked against what the Rust type holds: a finitization that gives a field
/// values its type cannot hold (objects to an `Option<usize>` that was meant as a link but
/// is not named `XId`, null to a non-null `XId`, integers to a link) would have the derived
/// view read them wrongly and Korat's counts come out wrong without a word, so it panics
/// here, once per finitization, naming the field and the remedy.
pub fn typed_field(fin: &Finitization, class: ClassId, name: &str, holds: Holds) -> FieldId {
    let id = field(fin, class, name);
    let spec = &fin.classes[class.0 as usize];
    let (declared, domain) = &spec.fields[id.index()];
    for part in &domain.0 {
        let fits = match (holds, part) {
            (Holds::Int, Part::Ints(..)) => true,
            (Holds::NullableInt, Part::Ints(..) | Part::Null) => true,
            (Holds::Link { nullable, .. }, Part::Null) => nullable,
            (Holds::Link { class: target, .. }, Part::Objects(c)) => {
                fin.class_name(*c) == target || class_opt(fin, target).is_none()
            }
            _ => false,
        };
        if !fits {
            let value = match part {
                Part::Null => "null".to_string(),
                Part::Objects(c) => format!("objects of class {}", fin.class_name(*c)),
                Part::Ints(lo, hi) => format!("the integers {lo}..={hi}"),
            };
            panic!(
                "field `{declared}` of class {}: its Rust type holds {holds}, but the \
                 finitization's domain has {value}; a link's id type is named after its class \
                 (`type NodeId = usize` for class `Node`), a nullable one is an `Option`",
                spec.name
            );
        }
    }
    id
}

/// Whether the Rust field `rust` is the finitization's field `declared`.
pub(super) fn matches(rust: &str, declared: &str) -> bool {
    rust == declared || camel(rust) == declared
}

fn camel(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut upper = false;
    for ch in snake.chars() {
        if ch == '_' {
            upper = true;
        } else if upper {
            out.extend(ch.to_uppercase());
            upper = false;
        } else {
            out.push(ch);
        }
    }
    out
}

/// An integer field that stands for an object compared by identity (`#[korat(names(first,
/// A, B))]`: INS's attribute and value names, Java `String`s compared with `equals`): its
/// domain is the objects of classes `A`, `B`, … and an object reads as `first` plus its
/// position among them in that order, so that Korat's isomorphism breaking renames names
/// the way it renames nodes (integers it would enumerate in every permutation).
#[derive(Clone, Copy, Debug)]
pub struct Names {
    /// The field.
    pub field: FieldId,
    /// Each listed class and the integer its object 0 reads as (at most four classes).
    bases: [Option<(ClassId, i64)>; 4],
}

impl Names {
    /// The names field `name` of `class` in `fin`, its objects numbered from `first` over
    /// `classes` in order; panics if the domain holds anything but those classes' objects.
    pub fn of(
        fin: &Finitization,
        class: ClassId,
        name: &str,
        first: i64,
        classes: &[&str],
    ) -> Self {
        assert!(classes.len() <= 4, "names over at most four classes");
        let field = field(fin, class, name);
        let mut bases = [None; 4];
        let mut next = first;
        for (slot, c) in bases.iter_mut().zip(classes) {
            let id = self::class(fin, c);
            *slot = Some((id, next));
            next += i64::from(fin.count(id));
        }
        let spec = &fin.classes[class.0 as usize];
        for part in &spec.fields[field.index()].1 .0 {
            let fits = matches!(part, Part::Objects(c) if classes.contains(&fin.class_name(*c)));
            assert!(
                fits,
                "field `{name}` of class {}: names read objects of {classes:?} only, its \
                 domain has {part:?}",
                spec.name
            );
        }
        Names { field, bases }
    }

    /// The integer the name in object `obj`'s field reads as (a recorded read).
    #[inline(always)]
    pub fn read(&self, c: &mut Candidate<'_>, obj: u32) -> i64 {
        match c.get(self.field, obj) {
            crate::Value::Obj(class, i) => {
                let base = self.bases.iter().flatten().find(|(c, _)| *c == class);
                base.expect("a name's class is listed").1 + i64::from(i)
            }
            other => panic!("a name is an object, not {other:?}"),
        }
    }
}

/// A field that refers to a Java array (`int[] array`, `Entry[] table`): the reference, and
/// the array class's `length` and elements (declared with `FinitizationBuilder::array`).
#[derive(Clone, Copy, Debug)]
pub struct ArrayFields {
    /// The reference to the array object.
    pub field: FieldId,
    /// The array's `length`.
    pub length: FieldId,
    /// Element 0's (first) part.
    first: FieldId,
    /// Fields per element.
    width: u32,
    /// Elements an array of the class can hold.
    pub(super) max: u32,
}

impl ArrayFields {
    /// Element `i`'s field (its first part); panics past the finitization's largest array.
    #[inline(always)]
    pub fn element(&self, i: u32) -> FieldId {
        assert!(
            i < self.max,
            "element {i} of an array of at most {}",
            self.max
        );
        self.first.after(i * self.width)
    }
}

/// The array field of `class` called `name` (or its camelCase form), if `fin` declares it and
/// it refers to objects of an array class.
pub fn array_opt(fin: &Finitization, class: ClassId, name: &str) -> Option<ArrayFields> {
    let i = position(fin, class, name)?;
    let array = fin.classes[class.0 as usize].fields[i]
        .1
         .0
        .iter()
        .find_map(|p| match p {
            Part::Objects(c) => Some(*c),
            _ => None,
        })?;
    let a = fin.classes[array.0 as usize].array?;
    Some(ArrayFields {
        field: fin.field_at(class, i),
        length: fin.field_at(array, a.length_field as usize),
        first: fin.element(array, 0, 0),
        width: a.element_width,
        max: (fin.classes[array.0 as usize].fields.len() as u32 - a.first_element)
            / a.element_width,
    })
}

/// The array field of `class` called `name`, which a `Vec` holds; panics if `fin` has none,
/// or if its domain has null or its length a negative integer: a `Vec` is never null and
/// never shorter than empty, so the derived view reads the array object and its length as
/// `u32`, and decoding null as an empty `Vec` would make two candidates one input.
pub fn array(fin: &Finitization, class: ClassId, name: &str) -> ArrayFields {
    let fields = array_opt(fin, class, name).unwrap_or_else(|| {
        panic!(
            "class {} has no array field {name:?}",
            fin.class_name(class)
        )
    });
    let refuse = |what: &str| -> ! {
        panic!(
            "array field `{name}` of class {}: {what}; a `Vec` is never null and never \
             shorter than empty (leave null out of the field's domain, and negative integers \
             out of the length's)",
            fin.class_name(class)
        )
    };
    if has_null(fin, fields.field) {
        refuse("the finitization's domain has null");
    }
    if domain_of(fin, fields.length)
        .0
        .iter()
        .any(|p| matches!(p, Part::Ints(lo, _) if *lo < 0))
    {
        refuse("the finitization gives its length negative integers");
    }
    fields
}

/// The root's array that lists the objects of an arena (DisjSet's `Record[] elements`), if
/// `fin` declares one: [`array_opt`], checked as [`array`] checks an array and, since the
/// derived view reads its elements as `u32` (the arena's objects, never null), refused if an
/// element's domain has null.
pub fn listed(fin: &Finitization, class: ClassId, name: &str) -> Option<ArrayFields> {
    array_opt(fin, class, name)?;
    let fields = array(fin, class, name);
    if (0..fields.max).any(|i| has_null(fin, fields.element(i))) {
        panic!(
            "array `{name}` lists the objects of an arena, never null, but the finitization \
             gives its elements null"
        );
    }
    Some(fields)
}

fn domain_of(fin: &Finitization, field: FieldId) -> &Domain {
    &fin.classes[field.class as usize].fields[field.offset as usize].1
}

fn has_null(fin: &Finitization, field: FieldId) -> bool {
    domain_of(fin, field)
        .0
        .iter()
        .any(|p| matches!(p, Part::Null))
}

/// A never-null link's object: a field whose finitization domain has no null (checked once
/// per finitization by [`typed_field`], [`array`] and [`listed`]) always reads as an object.
#[inline(always)]
pub fn non_null(object: Option<u32>) -> u32 {
    match object {
        Some(o) => o,
        None => unreachable!("a never-null field read null: its finitization was not checked"),
    }
}
