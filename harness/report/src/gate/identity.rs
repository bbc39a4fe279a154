//! Which mutant of a run is which mutant of the baseline, through the change between the two
//! sources.
//!
//! A mutant's key ([`ferastrau_mutator::keys`]) ranks it among the identical edits of its
//! function, so an edit that adds one more identical edit above it (an early return, a copied
//! line) renames every mutant after it: compared by key, a harmless pull request would show
//! "killed in the baseline, survives now" for a different mutant. So the baseline keeps, for
//! each mutated function, the lines from its first mutant to its last (its *region*) and each
//! mutant's place, and a run's mutants are matched to it this way:
//!
//! - the two versions of a function's region (same file, same function name) are diffed line
//!   by line (indentation ignored);
//! - a baseline mutant whose line is unchanged is the run's mutant of the same edit (function,
//!   family, original and replacement text) at the same place on that line, wherever the line
//!   moved: lines added above or around it, functions reordered, identical edits added
//!   elsewhere in the function;
//! - a baseline mutant on a line the change edited or removed has no counterpart: the run's
//!   mutants there are new (compared with nothing, listed as new);
//! - a baseline function whose region the run does not have at the same file and name is
//!   looked for among the run's regions the baseline does not have: the same function name in
//!   another file (a moved function, a renamed file), else the region whose lines are most
//!   alike, at least half of them the same (a renamed function); its mutants then follow
//!   their lines as above. Without either it is gone: its mutants have no counterpart.

use std::collections::BTreeMap;

use ferastrau_artifacts::{BenchmarkBaseline, MutantPlace, Region};

/// A mutant's key without its occurrence: function, family, original and replacement.
fn stem(key: &str) -> &str {
    key.rsplit_once(" #").map_or(key, |(stem, _)| stem)
}

fn region_id(file: &str, function: &str) -> String {
    format!("{file} {function}")
}

/// Each region id of `places` → its (file, function).
fn owners(places: &BTreeMap<String, MutantPlace>) -> BTreeMap<String, (&str, &str)> {
    places
        .values()
        .map(|p| {
            (
                region_id(&p.file, &p.function),
                (p.file.as_str(), p.function.as_str()),
            )
        })
        .collect()
}

/// The run's region for each baseline region: the same id, or, for a baseline region the run
/// does not have, one of the run's regions the baseline does not have (see the module's rule:
/// the same function in another file, else the most alike lines, at least half the same).
fn counterparts<'a, 'o>(
    base: &'a BTreeMap<String, Region>,
    base_owners: &BTreeMap<String, (&'o str, &'o str)>,
    run: &'a BTreeMap<String, Region>,
    run_owners: &BTreeMap<String, (&'o str, &'o str)>,
) -> BTreeMap<&'a str, &'a str> {
    let mut out: BTreeMap<&str, &str> = BTreeMap::new();
    let mut free: Vec<&str> = run
        .keys()
        .filter(|id| !base.contains_key(*id))
        .map(String::as_str)
        .collect();
    let mut vanished = Vec::new();
    for id in base.keys() {
        if run.contains_key(id) {
            out.insert(id, id);
        } else {
            vanished.push(id.as_str());
        }
    }
    let function =
        |owners: &BTreeMap<String, (&'o str, &'o str)>, id: &str| owners.get(id).map(|&(_, f)| f);
    // Moved: the same function name, in another file.
    vanished.retain(|&id| {
        let name = function(base_owners, id);
        match free
            .iter()
            .position(|f| name.is_some() && function(run_owners, f) == name)
        {
            Some(i) => {
                out.insert(id, free.remove(i));
                false
            }
            None => true,
        }
    });
    // Renamed: the most alike lines, at least half of them the same.
    for id in vanished {
        let a = trimmed(&base[id]);
        let best = free
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let b = trimmed(&run[*f]);
                (similar::TextDiff::from_slices(&a, &b).ratio(), i)
            })
            .filter(|(ratio, _)| *ratio >= 0.5)
            .max_by(|x, y| x.0.total_cmp(&y.0).then(y.1.cmp(&x.1)));
        if let Some((_, i)) = best {
            out.insert(id, free.remove(i));
        }
    }
    out
}

