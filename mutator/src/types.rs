//! The little type knowledge the mutator needs: what syn can see in declarations, struct
//! fields and signatures, with type aliases expanded and `Self` resolved.
//!
//! It decides which replacements are worth trying (same type, `Copy` so that reading a value
//! through a switch does not move it); compile-pruning catches whatever it gets wrong.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use syn::{GenericArgument, PathArguments, ReturnType, Type};

/// A type, as far as the mutator understands it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// `&T` or `&mut T` (lifetimes dropped).
    Ref { mutable: bool, inner: Box<Ty> },
    /// A named type with its generic arguments, by its last path segment: `Option<usize>`.
    Named { name: String, args: Vec<Ty> },
    /// `(A, B)`; `()` is the empty tuple.
    Tuple(Vec<Ty>),
    /// `[T; N]`, with `N` as written.
    Array(Box<Ty>, String),
    /// `[T]`.
    Slice(Box<Ty>),
    /// An unsuffixed integer literal: any integer type.
    IntLiteral,
    /// An unsuffixed float literal.
    FloatLiteral,
}

const INTEGERS: &[&str] = &[
    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
];

impl Ty {
    pub fn named(name: &str) -> Ty {
        Ty::Named {
            name: name.to_string(),
            args: Vec::new(),
        }
    }

    pub fn unit() -> Ty {
        Ty::Tuple(Vec::new())
    }

    /// The type behind any number of references.
    pub fn deref_all(&self) -> &Ty {
        match self {
            Ty::Ref { inner, .. } => inner.deref_all(),
            t => t,
        }
    }

    /// The name of a named type without arguments (after dereferencing).
    pub fn head(&self) -> Option<&str> {
        match self.deref_all() {
            Ty::Named { name, .. } => Some(name),
            _ => None,
        }
    }

    pub fn is_integer(&self) -> bool {
        matches!(self, Ty::IntLiteral)
            || matches!(self, Ty::Named { name, args } if args.is_empty() && INTEGERS.contains(&name.as_str()))
    }

    pub fn is_float(&self) -> bool {
        matches!(self, Ty::FloatLiteral)
            || matches!(self, Ty::Named { name, args } if args.is_empty() && (name == "f32" || name == "f64"))
    }

    /// Numbers and `char`: the types whose values are ordered in the usual sense, so that
    /// every relational operator is a plausible slip for another.
    pub fn is_ordered_scalar(&self) -> bool {
        self.is_integer()
            || self.is_float()
            || matches!(self, Ty::Named { name, args } if args.is_empty() && name == "char")
    }

    pub fn is_bool(&self) -> bool {
        matches!(self, Ty::Named { name, args } if args.is_empty() && name == "bool")
    }

    /// `T` of `Option<T>`.
    pub fn option_inner(&self) -> Option<&Ty> {
        match self {
            Ty::Named { name, args } if name == "Option" && args.len() == 1 => Some(&args[0]),
            _ => None,
        }
    }

    /// Whether the named type `name` occurs anywhere in this type.
    pub fn mentions(&self, name: &str) -> bool {
        match self {
            Ty::Ref { inner, .. } => inner.mentions(name),
            Ty::Named { name: n, args } => n == name || args.iter().any(|a| a.mentions(name)),
            Ty::Tuple(ts) => ts.iter().any(|t| t.mentions(name)),
            Ty::Array(t, _) | Ty::Slice(t) => t.mentions(name),
            Ty::IntLiteral | Ty::FloatLiteral => false,
        }
    }

    /// An integer or float type that inference has settled: not a bare literal's.
    pub fn is_concrete_number(&self) -> bool {
        (self.is_integer() || self.is_float()) && !matches!(self, Ty::IntLiteral | Ty::FloatLiteral)
    }

    /// `T` of `Result<T, E>` or `Option<T>`: the value `expr?` yields.
    pub fn try_output(&self) -> Option<&Ty> {
        match self {
            Ty::Named { name, args }
                if (name == "Result" || name == "Option") && !args.is_empty() =>
            {
                Some(&args[0])
            }
            _ => None,
        }
    }

