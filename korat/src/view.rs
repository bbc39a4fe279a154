//! What `#[derive(Korat)]` (the `korat-derive` crate, re-exported by `ferastrau-sdk`) generates
//! code against: one invariant, written once over a view trait, runs on Korat's candidates
//! (whose first reads drive the search) and on real structures (post-states), and a valid
//! candidate decodes into the real structure.
//!
//! For a structure of arenas (`Vec<Node>` + `Option<NodeId>` links), the derive on each node
//! type `Node` makes `NodeFields` (its field ids in a finitization), `NodeView` (a method per
//! field: `fn left(&mut self, n: u32) -> Option<u32>`) and implements that view for
//! [`View`] (a candidate) and [`Real`] (any structure holding an arena of `Node`s, through
//! [`ArenaOf`]). The derive on the structure itself (the type that holds the arenas) makes its
//! own fields and view (`SearchTreeView: NodeView`, methods without an object index: the
//! structure is Korat's root object) and implements [`Root`]: the field ids of a whole
//! finitization, and the decoder. Fields are found by name (the Rust name, or its camelCase
//! form), so the finitization stays the benchmark's own: its classes, counts, domains and
//! declaration order, which decide Korat's counts.
//!
//! With `#[korat(ints(lo, hi))]` on the integers and `#[korat(pool(count))]` on the arenas
//! (bounds and counts are expressions of the scope `n`), the derive also writes the
//! finitization itself, `Type::finitization(root_name, scope, args)`: each node type declares
//! its fields through [`Class::declare`], in declaration order, links taking their class as
//! domain.
//!
//! For a structure of one arena, the derive also writes its Java serialization, the state
//! `evaluate --compare structural` compares: `ferastrau_sdk::structure::Graph` for the
//! structure and `Object` (fields in declaration order) for it and its node type.
//!
//! What a field is follows from its type: `Option<XId>` or `XId` (a name ending in `Id`) is a
//! link to class `X`; an integer type, `bool` (0 or 1 in the finitization) or `Option` of an
//! integer (null or an integer) is a value; `Vec<X>` in the structure is the arena of class
//! `X`; `Vec` of a value or a link is a Java array (`int[] xs`): a reference to an object of an
//! array class, read as `xs()`, `xs_len(a)` and `xs_at(a, i)` through [`ArrayFields`], decoded
//! to its elements; anything else (and a field marked
//! `#[korat(skip)]`) is not Korat's and decodes to its `Default`. A type with an arena or an
//! array field is a structure (Korat's root), one without is a node type.
//!
//! What cannot be null reads as a value, not an `Option`: a link `XId`, a `Box`, an array (a
//! `Vec`) and a listed arena's slot are `u32`s. The field ids' lookup ([`typed_field`],
//! [`array`], [`listed`]) refuses a finitization that gives them null, once, so that
//! [`non_null`] never fails on a candidate and an invariant carries no null check that no input
//! can take (it would cap the specification's branch coverage).
//!
//! A structure linked by `Box` (`Option<Box<Node>>`, no arena) names its classes' pools on
//! itself (`#[korat(pool(Node, n))]`); a `Box` field is a link that owns its object. Its view
//! is read on a candidate as any other and on a real structure through [`Boxed`], which numbers
//! the owned objects (the [`Reach`] walk); its decoder builds the `Box`es and refuses a
//! candidate that reaches an object twice ([`Linker::own`]), which no `Box` can hold.
//!
//! An arena whose finitization also gives the root an array field of the arena's name (Java's
//! `Record[] elements` over a pool of records) is *listed*: the view reads it through that
//! array (`elements()`, `elements_len(a)`, `elements_at(a, i)`; on a real structure slot `i`
//! holds object `i`), and the decoder lays the arena out in slot order. A structure with an
//! array field has no derived serialization (Java writes arrays in a form not modelled here).

use std::any::{Any, TypeId};
use std::collections::HashMap;

use crate::{Candidate, ClassId, Domain, FieldId, Finitization, FinitizationBuilder, Part, ROOT};

/// A candidate seen through a derived view: every first read is recorded by Korat.
pub struct View<'c, 'a, F> {
    /// The candidate.
    pub c: &'c mut Candidate<'a>,
    /// The field ids of its finitization.
    pub f: &'c F,
}

impl<'c, 'a, F> View<'c, 'a, F> {
    /// `c` read through the field ids `f`.
    pub fn new(c: &'c mut Candidate<'a>, f: &'c F) -> Self {
        View { c, f }
    }
}

/// A real structure seen through a derived view (a post-state: the invariant's other side).
pub struct Real<'r, T>(pub &'r T);

