//! A node type: a class of the structure's objects (no arena, no array, no pool of its own),
//! such as a tree's `Node`. It gets its field ids (`<T>Fields`), its view trait (`<T>View`)
//! on a candidate, on a real structure's arena and on a `Boxed` one, and `Class`, which looks
//! its field ids up, decodes one object and declares its fields in a derived finitization.

use crate::decode::node_members;
use crate::field::{korat_fields, Field, Kind};
use crate::finitization::{declarations, field_ids};
use crate::korat;
use crate::serialization::{link_id, object_impl};
use crate::view::{methods, reach_impl, view_methods, Method};
use proc_macro2::TokenStream as Tokens;
use quote::{format_ident, quote};
use syn::{DeriveInput, Ident};

/// Everything `#[derive(Korat)]` makes of node type `input` with fields `fields`, decoded in
/// `order` (`#[korat(decode(..))]`, already checked to name its fields).
pub(crate) fn node(input: &DeriveInput, fields: &[Field], order: Option<&[Ident]>) -> Tokens {
    let k = korat();
    let ty = &input.ident;
    let vis = &input.vis;
    let name = ty.to_string();
    let fields_ty = format_ident!("{}Fields", ty);
    let view = format_ident!("{}View", ty);
    let (members, lookups) = field_ids(fields, &quote!(class));
    let views = view_impls(input, &fields_ty, &view, fields);
    let decoded = node_members(fields, order);
    let reach = reach_impl(ty, fields);
    let object = object_impl(ty, &name, link_id(fields, &name), fields);
    let declared = declarations(fields);
    let fields_doc =
        format!("The field ids of class `{name}` in a finitization (`#[derive(Korat)]`).");
    quote! {
        #[doc = #fields_doc]
        #[derive(Clone, Copy, Debug)]
        #vis struct #fields_ty { #(#members,)* }

        #views

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

/// Node type `input`'s view trait `view` and its impls, each object read by its index `n`: on
/// a candidate (whose field ids provide `fields_ty`), on a real structure holding the node
/// type's arena, and on a `Boxed` structure, which numbers the objects it owns.
fn view_impls(input: &DeriveInput, fields_ty: &Ident, view: &Ident, fields: &[Field]) -> Tokens {
    let k = korat();
    let (ty, vis) = (&input.ident, &input.vis);
    let name = ty.to_string();
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
    let view_doc = format!("Read access to the objects of class `{name}`, by index: on a candidate ([`{k}::view::View`], reads recorded), a real structure holding their arena ([`{k}::view::Real`]) or owning them through `Box` links ([`{k}::view::Boxed`]).", k = "ferastrau_sdk::korat");
    quote! {
        #[doc = #view_doc]
        #vis trait #view { #(#sigs;)* }

        #[automatically_derived]
        #[allow(clippy::all, unused_variables)]
        impl<F: #k::view::Provides<#fields_ty>> #view for #k::view::View<'_, '_, F> { #(#cand)* }

        #real_impl

        #[automatically_derived]
        #[allow(clippy::all, unused_variables)]
        impl<R> #view for #k::view::Boxed<'_, R> { #(#boxed_real)* }
    }
}