/// A call mutant's edit (` call: contains -> remove`) with the functions the change renamed
/// under their new names (` call: contains -> delete`): the same edit of the same call.
/// Other families' edits are kept as they are.
fn renamed_calls(rest: &str, names: &BTreeMap<String, String>) -> String {
    match rest.strip_prefix(" call: ") {
        Some(edit) if !names.is_empty() => {
            let words: Vec<&str> = edit
                .split(' ')
                .map(|w| names.get(w).map_or(w, String::as_str))
                .collect();
            format!(" call: {}", words.join(" "))
        }
        _ => rest.to_string(),
    }
}

/// A region's lines without their indentation (which the matching ignores).
fn trimmed(region: &Region) -> Vec<&str> {
    region.lines.iter().map(|l| l.trim()).collect()
}

/// The leading whitespace of a line, in columns (characters).
fn indent(line: &str) -> usize {
    line.chars().take_while(|c| c.is_whitespace()).count()
}

/// The regions of the mutated functions of a run: for each (file, function), the lines from
/// its first mutant's to its last's, out of `sources` (file → text).
pub fn regions(
    places: &BTreeMap<String, MutantPlace>,
    sources: &BTreeMap<String, String>,
) -> BTreeMap<String, Region> {
    let mut spans: BTreeMap<String, (String, u32, u32)> = BTreeMap::new();
    for p in places.values() {
        let e = spans.entry(region_id(&p.file, &p.function)).or_insert((
            p.file.clone(),
            p.line,
            p.line,
        ));
        e.1 = e.1.min(p.line);
        e.2 = e.2.max(p.end_line.max(p.line));
    }
    spans
        .into_iter()
        .filter_map(|(id, (file, first, last))| {
            let text = sources.get(&file)?;
            let lines: Vec<String> = text
                .lines()
                .skip(first as usize - 1)
                .take((last - first + 1) as usize)
                .map(str::to_string)
                .collect();
            Some((id, Region { first, lines }))
        })
        .collect()
}

/// What matching found: each baseline key's key in the run, the baseline's mutants whose
/// lines the change edited (no counterpart, by design), and those whose function the run does
/// not have at all.
#[derive(Debug, Default, PartialEq)]
pub struct Matching {
    /// Baseline key → run key.
    pub renamed: BTreeMap<String, String>,
    /// Baseline keys of the run's functions with no counterpart: on lines the change edited
    /// or removed, or no longer generated there.
    pub edited: Vec<String>,
    /// Baseline keys whose function has no counterpart in the run (deleted, renamed beyond
    /// recognition, no longer mutated; or, in a run of some functions, not selected), by the
    /// baseline's function name.
    pub unmatched: BTreeMap<String, Vec<String>>,
}

