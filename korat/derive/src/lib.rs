//! `#[derive(Korat)]`: what a Korat-style benchmark wrote by hand for every structure — the
//! field ids of its finitization, the view trait its invariant is written over, the view of a
//! candidate and of a real structure, and the decoder from a valid candidate — generated from
//! the structure's own type definitions. The runtime side, and what a field's type makes of it,
//! is described in `korat::view`; the generated code names it through `ferastrau_sdk::korat`,
//! the path a benchmark crate has.
//!
//! Put the derive on every type of the structure: the node types (no arena field) and the
//! structure (one or more `Vec<Node>` arenas). For `Node` it makes `NodeFields`, `NodeView`;
//! for `SearchTree`, `SearchTreeFields`, `SearchTreeView: NodeView` and `impl Root`. Those
//! names are found by convention (a node type's `View` and `Fields` beside it, a link type
//! `XId` pointing into the arena of `X`), so the types need no attribute; `#[korat(skip)]` on
//! a field leaves it out. A `Vec` of values or links is a Java array (HeapArray's `int[]`), an
//! arena the finitization also lists in a root array a listed arena (DisjSet's `Record[]`);
//! `korat::view` says what each becomes. `#[korat(ints(lo, hi))]` on a value and
//! `#[korat(pool(count))]` on an arena say the finitization's domains (expressions of the scope
//! `n`), from which the structure gets `finitization(root_name, scope, args)` as well. A
//! structure linked by `Box` (`Option<Box<Node>>`) has no arena: it names each owned class's
//! pool on itself, `#[korat(pool(Node, n))]`, and is read through `korat::view::Boxed`.
//! `#[korat(array(lo, hi))]` gives a Java array's length (or lists an arena in a root array),
//! and `#[korat(objects(X, count))]` on the structure a class of opaque objects (`XId` links,
//! no Rust type, no arena). `#[korat(decode(a, b, ..))]` on a node type decodes those fields
//! first (objects are numbered in the order the decoder meets them).

use proc_macro::TokenStream;
use proc_macro2::TokenStream as Tokens;
use quote::{format_ident, quote};
use syn::{
    parse_macro_input, Data, DeriveInput, Fields, GenericArgument, Ident, PathArguments, Type,
};

/// Derives a Korat view, field ids and decoder; see the crate's documentation.
#[proc_macro_derive(Korat, attributes(korat))]
pub fn derive_korat(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match expand(&input) {
        Ok(t) => t.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// What a field is to Korat.
enum Kind {
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
    fn target(&self) -> Option<(String, bool)> {
        match self {
            Kind::Link {
                class, nullable, ..
            } => Some((class.clone(), *nullable)),
            Kind::Boxed { class, nullable } => Some((class.to_string(), *nullable)),
            _ => None,
        }
    }
}

struct Field {
    ident: Ident,
    kind: Kind,
    /// `#[korat(ints(lo, hi))]`: the field's integer domain in a derived finitization, both
    /// ends expressions of the scope `n` (an `i64`).
    ints: Option<(syn::Expr, syn::Expr)>,
    /// `#[korat(pool(count))]` on an arena: how many objects its class has at scope `n`.
    pool: Option<syn::Expr>,
    /// `#[korat(array(lo, hi))]` on a Java array (or a listed arena): its length's domain in a
    /// derived finitization, `hi` the longest.
    array: Option<(syn::Expr, syn::Expr)>,
}

/// `#[korat(pool(X, count))]` on a structure: class `X` (a node type owned through `Box`
/// links, which has no arena to carry the attribute) has `count` objects at scope `n`.
struct Pool {
    class: Ident,
    count: syn::Expr,
}

/// The structure's own attributes: `#[korat(pool(X, count))]` (classes it owns through `Box`
/// links) and `#[korat(objects(X, count))]` (opaque objects without a Rust type or an arena,
/// such as a list's elements, linked by `XId`: each keeps its candidate index).
fn pools_of(input: &DeriveInput) -> syn::Result<(Vec<Pool>, Vec<Pool>)> {
    let (mut owned, mut opaque) = (Vec::new(), Vec::new());
    for a in input.attrs.iter().filter(|a| a.path().is_ident("korat")) {
        a.parse_nested_meta(|m| {
            let into = if m.path.is_ident("pool") {
                &mut owned
            } else if m.path.is_ident("objects") {
                &mut opaque
            } else if m.path.is_ident("decode") {
                // A node type's decode order: `decode_order` reads it.
                let order;
                syn::parenthesized!(order in m.input);
                order.parse::<Tokens>()?;
                return Ok(());
            } else {
                return Err(m.error(
                    "expected `pool(Class, count)` or `objects(Class, count)` on a structure, \
                     or `decode(field, ..)` on a node type",
                ));
            };
            let (class, count) = pair(&m)?;
            into.push(Pool { class, count });
            Ok(())
        })?;
    }
    Ok((owned, opaque))
}

/// `#[korat(decode(a, b, ..))]` on a node type: the order in which its decoder reads (and so
/// numbers the objects behind) those fields, the others after them in declaration order. The
/// declaration order is the finitization's, and the mutator's too (it lists a struct's fields
/// as replacements in that order), so a decoder that must number objects otherwise, to keep
/// the arena layout a benchmark's reports show, says so here instead of reordering the struct.
fn decode_order(input: &DeriveInput) -> syn::Result<Option<Vec<Ident>>> {
    use syn::ext::IdentExt;
    let mut order = None;
    for a in input.attrs.iter().filter(|a| a.path().is_ident("korat")) {
        a.parse_nested_meta(|m| {
            if m.path.is_ident("decode") {
                let content;
                syn::parenthesized!(content in m.input);
                let names = content.parse_terminated(Ident::parse_any, syn::Token![,])?;
                order = Some(names.into_iter().collect());
            } else {
                // `pool(..)` or `objects(..)`: `pools_of` reads those.
                let other;
                syn::parenthesized!(other in m.input);
                other.parse::<Tokens>()?;
            }
            Ok(())
        })?;
    }
    Ok(order)
}

/// The two comma-separated arguments of an attribute such as `ints(lo, hi)` or `pool(X, n)`.
fn pair<A: syn::parse::Parse, B: syn::parse::Parse>(
    m: &syn::meta::ParseNestedMeta<'_>,
) -> syn::Result<(A, B)> {
    let content;
    syn::parenthesized!(content in m.input);
    let a = content.parse()?;
    content.parse::<syn::Token![,]>()?;
    Ok((a, content.parse()?))
}

/// A field's `#[korat(...)]` attributes.
#[derive(Default)]
struct Attrs {
    skip: bool,
    ints: Option<(syn::Expr, syn::Expr)>,
    pool: Option<syn::Expr>,
    array: Option<(syn::Expr, syn::Expr)>,
    names: Option<(syn::Expr, Vec<Ident>)>,
}

const INTS: &[&str] = &[
    "i8", "i16", "i32", "i64", "isize", "u8", "u16", "u32", "u64", "usize",
];

fn last_ident(ty: &Type) -> Option<(&Ident, &PathArguments)> {
    match ty {
        Type::Path(p) if p.qself.is_none() => {
            p.path.segments.last().map(|s| (&s.ident, &s.arguments))
        }
        _ => None,
    }
}

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

fn is_int(ty: &Type) -> bool {
    last_ident(ty).is_some_and(|(id, args)| {
        matches!(args, PathArguments::None) && INTS.contains(&id.to_string().as_str())
    })
}

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

fn attrs(f: &syn::Field) -> syn::Result<Attrs> {
    let mut out = Attrs::default();
    for a in f.attrs.iter().filter(|a| a.path().is_ident("korat")) {
        a.parse_nested_meta(|m| {
            if m.path.is_ident("skip") {
                out.skip = true;
            } else if m.path.is_ident("ints") {
                out.ints = Some(pair(&m)?);
            } else if m.path.is_ident("pool") {
                let content;
                syn::parenthesized!(content in m.input);
                out.pool = Some(content.parse()?);
            } else if m.path.is_ident("array") {
                out.array = Some(pair(&m)?);
            } else if m.path.is_ident("names") {
                let content;
                syn::parenthesized!(content in m.input);
                let first = content.parse()?;
                let mut classes = Vec::new();
                while !content.is_empty() {
                    content.parse::<syn::Token![,]>()?;
                    classes.push(content.parse()?);
                }
                out.names = Some((first, classes));
            } else {
                return Err(m.error(
                    "expected `skip`, `ints(lo, hi)`, `pool(count)`, `array(lo, hi)` or \
                     `names(first, Class, ..)`",
                ));
            }
            Ok(())
        })?;
    }
    Ok(out)
}

fn fields_of(input: &DeriveInput) -> syn::Result<Vec<Field>> {
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
    named
        .named
        .iter()
        .map(|f| {
            let a = attrs(f)?;
            let mut kind = if a.skip { Kind::Skip } else { kind_of(&f.ty) };
            if let Some((first, classes)) = a.names {
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
                kind = Kind::Names {
                    ty,
                    first: Box::new(first),
                    classes,
                };
            }
            // An attribute on a field it says nothing about is a mistake, not a no-op: a pool
            // on a value or a range on a link would otherwise be dropped without a word.
            if a.pool.is_some() && !matches!(kind, Kind::Arena(_)) {
                return Err(syn::Error::new_spanned(
                    f,
                    "#[korat(pool(count))] is for an arena (`Vec<X>` of a node type)",
                ));
            }
            if matches!(&kind, Kind::Array(e) if matches!(**e, Kind::Boxed { .. })) {
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
            let ints_fit = match &kind {
                Kind::Array(e) => values(e),
                k => values(k),
            };
            if a.ints.is_some() && !ints_fit {
                return Err(syn::Error::new_spanned(
                    f,
                    "#[korat(ints(lo, hi))] is for an integer, a `bool` or an `Option` of an integer (or an array of them)",
                ));
            }
            Ok(Field {
                ident: f.ident.clone().expect("named"),
                kind,
                ints: a.ints,
                pool: a.pool,
                array: a.array,
            })
        })
        .collect()
}

/// `impl Id` for a newtype id, `struct KeyId(pub usize)`: a link type of its own (so that the
/// mutator never swaps a key with an entry) whose arena index is its one field.
fn id_newtype(input: &DeriveInput) -> Option<Tokens> {
    let Data::Struct(s) = &input.data else {
        return None;
    };
    let Fields::Unnamed(one) = &s.fields else {
        return None;
    };
    let [field] = one.unnamed.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    let (k, ty, inner) = (korat(), &input.ident, &field.ty);
    Some(quote! {
        #[automatically_derived]
        impl #k::view::Id for #ty {
            #[inline(always)]
            fn index(self) -> usize {
                self.0 as usize
            }
            #[inline(always)]
            fn from_index(i: usize) -> Self {
                #ty(i as #inner)
            }
        }
    })
}

fn expand(input: &DeriveInput) -> syn::Result<Tokens> {
    if let Some(id) = id_newtype(input) {
        return Ok(id);
    }
    let fields = fields_of(input)?;
    let (owned, opaque) = pools_of(input)?;
    let boxed: Vec<(&Field, &Ident)> = fields
        .iter()
        .filter_map(|f| match &f.kind {
            Kind::Boxed { class, .. } => Some((f, class)),
            _ => None,
        })
        .collect();
    let arrays = fields
        .iter()
        .any(|f| matches!(f.kind, Kind::Arena(_) | Kind::Array(_)));
    if !arrays && owned.is_empty() && opaque.is_empty() {
        // A node type: its `Box` links own objects of its own class, decoded with its own
        // field ids (another class's ids are the structure's to give).
        if let Some((f, class)) = boxed.iter().find(|(_, c)| **c != input.ident) {
            return Err(syn::Error::new_spanned(
                &f.ident,
                format!(
                    "a node type's Box links own its own class: `{class}` can be owned from \
                     the structure (with #[korat(pool({class}, count))] on it)"
                ),
            ));
        }
        let order = decode_order(input)?;
        if let Some(unknown) = order
            .iter()
            .flatten()
            .find(|o| !fields.iter().any(|f| f.ident == **o))
        {
            return Err(syn::Error::new_spanned(
                unknown,
                format!("#[korat(decode(..))] names `{unknown}`, which is not a field"),
            ));
        }
        return Ok(node(input, &fields, order.as_deref()));
    }
    if let Some(order) = decode_order(input)? {
        return Err(syn::Error::new_spanned(
            &order[0],
            "#[korat(decode(..))] orders a node type's fields; a structure decodes its own in \
             declaration order",
        ));
    }
    if arrays && (!owned.is_empty() || !boxed.is_empty()) {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "a structure holds arenas (`Vec<X>`, `XId` links) or owns its objects through \
             `Box` links (`#[korat(pool(X, count))]`), not both",
        ));
    }
    if let Some((f, class)) = boxed
        .iter()
        .find(|(_, c)| !owned.iter().any(|p| p.class == **c))
    {
        return Err(syn::Error::new_spanned(
            &f.ident,
            format!("`{class}` needs #[korat(pool({class}, count))] on the structure"),
        ));
    }
    if let Some(p) = owned.iter().find(|p| {
        let member = pool_member(&p.class);
        fields.iter().any(|f| f.ident == member)
    }) {
        return Err(syn::Error::new_spanned(
            &p.class,
            format!(
                "the field ids of class `{}` are `{}` beside the structure's fields: rename \
                 the field of that name",
                p.class,
                pool_member(&p.class)
            ),
        ));
    }
    Ok(root(input, &fields, &owned, &opaque))
}

