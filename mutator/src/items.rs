//! The crate's functions: walking them, naming them, choosing the declared ones, and the
//! item index (structs, aliases, signatures) that type inference uses.

use std::collections::BTreeMap;

use anyhow::{bail, Result};
use syn::{Attribute, FnArg, ImplItem, Item, TraitItem, Type};

use crate::source::{present_outside_tests, Sources};
use crate::types::{CrateIndex, FnSig, Receiver, Ty};

/// Where a function sits: its module, the type or trait whose block holds it, its name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct FnSite {
    pub module: Vec<String>,
    pub owner: Option<String>,
    pub name: String,
}

impl FnSite {
    /// `Type::method` or `function`: how the catalog and the metadata name it.
    pub fn display(&self) -> String {
        match &self.owner {
            Some(o) => format!("{o}::{}", self.name),
            None => self.name.clone(),
        }
    }

    /// Whether a name from the metadata designates this function: `Type::method`, `function`,
    /// or either preceded by (a suffix of) its module path.
    pub fn matches(&self, wanted: &str) -> bool {
        let wanted: Vec<&str> = wanted
            .trim()
            .trim_start_matches("crate::")
            .split("::")
            .collect();
        let mut full: Vec<&str> = self.module.iter().map(String::as_str).collect();
        full.extend(self.owner.as_deref());
        full.push(&self.name);
        let own = if self.owner.is_some() { 2 } else { 1 };
        wanted.len() >= own && full.ends_with(&wanted)
    }
}

/// What the rewrite does to a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Target and helper code: mutated, with code-coverage probes and budget ticks.
    Code,
    /// Specification: specification-coverage probes only, never mutated.
    Spec,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Code => "code",
            Role::Spec => "spec",
        }
    }
}

/// A function body reached by [`each_fn_mut`].
pub struct FnParts<'a> {
    pub attrs: &'a mut Vec<Attribute>,
    pub sig: &'a syn::Signature,
    pub block: &'a mut syn::Block,
    /// The implementing type, for methods of an `impl` block.
    pub self_ty: Option<&'a Type>,
}