    /// The element type of a vector, array or slice (behind references).
    pub fn element(&self) -> Option<&Ty> {
        match self.deref_all() {
            Ty::Named { name, args }
                if (name == "Vec" || name == "VecDeque") && args.len() == 1 =>
            {
                Some(&args[0])
            }
            Ty::Array(t, _) | Ty::Slice(t) => Some(t),
            _ => None,
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn list(f: &mut fmt::Formatter<'_>, tys: &[Ty]) -> fmt::Result {
            for (i, t) in tys.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{t}")?;
            }
            Ok(())
        }
        match self {
            Ty::Ref { mutable, inner } => {
                write!(f, "&{}{inner}", if *mutable { "mut " } else { "" })
            }
            Ty::Named { name, args } if args.is_empty() => f.write_str(name),
            Ty::Named { name, args } => {
                write!(f, "{name}<")?;
                list(f, args)?;
                f.write_str(">")
            }
            Ty::Tuple(ts) => {
                f.write_str("(")?;
                list(f, ts)?;
                f.write_str(")")
            }
            Ty::Array(t, n) => write!(f, "[{t}; {n}]"),
            Ty::Slice(t) => write!(f, "[{t}]"),
            Ty::IntLiteral => f.write_str("{integer}"),
            Ty::FloatLiteral => f.write_str("{float}"),
        }
    }
}

/// How a method takes `self`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Receiver {
    Value,
    Ref,
    RefMut,
}

/// A function or method of the crate, as the call operator sees it.
#[derive(Clone, Debug)]
pub struct FnSig {
    pub name: String,
    /// The type (or trait) whose impl or declaration holds it; `None` for a free function.
    pub owner: Option<String>,
    /// `None` for free and associated functions without `self`.
    pub receiver: Option<Receiver>,
    pub params: Vec<Option<Ty>>,
    pub ret: Option<Ty>,
    /// Module path from the crate root, for calling a free function from elsewhere.
    pub module: Vec<String>,
    /// Type parameters in scope of the signature (the function's and its impl's or trait's).
    pub generics: Vec<String>,
}

impl FnSig {
    /// The type every call returns, whatever its arguments: the return type when it names
    /// none of the signature's type parameters (a call of `fn f<T>(x: T) -> T` has whatever
    /// type the caller's inference gives it, which the mutator must not presume).
    pub fn concrete_ret(&self) -> Option<&Ty> {
        self.ret
            .as_ref()
            .filter(|t| !self.generics.iter().any(|g| t.mentions(g)))
    }

    /// Same parameter and return types (all known) and the same kind of receiver, up to `&`
    /// versus `&mut` (compile-pruning drops a `&mut self` call where `self` is not mutable).
    pub fn compatible(&self, other: &FnSig) -> bool {
        let receivers = match (self.receiver, other.receiver) {
            (None, None) | (Some(Receiver::Value), Some(Receiver::Value)) => true,
            (Some(a), Some(b)) => a != Receiver::Value && b != Receiver::Value,
            _ => false,
        };
        receivers
            && self.params.len() == other.params.len()
            && self
                .params
                .iter()
                .zip(&other.params)
                .all(|(a, b)| a.is_some() && a == b)
            && self.ret.is_some()
            && self.ret == other.ret
    }
}

/// Everything the mutator knows about the crate's items (test code excluded).
#[derive(Default, Debug)]
pub struct CrateIndex {
    /// `type A = B;` by name.
    aliases: HashMap<String, Type>,
    /// Named fields of each struct, in declaration order.
    pub structs: HashMap<String, Vec<(String, Ty)>>,
    /// Types that are `Copy` (derived or implemented).
    copy_types: HashSet<String>,
    /// Every function and method, in source order.
    pub fns: Vec<FnSig>,
    /// Unresolved field types, normalised once the aliases are known.
    raw_fields: BTreeMap<String, Vec<(String, Type)>>,
    /// Free constants and statics by name: their module and declared type.
    consts: HashMap<String, Vec<(Vec<String>, Type)>>,
}

impl CrateIndex {
    pub fn add_alias(&mut self, name: &str, ty: &Type) {
        self.aliases.insert(name.to_string(), ty.clone());
    }

    pub fn add_struct(&mut self, name: &str, fields: Vec<(String, Type)>) {
        self.raw_fields.insert(name.to_string(), fields);
    }

    pub fn add_const(&mut self, module: &[String], name: &str, ty: &Type) {
        self.consts
            .entry(name.to_string())
            .or_default()
            .push((module.to_vec(), ty.clone()));
    }

