//! Korat's side: the finitization of `lookup`'s inputs (a name-tree and a query, generated
//! jointly), the candidate view, decoding a valid candidate, and rendering.
//!
//! The paper's `# inputs` for AVTree (2, 86, 1702, 27734, 417878) have never been reproduced,
//! so the finitization is parameterised by a [`Config`]: [`Config::CHOSEN`] is the one the
//! benchmark uses, the others are the alternatives tried (see the README and
//! `examples/variants.rs`).

use ferastrau_sdk::korat::{
    Candidate, ClassId, Domain, FieldId, Finitization, FinitizationBuilder, Value as Slot, ROOT,
};

use crate::av_tree::{Attribute, AvTree, Record, Value, WILDCARD};
use crate::invariant::AvView;

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
    pub cfg: Config,
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
        cfg,
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

/// Copies a valid candidate into the arena: the name-tree and the query (which share the
/// arena, and objects too when the finitization lets them), keeping record identities.
pub struct Decoded {
    pub tree: AvTree,
    pub query: Option<usize>,
}

/// Builds the real input of a valid candidate.
pub fn decode(c: &mut Candidate<'_>, f: &Fields) -> Decoded {
    let mut d = Decoder {
        v: CandidateAv { c, f },
        tree: AvTree::default(),
        values: [Vec::new(), Vec::new()],
        attributes: [Vec::new(), Vec::new()],
        records: Vec::new(),
    };
    let root = d.v.root();
    d.tree.root = d.value(false, root);
    let query = d.v.query();
    let q = !f.cfg.shared_pools;
    let query = if f.cfg.query_root_value {
        d.value(q, query)
    } else {
        d.attribute(q, query)
    };
    Decoded {
        tree: d.tree,
        query,
    }
}

struct Decoder<'c, 'a> {
    v: CandidateAv<'c, 'a>,
    tree: AvTree,
    /// Candidate object → arena id, per pool.
    values: [Vec<(u32, usize)>; 2],
    attributes: [Vec<(u32, usize)>; 2],
    records: Vec<(u32, usize)>,
}

impl Decoder<'_, '_> {
    fn value(&mut self, q: bool, v: Option<u32>) -> Option<usize> {
        let v = v?;
        let pool = usize::from(q);
        if let Some(&(_, id)) = self.values[pool].iter().find(|&&(o, _)| o == v) {
            return Some(id);
        }
        let id = self.tree.values.len();
        self.values[pool].push((v, id));
        self.tree.values.push(Value {
            name: self.v.value_name(q, v),
            attributes: None,
            next: None,
            record: None,
        });
        let r = self.v.value_record(q, v);
        let record = self.record(r);
        let a = self.v.value_attributes(q, v);
        let attributes = self.attribute(q, a);
        let n = self.v.value_next(q, v);
        let next = self.value(q, n);
        let value = &mut self.tree.values[id];
        value.record = record;
        value.attributes = attributes;
        value.next = next;
        Some(id)
    }

    fn attribute(&mut self, q: bool, a: Option<u32>) -> Option<usize> {
        let a = a?;
        let pool = usize::from(q);
        if let Some(&(_, id)) = self.attributes[pool].iter().find(|&&(o, _)| o == a) {
            return Some(id);
        }
        let id = self.tree.attributes.len();
        self.attributes[pool].push((a, id));
        self.tree.attributes.push(Attribute {
            name: self.v.attribute_name(q, a),
            values: None,
            next: None,
        });
        let v = self.v.attribute_values(q, a);
        let values = self.value(q, v);
        let n = self.v.attribute_next(q, a);
        let next = self.attribute(q, n);
        self.tree.attributes[id].values = values;
        self.tree.attributes[id].next = next;
        Some(id)
    }

    fn record(&mut self, r: Option<u32>) -> Option<usize> {
        let r = r?;
        if let Some(&(_, id)) = self.records.iter().find(|&&(o, _)| o == r) {
            return Some(id);
        }
        let id = self.tree.records.len();
        self.records.push((r, id));
        self.tree.records.push(Record { next: None });
        let n = self.v.record_next(r);
        let next = self.record(n);
        self.tree.records[id].next = next;
        Some(id)
    }
}

/// Renders a name-tree from its root value: `{a1=v1#0{a2=(v1|*)} a2=v2}`, with `*` for the
/// wildcard, `#k` for record k, `(..|..)` for several values of one attribute; the root's own
/// name is left out.
pub fn render_tree(t: &AvTree) -> String {
    let mut s = String::new();
    match t.root {
        None => s.push_str("null"),
        Some(r) => {
            render_records(t, r, &mut s);
            render_attributes(t, t.values[r].attributes, 0, &mut s);
            if s.is_empty() {
                s.push_str("{}");
            }
        }
    }
    s
}

/// Renders a query from its first top-level attribute, `{}` for the empty query.
pub fn render_query(t: &AvTree, query: Option<usize>) -> String {
    let mut s = String::new();
    render_attributes(t, query, 0, &mut s);
    if s.is_empty() {
        s.push_str("{}");
    }
    s
}

fn render_records(t: &AvTree, v: usize, out: &mut String) {
    let mut r = t.values[v].record;
    let mut guard = 0;
    while let Some(id) = r {
        out.push_str(&format!("#{id}"));
        r = t.records[id].next;
        guard += 1;
        if guard > t.records.len() {
            break;
        }
    }
}

fn render_attributes(t: &AvTree, first: Option<usize>, depth: usize, out: &mut String) {
    if first.is_none() {
        return;
    }
    if depth > t.values.len() + t.attributes.len() {
        // A cycle (only in a faulty state): stop rather than recurse forever.
        out.push_str("{...}");
        return;
    }
    out.push('{');
    let mut a = first;
    let mut guard = 0;
    while let Some(ai) = a {
        if guard > 0 {
            out.push(' ');
        }
        out.push_str(&format!("a{}=", t.attributes[ai].name));
        let mut vi = t.attributes[ai].values;
        let several = vi.is_some_and(|x| t.values[x].next.is_some());
        if several {
            out.push('(');
        }
        let mut guard_v = 0;
        while let Some(x) = vi {
            if guard_v > 0 {
                out.push('|');
            }
            let value = &t.values[x];
            if value.name == WILDCARD {
                out.push('*');
            } else {
                out.push_str(&format!("v{}", value.name));
            }
            render_records(t, x, out);
            render_attributes(t, value.attributes, depth + 1, out);
            vi = value.next;
            guard_v += 1;
            if guard_v > t.values.len() {
                break;
            }
        }
        if several {
            out.push(')');
        }
        a = t.attributes[ai].next;
        guard += 1;
        if guard > t.attributes.len() {
            break;
        }
    }
    out.push('}');
}
