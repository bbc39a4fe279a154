//! Korat's side: the finitization (`finDisjSet(n)` with the method's arguments beside the
//! receiver), the candidate view, decoding a valid candidate, and rendering.

use ferastrau_sdk::korat::{
    Candidate, ClassId, Domain, FieldId, Finitization, FinitizationBuilder, ROOT,
};

use crate::disj_set::{DisjSet, Record};
use crate::invariant::SetView;

/// Field ids of a disjoint-set finitization.
pub struct Fields {
    pub elements: FieldId,
    pub size: FieldId,
    pub length: FieldId,
    /// `e[k]`: slot `k` of the array.
    pub slot: Vec<FieldId>,
    pub parent: FieldId,
    pub rank: FieldId,
    /// The method's arguments (`a`, `b` of `union`; `a` of `find`); none for the structure.
    pub args: Vec<FieldId>,
}

/// `finDisjSet(n)`: a pool of `n` records (no null) and one record array of length 0..n whose
/// slots point into the pool; `size` 0..n; each record's `parent` and `rank` over 0..n−1.
/// With `args` > 0 the root also holds that many arguments (`a`, then `b`) over 0..n−1, so
/// receiver and arguments are generated jointly; the precondition never reads them.
/// Slots: root (`elements`, `size`, arguments), then each record (`parent`, `rank`), then the
/// array (`length`, `e[0..n]`), in the order the original declares its class domains.
pub fn finitization(root_name: &str, n: u32, args: usize) -> (Finitization, Fields) {
    assert!(n >= 1, "DisjSet scopes start at 1");
    assert!(args <= 2, "union takes two arguments, find one");
    let n64 = i64::from(n);
    let mut b = FinitizationBuilder::new(root_name);
    let record = b.class("Record", n);
    let array = b.array(
        "Record[]",
        1,
        Domain::ints(0, n64),
        n,
        &[("e", Domain::objects(record))],
    );
    b.field(ROOT, "elements", Domain::objects(array));
    b.field(ROOT, "size", Domain::ints(0, n64));
    let names = ["a", "b"];
    for name in &names[..args] {
        b.field(ROOT, name, Domain::ints(0, n64 - 1));
    }
    b.field(record, "parent", Domain::ints(0, n64 - 1));
    b.field(record, "rank", Domain::ints(0, n64 - 1));
    let fin = b.build();
    let fields = fields(&fin, record, array, n, &names[..args]);
    (fin, fields)
}

fn fields(fin: &Finitization, record: ClassId, array: ClassId, n: u32, args: &[&str]) -> Fields {
    Fields {
        elements: fin.field(ROOT, "elements"),
        size: fin.field(ROOT, "size"),
        length: fin.field(array, "length"),
        slot: (0..n).map(|k| fin.element(array, k, 0)).collect(),
        parent: fin.field(record, "parent"),
        rank: fin.field(record, "rank"),
        args: args.iter().map(|a| fin.field(ROOT, a)).collect(),
    }
}

/// A candidate seen as a disjoint set; every first read of a field is recorded by Korat.
pub struct CandidateSet<'c, 'a> {
    pub c: &'c mut Candidate<'a>,
    pub f: &'c Fields,
}

impl CandidateSet<'_, '_> {
    /// The array (the only one in the pool; `elements` is never null).
    fn array(&mut self) -> u32 {
        self.c
            .obj(self.f.elements, 0)
            .expect("elements is never null")
    }
}

impl SetView for CandidateSet<'_, '_> {
    fn length(&mut self) -> i64 {
        let a = self.array();
        self.c.int(self.f.length, a)
    }
    fn size(&mut self) -> i64 {
        self.c.int(self.f.size, 0)
    }
    fn element(&mut self, i: u32) -> u32 {
        let a = self.array();
        self.c
            .obj(self.f.slot[i as usize], a)
            .expect("array slots are never null")
    }
    fn parent(&mut self, rec: u32) -> i64 {
        self.c.int(self.f.parent, rec)
    }
    fn rank(&mut self, rec: u32) -> i64 {
        self.c.int(self.f.rank, rec)
    }
}

/// Builds the real disjoint set of a valid candidate: slot `i` becomes `elements[i]`.
pub fn decode_set(c: &mut Candidate<'_>, f: &Fields) -> DisjSet {
    let mut v = CandidateSet { c, f };
    let size = v.size();
    let length = v.length();
    let mut elements = Vec::new();
    for i in 0..length {
        let rec = v.element(i as u32);
        elements.push(Record {
            parent: v.parent(rec),
            rank: v.rank(rec),
        });
    }
    DisjSet { elements, size }
}

/// Renders parents and ranks by index, `p=[0, 0] r=[1, 0]` (`p=[] r=[]` when empty).
pub fn render_set(s: &DisjSet) -> String {
    let parents: Vec<i64> = s.elements.iter().map(|r| r.parent).collect();
    let ranks: Vec<i64> = s.elements.iter().map(|r| r.rank).collect();
    format!("p={parents:?} r={ranks:?}")
}