    /// The declared type of the free constant or static `name` as code in `module` sees it
    /// unqualified: the one of that module, else the only one of that name.
    pub fn constant(&self, module: &[String], name: &str) -> Option<Ty> {
        let all = self.consts.get(name)?;
        let ty = match all.iter().find(|(m, _)| m == module) {
            Some((_, t)) => t,
            None if all.len() == 1 => &all[0].1,
            None => return None,
        };
        self.ty(ty, None)
    }

    pub fn add_copy(&mut self, name: &str) {
        self.copy_types.insert(name.to_string());
    }

    /// Normalises the recorded struct fields; call once every item has been added.
    pub fn finish_structs(&mut self) {
        let raw = std::mem::take(&mut self.raw_fields);
        for (name, fields) in raw {
            let self_ty = Ty::named(&name);
            let fields = fields
                .into_iter()
                .filter_map(|(f, t)| Some((f, self.ty(&t, Some(&self_ty))?)))
                .collect();
            self.structs.insert(name, fields);
        }
    }

    /// The type of field `field` of the struct named `owner`.
    pub fn field(&self, owner: &str, field: &str) -> Option<&Ty> {
        self.structs
            .get(owner)?
            .iter()
            .find(|(f, _)| f == field)
            .map(|(_, t)| t)
    }

    /// Whether a value of type `t` is copied, not moved, when read.
    pub fn is_copy(&self, t: &Ty) -> bool {
        match t {
            Ty::Ref { mutable, .. } => !mutable,
            Ty::IntLiteral | Ty::FloatLiteral => true,
            Ty::Named { name, args } => {
                if args.is_empty() {
                    t.is_ordered_scalar() || t.is_bool() || self.copy_types.contains(name)
                } else {
                    name == "Option" && args.len() == 1 && self.is_copy(&args[0])
                }
            }
            Ty::Tuple(ts) => ts.iter().all(|t| self.is_copy(t)),
            Ty::Array(t, _) => self.is_copy(t),
            Ty::Slice(_) => false,
        }
    }

    /// Normalises a syn type: aliases expanded, `Self` replaced, lifetimes dropped. `None`
    /// for what the mutator does not model (trait objects, `impl Trait`, function pointers).
    pub fn ty(&self, t: &Type, self_ty: Option<&Ty>) -> Option<Ty> {
        self.ty_depth(t, self_ty, 0)
    }