/// Matches the baseline's mutants (`base_places`, `base_regions`) to the run's (`places`,
/// `regions`); see the module's rule.
pub fn matching(
    base_places: &BTreeMap<String, MutantPlace>,
    base_regions: &BTreeMap<String, Region>,
    places: &BTreeMap<String, MutantPlace>,
    regions: &BTreeMap<String, Region>,
) -> Matching {
    // The run's mutants by what identifies them once a line is placed.
    let mut at: BTreeMap<(&str, &str, u32, u32, &str), Vec<&str>> = BTreeMap::new();
    for (key, p) in places {
        at.entry((&p.file, &p.function, p.line, p.column, stem(key)))
            .or_default()
            .push(key.as_str());
    }
    let (base_owners, run_owners) = (owners(base_places), owners(places));
    let pairs = counterparts(base_regions, &base_owners, regions, &run_owners);
    // Per region: baseline line → run line, for the lines the change left alone.
    let mut moved: BTreeMap<&str, BTreeMap<u32, (u32, usize, usize)>> = BTreeMap::new();
    for (id, old) in base_regions {
        let Some(new) = pairs.get(id.as_str()).and_then(|run| regions.get(*run)) else {
            continue;
        };
        let (a, b) = (trimmed(old), trimmed(new));
        let mut map = BTreeMap::new();
        for op in similar::capture_diff_slices(similar::Algorithm::Myers, &a, &b) {
            if let similar::DiffOp::Equal {
                old_index,
                new_index,
                len,
            } = op
            {
                for k in 0..len {
                    let (i, j) = (old_index + k, new_index + k);
                    map.insert(
                        old.first + i as u32,
                        (
                            new.first + j as u32,
                            indent(&old.lines[i]),
                            indent(&new.lines[j]),
                        ),
                    );
                }
            }
        }
        moved.insert(id.as_str(), map);
    }
    // The functions the change renamed, by their own names (`remove` → `delete`): a call
    // mutant's replacement names them.
    let short = |f: &str| f.rsplit("::").next().unwrap_or(f).to_string();
    let names: BTreeMap<String, String> = pairs
        .iter()
        .filter_map(|(b, r)| {
            let (then, now) = (base_owners.get(*b)?.1, run_owners.get(*r)?.1);
            (short(then) != short(now)).then(|| (short(then), short(now)))
        })
        .collect();
    let mut out = Matching::default();
    for (key, p) in base_places {
        let id = region_id(&p.file, &p.function);
        // Where the function is in the run (its file and name there), and its mutants' stem
        // under that name.
        let run_region = pairs.get(id.as_str()).copied();
        let (file, function) = run_region
            .and_then(|r| run_owners.get(r).copied())
            .unwrap_or((p.file.as_str(), p.function.as_str()));
        let stem_now = match stem(key).strip_prefix(p.function.as_str()) {
            Some(rest) => format!("{function}{}", renamed_calls(rest, &names)),
            None => stem(key).to_string(),
        };
        let found = moved
            .get(id.as_str())
            .and_then(|map| map.get(&p.line))
            .and_then(|&(line, old_indent, new_indent)| {
                let column = (p.column as usize + new_indent).checked_sub(old_indent)? as u32;
                let same = at.get(&(file, function, line, column, stem_now.as_str()))?;
                // Two mutants at one place with one edit (a macro's expansion): only the
                // key tells them apart.
                match same.as_slice() {
                    [one] => Some(*one),
                    many => many.iter().copied().find(|k| k == key),
                }
            });
        match found {
            Some(k) => {
                out.renamed.insert(key.clone(), k.to_string());
            }
            None if run_region.is_some() => out.edited.push(key.clone()),
            // Whether that is a function gone or one a run of some functions left out is
            // the caller's to say.
            None => out
                .unmatched
                .entry(p.function.clone())
                .or_default()
                .push(key.clone()),
        }
    }
    out
}

