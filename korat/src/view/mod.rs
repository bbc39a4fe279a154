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

use crate::{Candidate, ClassId, FieldId, Finitization, FinitizationBuilder, ROOT};

mod fields;
mod memo;
#[cfg(test)]
mod tests;

pub use fields::{
    array, array_opt, class, field, listed, non_null, objects, typed_field, ArrayFields, Holds,
    Names,
};
pub use memo::Memo;

use fields::matches;

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