/// A real structure linked by `Box` (`Option<Box<Node>>`, no arena) seen through a derived
/// view: a view names objects by index, as a candidate does, so [`Boxed::new`] numbers the
/// objects the root owns, per class, in a depth-first pre-order walk (fields in declaration
/// order) — the order in which the derived decoder builds them. The walk uses its own stack:
/// a long chain in a mutant's post-state cannot overflow the thread's.
pub struct Boxed<'r, T> {
    /// The structure.
    pub root: &'r T,
    /// Each class's objects by index.
    objects: HashMap<TypeId, Vec<&'r dyn Any>>,
    /// Each object's index, by class and address.
    ids: HashMap<(TypeId, usize), u32>,
}

/// A type whose objects own others through `Box` links (derived for every `#[derive(Korat)]`
/// type; a type without such links owns nothing): what [`Boxed::new`] walks.
pub trait Reach: Any {
    /// Pushes the objects `self` owns through `Box` links, in declaration order.
    fn reach<'r>(&'r self, out: &mut Vec<&'r dyn Reach>);
}

impl<'r, T: Reach> Boxed<'r, T> {
    /// Numbers the objects `root` owns (the root itself is Korat's root object, not numbered).
    pub fn new(root: &'r T) -> Self {
        let mut boxed = Boxed {
            root,
            objects: HashMap::new(),
            ids: HashMap::new(),
        };
        let mut stack = Vec::new();
        root.reach(&mut stack);
        stack.reverse();
        while let Some(o) = stack.pop() {
            let any: &'r dyn Any = o;
            let class = any.type_id();
            let list = boxed.objects.entry(class).or_default();
            let address = (o as *const dyn Reach).cast::<()>() as usize;
            let id = u32::try_from(list.len()).expect("at most u32::MAX objects per class");
            boxed.ids.insert((class, address), id);
            list.push(any);
            let at = stack.len();
            o.reach(&mut stack);
            stack[at..].reverse();
        }
        boxed
    }
}

impl<'r, T> Boxed<'r, T> {
    /// Object `o` of class `X`; panics if the walk numbered fewer.
    #[inline]
    pub fn object<X: Any>(&self, o: u32) -> &'r X {
        self.objects
            .get(&TypeId::of::<X>())
            .and_then(|list| list.get(o as usize))
            .and_then(|x| x.downcast_ref::<X>())
            .unwrap_or_else(|| panic!("no object {o} of {}", std::any::type_name::<X>()))
    }

    /// The index of `x` (an object the root owns), `None` for `None`.
    #[inline]
    pub fn id<X: Any>(&self, x: Option<&X>) -> Option<u32> {
        let x = x?;
        let key = (TypeId::of::<X>(), (x as *const X).cast::<()>() as usize);
        Some(*self.ids.get(&key).unwrap_or_else(|| {
            panic!(
                "a {} the root does not own through Box links",
                std::any::type_name::<X>()
            )
        }))
    }
}

/// Field ids that contain those of a class `T` (a finitization's field ids hold every class's).
pub trait Provides<T> {
    /// The field ids of `T`.
    fn provide(&self) -> &T;
}

/// A structure that holds the arena of class `T`: the real objects a view reads by index.
pub trait ArenaOf<T> {
    /// The arena.
    fn arena(&self) -> &[T];
}

/// An index type of an arena link (`NodeId`): `usize` and the other unsigned integers, or a
/// newtype the benchmark implements this for.
pub trait Id: Copy {
    /// The arena index.
    fn index(self) -> usize;
    /// The id of arena index `i`.
    fn from_index(i: usize) -> Self;
}

macro_rules! id_for {
    ($($t:ty),*) => {$(
        impl Id for $t {
            #[inline(always)]
            fn index(self) -> usize {
                self as usize
            }
            #[inline(always)]
            fn from_index(i: usize) -> Self {
                i as $t
            }
        }
    )*};
}
id_for!(usize, u64, u32, u16);

/// Resolves the links met while decoding: the candidate object `obj` of class `class` to its
/// index in the real structure's arena of that class, decoding it on first sight (so arena
/// order is the depth-first pre-order of the walk from the root's links, fields in declaration
/// order). An object of a class without an arena (an opaque element) keeps its candidate index.
pub trait Linker {
    /// The real index of `obj`, `None` for null.
    fn link(
        &mut self,
        c: &mut Candidate<'_>,
        class: &'static str,
        obj: Option<u32>,
    ) -> Option<usize>;