/// The member of the structure's field ids that holds owned class `class`'s: `TreeNode` in
/// `tree_node`.
fn pool_member(class: &Ident) -> Ident {
    let mut out = String::new();
    for (i, ch) in class.to_string().chars().enumerate() {
        if ch.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(ch.to_lowercase());
        } else {
            out.push(ch);
        }
    }
    format_ident!("{}", out)
}

/// `::ferastrau_sdk::korat`, where the generated code finds Korat.
fn korat() -> Tokens {
    quote!(::ferastrau_sdk::korat)
}

/// A field's view method: its signature and its bodies reading from a candidate and from
/// the real structure.
struct Method {
    sig: Tokens,
    candidate: Tokens,
    real: Tokens,
}

/// A value of kind `kind`: its view type, its read from candidate field `fid` of object `obj`,
/// and its read from the real field `value` (an expression).
fn read(kind: &Kind, fid: &Tokens, obj: &Tokens, value: &Tokens) -> Option<[Tokens; 3]> {
    let k = korat();
    Some(match kind {
        Kind::Link { nullable: true, .. } => [
            quote!(Option<u32>),
            quote!(self.c.obj(#fid, #obj)),
            quote!(#value.map(|i| #k::view::Id::index(i) as u32)),
        ],
        // Never null: the finitization's domain has no null (`typed_field` refuses one), so
        // the view reads a `u32`, and an invariant has no null branch that no input can take.
        Kind::Link {
            nullable: false, ..
        } => [
            quote!(u32),
            quote!(#k::view::non_null(self.c.obj(#fid, #obj))),
            quote!(#k::view::Id::index(#value) as u32),
        ],
        Kind::Int(_) => [
            quote!(i64),
            quote!(self.c.int(#fid, #obj)),
            quote!(#value as i64),
        ],
        Kind::Names { .. } => [
            quote!(i64),
            quote!(#fid.read(self.c, #obj)),
            quote!(#value as i64),
        ],
        Kind::NullableInt(_) => [
            quote!(Option<i64>),
            quote!(self.c.get(#fid, #obj).int()),
            quote!(#value.map(|v| v as i64)),
        ],
        Kind::Bool => [
            quote!(bool),
            quote!(self.c.int(#fid, #obj) != 0),
            quote!(#value),
        ],
        // Read on a `korat::view::Boxed`, whose `id` numbers the owned objects.
        Kind::Boxed { nullable: true, .. } => [
            quote!(Option<u32>),
            quote!(self.c.obj(#fid, #obj)),
            quote!(self.id(#value.as_deref())),
        ],
        Kind::Boxed {
            nullable: false, ..
        } => [
            quote!(u32),
            quote!(#k::view::non_null(self.c.obj(#fid, #obj))),
            quote!(#k::view::non_null(self.id(Some(&*#value)))),
        ],
        Kind::Array(_) | Kind::Arena(_) | Kind::Skip => return None,
    })
}

/// The view methods of field `f`: one for a value or a link; for an array `xs` (Java's
/// `int[] xs`), `xs` (the array object, `None` for null), `xs_len(a)` and `xs_at(a, i)`.
/// `ids` is the field ids' expression, `obj` the object index (`n` or `0`), `real_at(o)` the
/// real struct of object `o`, `param` whether the methods take the object index `n`.
fn methods(
    f: &Field,
    ids: &Tokens,
    obj: &Tokens,
    real_at: &dyn Fn(&Tokens) -> Tokens,
    param: bool,
) -> Vec<Method> {
    let name = &f.ident;
    let n = if param { quote!(n: u32) } else { quote!() };
    if let Kind::Array(elem) = &f.kind {
        let arr = quote!(#ids.#name);
        let real = real_at(&quote!(a));
        let element = read(
            elem,
            &quote!(#arr.element(i)),
            &quote!(a),
            &quote!(#real.#name[i as usize]),
        );
        let Some(element) = element else {
            return Vec::new();
        };
        return array_methods(name, &n, &arr, obj, &quote!(#real.#name.len()), element);
    }
    let value = real_at(obj);
    match read(&f.kind, &quote!(#ids.#name), obj, &quote!(#value.#name)) {
        Some([ret, candidate, real]) => vec![Method {
            sig: quote!(fn #name(&mut self, #n) -> #ret),
            candidate,
            real,
        }],
        None => Vec::new(),
    }
}

/// The three methods of an array `name` (Java's `xs`): `name(n?)`, the array object (on a
/// real structure, its owner's index `obj`); `name_len(a)`, `real_len` on a real one; and
/// `name_at(a, i)`, `element`'s `[type, candidate read, real read]`. `arr` is its
/// `ArrayFields`, `n` the object parameter (or nothing, for the root).
///
/// The array object is a `u32`, never null: a `Vec` cannot be null, and `korat::view::array`
/// refuses a finitization that gives the field null, so an invariant has no null branch that
/// no input takes (it would cap the specification's coverage). The length and the index are
/// both `u32`, so that `for i in 0..v.xs_len(a) { v.xs_at(a, i) }` needs no conversion.
fn array_methods(
    name: &Ident,
    n: &Tokens,
    arr: &Tokens,
    obj: &Tokens,
    real_len: &Tokens,
    element: [Tokens; 3],
) -> Vec<Method> {
    let k = korat();
    let (len, at) = (format_ident!("{}_len", name), format_ident!("{}_at", name));
    let [ret, candidate, real] = element;
    vec![
        Method {
            sig: quote!(fn #name(&mut self, #n) -> u32),
            candidate: quote!(#k::view::non_null(self.c.obj(#arr.field, #obj))),
            real: quote!(#obj),
        },
        Method {
            sig: quote!(fn #len(&mut self, a: u32) -> u32),
            candidate: quote!(self.c.int(#arr.length, a) as u32),
            real: quote!(#real_len as u32),
        },
        Method {
            sig: quote!(fn #at(&mut self, a: u32, i: u32) -> #ret),
            candidate,
            real,
        },
    ]
}

/// The methods of an arena `xs` that Java holds as an array of its objects (`Record[] xs`,
/// when the finitization's root declares `xs` so): those of an array of links whose element
/// `i` is the arena's object `i`.
fn listed_methods(arena: &Ident, ids: &Tokens) -> Vec<Method> {
    let listed = format_ident!("{}_listed", arena);
    let msg = format!("the finitization's root has no array `{arena}`");
    let arr = quote!(#ids.#listed.expect(#msg));
    // The arena's objects, never null (`korat::view::listed` refuses a finitization that
    // gives an element null).
    let k = korat();
    let element = [
        quote!(u32),
        quote!(#k::view::non_null(self.c.obj(#arr.element(i), a))),
        quote!(i),
    ];
    array_methods(
        arena,
        &quote!(),
        &arr,
        &quote!(0),
        &quote!(self.0.#arena.len()),
        element,
    )
}

/// The view trait's method signatures and the two impls' methods (candidate, real).
fn view_methods(methods: &[Method]) -> (Vec<Tokens>, Vec<Tokens>, Vec<Tokens>) {
    let with = |body: fn(&Method) -> &Tokens| -> Vec<Tokens> {
        methods
            .iter()
            .map(|m| {
                let (sig, body) = (&m.sig, body(m));
                quote!(#[inline(always)] #sig { #body })
            })
            .collect()
    };
    let sigs = methods.iter().map(|m| m.sig.clone()).collect();
    (sigs, with(|m| &m.candidate), with(|m| &m.real))
}

/// The expression decoding a value of kind `kind` in field `fid` of object `obj` (a `u32`
/// expression) from candidate `c`, links through linker `l` (an expression of a `&mut`
/// linker), an owned object of class `X` with the field ids `boxed(X)`; `name` names it in
/// messages.
fn decode_value(
    kind: &Kind,
    fid: &Tokens,
    obj: &Tokens,
    l: &Tokens,
    boxed: &dyn Fn(&Ident) -> Tokens,
    name: &Ident,
) -> Tokens {
    let k = korat();
    match kind {
        Kind::Boxed { class, nullable } => {
            let ids = boxed(class);
            let owned = quote! {
                c.obj(#fid, #obj).map(|o| {
                    #k::view::Linker::own(&mut *#l, <#class as #k::view::Class>::NAME, o);
                    Box::new(<#class as #k::view::Class>::decode(&mut *#l, c, #ids, o))
                })
            };
            if *nullable {
                owned
            } else {
                let msg = format!("a valid candidate has a non-null `{name}`");
                quote!(#owned.expect(#msg))
            }
        }
        Kind::Link {
            class, nullable, ..
        } => {
            let link = quote! {{
                let o = c.obj(#fid, #obj);
                #k::view::Linker::link(#l, c, #class, o).map(#k::view::Id::from_index)
            }};
            if *nullable {
                link
            } else {
                let msg = format!("a valid candidate has a non-null `{name}`");
                quote!(#link.expect(#msg))
            }
        }
        Kind::Int(t) => quote!(c.int(#fid, #obj) as #t),
        Kind::Names { ty, .. } => quote!(#fid.read(c, #obj) as #ty),
        Kind::NullableInt(t) => quote!(c.get(#fid, #obj).int().map(|v| v as #t)),
        Kind::Bool => quote!(c.int(#fid, #obj) != 0),
        // `korat::view::array` refused a finitization that gives the array null (a `Vec`
        // cannot be), so the array is always there.
        Kind::Array(elem) => {
            let e = decode_value(elem, &quote!(arr.element(i)), &quote!(a), l, boxed, name);
            quote! {{
                let arr = #fid;
                let a = #k::view::non_null(c.obj(arr.field, #obj));
                (0..c.int(arr.length, a) as u32).map(|i| #e).collect::<Vec<_>>()
            }}
        }
        Kind::Arena(_) | Kind::Skip => quote!(::core::default::Default::default()),
    }
}

/// The expression decoding field `f` of object `obj` with field ids `ids`, linker `l` and
/// owned objects' field ids `boxed(X)`.
fn decode_field(
    f: &Field,
    ids: &Tokens,
    obj: &Tokens,
    l: &Tokens,
    boxed: &dyn Fn(&Ident) -> Tokens,
) -> Tokens {
    let name = &f.ident;
    decode_value(&f.kind, &quote!(#ids.#name), obj, l, boxed, name)
}

/// `::ferastrau_sdk::structure`, where Java serialization of a state lives (`--compare
/// structural`).
fn structure() -> Tokens {
    quote!(::ferastrau_sdk::structure)
}

/// The statements writing the Korat fields of `value` (an expression of the struct) to a
/// `Writer` `w` in declaration order, Java serialization's order; links to `class` go through
/// `graph`, links to other classes (opaque objects without an arena, which the code under
/// test cannot allocate) are written as their identity. `None` when a field is an array
/// (not written yet: the derive then writes no serialization).
fn writes(fields: &[Field], value: &Tokens, class: &str) -> Option<Vec<Tokens>> {
    let k = korat();
    korat_fields(fields)
        .map(|f| {
            let name = &f.ident;
            let v = quote!(#value.#name);
            Some(match &f.kind {
                Kind::Link {
                    class: to,
                    nullable,
                    ..
                } if to != class => {
                    let opt = if *nullable {
                        quote!(#v)
                    } else {
                        quote!(Some(#v))
                    };
                    quote!(w.opaque(#opt.map(#k::view::Id::index));)
                }
                Kind::Link { nullable: true, .. } => quote!(w.object(graph, #v);),
                Kind::Link { .. } => quote!(w.object(graph, Some(#v));),
                Kind::Int(_) | Kind::Names { .. } => quote!(w.int(#v as i64);),
                Kind::NullableInt(_) => quote!(match #v {
                    Some(x) => w.int(x as i64),
                    None => w.null(),
                }),
                Kind::Bool => quote!(w.flag(#v);),
                Kind::Array(_) | Kind::Boxed { .. } => return None,
                Kind::Arena(_) | Kind::Skip => quote!(),
            })
        })
        .collect()
}

/// The id type of the links among `fields` to class `class`, if there is one.
fn link_id<'a>(fields: &'a [Field], class: &str) -> Option<&'a Type> {
    fields.iter().find_map(|f| match &f.kind {
        Kind::Link { class: to, id, .. } if to == class => Some(id),
        _ => None,
    })
}

/// `impl Object<id>` for `ty`: its fields in declaration order (`id` given, or generic over
/// any id when the type has no link).
fn object_impl(ty: &Ident, class: &str, id: Option<&Type>, fields: &[Field]) -> Tokens {
    let s = structure();
    let Some(w) = writes(fields, &quote!(self), class) else {
        return quote!();
    };
    let (generics, id) = match id {
        Some(id) => (quote!(), quote!(#id)),
        None => (
            quote!(<I: Copy + ::core::cmp::Eq + ::core::hash::Hash>),
            quote!(I),
        ),
    };
    quote! {
        #[automatically_derived]
        #[allow(clippy::all, unused_variables)]
        impl #generics #s::Object<#id> for #ty {
            fn write<G: #s::Graph<Id = #id>>(&self, graph: &G, w: &mut #s::Writer<#id>) { #(#w)* }
        }
    }
}

/// `impl Reach for ty`: the objects its `Box` fields own, in declaration order.
fn reach_impl(ty: &Ident, fields: &[Field]) -> Tokens {
    let k = korat();
    let pushes = fields.iter().filter_map(|f| {
        let name = &f.ident;
        match &f.kind {
            Kind::Boxed { nullable: true, .. } => {
                Some(quote!(if let Some(b) = &self.#name { out.push(&**b); }))
            }
            Kind::Boxed { .. } => Some(quote!(out.push(&*self.#name);)),
            _ => None,
        }
    });
    quote! {
        #[automatically_derived]
        #[allow(clippy::all, unused_variables)]
        impl #k::view::Reach for #ty {
            fn reach<'r>(&'r self, out: &mut Vec<&'r dyn #k::view::Reach>) { #(#pushes)* }
        }
    }
}

fn korat_fields(fields: &[Field]) -> impl Iterator<Item = &Field> {
    fields
        .iter()
        .filter(|f| !matches!(f.kind, Kind::Arena(_) | Kind::Skip))
}

/// The field ids' struct members and their lookups in `fin` (class `class`).
fn ids(fields: &[Field], class: &Tokens) -> (Vec<Tokens>, Vec<Tokens>) {
    let k = korat();
    korat_fields(fields)
        .map(|f| {
            let name = &f.ident;
            let s = name.to_string();
            let doc = format!("`{s}`");
            match &f.kind {
                Kind::Array(_) => (
                    quote!(#[doc = #doc] pub #name: #k::view::ArrayFields),
                    quote!(#name: #k::view::array(fin, #class, #s)),
                ),
                Kind::Names { first, classes, .. } => {
                    let cs = classes.iter().map(|c| c.to_string());
                    (
                        quote!(#[doc = #doc] pub #name: #k::view::Names),
                        quote!(#name: #k::view::Names::of(fin, #class, #s, (#first) as i64, &[#(#cs),*])),
                    )
                }
                _ => {
                    let holds = match (f.kind.target(), &f.kind) {
                        (Some((target, nullable)), _) => {
                            quote!(#k::view::Holds::Link { class: #target, nullable: #nullable })
                        }
                        (None, Kind::NullableInt(_)) => quote!(#k::view::Holds::NullableInt),
                        (None, _) => quote!(#k::view::Holds::Int),
                    };
                    (
                        quote!(#[doc = #doc] pub #name: #k::FieldId),
                        quote!(#name: #k::view::typed_field(fin, #class, #s, #holds)),
                    )
                }
            }
        })
        .unzip()
}

/// The domain of field `f` in a derived finitization (`n` the scope, `class_of` the class ids
/// by name), or why it has none: a link's domain is its class (nullable or not), a value's the
/// range its `#[korat(ints(lo, hi))]` gives (`bool` 0..=1 without one).
fn domain(f: &Field) -> Result<Tokens, String> {
    value_domain(&f.kind, f)
}

/// The domain of a value of kind `kind` held by field `f` (the field itself, or an element of
/// the array `f`), its range from `f`'s `#[korat(ints(lo, hi))]`.
fn value_domain(kind: &Kind, f: &Field) -> Result<Tokens, String> {
    let k = korat();
    let ints = |what: &str| match &f.ints {
        Some((lo, hi)) => Ok(quote!(#k::Domain::ints((#lo) as i64, (#hi) as i64))),
        None => Err(format!(
            "field `{}` needs #[korat(ints(lo, hi))] ({what}) for a derived finitization",
            f.ident
        )),
    };
    if let Some((class, nullable)) = kind.target() {
        return Ok(if nullable {
            quote!(#k::Domain::nullable(class_of(#class)))
        } else {
            quote!(#k::Domain::objects(class_of(#class)))
        });
    }
    match kind {
        Kind::Int(_) => ints("an integer"),
        Kind::Names { classes, .. } => {
            let cs = classes.iter().map(|c| c.to_string());
            let parts = cs.map(|c| quote!(#k::Domain::objects(class_of(#c))));
            let mut all = parts.collect::<Vec<_>>().into_iter();
            let head = all.next().expect("names list a class");
            Ok(quote!(#head #(.or(#all))*))
        }
        Kind::NullableInt(_) => {
            let d = ints("null or an integer")?;
            Ok(quote!(#k::Domain::null().or(#d)))
        }
        Kind::Bool => match &f.ints {
            Some(_) => ints("a boolean"),
            None => Ok(quote!(#k::Domain::ints(0, 1))),
        },
        Kind::Array(_) => Err(format!(
            "field `{}` is an array: a derived finitization declares arrays of the structure \
             (#[korat(array(lo, hi))]), not of a node type",
            f.ident
        )),
        Kind::Link { .. } | Kind::Boxed { .. } | Kind::Arena(_) | Kind::Skip => Ok(quote!()),
    }
}

fn node(input: &DeriveInput, fields: &[Field], order: Option<&[Ident]>) -> Tokens {
    let k = korat();
    let ty = &input.ident;
    let vis = &input.vis;
    let name = ty.to_string();
    let fields_ty = format_ident!("{}Fields", ty);
    let view = format_ident!("{}View", ty);
    let (members, lookups) = ids(fields, &quote!(class));
    let ids_expr = quote!(#k::view::Provides::<#fields_ty>::provide(self.f));
    let real_at = |o: &Tokens| quote!(#k::view::ArenaOf::<#ty>::arena(self.0)[#o as usize]);
    let all: Vec<Method> = korat_fields(fields)
        .flat_map(|f| methods(f, &ids_expr, &quote!(n), &real_at, true))
        .collect();
    let (sigs, cand, real) = view_methods(&all);
    // The same reads on a `Boxed` structure, which numbers the objects it owns.
    let boxed_at = |o: &Tokens| quote!(self.object::<#ty>(#o));
    let all_boxed: Vec<Method> = korat_fields(fields)
        .flat_map(|f| methods(f, &ids_expr, &quote!(n), &boxed_at, true))
        .collect();
    let (_, _, boxed_real) = view_methods(&all_boxed);
    // A `Box` field's object has no arena index: a type with one is read on a `Boxed` only.
    let real_impl = if fields.iter().any(|f| matches!(f.kind, Kind::Boxed { .. })) {
        quote!()
    } else {
        quote! {
            #[automatically_derived]
            #[allow(clippy::all, unused_variables)]
            impl<R: #k::view::ArenaOf<#ty>> #view for #k::view::Real<'_, R> { #(#real)* }
        }
    };
    // A struct literal's fields are evaluated in the order written: the decode order.
    let listed = order.unwrap_or_default();
    let rank = |f: &Field| {
        listed
            .iter()
            .position(|o| *o == f.ident)
            .unwrap_or(listed.len())
    };
    let mut in_order: Vec<&Field> = fields.iter().collect();
    in_order.sort_by_key(|f| rank(f));
    let decoded = in_order.into_iter().map(|f| {
        let n = &f.ident;
        let e = decode_field(f, &quote!(f), &quote!(obj), &quote!(l), &|_| quote!(f));
        quote!(#n: #e)
    });
    let reach = reach_impl(ty, fields);
    let object = object_impl(ty, &name, link_id(fields, &name), fields);
    // Each field in declaration order with its domain; one without a domain panics when a
    // derived finitization is asked for (a hand-written one never calls this).
    let declared: Vec<Tokens> = match korat_fields(fields)
        .map(|f| {
            let s = f.ident.to_string();
            domain(f).map(|d| quote!(b.field(class, #s, #d);))
        })
        .collect::<Result<Vec<_>, String>>()
    {
        Ok(all) => all,
        Err(why) => vec![quote!(panic!("{}: {}", Self::NAME, #why);)],
    };
    let fields_doc =
        format!("The field ids of class `{name}` in a finitization (`#[derive(Korat)]`).");
    let view_doc = format!("Read access to the objects of class `{name}`, by index: on a candidate ([`{k}::view::View`], reads recorded), a real structure holding their arena ([`{k}::view::Real`]) or owning them through `Box` links ([`{k}::view::Boxed`]).", k = "ferastrau_sdk::korat");
    quote! {
        #[doc = #fields_doc]
        #[derive(Clone, Copy, Debug)]
        #vis struct #fields_ty { #(#members,)* }

        #[doc = #view_doc]
        #vis trait #view { #(#sigs;)* }

        #[automatically_derived]
        #[allow(clippy::all, unused_variables)]
        impl<F: #k::view::Provides<#fields_ty>> #view for #k::view::View<'_, '_, F> { #(#cand)* }

        #real_impl

        #[automatically_derived]
        #[allow(clippy::all, unused_variables)]
        impl<R> #view for #k::view::Boxed<'_, R> { #(#boxed_real)* }

        #reach

        #[automatically_derived]
        #[allow(clippy::all, unused_variables)]
        impl #k::view::Class for #ty {
            type Fields = #fields_ty;
            const NAME: &'static str = #name;
            fn fields(fin: &#k::Finitization) -> #fields_ty {
                let class = #k::view::class(fin, Self::NAME);
                #fields_ty { #(#lookups,)* }
            }
            fn decode<L: #k::view::Linker>(l: &mut L, c: &mut #k::Candidate<'_>, f: &#fields_ty, obj: u32) -> Self {
                #ty { #(#decoded,)* }
            }
            fn declare(b: &mut #k::FinitizationBuilder, class: #k::ClassId, n: i64, class_of: &dyn Fn(&str) -> #k::ClassId) {
                #(#declared)*
            }
        }

        #object
    }
}

/// The array class a root field `f` with `#[korat(array(lo, hi))]` is a reference to: one
/// array object (a `Vec` is never null) named as Java names it (`int[]`, `boolean[]`,
/// `Record[]`), its length over lo..=hi, `hi` elements of the domain its element type gives —
/// a listed arena's, its class's objects, never null. The element is called `v` for values and
/// `e` for objects. `id` names the class in the generated code.
fn array_class(f: &Field, id: &Ident) -> Result<Tokens, String> {
    let k = korat();
    let Some((lo, hi)) = &f.array else {
        return Err(format!(
            "`{}` needs #[korat(array(lo, hi))] (its length) for a derived finitization",
            f.ident
        ));
    };
    let (name, element, domain) = match &f.kind {
        Kind::Arena(class) => {
            let c = class.to_string();
            (
                format!("{c}[]"),
                "e",
                quote!(#k::Domain::objects(class_of(#c))),
            )
        }
        Kind::Array(e) => {
            let name = match (e.target(), &**e) {
                (Some((class, _)), _) => format!("{class}[]"),
                (None, Kind::Bool) => "boolean[]".to_string(),
                (None, _) => "int[]".to_string(),
            };
            let element = if e.target().is_some() { "e" } else { "v" };
            (name, element, value_domain(e, f)?)
        }
        _ => unreachable!("only arrays and arenas take #[korat(array)]"),
    };
    let field = f.ident.to_string();
    Ok(quote! {
        let #id = {
            let longest = (#hi) as i64;
            let max = u32::try_from(longest).unwrap_or_else(|_| panic!(
                "array `{}` at scope {scope} is at most {longest} long (0..=u32::MAX)", #field
            ));
            b.array(#name, 1, #k::Domain::ints((#lo) as i64, longest), max, &[(#element, #domain)])
        };
    })
}

/// `Type::finitization(root_name, scope, args)` and `Type::class_id(name)` for a structure
/// whose every arena says its pool (`#[korat(pool(count))]`): one class per arena in field
/// order, then per owned and per opaque class the structure names, then per array; the root's
/// fields in declaration order, then `args` (a method's arguments), then each class's fields.
/// Nothing when no attribute asks for a derived finitization (no pool, no array length); a
/// compile error for a field without a domain.
fn finitization_fn(
    input: &DeriveInput,
    fields: &[Field],
    owned: &[Pool],
    opaque: &[Pool],
) -> Tokens {
    let k = korat();
    let (ty, vis) = (&input.ident, &input.vis);
    let arenas: Vec<(&Field, &Ident)> = fields
        .iter()
        .filter_map(|f| match &f.kind {
            Kind::Arena(c) => Some((f, c)),
            _ => None,
        })
        .collect();
    if arenas.iter().all(|(f, _)| f.pool.is_none())
        && owned.is_empty()
        && opaque.is_empty()
        && fields.iter().all(|f| f.array.is_none())
    {
        return quote!();
    }
    let mut errors = Vec::new();
    for (f, _) in arenas.iter().filter(|(f, _)| f.pool.is_none()) {
        errors.push(format!(
            "arena `{}` needs #[korat(pool(count))] like the others",
            f.ident
        ));
    }
    // The root's fields in declaration order: a Java array or a listed arena is a reference to
    // its array class, declared once the classes are.
    let mut arrays = Vec::new();
    let mut roots = Vec::new();
    for f in fields {
        let s = f.ident.to_string();
        let array = matches!(f.kind, Kind::Array(_)) || f.array.is_some();
        if array {
            let id = format_ident!("array{}", arrays.len());
            match array_class(f, &id) {
                Ok(decl) => {
                    arrays.push(decl);
                    roots.push(quote!(b.field(#k::ROOT, #s, #k::Domain::objects(#id));));
                }
                Err(why) => errors.push(why),
            }
            continue;
        }
        if matches!(f.kind, Kind::Arena(_) | Kind::Skip) {
            continue;
        }
        match domain(f) {
            Ok(d) => roots.push(quote!(b.field(#k::ROOT, #s, #d);)),
            Err(why) => errors.push(why),
        }
    }
    if let Some(e) = errors.first() {
        return syn::Error::new_spanned(ty, e).to_compile_error();
    }
    let mut classes: Vec<&Ident> = arenas.iter().map(|(_, c)| *c).collect();
    let mut pools: Vec<&syn::Expr> = arenas.iter().filter_map(|(f, _)| f.pool.as_ref()).collect();
    classes.extend(owned.iter().map(|p| &p.class));
    pools.extend(owned.iter().map(|p| &p.count));
    // Every class by name: the typed ones (which declare their fields), then the opaque ones.
    let mut names: Vec<Tokens> = classes
        .iter()
        .map(|c| quote!(<#c as #k::view::Class>::NAME))
        .collect();
    for p in opaque {
        let name = p.class.to_string();
        names.push(quote!(#name));
        pools.push(&p.count);
    }
    let fields_ty = format_ident!("{}Fields", ty);
    let doc = format!("The finitization of `{ty}` its `#[korat]` attributes give at scope `scope`: a class per arena, then per `#[korat(pool(X, count))]` and per `#[korat(objects(X, count))]` on the type (as many objects as its pool), then per array, the root's fields, then `args` (a method's arguments, generated jointly with the receiver), then each class's fields, each in declaration order. The root class is called `root_name`.");
    let class_doc = "The class id a derived finitization gives class `name` (the root is 0, then each arena's class, each owned class and each class of opaque objects, in declaration order): the domain of a method's argument that is an object of the structure, such as a second list's header.";
    quote! {
        #[automatically_derived]
        #[allow(clippy::all, unused_variables)]
        impl #ty {
            #[doc = #class_doc]
            #vis fn class_id(name: &str) -> #k::ClassId {
                let classes: &[&str] = &[#(#names),*];
                match classes.iter().position(|c| *c == name) {
                    Some(i) => #k::ClassId(i as u16 + 1),
                    None => panic!("{} has no class {name} (its classes: {classes:?})", stringify!(#ty)),
                }
            }

            #[doc = #doc]
            #vis fn finitization(root_name: &str, scope: u32, args: &[(&str, #k::Domain)]) -> (#k::Finitization, #fields_ty) {
                let n = i64::from(scope);
                let mut b = #k::FinitizationBuilder::new(root_name);
                // Declared in `class_id`'s order, so that it names them.
                #(
                    let id = b.class(
                        #names,
                        {
                            let count = (#pools) as i64;
                            u32::try_from(count).unwrap_or_else(|_| panic!(
                                "the pool of class {} at scope {scope} is {count} objects (0..=u32::MAX)",
                                #names
                            ))
                        },
                    );
                    debug_assert_eq!(id, Self::class_id(#names));
                )*
                let class_of = |name: &str| Self::class_id(name);
                #(#arrays)*
                #(#roots)*
                for (name, d) in args {
                    b.field(#k::ROOT, name, d.clone());
                }
                #(
                    let class = <#classes as #k::view::Class>::NAME;
                    <#classes as #k::view::Class>::declare(&mut b, class_of(class), n, &class_of);
                )*
                let fin = b.build();
                let f = <Self as #k::view::Root>::fields(&fin);
                (fin, f)
            }
        }

        #[automatically_derived]
        impl #k::view::Finitized for #ty {
            fn finitization(root_name: &str, scope: u32, args: &[(&str, #k::Domain)]) -> (#k::Finitization, #fields_ty) {
                #ty::finitization(root_name, scope, args)
            }
        }
    }
}

fn root(input: &DeriveInput, fields: &[Field], owned: &[Pool], opaque: &[Pool]) -> Tokens {
    let k = korat();
    let ty = &input.ident;
    let vis = &input.vis;
    let fields_ty = format_ident!("{}Fields", ty);
    let view = format_ident!("{}View", ty);
    let arenas: Vec<(&Ident, &Ident)> = fields
        .iter()
        .filter_map(|f| match &f.kind {
            Kind::Arena(class) => Some((&f.ident, class)),
            _ => None,
        })
        .collect();
    let (mut members, mut lookups) = ids(fields, &quote!(#k::ROOT));
    for (field, class) in &arenas {
        let class_fields = format_ident!("{}Fields", class);
        let doc = format!("The fields of class `{class}` (arena `{field}`).");
        members.push(quote!(#[doc = #doc] pub #field: #class_fields));
        lookups.push(quote!(#field: <#class as #k::view::Class>::fields(fin)));
        let listed = format_ident!("{}_listed", field);
        let doc = format!("The root's array of the arena's objects (Java's `{class}[] {field}`), if the finitization declares one.");
        let name = field.to_string();
        members.push(quote!(#[doc = #doc] pub #listed: Option<#k::view::ArrayFields>));
        lookups.push(quote!(#listed: #k::view::listed(fin, #k::ROOT, #name)));
    }
    let owned_classes: Vec<&Ident> = owned.iter().map(|p| &p.class).collect();
    let owned_fields: Vec<Ident> = owned
        .iter()
        .map(|p| format_ident!("{}Fields", p.class))
        .collect();
    let owned_members: Vec<Ident> = owned.iter().map(|p| pool_member(&p.class)).collect();
    for ((class, class_fields), member) in
        owned_classes.iter().zip(&owned_fields).zip(&owned_members)
    {
        let doc = format!("The fields of class `{class}` (owned through `Box` links).");
        members.push(quote!(#[doc = #doc] pub #member: #class_fields));
        lookups.push(quote!(#member: <#class as #k::view::Class>::fields(fin)));
    }
    let known: Vec<String> = fields
        .iter()
        .filter(|f| !matches!(f.kind, Kind::Skip))
        .map(|f| f.ident.to_string())
        .collect();
    let ids_expr = quote!(#k::view::Provides::<#fields_ty>::provide(self.f));
    // A structure of arenas is read on a `Real`, one that owns its objects through `Box`
    // links on a `Boxed` (the two never mix: `expand` refuses it).
    let (real_view, this, real_doc) = if owned.is_empty() {
        (
            quote!(Real<'_, #ty>),
            quote!(self.0),
            "ferastrau_sdk::korat::view::Real",
        )
    } else {
        (
            quote!(Boxed<'_, #ty>),
            quote!(self.root),
            "ferastrau_sdk::korat::view::Boxed",
        )
    };
    let mut all: Vec<Method> = korat_fields(fields)
        .flat_map(|f| methods(f, &ids_expr, &quote!(0), &|_: &Tokens| this.clone(), false))
        .collect();
    for (arena, _) in &arenas {
        all.extend(listed_methods(arena, &ids_expr));
    }
    let (sigs, cand, real) = view_methods(&all);
    let real_impl = quote! {
        #[automatically_derived]
        #[allow(clippy::all, unused_variables)]
        impl #view for #k::view::#real_view { #(#real)* }
    };
    let reach = reach_impl(ty, fields);
    let class_views: Vec<Ident> = arenas
        .iter()
        .map(|(_, c)| format_ident!("{}View", c))
        .chain(owned.iter().map(|p| format_ident!("{}View", p.class)))
        .collect();
    let class_fields: Vec<Ident> = arenas
        .iter()
        .map(|(_, c)| format_ident!("{}Fields", c))
        .collect();
    let classes: Vec<&Ident> = arenas.iter().map(|(_, c)| *c).collect();
    let arena_fields: Vec<&Ident> = arenas.iter().map(|(f, _)| *f).collect();
    let staging: Vec<Ident> = arenas
        .iter()
        .enumerate()
        .map(|(i, _)| format_ident!("arena{}", i))
        .collect();
    let supertraits = if class_views.is_empty() {
        quote!()
    } else {
        quote!(: #(#class_views)+*)
    };
    // A listed arena first, its objects in slot order (so that slot i is object i), then the
    // root's own fields (their links decode the rest of the arenas), the arenas last.
    let listings = arenas.iter().map(|(field, class)| {
        let listed = format_ident!("{}_listed", field);
        let msg = format!("the slots of `{field}` hold distinct objects in a valid candidate");
        quote! {
            if let Some(arr) = f.#listed {
                if let Some(a) = c.obj(arr.field, 0) {
                    for i in 0..c.int(arr.length, a) as u32 {
                        let o = c.obj(arr.element(i), a);
                        let at = #k::view::Linker::link(&mut d, c, <#class as #k::view::Class>::NAME, o);
                        assert_eq!(at, Some(i as usize), #msg);
                    }
                }
            }
        }
    });
    let lets = fields
        .iter()
        .filter(|f| !matches!(f.kind, Kind::Arena(_)))
        .map(|f| {
            let n = &f.ident;
            let e = decode_field(f, &quote!(f), &quote!(0), &quote!(&mut d), &|class| {
                let member = pool_member(class);
                quote!(&f.#member)
            });
            quote!(let #n = #e;)
        });
    let assigned = fields.iter().map(|f| {
        let n = &f.ident;
        match arenas.iter().position(|(a, _)| *a == n) {
            Some(i) => {
                let s = &staging[i];
                quote!(#n: d.#s.into_iter().map(|o| o.expect("every reserved object is decoded")).collect())
            }
            None => quote!(#n),
        }
    });
    let finitization = finitization_fn(input, fields, owned, opaque);
    let name = ty.to_string();
    let fields_doc = format!("The field ids of a finitization of `{name}` (`#[derive(Korat)]`): its root object's fields, each arena class's, and the root fields it does not hold (a method's arguments).");
    let view_doc = format!("Read access to a `{name}` and its objects: on a candidate ([`ferastrau_sdk::korat::view::View`], reads recorded) or a real `{name}` ([`{real_doc}`]).");
    let decoder = format_ident!("Decoder");
    // One arena and the root's links into it: the state is that arena's object graph, which
    // Java serialization writes (`--compare structural`).
    let graph = match (arenas.as_slice(), arenas.first()) {
        ([_], Some((arena, class))) => match link_id(fields, &class.to_string()) {
            Some(id) => {
                let s = structure();
                let object = object_impl(ty, &class.to_string(), Some(id), fields);
                quote! {
                    #[automatically_derived]
                    impl #s::Graph for #ty {
                        type Id = #id;
                        fn fields(&self, id: #id, w: &mut #s::Writer<#id>) {
                            #s::Object::<#id>::write(&self.#arena[#k::view::Id::index(id)], self, w)
                        }
                    }
                    #object
                }
            }
            None => quote!(),
        },
        _ => quote!(),
    };
    quote! {
        #[doc = #fields_doc]
        #[derive(Clone, Debug)]
        #vis struct #fields_ty {
            #(#members,)*
            /// The root object's fields that the structure does not hold.
            pub extras: #k::view::Extras,
        }

        impl #fields_ty {
            /// The root field `name` that the structure does not hold (a method's argument).
            #vis fn extra(&self, name: &str) -> Option<#k::FieldId> {
                self.extras.get(name)
            }
        }

        #[automatically_derived]
        impl #k::view::Provides<#fields_ty> for #fields_ty {
            fn provide(&self) -> &#fields_ty { self }
        }
        #(
            #[automatically_derived]
            impl #k::view::Provides<#class_fields> for #fields_ty {
                fn provide(&self) -> &#class_fields { &self.#arena_fields }
            }
            #[automatically_derived]
            impl #k::view::ArenaOf<#classes> for #ty {
                fn arena(&self) -> &[#classes] { &self.#arena_fields }
            }
        )*
        #(
            #[automatically_derived]
            impl #k::view::Provides<#owned_fields> for #fields_ty {
                fn provide(&self) -> &#owned_fields { &self.#owned_members }
            }
        )*

        #[doc = #view_doc]
        #vis trait #view #supertraits { #(#sigs;)* }

        #[automatically_derived]
        #[allow(clippy::all, unused_variables)]
        impl<F: #k::view::Provides<#fields_ty> #(+ #k::view::Provides<#class_fields>)* #(+ #k::view::Provides<#owned_fields>)*> #view for #k::view::View<'_, '_, F> { #(#cand)* }

        #real_impl

        #reach

        #[automatically_derived]
        #[allow(clippy::all, unused_variables)]
        impl #k::view::Root for #ty {
            type Fields = #fields_ty;
            fn fields(fin: &#k::Finitization) -> #fields_ty {
                #fields_ty {
                    #(#lookups,)*
                    extras: #k::view::Extras::of(fin, &[#(#known),*]),
                }
            }
            fn decode_with(c: &mut #k::Candidate<'_>, f: &#fields_ty, args: &[(&str, &'static str)]) -> (Self, Vec<Option<usize>>) {
                struct #decoder<'f> {
                    f: &'f #fields_ty,
                    memo: #k::view::Memo,
                    #(#staging: Vec<Option<#classes>>,)*
                }
                impl #k::view::Linker for #decoder<'_> {
                    fn link(&mut self, c: &mut #k::Candidate<'_>, class: &'static str, obj: Option<u32>) -> Option<usize> {
                        let obj = obj?;
                        if let Some(i) = self.memo.get(class, obj) {
                            return Some(i);
                        }
                        let f = self.f;
                        #(
                            // The decoder passes `NAME` itself: its address decides before its text.
                            if ::core::ptr::eq(class, <#classes as #k::view::Class>::NAME) || class == <#classes as #k::view::Class>::NAME {
                                let i = self.#staging.len();
                                self.#staging.push(None);
                                self.memo.insert(class, obj, i);
                                let v = <#classes as #k::view::Class>::decode(self, c, &f.#arena_fields, obj);
                                self.#staging[i] = Some(v);
                                return Some(i);
                            }
                        )*
                        Some(obj as usize)
                    }
                    fn own(&mut self, class: &'static str, obj: u32) {
                        self.memo.own(class, obj);
                    }
                }
                // Each arena's staging as large as its pool: grown by `push` from empty, it was
                // reallocated a few times per decode, for every input before every mutant's run.
                let mut d = #decoder {
                    f,
                    memo: Default::default(),
                    #(#staging: Vec::with_capacity(#k::view::objects(c.finitization(), <#classes as #k::view::Class>::NAME)),)*
                };
                #(#listings)*
                #(#lets)*
                let mut linked = Vec::with_capacity(args.len());
                for &(name, class) in args {
                    let field = f.extra(name).unwrap_or_else(|| panic!("the finitization's root has no field {name}"));
                    let o = c.obj(field, 0);
                    linked.push(#k::view::Linker::link(&mut d, c, class, o));
                }
                (#ty { #(#assigned,)* }, linked)
            }
        }

        #graph
        #finitization
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expanded(input: DeriveInput) -> String {
        match expand(&input) {
            Ok(t) => t.to_string(),
            Err(e) => e.to_compile_error().to_string(),
        }
    }

    #[test]
    fn attributes_on_fields_they_do_not_fit_are_refused() {
        let pool_on_value = expanded(syn::parse_quote! {
            struct Node { #[korat(pool(n))] key: i64 }
        });
        assert!(pool_on_value.contains("is for an arena"), "{pool_on_value}");
        let ints_on_link = expanded(syn::parse_quote! {
            struct Node { #[korat(ints(0, n))] next: Option<NodeId> }
        });
        assert!(ints_on_link.contains("is for an integer"), "{ints_on_link}");
        let unknown = expanded(syn::parse_quote! {
            struct Node { #[korat(range(0, n))] key: i64 }
        });
        assert!(unknown.contains("expected `skip`"), "{unknown}");
    }

    #[test]
    fn a_newtype_id_gets_an_id_impl_and_a_two_field_tuple_an_error() {
        let id = expanded(syn::parse_quote! { struct KeyId(pub u32); });
        assert!(
            id.contains("view :: Id for KeyId") && id.contains("KeyId (i as u32)"),
            "{id}"
        );
        let pair = expanded(syn::parse_quote! { struct Pair(u32, u32); });
        assert!(pair.contains("named fields"), "{pair}");
    }

    #[test]
    fn names_are_integers_read_from_one_to_four_classes_of_objects() {
        let ok = expanded(syn::parse_quote! {
            struct Value { #[korat(names(0, Wildcard, VName))] name: i64 }
        });
        assert!(
            ok.contains("Names :: of") && ok.contains("\"Wildcard\" , \"VName\""),
            "{ok}"
        );
        assert!(
            ok.contains("Domain :: objects (class_of (\"Wildcard\")) . or"),
            "{ok}"
        );
        let on_link = expanded(syn::parse_quote! {
            struct Value { #[korat(names(0, VName))] next: Option<ValueId> }
        });
        assert!(on_link.contains("is for an integer"), "{on_link}");
        let none = expanded(syn::parse_quote! {
            struct Value { #[korat(names(0))] name: i64 }
        });
        assert!(none.contains("one to four classes"), "{none}");
        let with_ints = expanded(syn::parse_quote! {
            struct Value { #[korat(names(0, VName), ints(0, n))] name: i64 }
        });
        assert!(with_ints.contains("compile_error"), "{with_ints}");
    }

    #[test]
    fn a_derived_finitization_needs_every_pool_and_every_root_domain() {
        let ok = expanded(syn::parse_quote! {
            struct Tree { #[korat(ints(0, n))] size: i64, #[korat(pool(n))] nodes: Vec<Node> }
        });
        assert!(
            ok.contains("fn finitization")
                && ok.contains("view :: Finitized for Tree")
                && !ok.contains("compile_error"),
            "{ok}"
        );
        let no_pools = expanded(syn::parse_quote! {
            struct Tree { size: i64, nodes: Vec<Node> }
        });
        assert!(
            !no_pools.contains("fn finitization")
                && !no_pools.contains("Finitized")
                && !no_pools.contains("compile_error")
        );
        let one_pool = expanded(syn::parse_quote! {
            struct Tree {
                #[korat(ints(0, n))] size: i64,
                #[korat(pool(n))] nodes: Vec<Node>,
                leaves: Vec<Leaf>,
            }
        });
        assert!(one_pool.contains("arena `leaves` needs"), "{one_pool}");
        let no_domain = expanded(syn::parse_quote! {
            struct Tree { size: i64, #[korat(pool(n))] nodes: Vec<Node> }
        });
        assert!(no_domain.contains("field `size` needs"), "{no_domain}");
    }

    #[test]
    fn an_array_needs_its_length_and_the_length_is_for_arrays() {
        let no_length = expanded(syn::parse_quote! {
            struct Heap { #[korat(ints(0, n))] size: i64, #[korat(ints(-1, n))] array: Vec<i64> }
        });
        // Without a length, the array is the author's to declare: no derived finitization.
        assert!(!no_length.contains("fn finitization"), "{no_length}");
        let half = expanded(syn::parse_quote! {
            struct Heap {
                #[korat(ints(0, n))] size: i64,
                #[korat(ints(-1, n), array(0, n))] array: Vec<i64>,
                more: Vec<i64>,
            }
        });
        assert!(
            half.contains("`more` needs #[korat(array(lo, hi))]"),
            "{half}"
        );
        let on_value = expanded(syn::parse_quote! {
            struct Node { #[korat(array(0, n))] key: i64 }
        });
        assert!(on_value.contains("is for a Java array"), "{on_value}");
    }

    #[test]
    fn box_links_own_their_class_from_a_structure_that_declares_its_pool() {
        let ok = expanded(syn::parse_quote! {
            #[korat(pool(Node, n))]
            struct Tree { root: Option<Box<Node>>, #[korat(ints(0, n))] size: usize }
        });
        assert!(
            ok.contains("fn finitization")
                && ok.contains("Boxed < '_ , Tree >")
                && !ok.contains("Real < '_ , Tree >")
                && !ok.contains("compile_error"),
            "{ok}"
        );
        let node = expanded(syn::parse_quote! {
            struct Node { #[korat(ints(0, n))] key: i64, next: Option<Box<Node>> }
        });
        assert!(
            node.contains("impl :: ferastrau_sdk :: korat :: view :: Reach for Node")
                && !node.contains("view :: Real <"),
            "a Box-linked node is read on a Boxed only: {node}"
        );
        let other_class = expanded(syn::parse_quote! {
            struct Node { next: Option<Box<Leaf>> }
        });
        assert!(other_class.contains("own its own class"), "{other_class}");
        let no_pool = expanded(syn::parse_quote! {
            #[korat(pool(Node, n))]
            struct Tree { root: Option<Box<Node>>, extra: Box<Leaf> }
        });
        assert!(
            no_pool.contains("`Leaf` needs #[korat(pool(Leaf"),
            "{no_pool}"
        );
        let mixed = expanded(syn::parse_quote! {
            #[korat(pool(Node, n))]
            struct Tree { root: Option<Box<Node>>, #[korat(pool(n))] leaves: Vec<Leaf> }
        });
        assert!(mixed.contains("not both"), "{mixed}");
        let vec_of_boxes = expanded(syn::parse_quote! {
            struct Node { children: Vec<Box<Node>> }
        });
        assert!(vec_of_boxes.contains("is not supported"), "{vec_of_boxes}");
        let clash = expanded(syn::parse_quote! {
            #[korat(pool(TreeNode, n))]
            struct Tree { root: Option<Box<TreeNode>>, #[korat(ints(0, n))] tree_node: i64 }
        });
        assert!(clash.contains("are `tree_node`"), "{clash}");
        let unknown = expanded(syn::parse_quote! {
            #[korat(pools(Node, n))]
            struct Tree { root: Option<Box<Node>> }
        });
        assert!(
            unknown.contains("expected `pool(Class, count)`"),
            "{unknown}"
        );
    }

    #[test]
    fn a_node_type_s_decode_order_lists_its_fields_and_a_structure_refuses_one() {
        let node = |attr: syn::Attribute| {
            let mut input: DeriveInput = syn::parse_quote! {
                struct Value {
                    #[korat(ints(0, n))] name: i64,
                    next: Option<ValueId>,
                    record: Option<RecordId>,
                }
            };
            input.attrs.push(attr);
            expanded(input)
        };
        let literal = |s: &str| {
            let at = s.find("Value { name").or_else(|| s.find("Value { record"));
            s[at.unwrap_or_else(|| panic!("no decoded literal: {s}"))..].to_string()
        };
        let ordered = node(syn::parse_quote!(#[korat(decode(record))]));
        let lit = literal(&ordered);
        assert!(
            lit.starts_with("Value { record") && lit.find("next :") > lit.find("name :"),
            "record first, then the rest in declaration order: {lit}"
        );
        let unordered = node(syn::parse_quote!(#[korat(decode())]));
        assert!(
            literal(&unordered).starts_with("Value { name"),
            "{unordered}"
        );
        let unknown = node(syn::parse_quote!(#[korat(decode(recrod))]));
        assert!(
            unknown.contains("`recrod`, which is not a field"),
            "{unknown}"
        );
        let on_structure = expanded(syn::parse_quote! {
            #[korat(decode(size))]
            struct Tree { #[korat(ints(0, n))] size: i64, #[korat(pool(n))] nodes: Vec<Node> }
        });
        assert!(
            on_structure.contains("a structure decodes its own"),
            "{on_structure}"
        );
    }

    #[test]
    fn a_node_type_declares_its_fields_in_order_or_names_the_one_without_a_domain() {
        let ok = expanded(syn::parse_quote! {
            struct Node { next: Option<NodeId>, #[korat(ints(1, n))] key: i64, red: bool }
        });
        let declare = &ok[ok.find("fn declare").expect("a declare fn")..];
        let at = |name: &str| declare.find(&format!("b . field (class , \"{name}\""));
        let (next, key, red) = (at("next"), at("key"), at("red"));
        assert!(next < key && key < red && next.is_some(), "{ok}");
        let missing = expanded(syn::parse_quote! {
            struct Node { next: Option<NodeId>, key: i64 }
        });
        assert!(missing.contains("field `key` needs"), "{missing}");
    }
}
