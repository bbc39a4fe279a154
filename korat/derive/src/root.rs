//! The structure: Korat's root object, the type that holds the arenas (`Vec<Node>`) or Java
//! arrays, or owns its classes' objects through `Box` links and names their pools. It gets
//! field ids holding its own and every class's, a view trait over its classes' views, and
//! `Root`, which looks the field ids up and decodes a candidate; the decoder, the derived
//! finitization and Java serialization are put together in their own modules.

use crate::attrs::Pool;
use crate::decode::decode_with;
use crate::field::{arenas, korat_fields, Field, Kind};
use crate::finitization::{field_ids, finitization_fn};
use crate::korat;
use crate::serialization::graph_impl;
use crate::view::{listed_methods, methods, reach_impl, view_methods, Method};
use proc_macro2::TokenStream as Tokens;
use quote::{format_ident, quote};
use syn::{DeriveInput, Ident};

/// Everything `#[derive(Korat)]` makes of structure `input` with fields `fields`, classes
/// `owned` through `Box` links and classes of opaque objects `opaque`.
pub(crate) fn root(
    input: &DeriveInput,
    fields: &[Field],
    owned: &[Pool],
    opaque: &[Pool],
) -> Tokens {
    let k = korat();
    let ty = &input.ident;
    let fields_ty = format_ident!("{}Fields", ty);
    let view = format_ident!("{}View", ty);
    let arenas = arenas(fields);
    let (members, lookups) = root_ids(fields, &arenas, owned);
    let ids = ids_struct(input, &fields_ty, &members, &arenas, owned);
    let known: Vec<String> = fields
        .iter()
        .filter(|f| !matches!(f.kind, Kind::Skip))
        .map(|f| f.ident.to_string())
        .collect();
    let views = view_impls(input, &fields_ty, &view, fields, &arenas, owned);
    let reach = reach_impl(ty, fields);
    let decode_with = decode_with(ty, &fields_ty, fields, &arenas, &|class| {
        let member = pool_member(class);
        quote!(&f.#member)
    });
    let graph = graph_impl(ty, fields, &arenas);
    let finitization = finitization_fn(input, fields, owned, opaque);
    quote! {
        #ids

        #views

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
            #decode_with
        }

        #graph
        #finitization
    }
}

/// The member of the structure's field ids that holds owned class `class`'s: `TreeNode` in
/// `tree_node`.
pub(crate) fn pool_member(class: &Ident) -> Ident {
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

/// The members of the structure's field ids and their lookups in `fin`: its own fields', then
/// per arena its class's field ids and the root array that may list it, then per owned class
/// its field ids.
fn root_ids(
    fields: &[Field],
    arenas: &[(&Field, &Ident)],
    owned: &[Pool],
) -> (Vec<Tokens>, Vec<Tokens>) {
    let k = korat();
    let (mut members, mut lookups) = field_ids(fields, &quote!(#k::ROOT));
    for (field, class) in arenas {
        let field = &field.ident;
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
    for p in owned {
        let (class, member) = (&p.class, pool_member(&p.class));
        let class_fields = format_ident!("{}Fields", class);
        let doc = format!("The fields of class `{class}` (owned through `Box` links).");
        members.push(quote!(#[doc = #doc] pub #member: #class_fields));
        lookups.push(quote!(#member: <#class as #k::view::Class>::fields(fin)));
    }
    (members, lookups)
}

/// The structure's field ids `fields_ty` (members `members`) and the impls through which each
/// class's view finds its own field ids in them (`Provides`) and a real structure's arena
/// (`ArenaOf`).
fn ids_struct(
    input: &DeriveInput,
    fields_ty: &Ident,
    members: &[Tokens],
    arenas: &[(&Field, &Ident)],
    owned: &[Pool],
) -> Tokens {
    let k = korat();
    let (ty, vis) = (&input.ident, &input.vis);
    let classes: Vec<&Ident> = arenas.iter().map(|(_, c)| *c).collect();
    let class_fields: Vec<Ident> = classes
        .iter()
        .map(|c| format_ident!("{}Fields", c))
        .collect();
    let arena_fields: Vec<&Ident> = arenas.iter().map(|(f, _)| &f.ident).collect();
    let owned_fields: Vec<Ident> = owned
        .iter()
        .map(|p| format_ident!("{}Fields", p.class))
        .collect();
    let owned_members: Vec<Ident> = owned.iter().map(|p| pool_member(&p.class)).collect();
    let fields_doc = format!("The field ids of a finitization of `{ty}` (`#[derive(Korat)]`): its root object's fields, each arena class's, and the root fields it does not hold (a method's arguments).");
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
    }
}

/// The structure's view trait `view`, over its classes' views, and its impls: on a candidate
/// (whose field ids provide the structure's and every class's) and on a real structure.
fn view_impls(
    input: &DeriveInput,
    fields_ty: &Ident,
    view: &Ident,
    fields: &[Field],
    arenas: &[(&Field, &Ident)],
    owned: &[Pool],
) -> Tokens {
    let k = korat();
    let (ty, vis) = (&input.ident, &input.vis);
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
    for (arena, _) in arenas {
        all.extend(listed_methods(&arena.ident, &ids_expr));
    }
    let (sigs, cand, real) = view_methods(&all);
    let class_views: Vec<Ident> = arenas
        .iter()
        .map(|(_, c)| format_ident!("{}View", c))
        .chain(owned.iter().map(|p| format_ident!("{}View", p.class)))
        .collect();
    let class_fields = arenas.iter().map(|(_, c)| format_ident!("{}Fields", c));
    let owned_fields = owned.iter().map(|p| format_ident!("{}Fields", p.class));
    let supertraits = if class_views.is_empty() {
        quote!()
    } else {
        quote!(: #(#class_views)+*)
    };
    let view_doc = format!("Read access to a `{ty}` and its objects: on a candidate ([`ferastrau_sdk::korat::view::View`], reads recorded) or a real `{ty}` ([`{real_doc}`]).");
    quote! {
        #[doc = #view_doc]
        #vis trait #view #supertraits { #(#sigs;)* }

        #[automatically_derived]
        #[allow(clippy::all, unused_variables)]
        impl<F: #k::view::Provides<#fields_ty> #(+ #k::view::Provides<#class_fields>)* #(+ #k::view::Provides<#owned_fields>)*> #view for #k::view::View<'_, '_, F> { #(#cand)* }

        #[automatically_derived]
        #[allow(clippy::all, unused_variables)]
        impl #view for #k::view::#real_view { #(#real)* }
    }
}
