//! What a field is to Korat, read from its type by naming convention (`XId` a link to class
//! `X`, `Vec<X>` an arena, `Option<Box<X>>` an owning link, an integer or `bool` a value, a
//! `Vec` of values or links a Java array) and from its attributes, which are refused on a
//! field they say nothing about. Every generator works from this [`Field`] list.

use crate::attrs::{attrs, Attrs};
use syn::{Data, DeriveInput, Fields, GenericArgument, Ident, PathArguments, Type};

/// What a field is to Korat.
pub(crate) enum Kind {
    /// A link to an object of class `class` through id type `id`, nullable (`Option<XId>`)
    /// or not (`XId`).
    Link {
        class: String,
        nullable: bool,
        id: Type,
    },
    /// An integer of type `ty`.
    Int(Type),
    /// `Option` of an integer: null or an integer.
    NullableInt(Type),
    /// An integer that stands for an object compared by identity (`#[korat(names(first, A,
    /// ..))]`): the objects of the listed opaque classes, read as `first` onwards.
    Names {
        ty: Type,
        first: Box<syn::Expr>,
        classes: Vec<Ident>,
    },
    /// `bool`: 0 or 1 in the finitization.
    Bool,
    /// `Option<Box<X>>` or `Box<X>`: a link that owns an object of class `X` (a structure
    /// without arenas, `korat::view::Boxed`).
    Boxed { class: Ident, nullable: bool },
    /// `Vec<X>`: the arena of class `X`.
    Arena(Ident),
    /// `Vec` of a value or a link: a Java array (`int[]`, `Entry[]`) — a reference to an
    /// object of an array class, its length and its elements.
    Array(Box<Kind>),
    /// Not Korat's: decodes to its `Default`.
    Skip,
}

impl Kind {
    /// The class a link points to (an owning `Box` link included) and whether it may be null.
    pub(crate) fn target(&self) -> Option<(String, bool)> {
        match self {
            Kind::Link {
                class, nullable, ..
            } => Some((class.clone(), *nullable)),
            Kind::Boxed { class, nullable } => Some((class.to_string(), *nullable)),
            _ => None,
        }
    }
}

/// A field of the deriving struct, with what its type and attributes make of it.
pub(crate) struct Field {
    pub(crate) ident: Ident,
    pub(crate) kind: Kind,
    /// `#[korat(ints(lo, hi))]`: the field's integer domain in a derived finitization, both
    /// ends expressions of the scope `n` (an `i64`).
    pub(crate) ints: Option<(syn::Expr, syn::Expr)>,
    /// `#[korat(pool(count))]` on an arena: how many objects its class has at scope `n`.
    pub(crate) pool: Option<syn::Expr>,
    /// `#[korat(array(lo, hi))]` on a Java array (or a listed arena): its length's domain in a
    /// derived finitization, `hi` the longest.
    pub(crate) array: Option<(syn::Expr, syn::Expr)>,
}

/// The fields Korat reads: neither arenas (the structure's storage, not a root field) nor
/// skipped ones.
pub(crate) fn korat_fields(fields: &[Field]) -> impl Iterator<Item = &Field> {
    fields
        .iter()
        .filter(|f| !matches!(f.kind, Kind::Arena(_) | Kind::Skip))
}

/// The structure's arenas (`Vec<X>` fields) in declaration order, each with its class `X`.
pub(crate) fn arenas(fields: &[Field]) -> Vec<(&Field, &Ident)> {
    fields
        .iter()
        .filter_map(|f| match &f.kind {
            Kind::Arena(class) => Some((f, class)),
            _ => None,
        })
        .collect()
}

/// The fields of a struct with named fields and no generics, the only shape the derive takes
/// (a newtype id is recognised before this).
pub(crate) fn fields_of(input: &DeriveInput) -> syn::Result<Vec<Field>> {
    let Data::Struct(s) = &input.data else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "#[derive(Korat)] takes a struct",
        ));
    };
    let Fields::Named(named) = &s.fields else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "#[derive(Korat)] takes a struct with named fields",
        ));
    };
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &input.generics,
            "#[derive(Korat)] takes a struct without generics",
        ));
    }
    named.named.iter().map(field).collect()
}

/// Field `f` as Korat sees it: its kind from its type (an integer made `Names` by its
/// attribute), and its attributes once they are known to fit that kind.
fn field(f: &syn::Field) -> syn::Result<Field> {
    let mut a = attrs(f)?;
    let mut kind = if a.skip { Kind::Skip } else { kind_of(&f.ty) };
    if let Some((first, classes)) = a.names.take() {
        kind = names(f, kind, first, classes)?;
    }
    refuse_misfits(f, &kind, &a)?;
    Ok(Field {
        ident: f.ident.clone().expect("named"),
        kind,
        ints: a.ints,
        pool: a.pool,
        array: a.array,
    })
}

/// `#[korat(names(first, Class, ..))]` on field `f` of kind `kind`: an integer that names
/// objects of one to four opaque classes.
fn names(f: &syn::Field, kind: Kind, first: syn::Expr, classes: Vec<Ident>) -> syn::Result<Kind> {
    let Kind::Int(ty) = kind else {
        return Err(syn::Error::new_spanned(
            f,
            "#[korat(names(first, Class, ..))] is for an integer",
        ));
    };
    if classes.is_empty() || classes.len() > 4 {
        return Err(syn::Error::new_spanned(
            f,
            "#[korat(names(first, Class, ..))] lists one to four classes",
        ));
    }
    Ok(Kind::Names {
        ty,
        first: Box::new(first),
        classes,
    })
}