/// The name of a type as the index keys it: the last segment of its path.
/// A path's segments as names (`ferastrau_probes::active` → `["ferastrau_probes", "active"]`),
/// generic arguments dropped: how calls and types are looked up in the index.
pub fn segment_names(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

pub fn type_name(t: &Type) -> Option<String> {
    match t {
        Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        Type::Reference(r) => type_name(&r.elem),
        Type::Paren(p) => type_name(&p.elem),
        _ => None,
    }
}

/// Calls `f` on every function with a body outside test code, in source order.
pub fn each_fn_mut(items: &mut [Item], module: &[String], f: &mut dyn FnMut(&FnSite, FnParts<'_>)) {
    for item in items {
        match item {
            Item::Fn(func) if present_outside_tests(&func.attrs) => {
                let parts = FnParts {
                    attrs: &mut func.attrs,
                    sig: &func.sig,
                    block: &mut func.block,
                    self_ty: None,
                };
                visit(f, module, None, parts);
            }
            Item::Impl(imp) if present_outside_tests(&imp.attrs) => {
                let owner = type_name(&imp.self_ty);
                for it in &mut imp.items {
                    if let ImplItem::Fn(func) = it {
                        if !present_outside_tests(&func.attrs) {
                            continue;
                        }
                        let parts = FnParts {
                            attrs: &mut func.attrs,
                            sig: &func.sig,
                            block: &mut func.block,
                            self_ty: Some(&imp.self_ty),
                        };
                        visit(f, module, owner.clone(), parts);
                    }
                }
            }
            Item::Trait(tr) if present_outside_tests(&tr.attrs) => {
                for it in &mut tr.items {
                    if let TraitItem::Fn(func) = it {
                        let Some(block) = &mut func.default else {
                            continue;
                        };
                        if !present_outside_tests(&func.attrs) {
                            continue;
                        }
                        let parts = FnParts {
                            attrs: &mut func.attrs,
                            sig: &func.sig,
                            block,
                            self_ty: None,
                        };
                        visit(f, module, Some(tr.ident.to_string()), parts);
                    }
                }
            }
            Item::Mod(m) if present_outside_tests(&m.attrs) => {
                if let Some((_, inner)) = &mut m.content {
                    let mut path = module.to_vec();
                    path.push(m.ident.to_string());
                    each_fn_mut(inner, &path, f);
                }
            }
            _ => {}
        }
    }
}

/// Calls `f` on one function, named by its module, owner and signature.
fn visit(
    f: &mut dyn FnMut(&FnSite, FnParts<'_>),
    module: &[String],
    owner: Option<String>,
    parts: FnParts<'_>,
) {
    let site = FnSite {
        module: module.to_vec(),
        owner,
        name: parts.sig.ident.to_string(),
    };
    f(&site, parts);
}

/// The crate's sources and the roles its manifest declares: what every walk over its declared
/// functions starts from.
pub fn load_declared(crate_dir: &std::path::Path) -> Result<(Sources, DeclaredFunctions)> {
    use anyhow::Context;
    let manifest = crate::manifest::Manifest::read(crate_dir)?;
    let sources = Sources::load(&manifest.dir, &manifest.lib)
        .with_context(|| format!("in crate `{}`", manifest.name))?;
    let declared = DeclaredFunctions::resolve(&sources, &manifest.mutate, &manifest.specification)?;
    Ok((sources, declared))
}

/// Which role each declared function plays, by site.
#[derive(Debug, Default)]
pub struct DeclaredFunctions {
    pub roles: BTreeMap<FnSite, Role>,
}

impl DeclaredFunctions {
    /// Resolves the metadata's names against the crate's functions. Every name must match at
    /// least one function, and no function may be both mutated and specification.
    pub fn resolve(
        sources: &Sources,
        mutate: &[String],
        spec: &[String],
    ) -> Result<DeclaredFunctions> {
        let mut all = Vec::new();
        for file in sources.files.iter() {
            let mut items = file.ast.items.clone();
            each_fn_mut(&mut items, &file.module, &mut |site, _| {
                all.push(site.clone())
            });
        }
        let mut roles = BTreeMap::new();
        for (names, role) in [(mutate, Role::Code), (spec, Role::Spec)] {
            for wanted in names {
                let hits: Vec<&FnSite> = all.iter().filter(|s| s.matches(wanted)).collect();
                if hits.is_empty() {
                    bail!("{}", unknown_function(wanted, &all));
                }
                for site in hits {
                    if let Some(old) = roles.insert(site.clone(), role) {
                        if old != role {
                            bail!(
                                "`{}` is declared both as code to mutate and as specification",
                                site.display()
                            );
                        }
                    }
                }
            }
        }
        Ok(DeclaredFunctions { roles })
    }

    pub fn role(&self, site: &FnSite) -> Option<Role> {
        self.roles.get(site).copied()
    }

    /// Display names of the specification functions.
    pub fn spec_names(&self) -> Vec<String> {
        self.roles
            .iter()
            .filter(|(_, r)| **r == Role::Spec)
            .map(|(s, _)| s.display())
            .collect()
    }
}

fn unknown_function(wanted: &str, all: &[FnSite]) -> String {
    let mut names: Vec<String> = all.iter().map(FnSite::display).collect();
    names.sort();
    names.dedup();
    let closest = names
        .iter()
        .min_by_key(|n| edit_distance(n, wanted))
        .filter(|n| edit_distance(n, wanted) <= wanted.len() / 3 + 1);
    let hint = closest
        .map(|c| format!(" (did you mean `{c}`?)"))
        .unwrap_or_default();
    format!(
        "no function `{wanted}` in the crate{hint}; the crate's functions are: {}",
        names.join(", ")
    )
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Builds the item index of the crate: aliases, structs, `Copy` types, signatures.
pub fn build_index(sources: &Sources) -> CrateIndex {
    let mut ix = CrateIndex::default();
    let mut items = Vec::new();
    for file in &sources.files {
        collect_items(&file.ast.items, &file.module, &mut items);
    }
    for (module, item) in &items {
        match item {
            Item::Type(t) => ix.add_alias(&t.ident.to_string(), &t.ty),
            Item::Const(c) => ix.add_const(module, &c.ident.to_string(), &c.ty),
            Item::Static(c) => ix.add_const(module, &c.ident.to_string(), &c.ty),
            Item::Struct(s) => {
                let fields = s
                    .fields
                    .iter()
                    .enumerate()
                    .map(|(i, f)| {
                        let name = f.ident.as_ref().map_or(i.to_string(), |n| n.to_string());
                        (name, f.ty.clone())
                    })
                    .collect();
                ix.add_struct(&s.ident.to_string(), fields);
                if derives_copy(&s.attrs) {
                    ix.add_copy(&s.ident.to_string());
                }
            }
            Item::Enum(e) if derives_copy(&e.attrs) => ix.add_copy(&e.ident.to_string()),
            Item::Impl(imp) => {
                let is_copy = imp
                    .trait_
                    .as_ref()
                    .and_then(|(_, p, _)| p.segments.last())
                    .is_some_and(|s| s.ident == "Copy");
                if let (true, Some(name)) = (is_copy, type_name(&imp.self_ty)) {
                    ix.add_copy(&name);
                }
            }
            _ => {}
        }
    }
    ix.finish_structs();
    for (module, item) in &items {
        match item {
            Item::Fn(f) => {
                let sig = signature(&ix, &f.sig, None, None, module, &[]);
                ix.fns.push(sig);
            }
            Item::Impl(imp) => {
                let owner = type_name(&imp.self_ty);
                let self_ty = ix.ty(&imp.self_ty, None);
                let outer = type_params(&imp.generics);
                for it in &imp.items {
                    if let ImplItem::Fn(f) = it {
                        if present_outside_tests(&f.attrs) {
                            let sig = signature(
                                &ix,
                                &f.sig,
                                owner.clone(),
                                self_ty.as_ref(),
                                module,
                                &outer,
                            );
                            ix.fns.push(sig);
                        }
                    }
                }
            }
            Item::Trait(tr) => {
                // `Self` is a type parameter of every trait method.
                let mut outer = type_params(&tr.generics);
                outer.push("Self".to_string());
                for it in &tr.items {
                    if let TraitItem::Fn(f) = it {
                        let sig = signature(
                            &ix,
                            &f.sig,
                            Some(tr.ident.to_string()),
                            None,
                            module,
                            &outer,
                        );
                        ix.fns.push(sig);
                    }
                }
            }
            _ => {}
        }
    }
    ix
}

fn collect_items<'a>(items: &'a [Item], module: &[String], out: &mut Vec<(Vec<String>, &'a Item)>) {
    for item in items {
        let attrs: &[Attribute] = match item {
            Item::Fn(i) => &i.attrs,
            Item::Impl(i) => &i.attrs,
            Item::Struct(i) => &i.attrs,
            Item::Enum(i) => &i.attrs,
            Item::Type(i) => &i.attrs,
            Item::Const(i) => &i.attrs,
            Item::Static(i) => &i.attrs,
            Item::Trait(i) => &i.attrs,
            Item::Mod(i) => &i.attrs,
            _ => &[],
        };
        if !present_outside_tests(attrs) {
            continue;
        }
        if let Item::Mod(m) = item {
            if let Some((_, inner)) = &m.content {
                let mut path = module.to_vec();
                path.push(m.ident.to_string());
                collect_items(inner, &path, out);
            }
            continue;
        }
        out.push((module.to_vec(), item));
    }
}

fn derives_copy(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("derive")
            && a.parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|ps| {
                ps.iter()
                    .any(|p| p.segments.last().is_some_and(|s| s.ident == "Copy"))
            })
    })
}

/// The names of the type parameters a generics list declares.
fn type_params(g: &syn::Generics) -> Vec<String> {
    g.type_params().map(|p| p.ident.to_string()).collect()
}

fn signature(
    ix: &CrateIndex,
    sig: &syn::Signature,
    owner: Option<String>,
    self_ty: Option<&Ty>,
    module: &[String],
    outer_generics: &[String],
) -> FnSig {
    let mut generics = outer_generics.to_vec();
    generics.extend(type_params(&sig.generics));
    let mut receiver = None;
    let mut params = Vec::new();
    for arg in &sig.inputs {
        match arg {
            FnArg::Receiver(r) => {
                // `&mut self`, `&self` (syn: `reference`, the `mut` in `mutability`), a typed
                // `self: &mut Self` (its type), or a value.
                receiver = Some(match (&r.reference, &r.colon_token) {
                    (Some(_), _) if r.mutability.is_some() => Receiver::RefMut,
                    (Some(_), _) => Receiver::Ref,
                    (None, Some(_)) => match &*r.ty {
                        Type::Reference(t) if t.mutability.is_some() => Receiver::RefMut,
                        Type::Reference(_) => Receiver::Ref,
                        _ => Receiver::Value,
                    },
                    (None, None) => Receiver::Value,
                })
            }
            FnArg::Typed(p) => params.push(ix.ty(&p.ty, self_ty)),
        }
    }
    FnSig {
        name: sig.ident.to_string(),
        owner,
        receiver,
        params,
        ret: ix.ret(&sig.output, self_ty),
        module: module.to_vec(),
        generics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_with_or_without_module() {
        let m = FnSite {
            module: vec!["tree".into()],
            owner: Some("Tree".into()),
            name: "add".into(),
        };
        assert!(m.matches("Tree::add"));
        assert!(m.matches("tree::Tree::add"));
        assert!(m.matches("crate::tree::Tree::add"));
        assert!(!m.matches("add"), "a method needs its type");
        assert!(!m.matches("Tree::ad"));
        let f = FnSite {
            module: vec!["inv".into()],
            owner: None,
            name: "rep_ok".into(),
        };
        assert!(f.matches("rep_ok") && f.matches("inv::rep_ok") && !f.matches("x::rep_ok"));
        assert_eq!(edit_distance("Tree::remov", "Tree::remove"), 1);
    }
}
