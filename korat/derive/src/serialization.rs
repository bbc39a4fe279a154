//! Java serialization of a state (`ferastrau_sdk::structure`, `--compare structural`): each
//! class's `Object` impl writes its fields in declaration order, Java's, and a structure with
//! one arena gets the `Graph` impl that makes the arena's objects the state's object graph.
//! A type with an array or a `Box` link gets no `Object` impl: Java writes arrays in a form
//! not modelled here, and an object owned through `Box` has no arena index to be written by.

use crate::field::{korat_fields, Field, Kind};
use crate::korat;
use proc_macro2::TokenStream as Tokens;
use quote::quote;
use syn::{Ident, Type};

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
pub(crate) fn link_id<'a>(fields: &'a [Field], class: &str) -> Option<&'a Type> {
    fields.iter().find_map(|f| match &f.kind {
        Kind::Link { class: to, id, .. } if to == class => Some(id),
        _ => None,
    })
}

/// `impl Object<id>` for `ty`: its fields in declaration order (`id` given, or generic over
/// any id when the type has no link).
pub(crate) fn object_impl(ty: &Ident, class: &str, id: Option<&Type>, fields: &[Field]) -> Tokens {
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

/// `impl Graph for ty` (and the root's `impl Object`) for a structure with exactly one arena
/// that its root links into: the state is that arena's object graph, which Java serialization
/// writes. Nothing for any other structure.
pub(crate) fn graph_impl(ty: &Ident, fields: &[Field], arenas: &[(&Field, &Ident)]) -> Tokens {
    let [(arena, class)] = arenas else {
        return quote!();
    };
    let Some(id) = link_id(fields, &class.to_string()) else {
        return quote!();
    };
    let (k, s) = (korat(), structure());
    let arena = &arena.ident;
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
