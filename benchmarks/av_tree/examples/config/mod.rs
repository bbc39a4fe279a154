//! The family of `lookup` finitizations the count search ranges over (`Config`), their
//! candidate view and the invariant parameterised by them: the benchmark itself uses one
//! member of the family (`Config::CHOSEN`), which `#[derive(Korat)]` gives it
//! (`src/av_tree.rs`); `tests/korat_counts.rs` checks that both count alike.
//!
//! The paper's `# inputs` for AVTree (2, 86, 1702, 27734, 417878) have never been reproduced;
//! `variants.rs` and `fixed_domains/` search this family and its neighbours.

use ferastrau_sdk::korat::{
    Candidate, ClassId, Domain, FieldId, Finitization, FinitizationBuilder, Value as Slot, Visited,
    ROOT,
};

use av_tree::av_tree::WILDCARD;

/// How the children of a node are ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Siblings {
    /// Names strictly increase along a sibling list (the canonical form of INS's children
    /// tables, which are keyed by name). Integer names only: an order on name objects would
    /// not be invariant under isomorphism.
    Sorted,
    /// Any order, but no two siblings share a name.
    Distinct,
    /// Any order, repeated names allowed.
    Free,
}

/// How name-records hang under values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Records {
    /// No records at all.
    Absent,
    /// Each value holds at most one record (a nullable reference); one record may hang under
    /// several values (the leaves of its name).
    OnePerValue,
    /// Each value holds a linked list of records (`Record.next`); a record hangs under exactly
    /// one value.
    Lists,
}

/// What the root values' names may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootName {
    /// Not constrained (and not read: Korat enumerates it as an unread reachable field).
    Free,
    /// Must be the first name of the domain (the root's name carries no meaning).
    Fixed,
}

/// A finitization of `lookup`'s inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// The query draws its values and attributes from the name-tree's pools (one `Value` and
    /// one `Attribute` class); otherwise it has pools of its own (`QValue`, `QAttribute`).
    pub shared_pools: bool,
    /// With shared pools: the query and the name-tree share no object.
    pub disjoint: bool,
    pub siblings: Siblings,
    /// Name-tree values may be wildcards (always leaves).
    pub tree_wildcards: bool,
    /// Query values may be wildcards (always leaves).
    pub query_wildcards: bool,
    pub root_name: RootName,
    pub records: Records,
    /// Records hang only under values without attributes.
    pub leaf_records: bool,
    /// The root value may hold records.
    pub root_records: bool,
    /// Query values hold no records.
    pub query_records_null: bool,
    /// Pool sizes and name ranges at scope n: `n + extra` (at least 0, names at least 1).
    pub extra_values: i32,
    pub extra_attributes: i32,
    pub extra_records: i32,
    pub extra_value_names: i32,
    pub extra_attribute_names: i32,
    /// Names are objects (pools `VName`, `AName`, and a one-object `Wildcard` class) compared by
    /// identity, so that Korat's isomorphism renames them; otherwise they are integers.
    pub name_objects: bool,
    /// The query is given by a root value; otherwise (INS's name-specifier) by the list of its
    /// top-level attributes, null for the empty query.
    pub query_root_value: bool,
}

impl Config {
    /// The finitization the benchmark uses (see the README for why).
    pub const CHOSEN: Config = Config {
        shared_pools: true,
        disjoint: true,
        siblings: Siblings::Distinct,
        tree_wildcards: true,
        query_wildcards: true,
        root_name: RootName::Fixed,
        records: Records::OnePerValue,
        leaf_records: false,
        root_records: true,
        query_records_null: true,
        extra_values: 0,
        extra_attributes: 0,
        extra_records: 0,
        extra_value_names: 0,
        extra_attribute_names: 0,
        name_objects: true,
        query_root_value: false,
    };

