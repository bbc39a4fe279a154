//! The paper's running example as a fixture: SearchTree's catalog (before compile-pruning,
//! which `harness/tests/metamutant.rs` covers together with running the mutants).

use std::path::Path;

use ferastrau_mutator::{discover, Family};

#[test]
fn search_tree_has_the_papers_mutants() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../benchmarks/search_tree");
    let c = discover(&dir).unwrap();
    assert!(c.mutants.len() >= 200, "{} mutants", c.mutants.len());
    for f in Family::ALL {
        assert!(c.mutants.iter().any(|m| m.family == f), "{f:?} present");
    }
    // Sec. 8.3: `temp = left/*temp*/.right` inside remove_node's loop.
    let source = std::fs::read_to_string(dir.join("src/tree.rs")).unwrap();
    let paper = c.mutants.iter().find(|m| {
        m.function == "SearchTree::remove_node"
            && (m.original.as_str(), m.replacement.as_str()) == ("temp", "left")
            && source.lines().nth(m.line - 1).map(str::trim)
                == Some("temp = self.node(temp).right;")
    });
    let paper = paper.expect("the paper's mutant");
    let diff = ferastrau_mutator::diff(&dir, paper).unwrap();
    assert!(
        diff.contains("+            temp = self.node(left/*temp*/).right;"),
        "{diff}"
    );
    // Nothing from the specification or test code.
    assert!(c.mutants.iter().all(|m| m.file == "src/tree.rs"));
}