/// An attribute on a field it says nothing about is a mistake, not a no-op: a pool on a value
/// or a range on a link would otherwise be dropped without a word. A `Vec` of `Box` links is
/// refused here too, as a field the derive cannot read.
fn refuse_misfits(f: &syn::Field, kind: &Kind, a: &Attrs) -> syn::Result<()> {
    if a.pool.is_some() && !matches!(kind, Kind::Arena(_)) {
        return Err(syn::Error::new_spanned(
            f,
            "#[korat(pool(count))] is for an arena (`Vec<X>` of a node type)",
        ));
    }
    if matches!(kind, Kind::Array(e) if matches!(**e, Kind::Boxed { .. })) {
        return Err(syn::Error::new_spanned(
            f,
            "a `Vec` of `Box` links is not supported: link the objects in a list or \
             hold them in an arena",
        ));
    }
    if a.array.is_some() && !matches!(kind, Kind::Array(_) | Kind::Arena(_)) {
        return Err(syn::Error::new_spanned(
            f,
            "#[korat(array(lo, hi))] is for a Java array (a `Vec` of values or links) or \
             an arena the root lists",
        ));
    }
    let values = |k: &Kind| matches!(k, Kind::Int(_) | Kind::NullableInt(_) | Kind::Bool);
    let ints_fit = match kind {
        Kind::Array(e) => values(e),
        k => values(k),
    };
    if a.ints.is_some() && !ints_fit {
        return Err(syn::Error::new_spanned(
            f,
            "#[korat(ints(lo, hi))] is for an integer, a `bool` or an `Option` of an integer (or an array of them)",
        ));
    }
    Ok(())
}

/// What a field of type `ty` is to Korat, by the naming conventions of the crate's
/// documentation; a type they say nothing of is skipped.
fn kind_of(ty: &Type) -> Kind {
    if let Some(class) = link_class(ty) {
        return Kind::Link {
            class,
            nullable: false,
            id: ty.clone(),
        };
    }
    if is_int(ty) {
        return Kind::Int(ty.clone());
    }
    let Some((id, args)) = last_ident(ty) else {
        return Kind::Skip;
    };
    if id == "bool" && matches!(args, PathArguments::None) {
        return Kind::Bool;
    }
    let inner = only_argument(args);
    match (id.to_string().as_str(), inner) {
        ("Box", Some(t)) => match boxed_class(t) {
            Some(class) => Kind::Boxed {
                class,
                nullable: false,
            },
            None => Kind::Skip,
        },
        ("Option", Some(t)) => {
            if let Some(class) = option_box(t) {
                Kind::Boxed {
                    class,
                    nullable: true,
                }
            } else if let Some(class) = link_class(t) {
                Kind::Link {
                    class,
                    nullable: true,
                    id: t.clone(),
                }
            } else if is_int(t) {
                Kind::NullableInt(t.clone())
            } else {
                Kind::Skip
            }
        }
        ("Vec", Some(t)) => match (kind_of(t), last_ident(t)) {
            (Kind::Skip, Some((el, PathArguments::None))) => Kind::Arena(el.clone()),
            (Kind::Skip | Kind::Arena(_) | Kind::Array(_), _) => Kind::Skip,
            (element, _) => Kind::Array(Box::new(element)),
        },
        _ => Kind::Skip,
    }
}

/// The integer types Korat reads as values.
const INTS: &[&str] = &[
    "i8", "i16", "i32", "i64", "isize", "u8", "u16", "u32", "u64", "usize",
];

/// The last segment of a path type (`Option` of `std::option::Option<T>`) and its arguments.
fn last_ident(ty: &Type) -> Option<(&Ident, &PathArguments)> {
    match ty {
        Type::Path(p) if p.qself.is_none() => {
            p.path.segments.last().map(|s| (&s.ident, &s.arguments))
        }
        _ => None,
    }
}

/// The one type argument of `Option<T>`, `Box<T>` or `Vec<T>`.
fn only_argument(args: &PathArguments) -> Option<&Type> {
    match args {
        PathArguments::AngleBracketed(a) if a.args.len() == 1 => match &a.args[0] {
            GenericArgument::Type(t) => Some(t),
            _ => None,
        },
        _ => None,
    }
}

/// The class an id type links to: `NodeId` links to `Node`.
fn link_class(ty: &Type) -> Option<String> {
    let (id, args) = last_ident(ty)?;
    let name = id.to_string();
    let class = name.strip_suffix("Id")?;
    (matches!(args, PathArguments::None) && !class.is_empty()).then(|| class.to_string())
}

/// The class `X` of a `Box<X>` (a plain type name).
fn boxed_class(ty: &Type) -> Option<Ident> {
    match last_ident(ty)? {
        (id, PathArguments::None) => Some(id.clone()),
        _ => None,
    }
}

/// The class `X` of `ty` = `Box<X>`.
fn option_box(ty: &Type) -> Option<Ident> {
    match last_ident(ty)? {
        (id, args) if id == "Box" => boxed_class(only_argument(args)?),
        _ => None,
    }
}

/// Whether `ty` is one of the integer types Korat reads.
fn is_int(ty: &Type) -> bool {
    last_ident(ty).is_some_and(|(id, args)| {
        matches!(args, PathArguments::None) && INTS.contains(&id.to_string().as_str())
    })
}