/// `base` with its mutants under the run's keys (`now` holds the run's places and regions),
/// and what matching found for the rest ([`Matching::edited`], [`Matching::unmatched`]). A
/// baseline without places (none were evaluated) is taken as it is.
pub fn translate(
    base: &BenchmarkBaseline,
    now: &BenchmarkBaseline,
) -> (BenchmarkBaseline, Matching) {
    if base.places.is_empty() {
        return (base.clone(), Matching::default());
    }
    let m = matching(&base.places, &base.regions, &now.places, &now.regions);
    let mut out = BenchmarkBaseline {
        scopes: base.scopes.clone(),
        ..BenchmarkBaseline::default()
    };
    for (key, killed) in &base.mutants {
        if let Some(new) = m.renamed.get(key) {
            out.mutants.insert(new.clone(), killed.clone());
            if let Some(p) = now.places.get(new) {
                out.places.insert(new.clone(), p.clone());
            }
        }
    }
    out.regions = now.regions.clone();
    (out, m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(function: &str, line: u32, column: u32) -> MutantPlace {
        MutantPlace {
            file: "src/lib.rs".into(),
            function: function.into(),
            line,
            end_line: line,
            column,
        }
    }

    /// A function's source and its `x + 1` mutants (one per line holding one).
    fn run(
        source: &str,
        function: &str,
    ) -> (BTreeMap<String, MutantPlace>, BTreeMap<String, Region>) {
        let mut places = BTreeMap::new();
        let mut n = 0;
        for (i, l) in source.lines().enumerate() {
            if let Some(c) = l.find("+ 1") {
                places.insert(
                    format!("{function} operator: + -> - #{n}"),
                    place(function, i as u32 + 1, c as u32 + 1),
                );
                n += 1;
            }
        }
        let sources = BTreeMap::from([("src/lib.rs".to_string(), source.to_string())]);
        let regions = regions(&places, &sources);
        (places, regions)
    }

    #[test]
    fn an_identical_edit_added_above_renames_nothing() {
        let before = "fn f(x: i32) -> i32 {\n    let a = x + 1;\n    let b = a + 1;\n    b\n}\n";
        let after = "// moved\n\nfn f(x: i32) -> i32 {\n    if x < 0 { return x + 1; }\n    let a = x + 1;\n    let b = a + 1;\n    b\n}\n";
        let (bp, br) = run(before, "f");
        let (p, r) = run(after, "f");
        let m = matching(&bp, &br, &p, &r);
        // The baseline's #0 (`x + 1` on `let a`) is now #1, its #1 now #2; the early
        // return's `x + 1` (#0 now) is new.
        assert_eq!(m.renamed["f operator: + -> - #0"], "f operator: + -> - #1");
        assert_eq!(m.renamed["f operator: + -> - #1"], "f operator: + -> - #2");
        assert!(m.edited.is_empty());
    }

    #[test]
    fn two_mutants_with_one_place_and_edit_are_told_apart_by_key() {
        let before = "fn f(x: i32) -> i32 {\n    m!(x + 1)\n}\n";
        let after = "// above\nfn f(x: i32) -> i32 {\n    m!(x + 1)\n}\n";
        let twice = |src: &str, line: u32| {
            let places: BTreeMap<String, MutantPlace> = (0..2)
                .map(|n| (format!("f operator: + -> - #{n}"), place("f", line, 10)))
                .collect();
            let sources = BTreeMap::from([("src/lib.rs".to_string(), src.to_string())]);
            let r = regions(&places, &sources);
            (places, r)
        };
        let (bp, br) = twice(before, 2);
        let (p, r) = twice(after, 3);
        let m = matching(&bp, &br, &p, &r);
        assert_eq!(m.renamed["f operator: + -> - #0"], "f operator: + -> - #0");
        assert_eq!(m.renamed["f operator: + -> - #1"], "f operator: + -> - #1");
    }

    #[test]
    fn a_mutant_on_an_edited_line_has_no_counterpart_and_reindenting_keeps_the_rest() {
        let before = "fn f(x: i32) -> i32 {\n    let a = x + 1;\n    let b = a + 1;\n    b\n}\n";
        let after = "fn f(x: i32) -> i32 {\n    {\n        let a = x + 1;\n    }\n    let b = x + 2 + 1;\n    b\n}\n";
        let (bp, br) = run(before, "f");
        let (p, r) = run(after, "f");
        let m = matching(&bp, &br, &p, &r);
        assert_eq!(m.renamed["f operator: + -> - #0"], "f operator: + -> - #0");
        assert_eq!(m.edited, ["f operator: + -> - #1"]);
    }

    /// The places of `src`'s `+ 1` mutants, one per function (`fn f`, `fn g`, ...).
    fn one_per_function(src: &str) -> (BTreeMap<String, MutantPlace>, BTreeMap<String, Region>) {
        let mut places = BTreeMap::new();
        let mut function = "";
        for (i, l) in src.lines().enumerate() {
            if let Some(rest) = l.strip_prefix("fn ") {
                function = &rest[..1];
            }
            if let Some(c) = l.find("+ 1") {
                places.insert(
                    format!("{function} operator: + -> - #0"),
                    place(function, i as u32 + 1, c as u32 + 1),
                );
            }
        }
        let sources = BTreeMap::from([("src/lib.rs".to_string(), src.to_string())]);
        let regions = regions(&places, &sources);
        (places, regions)
    }

    #[test]
    fn functions_reordered_keep_their_mutants() {
        let before = "fn f(x: i32) -> i32 {\n    x + 1\n}\nfn g(x: i32) -> i32 {\n    x + 1\n}\n";
        let after = "fn g(x: i32) -> i32 {\n    x + 1\n}\n\nfn f(x: i32) -> i32 {\n    x + 1\n}\n";
        let (bp, br) = one_per_function(before);
        let (p, r) = one_per_function(after);
        assert_ne!(
            bp["f operator: + -> - #0"].line,
            p["f operator: + -> - #0"].line
        );
        let m = matching(&bp, &br, &p, &r);
        assert_eq!(m.renamed.len(), 2, "{m:?}");
        assert_eq!(m.renamed["f operator: + -> - #0"], "f operator: + -> - #0");
        assert!(m.edited.is_empty());
    }

    /// `run`'s places and regions, the file renamed (`src/lib.rs` → `to`) and each function
    /// name mapped through `rename`.
    fn moved_to(
        (places, regions): (BTreeMap<String, MutantPlace>, BTreeMap<String, Region>),
        to: &str,
        rename: (&str, &str),
    ) -> (BTreeMap<String, MutantPlace>, BTreeMap<String, Region>) {
        let name = |f: &str| {
            if f == rename.0 {
                rename.1.to_string()
            } else {
                f.to_string()
            }
        };
        let places: BTreeMap<String, MutantPlace> = places
            .into_iter()
            .map(|(k, p)| {
                let function = name(&p.function);
                let key = k.replacen(&p.function, &function, 1);
                (
                    key,
                    MutantPlace {
                        file: to.into(),
                        function,
                        ..p
                    },
                )
            })
            .collect();
        let regions = regions
            .into_iter()
            .map(|(id, r)| {
                let function = name(id.split_once(' ').unwrap().1);
                (region_id(to, &function), r)
            })
            .collect();
        (places, regions)
    }

    /// A file renamed (`git mv`), a function moved to another file, a function renamed: the
    /// baseline's mutants follow their lines there, as they do within a file.
    #[test]
    fn mutants_follow_a_renamed_file_a_moved_function_and_a_renamed_one() {
        let before = "fn f(x: i32) -> i32 {\n    x + 1\n}\nfn g(x: i32) -> i32 {\n    let y = x * 2;\n    y + 1\n}\n";
        let (bp, br) = one_per_function(before);
        // The file renamed, nothing else.
        let (p, r) = moved_to(one_per_function(before), "src/set.rs", ("", ""));
        let m = matching(&bp, &br, &p, &r);
        assert_eq!(m.renamed.len(), 2, "{m:?}");
        assert_eq!(m.renamed["g operator: + -> - #0"], "g operator: + -> - #0");
        assert!(m.edited.is_empty());
        // `g` renamed `h` in the renamed file: found by its lines, under its new name.
        let (p, r) = moved_to(one_per_function(before), "src/set.rs", ("g", "h"));
        let m = matching(&bp, &br, &p, &r);
        assert_eq!(m.renamed["g operator: + -> - #0"], "h operator: + -> - #0");
        assert_eq!(m.renamed["f operator: + -> - #0"], "f operator: + -> - #0");
        // A function gone, and a new one with nothing in common: no counterpart.
        let after = "fn f(x: i32) -> i32 {\n    x + 1\n}\nfn k(x: i32) -> i32 {\n    if x > 3 { return 0; }\n    x * x + 1\n}\n";
        let (p, r) = one_per_function(after);
        let m = matching(&bp, &br, &p, &r);
        assert_eq!(m.renamed.len(), 1, "{m:?}");
        assert!(!m.renamed.contains_key("g operator: + -> - #0"));
        assert_eq!(
            m.unmatched,
            BTreeMap::from([("g".to_string(), vec!["g operator: + -> - #0".to_string()])]),
            "named by the baseline's function"
        );
        assert!(m.edited.is_empty());
    }
}