    /// Records that `obj` of `class` is decoded as the target of a `Box` link (an owned
    /// object). A `Box` cannot be shared and a chain of them cannot close, so an object met a
    /// second time means the candidate shares an object or has a cycle that the invariant let
    /// through: the decoder stops there, naming the object, rather than copy a subtree or
    /// recurse without end.
    fn own(&mut self, class: &'static str, obj: u32);
}

/// A class of objects held in an arena (derived for node types).
pub trait Class: Sized {
    /// The field ids of this class in a finitization.
    type Fields;
    /// Its name in finitizations.
    const NAME: &'static str;
    /// Its field ids in `fin`.
    fn fields(fin: &Finitization) -> Self::Fields;
    /// Object `obj` of a valid candidate as a real object, its links resolved by `l`.
    fn decode<L: Linker>(l: &mut L, c: &mut Candidate<'_>, f: &Self::Fields, obj: u32) -> Self;
    /// Declares this class's fields (class `class` of `b`) in declaration order, each with the
    /// domain its type and `#[korat(ints(lo, hi))]` give at scope `n`, links into the classes
    /// `class_of` names: a derived finitization (panics naming a field without a domain).
    fn declare(
        b: &mut FinitizationBuilder,
        class: ClassId,
        n: i64,
        class_of: &dyn Fn(&str) -> ClassId,
    );
}

/// The structure Korat's root object stands for (derived for the type holding the arenas).
pub trait Root: Sized {
    /// The field ids of a whole finitization of this structure.
    type Fields;
    /// The field ids in `fin`.
    fn fields(fin: &Finitization) -> Self::Fields;
    /// The real structure of a valid candidate.
    fn decode(c: &mut Candidate<'_>, f: &Self::Fields) -> Self {
        Self::decode_with(c, f, &[]).0
    }
    /// The real structure of a valid candidate and, decoded into the same arenas after it, the
    /// objects its root fields `args` refer to (a method's arguments, each named with its
    /// class): an object the structure reaches keeps its index, another one is appended to its
    /// class's arena, as Java's one heap holds the receiver and the arguments.
    fn decode_with(
        c: &mut Candidate<'_>,
        f: &Self::Fields,
        args: &[(&str, &'static str)],
    ) -> (Self, Vec<Option<usize>>);
}

/// A structure whose `#[korat]` attributes give its whole finitization (derived with
/// `finitization(root_name, scope, args)` as an inherent function as well), so that generic
/// code such as the SDK's priority-queue adapter can build it.
pub trait Finitized: Root {
    /// The finitization at `scope` whose root class is `root_name`, with `args` (a method's
    /// arguments, generated jointly with the receiver) after the root's own fields.
    fn finitization(
        root_name: &str,
        scope: u32,
        args: &[(&str, crate::Domain)],
    ) -> (Finitization, Self::Fields);
}

/// The root object's fields that the structure's type does not hold: a method's arguments,
/// generated jointly with the receiver (`x` of `add(x)`).
#[derive(Clone, Debug, Default)]
pub struct Extras(Vec<(String, FieldId)>);

impl Extras {
    /// The root fields of `fin` not named in `known`.
    pub fn of(fin: &Finitization, known: &[&str]) -> Self {
        let root = &fin.classes[0];
        Extras(
            root.fields
                .iter()
                .enumerate()
                .filter(|(_, (name, _))| !known.iter().any(|k| matches(k, name)))
                .map(|(i, (name, _))| (name.clone(), fin.field_at(ROOT, i)))
                .collect(),
        )
    }

    /// The root field called `name`, if this finitization has one.
    pub fn get(&self, name: &str) -> Option<FieldId> {
        self.0.iter().find(|(n, _)| n == name).map(|&(_, f)| f)
    }
}

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
fn matches(rust: &str, declared: &str) -> bool {
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
    max: u32,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Domain, FinitizationBuilder};

    #[test]
    fn fields_are_found_by_rust_or_camel_case_name_and_the_rest_are_extras() {
        let mut b = FinitizationBuilder::new("Root");
        let node = b.class("Node", 2);
        b.field(ROOT, "head", Domain::nullable(node));
        b.field(ROOT, "otherSize", Domain::ints(0, 2));
        b.field(ROOT, "x", Domain::ints(0, 2));
        b.field(node, "nextNode", Domain::nullable(node));
        let fin = b.build();
        assert_eq!(class(&fin, "Node"), node);
        assert_eq!(field(&fin, node, "next_node"), fin.field(node, "nextNode"));
        assert_eq!(
            field(&fin, ROOT, "other_size"),
            fin.field(ROOT, "otherSize")
        );
        let extras = Extras::of(&fin, &["head", "other_size"]);
        assert_eq!(extras.get("x"), Some(fin.field(ROOT, "x")));
        assert_eq!(extras.get("head"), None);
        assert_eq!(extras.get("otherSize"), None);
    }

    /// A root with an `int[]` field `xs` (length over `length`) and a `Node[]` field `nodes`
    /// listing two nodes (elements over `element`), the array fields' domains `xs` and `nodes`.
    fn with_arrays(xs: Domain, length: Domain, nodes: Domain, element: Domain) -> Finitization {
        let mut b = FinitizationBuilder::new("Root");
        let node = b.class("Node", 2);
        b.field(node, "v", Domain::ints(0, 1));
        let ints = b.array("int[]", 1, length, 2, &[("v", Domain::ints(0, 1))]);
        let listed = b.array("Node[]", 1, Domain::ints(2, 2), 2, &[("e", element)]);
        b.field(ROOT, "xs", xs.or(Domain::objects(ints)));
        b.field(ROOT, "nodes", nodes.or(Domain::objects(listed)));
        b.build()
    }

    #[test]
    fn arrays_whose_domains_hold_no_null_are_read_as_objects() {
        let node = ClassId(1);
        let fin = with_arrays(
            Domain::default(),
            Domain::ints(0, 2),
            Domain::default(),
            Domain::objects(node),
        );
        assert_eq!(array(&fin, ROOT, "xs").max, 2);
        assert_eq!(listed(&fin, ROOT, "nodes").map(|a| a.max), Some(2));
        assert!(listed(&fin, ROOT, "absent").is_none());
        assert_eq!(non_null(Some(3)), 3);
    }

    /// A `Vec` cannot be null: a finitization that gives the array field null would have the
    /// derived view read null as an object (and decode it as an empty `Vec`).
    #[test]
    #[should_panic(expected = "array field `xs` of class Root: the finitization's domain has null")]
    fn an_array_field_whose_domain_has_null_is_refused() {
        let fin = with_arrays(
            Domain::null(),
            Domain::ints(0, 2),
            Domain::default(),
            Domain::objects(ClassId(1)),
        );
        array(&fin, ROOT, "xs");
    }

    #[test]
    #[should_panic(expected = "gives its length negative integers")]
    fn an_array_whose_length_can_be_negative_is_refused() {
        let fin = with_arrays(
            Domain::default(),
            Domain::ints(-1, 2),
            Domain::default(),
            Domain::objects(ClassId(1)),
        );
        array(&fin, ROOT, "xs");
    }

    #[test]
    #[should_panic(expected = "lists the objects of an arena, never null")]
    fn a_listed_arena_whose_elements_can_be_null_is_refused() {
        let fin = with_arrays(
            Domain::default(),
            Domain::ints(0, 2),
            Domain::default(),
            Domain::nullable(ClassId(1)),
        );
        listed(&fin, ROOT, "nodes");
    }

    #[test]
    #[should_panic(expected = "has no field \"missing\"")]
    fn a_missing_field_names_the_known_ones() {
        let fin = FinitizationBuilder::new("Root").build();
        field(&fin, ROOT, "missing");
    }

    /// A names field reads each object as `first` plus its position over the listed classes,
    /// and isomorphism renames names: of two names, the second is the wildcard, the first
    /// name or (after a name) the next one.
    #[test]
    fn names_number_the_objects_of_their_classes_in_order() {
        let mut b = FinitizationBuilder::new("Root");
        let wild = b.class("Wildcard", 1);
        let name = b.class("Name", 3);
        for f in ["a", "b"] {
            b.field(ROOT, f, Domain::objects(wild).or(Domain::objects(name)));
        }
        let fin = b.build();
        let a = Names::of(&fin, ROOT, "a", 0, &["Wildcard", "Name"]);
        let b = Names::of(&fin, ROOT, "b", 0, &["Wildcard", "Name"]);
        let mut read = Vec::new();
        crate::search(
            &fin,
            |c| {
                read.push((a.read(c, 0), b.read(c, 0)));
                true
            },
            |_| std::ops::ControlFlow::Continue(()),
        );
        read.sort_unstable();
        assert_eq!(read, [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)]);
    }

    #[test]
    #[should_panic(expected = "names read objects of [\"Name\"] only")]
    fn names_over_a_domain_with_integers_are_refused() {
        let mut b = FinitizationBuilder::new("Root");
        let name = b.class("Name", 2);
        b.field(ROOT, "n", Domain::objects(name).or(Domain::ints(0, 1)));
        let fin = b.build();
        Names::of(&fin, ROOT, "n", 1, &["Name"]);
    }

    #[test]
    #[should_panic(expected = "no class \"Node\"")]
    fn a_missing_class_names_the_known_ones() {
        let fin = FinitizationBuilder::new("Root").build();
        class(&fin, "Node");
    }
}
