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
//!
//! The modules, in the order a derive runs through them: `attrs` parses the `#[korat]`
//! attributes and `field` what each field is; `node` (a node type) and `root` (the structure)
//! put together the items, from the view trait (`view`), the decoder (`decode`), the field ids
//! and the derived finitization (`finitization`) and Java serialization (`serialization`).

mod attrs;
mod decode;
mod field;
mod finitization;
mod node;
mod root;
mod serialization;
mod view;

use proc_macro::TokenStream;
use proc_macro2::TokenStream as Tokens;
use quote::quote;
use syn::{parse_macro_input, Data, DeriveInput, Fields, Ident};

use attrs::{decode_order, pools_of, Pool};
use field::{fields_of, Field, Kind};
use node::node;
use root::{pool_member, root};

/// Derives a Korat view, field ids and decoder; see the crate's documentation.
#[proc_macro_derive(Korat, attributes(korat))]
pub fn derive_korat(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match expand(&input) {
        Ok(t) => t.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// `::ferastrau_sdk::korat`, where the generated code finds Korat.
fn korat() -> Tokens {
    quote!(::ferastrau_sdk::korat)
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

/// What the derive makes of `input`: an `Id` impl for a newtype id; a node type's items for a
/// struct without arenas, arrays or pools; the structure's otherwise. The checks tell a
/// mistake apart from the other shape (a `Box` link to another class on a node type, a
/// structure that mixes arenas and `Box` links).
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
        let order = node_decode_order(input, &fields, &boxed)?;
        return Ok(node(input, &fields, order.as_deref()));
    }
    check_structure(input, &fields, &owned, &boxed, arrays)?;
    Ok(root(input, &fields, &owned, &opaque))
}

/// A node type's decode order (`#[korat(decode(..))]`), once its `Box` links (`boxed`) are
/// known to own its own class and the order to name its fields.
fn node_decode_order(
    input: &DeriveInput,
    fields: &[Field],
    boxed: &[(&Field, &Ident)],
) -> syn::Result<Option<Vec<Ident>>> {
    // A node type's `Box` links own objects of its own class, decoded with its own field ids
    // (another class's ids are the structure's to give).
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
    Ok(order)
}

/// Refuses a structure the derive cannot read: one with a decode order (its own fields decode
/// in declaration order), one that holds arenas or arrays (`arrays`) and owns objects through
/// `Box` links (`boxed`) too, a `Box` link to a class without a pool in `owned`, and an owned
/// class whose field ids' member would clash with a field's name.
fn check_structure(
    input: &DeriveInput,
    fields: &[Field],
    owned: &[Pool],
    boxed: &[(&Field, &Ident)],
    arrays: bool,
) -> syn::Result<()> {
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
    Ok(())
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