    /// A short description, e.g. `shared+disjoint sorted q* one-record root-fixed V+1`.
    pub fn label(&self) -> String {
        let mut s = String::new();
        s += match (self.shared_pools, self.disjoint) {
            (true, true) => "shared+disjoint",
            (true, false) => "shared+overlap",
            (false, _) => "separate",
        };
        s += match self.siblings {
            Siblings::Sorted => " sorted",
            Siblings::Distinct => " distinct",
            Siblings::Free => " free-order",
        };
        if self.tree_wildcards {
            s += " t*";
        }
        if self.query_wildcards {
            s += " q*";
        }
        s += match self.records {
            Records::Absent => " no-records",
            Records::OnePerValue => " one-record",
            Records::Lists => " record-lists",
        };
        if self.leaf_records {
            s += " leaf-records";
        }
        if !self.root_records {
            s += " no-root-record";
        }
        if !self.query_records_null {
            s += " query-records-free";
        }
        s += match self.root_name {
            RootName::Free => " root-free",
            RootName::Fixed => " root-fixed",
        };
        if !self.query_root_value {
            s += " query-attrs";
        }
        if self.name_objects {
            s += " name-objects";
        }
        for (tag, x) in [
            ("V", self.extra_values),
            ("A", self.extra_attributes),
            ("R", self.extra_records),
            ("VN", self.extra_value_names),
            ("AN", self.extra_attribute_names),
        ] {
            if x != 0 {
                s += &format!(" {tag}{x:+}");
            }
        }
        s
    }

    fn size(n: u32, extra: i32, min: i64) -> i64 {
        (i64::from(n) + i64::from(extra)).max(min)
    }
}

/// Field ids of a lookup finitization.
pub struct Fields {
    pub root: FieldId,
    pub query: FieldId,
    /// Per pool (0: the name-tree's, 1: the query's; the same ids when pools are shared).
    pub v_name: [FieldId; 2],
    pub v_attributes: [FieldId; 2],
    pub v_next: [FieldId; 2],
    pub v_record: [Option<FieldId>; 2],
    pub a_name: [FieldId; 2],
    pub a_values: [FieldId; 2],
    pub a_next: [FieldId; 2],
    pub r_next: Option<FieldId>,
    /// With name objects: the wildcard's class (its one object is the name `WILDCARD`).
    pub wildcard_class: Option<ClassId>,
}

