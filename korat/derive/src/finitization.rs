//! The finitization, both ways. Looked up: the field ids (`<T>Fields`) a finitization gives
//! each Korat field, checked against what the field's type holds. Declared: the finitization
//! the attributes derive (`#[korat(ints)]`, `pool`, `array`, `objects`), a node type's fields
//! in its `Class::declare` and the structure's classes, arrays and root fields in its
//! `finitization`, so that a benchmark writes one by hand only where attributes cannot say it.

use crate::attrs::Pool;
use crate::field::{arenas, korat_fields, Field, Kind};
use crate::korat;
use proc_macro2::TokenStream as Tokens;
use quote::{format_ident, quote};
use syn::{DeriveInput, Ident};

/// The field ids' struct members and their lookups in `fin` (class `class`).
pub(crate) fn field_ids(fields: &[Field], class: &Tokens) -> (Vec<Tokens>, Vec<Tokens>) {
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

/// The body of a node type's `Class::declare`: each field in declaration order with its
/// domain; one without a domain panics when a derived finitization is asked for (a
/// hand-written one never calls this), so that a node type needs attributes only to be used
/// in a derived finitization.
pub(crate) fn declarations(fields: &[Field]) -> Vec<Tokens> {
    match korat_fields(fields)
        .map(|f| {
            let s = f.ident.to_string();
            domain(f).map(|d| quote!(b.field(class, #s, #d);))
        })
        .collect::<Result<Vec<_>, String>>()
    {
        Ok(all) => all,
        Err(why) => vec![quote!(panic!("{}: {}", Self::NAME, #why);)],
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

/// The root's fields in declaration order, as statements of a derived finitization: the array
/// classes its Java arrays and listed arenas refer to (declared once the classes are), and the
/// root fields themselves. A field without a domain adds why to `errors`.
fn root_declarations(fields: &[Field], errors: &mut Vec<String>) -> (Vec<Tokens>, Vec<Tokens>) {
    let k = korat();
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
    (arrays, roots)
}

/// The classes of a derived finitization in the order it declares them (and `class_id`
/// numbers them): each arena's, each owned one's, each opaque one's. Returns the typed
/// classes (which declare their own fields), every class's pool size, and every class's name.
fn classes<'a>(
    arenas: &[(&'a Field, &'a Ident)],
    owned: &'a [Pool],
    opaque: &'a [Pool],
) -> (Vec<&'a Ident>, Vec<&'a syn::Expr>, Vec<Tokens>) {
    let k = korat();
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
    (classes, pools, names)
}

/// `Type::finitization(root_name, scope, args)` and `Type::class_id(name)` for a structure
/// whose every arena says its pool (`#[korat(pool(count))]`): one class per arena in field
/// order, then per owned and per opaque class the structure names, then per array; the root's
/// fields in declaration order, then `args` (a method's arguments), then each class's fields.
/// Nothing when no attribute asks for a derived finitization (no pool, no array length); a
/// compile error for a field without a domain.
pub(crate) fn finitization_fn(
    input: &DeriveInput,
    fields: &[Field],
    owned: &[Pool],
    opaque: &[Pool],
) -> Tokens {
    let k = korat();
    let (ty, vis) = (&input.ident, &input.vis);
    let arenas = arenas(fields);
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
    let (arrays, roots) = root_declarations(fields, &mut errors);
    if let Some(e) = errors.first() {
        return syn::Error::new_spanned(ty, e).to_compile_error();
    }
    let (classes, pools, names) = classes(&arenas, owned, opaque);
    let class_id = class_id_fn(input, &names);
    let fields_ty = format_ident!("{}Fields", ty);
    let doc = format!("The finitization of `{ty}` its `#[korat]` attributes give at scope `scope`: a class per arena, then per `#[korat(pool(X, count))]` and per `#[korat(objects(X, count))]` on the type (as many objects as its pool), then per array, the root's fields, then `args` (a method's arguments, generated jointly with the receiver), then each class's fields, each in declaration order. The root class is called `root_name`.");
    quote! {
        #[automatically_derived]
        #[allow(clippy::all, unused_variables)]
        impl #ty {
            #class_id

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

/// `Type::class_id(name)`: the class id of a derived finitization's class `names[i]` is
/// `i + 1` (the root is 0), which a method's argument that is an object of the structure needs
/// for its domain.
fn class_id_fn(input: &DeriveInput, names: &[Tokens]) -> Tokens {
    let k = korat();
    let (ty, vis) = (&input.ident, &input.vis);
    let class_doc = "The class id a derived finitization gives class `name` (the root is 0, then each arena's class, each owned class and each class of opaque objects, in declaration order): the domain of a method's argument that is an object of the structure, such as a second list's header.";
    quote! {
        #[doc = #class_doc]
        #vis fn class_id(name: &str) -> #k::ClassId {
            let classes: &[&str] = &[#(#names),*];
            match classes.iter().position(|c| *c == name) {
                Some(i) => #k::ClassId(i as u16 + 1),
                None => panic!("{} has no class {name} (its classes: {classes:?})", stringify!(#ty)),
            }
        }
    }
}