    fn ty_depth(&self, t: &Type, self_ty: Option<&Ty>, depth: usize) -> Option<Ty> {
        if depth > 16 {
            return None; // a cycle of aliases
        }
        match t {
            Type::Reference(r) => Some(Ty::Ref {
                mutable: r.mutability.is_some(),
                inner: Box::new(self.ty_depth(&r.elem, self_ty, depth + 1)?),
            }),
            Type::Paren(p) => self.ty_depth(&p.elem, self_ty, depth + 1),
            Type::Group(g) => self.ty_depth(&g.elem, self_ty, depth + 1),
            Type::Tuple(tup) => Some(Ty::Tuple(
                tup.elems
                    .iter()
                    .map(|e| self.ty_depth(e, self_ty, depth + 1))
                    .collect::<Option<_>>()?,
            )),
            Type::Slice(s) => Some(Ty::Slice(Box::new(self.ty_depth(
                &s.elem,
                self_ty,
                depth + 1,
            )?))),
            Type::Array(a) => {
                let len = &a.len;
                Some(Ty::Array(
                    Box::new(self.ty_depth(&a.elem, self_ty, depth + 1)?),
                    quote::quote!(#len).to_string(),
                ))
            }
            Type::Path(p) if p.qself.is_none() => {
                let seg = p.path.segments.last()?;
                let name = seg.ident.to_string();
                if name == "Self" && p.path.segments.len() == 1 {
                    return self_ty.cloned();
                }
                if p.path.segments.len() > 1 && p.path.segments[0].ident == "Self" {
                    return None; // an associated type, `Self::Item`
                }
                let args = match &seg.arguments {
                    PathArguments::None => Vec::new(),
                    PathArguments::AngleBracketed(a) => a
                        .args
                        .iter()
                        .filter_map(|g| match g {
                            GenericArgument::Type(t) => Some(self.ty_depth(t, self_ty, depth + 1)),
                            _ => None,
                        })
                        .collect::<Option<_>>()?,
                    PathArguments::Parenthesized(_) => return None,
                };
                if args.is_empty() {
                    if let Some(target) = self.aliases.get(&name) {
                        return self.ty_depth(target, self_ty, depth + 1);
                    }
                }
                Some(Ty::Named { name, args })
            }
            _ => None,
        }
    }

    /// The return type of a signature (`()` when omitted).
    pub fn ret(&self, r: &ReturnType, self_ty: Option<&Ty>) -> Option<Ty> {
        match r {
            ReturnType::Default => Some(Ty::unit()),
            ReturnType::Type(_, t) => self.ty(t, self_ty),
        }
    }

    /// The functions with this name: methods of `owner` when given, free functions otherwise.
    pub fn lookup(&self, owner: Option<&str>, name: &str) -> Vec<&FnSig> {
        self.fns
            .iter()
            .filter(|f| f.name == name && f.owner.as_deref() == owner)
            .collect()
    }

    /// Methods named `name` of any owner.
    pub fn methods_named(&self, name: &str) -> Vec<&FnSig> {
        self.fns
            .iter()
            .filter(|f| f.name == name && f.owner.is_some())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_self_and_copy() {
        let mut ix = CrateIndex::default();
        ix.add_alias("NodeId", &syn::parse_quote!(usize));
        ix.add_struct(
            "Node",
            vec![
                ("left".into(), syn::parse_quote!(Option<NodeId>)),
                ("next".into(), syn::parse_quote!(Vec<Self>)),
            ],
        );
        ix.finish_structs();
        let left = ix.field("Node", "left").unwrap();
        assert_eq!(left.to_string(), "Option<usize>");
        assert!(ix.is_copy(left));
        let next = ix.field("Node", "next").unwrap();
        assert_eq!(next.to_string(), "Vec<Node>");
        assert!(!ix.is_copy(next));
        let r = ix
            .ty(&syn::parse_quote!(&'a mut Self), Some(&Ty::named("Tree")))
            .unwrap();
        assert_eq!(r.to_string(), "&mut Tree");
        assert!(!ix.is_copy(&r));
        assert!(Ty::IntLiteral.is_integer() && !Ty::named("bool").is_integer());
    }

    #[test]
    fn results_of_calls_try_and_constants() {
        let mut ix = CrateIndex::default();
        ix.add_alias("Id", &syn::parse_quote!(i64));
        ix.add_const(&[], "LIMIT", &syn::parse_quote!(Id));
        ix.add_const(&["a".into()], "N", &syn::parse_quote!(u8));
        ix.add_const(&["b".into()], "N", &syn::parse_quote!(u16));
        ix.finish_structs();
        assert_eq!(ix.constant(&[], "LIMIT"), Some(Ty::named("i64")));
        assert_eq!(ix.constant(&["b".into()], "N"), Some(Ty::named("u16")));
        assert_eq!(ix.constant(&[], "N"), None, "two constants of that name");
        let result = ix.ty(&syn::parse_quote!(Result<Id, String>), None).unwrap();
        assert_eq!(result.try_output(), Some(&Ty::named("i64")));
        let option = ix.ty(&syn::parse_quote!(Option<(u8, Id)>), None).unwrap();
        assert_eq!(option.try_output().unwrap().to_string(), "(u8, i64)");
        assert_eq!(Ty::named("i64").try_output(), None);
        assert_eq!(ix.ty(&syn::parse_quote!(Self::Item), None), None);
        let sig = |ret: Ty, generics: &[&str]| FnSig {
            name: "f".into(),
            owner: None,
            receiver: None,
            params: Vec::new(),
            ret: Some(ret),
            module: Vec::new(),
            generics: generics.iter().map(|g| g.to_string()).collect(),
        };
        let vec_t = Ty::Named {
            name: "Vec".into(),
            args: vec![Ty::named("T")],
        };
        assert_eq!(sig(vec_t.clone(), &["T"]).concrete_ret(), None);
        assert_eq!(sig(vec_t.clone(), &[]).concrete_ret(), Some(&vec_t));
        assert!(Ty::named("u8").is_concrete_number() && !Ty::IntLiteral.is_concrete_number());
    }
}
