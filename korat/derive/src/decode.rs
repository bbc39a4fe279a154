//! The decoder: from a valid candidate back to the real structure, so that a mutant runs on
//! the input the invariant accepted. A node type decodes itself field by field (`Class::decode`,
//! links through a `Linker`); the structure's `Root::decode_with` is that linker, which decodes
//! each object the first time a link reaches it and so numbers the arenas in the order links
//! meet their objects.

use crate::field::{Field, Kind};
use crate::korat;
use proc_macro2::TokenStream as Tokens;
use quote::{format_ident, quote};
use syn::Ident;

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

/// The members `name: expr` of the struct literal a node type's `Class::decode` returns, in
/// its decode order (`#[korat(decode(..))]`'s fields first, then declaration order): a struct
/// literal's fields are evaluated in the order written, and that order numbers the objects
/// the links reach. An owned object of the node's own class decodes with the node's field ids.
pub(crate) fn node_members(fields: &[Field], order: Option<&[Ident]>) -> Vec<Tokens> {
    let listed = order.unwrap_or_default();
    let rank = |f: &Field| {
        listed
            .iter()
            .position(|o| *o == f.ident)
            .unwrap_or(listed.len())
    };
    let mut in_order: Vec<&Field> = fields.iter().collect();
    in_order.sort_by_key(|f| rank(f));
    in_order
        .into_iter()
        .map(|f| {
            let n = &f.ident;
            let e = decode_field(f, &quote!(f), &quote!(obj), &quote!(l), &|_| quote!(f));
            quote!(#n: #e)
        })
        .collect()
}

/// `Root::decode_with` of structure `ty` (field ids `fields_ty`, arenas `arenas`): the linker
/// that stages each arena, the listed arenas in slot order, the root's own fields, the
/// method's object arguments, and the structure with its arenas moved out of the staging.
/// An owned class `X`'s field ids are `boxed(X)`, an expression over the structure's field
/// ids `f`: the structure names their members, so it says where they are.
pub(crate) fn decode_with(
    ty: &Ident,
    fields_ty: &Ident,
    fields: &[Field],
    arenas: &[(&Field, &Ident)],
    boxed: &dyn Fn(&Ident) -> Tokens,
) -> Tokens {
    let k = korat();
    let decoder = format_ident!("Decoder");
    let classes: Vec<&Ident> = arenas.iter().map(|(_, c)| *c).collect();
    let staging: Vec<Ident> = arenas
        .iter()
        .enumerate()
        .map(|(i, _)| format_ident!("arena{}", i))
        .collect();
    let linker = linker(&decoder, fields_ty, arenas, &staging);
    // A listed arena first, its objects in slot order (so that slot i is object i), then the
    // root's own fields (their links decode the rest of the arenas), the arenas last.
    let listings = arenas
        .iter()
        .map(|(field, class)| listing(&field.ident, class));
    let lets = fields
        .iter()
        .filter(|f| !matches!(f.kind, Kind::Arena(_)))
        .map(|f| {
            let n = &f.ident;
            let e = decode_field(f, &quote!(f), &quote!(0), &quote!(&mut d), boxed);
            quote!(let #n = #e;)
        });
    let assigned = fields.iter().map(|f| {
        let n = &f.ident;
        match arenas.iter().position(|(a, _)| a.ident == *n) {
            Some(i) => {
                let s = &staging[i];
                quote!(#n: d.#s.into_iter().map(|o| o.expect("every reserved object is decoded")).collect())
            }
            None => quote!(#n),
        }
    });
    quote! {
        fn decode_with(c: &mut #k::Candidate<'_>, f: &#fields_ty, args: &[(&str, &'static str)]) -> (Self, Vec<Option<usize>>) {
            #linker
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
}

/// The decoder's type, `decoder`, and its `Linker` impl: an object of an arena's class is
/// decoded the first time a link reaches it, into the next slot of that arena's `staging`
/// (reserved before it decodes, so that a cycle back to it finds its index in the memo); an
/// object of any other class (opaque) keeps its candidate index.
fn linker(
    decoder: &Ident,
    fields_ty: &Ident,
    arenas: &[(&Field, &Ident)],
    staging: &[Ident],
) -> Tokens {
    let k = korat();
    let classes: Vec<&Ident> = arenas.iter().map(|(_, c)| *c).collect();
    let arena_fields: Vec<&Ident> = arenas.iter().map(|(f, _)| &f.ident).collect();
    quote! {
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
    }
}

/// The decoding of arena `field`'s root array (Java's `Class[] field`), if the finitization
/// lists the arena: its slots link their objects in order, so that slot `i` holds object `i`.
fn listing(field: &Ident, class: &Ident) -> Tokens {
    let k = korat();
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
}
