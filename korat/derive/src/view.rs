//! The view trait an invariant is written over (`<T>View`): one method per value or link, three
//! per Java array, each with two bodies — a read of a candidate (`korat::view::View`, which
//! records it) and of a real structure (`Real`, `Boxed`) — so that one invariant checks both.
//! Also `Reach`, the walk by which `Boxed` numbers the objects a structure owns through `Box`.

use crate::field::{Field, Kind};
use crate::korat;
use proc_macro2::TokenStream as Tokens;
use quote::{format_ident, quote};
use syn::Ident;

/// A field's view method: its signature and its bodies reading from a candidate and from
/// the real structure.
pub(crate) struct Method {
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
pub(crate) fn methods(
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
pub(crate) fn listed_methods(arena: &Ident, ids: &Tokens) -> Vec<Method> {
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
pub(crate) fn view_methods(methods: &[Method]) -> (Vec<Tokens>, Vec<Tokens>, Vec<Tokens>) {
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

/// `impl Reach for ty`: the objects its `Box` fields own, in declaration order.
pub(crate) fn reach_impl(ty: &Ident, fields: &[Field]) -> Tokens {
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