/// The finitization of `lookup` at scope `n` under `cfg`. Root class: `root` (the name-tree's
/// root value) and `query` (the query's root value, or its first top-level attribute, null for
/// the empty query). Class `Value`: `name`, `attributes` (first child), `next` (next sibling),
/// `record`; class `Attribute`: `name`, `values` (first child), `next`; class `Record` (with
/// `next` for lists). Names are integers — value names `0` (the wildcard, when wildcards are
/// allowed) and `1..`, attribute names `1..` — or objects of the classes `VName`, `AName` and
/// `Wildcard`, which the view maps to the same integers.
pub fn finitization(root_name: &str, n: u32, cfg: Config) -> (Finitization, Fields) {
    let values = Config::size(n, cfg.extra_values, 0) as u32;
    let attributes = Config::size(n, cfg.extra_attributes, 0) as u32;
    let records = Config::size(n, cfg.extra_records, 0) as u32;
    let value_names = Config::size(n, cfg.extra_value_names, 1);
    let attribute_names = Config::size(n, cfg.extra_attribute_names, 1);
    let lowest = |wild: bool| if wild { WILDCARD } else { 1 };

    let mut b = FinitizationBuilder::new(root_name);
    let value = b.class("Value", values);
    let attribute = b.class("Attribute", attributes);
    let record = b.class("Record", records);
    let (q_value, q_attribute) = if cfg.shared_pools {
        (value, attribute)
    } else {
        (b.class("QValue", values), b.class("QAttribute", attributes))
    };
    let names = cfg.name_objects.then(|| {
        let v = b.class("VName", value_names as u32);
        let a = b.class("AName", attribute_names as u32);
        let w = b.class("Wildcard", 1);
        (v, a, w)
    });
    b.field(ROOT, "root", Domain::nullable(value));
    if cfg.query_root_value {
        b.field(ROOT, "query", Domain::nullable(q_value));
    } else {
        b.field(ROOT, "query", Domain::nullable(q_attribute));
    }
    let tree_names_low = if cfg.shared_pools {
        lowest(cfg.tree_wildcards || cfg.query_wildcards)
    } else {
        lowest(cfg.tree_wildcards)
    };
    let declare = |b: &mut FinitizationBuilder, v: ClassId, a: ClassId, low: i64| {
        match names {
            Some((vn, _, w)) if low == WILDCARD => {
                b.field(v, "name", Domain::objects(w).or(Domain::objects(vn)))
            }
            Some((vn, _, _)) => b.field(v, "name", Domain::objects(vn)),
            None => b.field(v, "name", Domain::ints(low, value_names)),
        };
        b.field(v, "attributes", Domain::nullable(a));
        b.field(v, "next", Domain::nullable(v));
        if cfg.records != Records::Absent {
            b.field(v, "record", Domain::nullable(record));
        }
        match names {
            Some((_, an, _)) => b.field(a, "name", Domain::objects(an)),
            None => b.field(a, "name", Domain::ints(1, attribute_names)),
        };
        b.field(a, "values", Domain::nullable(v));
        b.field(a, "next", Domain::nullable(a));
    };
    declare(&mut b, value, attribute, tree_names_low);
    if !cfg.shared_pools {
        declare(&mut b, q_value, q_attribute, lowest(cfg.query_wildcards));
    }
    if cfg.records == Records::Lists {
        b.field(record, "next", Domain::nullable(record));
    }
    let fin = b.build();
    let ids = |v: ClassId, a: ClassId| {
        (
            fin.field(v, "name"),
            fin.field(v, "attributes"),
            fin.field(v, "next"),
            (cfg.records != Records::Absent).then(|| fin.field(v, "record")),
            fin.field(a, "name"),
            fin.field(a, "values"),
            fin.field(a, "next"),
        )
    };
    let t = ids(value, attribute);
    let q = ids(q_value, q_attribute);
    let fields = Fields {
        root: fin.field(ROOT, "root"),
        query: fin.field(ROOT, "query"),
        v_name: [t.0, q.0],
        v_attributes: [t.1, q.1],
        v_next: [t.2, q.2],
        v_record: [t.3, q.3],
        a_name: [t.4, q.4],
        a_values: [t.5, q.5],
        a_next: [t.6, q.6],
        r_next: (cfg.records == Records::Lists).then(|| fin.field(record, "next")),
        wildcard_class: names.map(|(_, _, w)| w),
    };
    (fin, fields)
}

/// A candidate seen through [`AvView`]; every first read of a field is recorded by Korat.
pub struct CandidateAv<'c, 'a> {
    pub c: &'c mut Candidate<'a>,
    pub f: &'c Fields,
}

impl AvView for CandidateAv<'_, '_> {
    fn root(&mut self) -> Option<u32> {
        self.c.obj(self.f.root, 0)
    }
    fn query(&mut self) -> Option<u32> {
        self.c.obj(self.f.query, 0)
    }
    fn value_name(&mut self, q: bool, v: u32) -> i64 {
        match self.c.get(self.f.v_name[usize::from(q)], v) {
            Slot::Int(x) => x,
            Slot::Obj(c, _) if Some(c) == self.f.wildcard_class => WILDCARD,
            Slot::Obj(_, i) => i64::from(i) + 1,
            Slot::Null => panic!("a value name is never null"),
        }
    }
    fn value_attributes(&mut self, q: bool, v: u32) -> Option<u32> {
        self.c.obj(self.f.v_attributes[usize::from(q)], v)
    }
    fn value_next(&mut self, q: bool, v: u32) -> Option<u32> {
        self.c.obj(self.f.v_next[usize::from(q)], v)
    }
    fn value_record(&mut self, q: bool, v: u32) -> Option<u32> {
        match self.f.v_record[usize::from(q)] {
            Some(f) => self.c.obj(f, v),
            None => None,
        }
    }
    fn attribute_name(&mut self, q: bool, a: u32) -> i64 {
        match self.c.get(self.f.a_name[usize::from(q)], a) {
            Slot::Int(x) => x,
            Slot::Obj(_, i) => i64::from(i) + 1,
            Slot::Null => panic!("an attribute name is never null"),
        }
    }
    fn attribute_values(&mut self, q: bool, a: u32) -> Option<u32> {
        self.c.obj(self.f.a_values[usize::from(q)], a)
    }
    fn attribute_next(&mut self, q: bool, a: u32) -> Option<u32> {
        self.c.obj(self.f.a_next[usize::from(q)], a)
    }
    fn record_next(&mut self, r: u32) -> Option<u32> {
        match self.f.r_next {
            Some(f) => self.c.obj(f, r),
            None => None,
        }
    }
}

