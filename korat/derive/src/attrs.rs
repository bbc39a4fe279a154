//! What the `#[korat(..)]` attributes say, parsed and nothing more: a field's (`skip`,
//! `ints`, `pool`, `array`, `names`) and a type's own (`pool(X, n)`, `objects(X, n)`,
//! `decode(..)`). Whether an attribute fits the field it is on is `field`'s to check, where
//! the field's kind is known; what the expressions mean is the finitization's.

use proc_macro2::TokenStream as Tokens;
use syn::{DeriveInput, Ident};

/// A field's `#[korat(...)]` attributes.
#[derive(Default)]
pub(crate) struct Attrs {
    /// `skip`: not Korat's, decoded to its `Default`.
    pub(crate) skip: bool,
    /// `ints(lo, hi)`: an integer domain.
    pub(crate) ints: Option<(syn::Expr, syn::Expr)>,
    /// `pool(count)`: an arena's object count.
    pub(crate) pool: Option<syn::Expr>,
    /// `array(lo, hi)`: a Java array's length.
    pub(crate) array: Option<(syn::Expr, syn::Expr)>,
    /// `names(first, Class, ..)`: an integer naming objects of opaque classes.
    pub(crate) names: Option<(syn::Expr, Vec<Ident>)>,
}

/// Parses field `f`'s `#[korat(...)]` attributes; an unknown one is an error.
pub(crate) fn attrs(f: &syn::Field) -> syn::Result<Attrs> {
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

/// `#[korat(pool(X, count))]` on a structure: class `X` (a node type owned through `Box`
/// links, which has no arena to carry the attribute) has `count` objects at scope `n`.
pub(crate) struct Pool {
    pub(crate) class: Ident,
    pub(crate) count: syn::Expr,
}

/// The structure's own attributes: `#[korat(pool(X, count))]` (classes it owns through `Box`
/// links) and `#[korat(objects(X, count))]` (opaque objects without a Rust type or an arena,
/// such as a list's elements, linked by `XId`: each keeps its candidate index).
pub(crate) fn pools_of(input: &DeriveInput) -> syn::Result<(Vec<Pool>, Vec<Pool>)> {
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
pub(crate) fn decode_order(input: &DeriveInput) -> syn::Result<Option<Vec<Ident>>> {
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
