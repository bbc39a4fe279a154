use super::*;
use crate::{Domain, FinitizationBuilder};

#[test]
fn fields_are_found_by_rust_or_camel_case_name_and_the_rest_are_extras() {
    let mut b = FinitizationBuilder::new("Root");
    let node = b.class("Node", 2);
    b.field(ROOT, "head", Domain::nullable(node));
    b.field(ROOT, "otherSize", Domain::ints(0, 2));
    b.field(ROOT, "x", Domain::ints(0, 2));
    b.field(node, "nextNode", Domain::nullable(node));
    let fin = b.build();
    assert_eq!(class(&fin, "Node"), node);
    assert_eq!(field(&fin, node, "next_node"), fin.field(node, "nextNode"));
    assert_eq!(
        field(&fin, ROOT, "other_size"),
        fin.field(ROOT, "otherSize")
    );
    let extras = Extras::of(&fin, &["head", "other_size"]);
    assert_eq!(extras.get("x"), Some(fin.field(ROOT, "x")));
    assert_eq!(extras.get("head"), None);
    assert_eq!(extras.get("otherSize"), None);
}

/// A root with an `int[]` field `xs` (length over `length`) and a `Node[]` field `nodes`
/// listing two nodes (elements over `element`), the array fields' domains `xs` and `nodes`.
fn with_arrays(xs: Domain, length: Domain, nodes: Domain, element: Domain) -> Finitization {
    let mut b = FinitizationBuilder::new("Root");
    let node = b.class("Node", 2);
    b.field(node, "v", Domain::ints(0, 1));
    let ints = b.array("int[]", 1, length, 2, &[("v", Domain::ints(0, 1))]);
    let listed = b.array("Node[]", 1, Domain::ints(2, 2), 2, &[("e", element)]);
    b.field(ROOT, "xs", xs.or(Domain::objects(ints)));
    b.field(ROOT, "nodes", nodes.or(Domain::objects(listed)));
    b.build()
}

#[test]
fn arrays_whose_domains_hold_no_null_are_read_as_objects() {
    let node = ClassId(1);
    let fin = with_arrays(
        Domain::default(),
        Domain::ints(0, 2),
        Domain::default(),
        Domain::objects(node),
    );
    assert_eq!(array(&fin, ROOT, "xs").max, 2);
    assert_eq!(listed(&fin, ROOT, "nodes").map(|a| a.max), Some(2));
    assert!(listed(&fin, ROOT, "absent").is_none());
    assert_eq!(non_null(Some(3)), 3);
}

/// A `Vec` cannot be null: a finitization that gives the array field null would have the
/// derived view read null as an object (and decode it as an empty `Vec`).
#[test]
#[should_panic(expected = "array field `xs` of class Root: the finitization's domain has null")]
fn an_array_field_whose_domain_has_null_is_refused() {
    let fin = with_arrays(
        Domain::null(),
        Domain::ints(0, 2),
        Domain::default(),
        Domain::objects(ClassId(1)),
    );
    array(&fin, ROOT, "xs");
}

#[test]
#[should_panic(expected = "gives its length negative integers")]
fn an_array_whose_length_can_be_negative_is_refused() {
    let fin = with_arrays(
        Domain::default(),
        Domain::ints(-1, 2),
        Domain::default(),
        Domain::objects(ClassId(1)),
    );
    array(&fin, ROOT, "xs");
}

#[test]
#[should_panic(expected = "lists the objects of an arena, never null")]
fn a_listed_arena_whose_elements_can_be_null_is_refused() {
    let fin = with_arrays(
        Domain::default(),
        Domain::ints(0, 2),
        Domain::default(),
        Domain::nullable(ClassId(1)),
    );
    listed(&fin, ROOT, "nodes");
}

#[test]
#[should_panic(expected = "has no field \"missing\"")]
fn a_missing_field_names_the_known_ones() {
    let fin = FinitizationBuilder::new("Root").build();
    field(&fin, ROOT, "missing");
}

/// A names field reads each object as `first` plus its position over the listed classes,
/// and isomorphism renames names: of two names, the second is the wildcard, the first
/// name or (after a name) the next one.
#[test]
fn names_number_the_objects_of_their_classes_in_order() {
    let mut b = FinitizationBuilder::new("Root");
    let wild = b.class("Wildcard", 1);
    let name = b.class("Name", 3);
    for f in ["a", "b"] {
        b.field(ROOT, f, Domain::objects(wild).or(Domain::objects(name)));
    }
    let fin = b.build();
    let a = Names::of(&fin, ROOT, "a", 0, &["Wildcard", "Name"]);
    let b = Names::of(&fin, ROOT, "b", 0, &["Wildcard", "Name"]);
    let mut read = Vec::new();
    crate::search(
        &fin,
        |c| {
            read.push((a.read(c, 0), b.read(c, 0)));
            true
        },
        |_| std::ops::ControlFlow::Continue(()),
    );
    read.sort_unstable();
    assert_eq!(read, [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)]);
}

#[test]
#[should_panic(expected = "names read objects of [\"Name\"] only")]
fn names_over_a_domain_with_integers_are_refused() {
    let mut b = FinitizationBuilder::new("Root");
    let name = b.class("Name", 2);
    b.field(ROOT, "n", Domain::objects(name).or(Domain::ints(0, 1)));
    let fin = b.build();
    Names::of(&fin, ROOT, "n", 1, &["Name"]);
}

#[test]
#[should_panic(expected = "no class \"Node\"")]
fn a_missing_class_names_the_known_ones() {
    let fin = FinitizationBuilder::new("Root").build();
    class(&fin, "Node");
}