/// Read access to a lookup input. `q` selects the query's pools when the finitization gives
/// the query pools of its own (the real structure ignores it: one arena holds both).
pub trait AvView {
    fn root(&mut self) -> Option<u32>;
    fn query(&mut self) -> Option<u32>;
    fn value_name(&mut self, q: bool, v: u32) -> i64;
    fn value_attributes(&mut self, q: bool, v: u32) -> Option<u32>;
    fn value_next(&mut self, q: bool, v: u32) -> Option<u32>;
    fn value_record(&mut self, q: bool, v: u32) -> Option<u32>;
    fn attribute_name(&mut self, q: bool, a: u32) -> i64;
    fn attribute_values(&mut self, q: bool, a: u32) -> Option<u32>;
    fn attribute_next(&mut self, q: bool, a: u32) -> Option<u32>;
    fn record_next(&mut self, r: u32) -> Option<u32>;
}

/// The objects met so far.
pub struct Seen {
    values: Visited,
    attributes: Visited,
    records: Visited,
}

impl Seen {
    fn new() -> Self {
        Seen {
            values: Visited::new(),
            attributes: Visited::new(),
            records: Visited::new(),
        }
    }
}

/// The invariant of `lookup`'s input under `cfg`.
pub fn rep_ok(v: &mut impl AvView, cfg: &Config) -> bool {
    let root = match v.root() {
        None => return false,
        Some(r) => r,
    };
    let mut seen = Seen::new();
    if !is_name_tree(v, cfg, root, &mut seen) {
        return false;
    }
    let query = v.query();
    if cfg.query_root_value && query.is_none() {
        return false;
    }
    if cfg.shared_pools && cfg.disjoint {
        is_query(v, cfg, query, &mut seen)
    } else {
        is_query(v, cfg, query, &mut Seen::new())
    }
}

/// The name-tree below `root`.
pub fn is_name_tree(v: &mut impl AvView, cfg: &Config, root: u32, seen: &mut Seen) -> bool {
    walk(v, cfg, Some(root), false, seen)
}

/// The query: a name-tree with exactly one value per attribute and no records, given by its
/// root value or (INS's name-specifier) by its list of top-level attributes, null when empty.
pub fn is_query(v: &mut impl AvView, cfg: &Config, query: Option<u32>, seen: &mut Seen) -> bool {
    walk(v, cfg, query, true, seen)
}

/// Whether `name` may follow the sibling names in `mask` (last one `prev`).
fn sibling_ok(cfg: &Config, prev: Option<i64>, mask: &mut u128, name: i64) -> bool {
    match cfg.siblings {
        Siblings::Sorted => prev.is_none_or(|p| p < name),
        Siblings::Distinct => {
            let bit = 1u128 << (name.clamp(0, 127) as u32);
            if *mask & bit != 0 {
                return false;
            }
            *mask |= bit;
            true
        }
        Siblings::Free => true,
    }
}

/// Walks a name-tree (or a query) from its root value, or for a query without a root value
/// from its list of top-level attributes.
fn walk(
    v: &mut impl AvView,
    cfg: &Config,
    start: Option<u32>,
    query: bool,
    seen: &mut Seen,
) -> bool {
    // The query reads its own pools when it has them.
    let q = query && !cfg.shared_pools;
    let wildcards_allowed = if query {
        cfg.query_wildcards
    } else {
        cfg.tree_wildcards
    };
    let lowest_name =
        if (cfg.shared_pools && (cfg.tree_wildcards || cfg.query_wildcards)) || wildcards_allowed {
            WILDCARD
        } else {
            1
        };
    // The visited set doubles as the work list: its insertion order is the BFS queue.
    let mut next = seen.values.len();
    let root = if !query || cfg.query_root_value {
        let start = start.expect("a root value");
        if !seen.values.insert(start) {
            return false;
        }
        if cfg.root_name == RootName::Fixed && v.value_name(q, start) != lowest_name {
            return false;
        }
        if v.value_next(q, start).is_some() {
            return false;
        }
        Some(start)
    } else {
        if !attributes_ok(v, cfg, q, query, wildcards_allowed, start, seen) {
            return false;
        }
        None
    };
    while next < seen.values.len() {
        let current = seen.values.get(next);
        let is_root = Some(current) == root;
        next += 1;
        let attributes = v.value_attributes(q, current);
        if !is_root && attributes.is_some() && v.value_name(q, current) == WILDCARD {
            return false;
        }
        if !records_ok(
            v,
            cfg,
            q,
            query,
            current,
            is_root,
            attributes.is_some(),
            seen,
        ) {
            return false;
        }
        if !attributes_ok(v, cfg, q, query, wildcards_allowed, attributes, seen) {
            return false;
        }
    }
    true
}

/// A list of sibling attributes starting at `first`, each with its values (added to the
/// visited values, which the caller walks next).
fn attributes_ok(
    v: &mut impl AvView,
    cfg: &Config,
    q: bool,
    query: bool,
    wildcards_allowed: bool,
    first: Option<u32>,
    seen: &mut Seen,
) -> bool {
    let mut a = first;
    let mut prev_a = None;
    let mut mask_a = 0u128;
    while let Some(ai) = a {
        if !seen.attributes.insert(ai) {
            return false;
        }
        let an = v.attribute_name(q, ai);
        if !sibling_ok(cfg, prev_a, &mut mask_a, an) {
            return false;
        }
        prev_a = Some(an);
        let first = match v.attribute_values(q, ai) {
            None => return false,
            Some(x) => x,
        };
        let mut x = Some(first);
        let mut prev_v = None;
        let mut mask_v = 0u128;
        while let Some(xi) = x {
            if !seen.values.insert(xi) {
                return false;
            }
            let vn = v.value_name(q, xi);
            if vn == WILDCARD && !wildcards_allowed {
                return false;
            }
            if !sibling_ok(cfg, prev_v, &mut mask_v, vn) {
                return false;
            }
            prev_v = Some(vn);
            x = v.value_next(q, xi);
            if query && x.is_some() {
                return false;
            }
        }
        a = v.attribute_next(q, ai);
    }
    true
}

/// The records under value `current`.
#[allow(clippy::too_many_arguments)]
fn records_ok(
    v: &mut impl AvView,
    cfg: &Config,
    q: bool,
    query: bool,
    current: u32,
    is_root: bool,
    has_attributes: bool,
    seen: &mut Seen,
) -> bool {
    if cfg.records == Records::Absent || (query && !cfg.query_records_null) {
        return true;
    }
    let first = v.value_record(q, current);
    if first.is_none() {
        return true;
    }
    if query || (is_root && !cfg.root_records) || (cfg.leaf_records && has_attributes) {
        return false;
    }
    if cfg.records == Records::Lists {
        let mut r = first;
        while let Some(ri) = r {
            if !seen.records.insert(ri) {
                return false;
            }
            r = v.record_next(ri);
        }
    }
    true
}
