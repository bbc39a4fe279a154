//! Counts `lookup` inputs under alternative finitizations, next to the paper's.
//!
//! `cargo run --release -p av_tree --example variants [max_scope]` prints the curated variants
//! of the README; `... --example variants sweep` searches the whole grid of [`Config`]s for
//! one that gives the paper's counts (scope by scope, keeping the matches; integer names and
//! a query given by its top-level attributes unless `NAME_OBJECTS` / `QUERY_ROOT_VALUE` are
//! set in the environment); `... --example variants fixed` searches the families whose name
//! domains are constants independent of the scope (`fixed_domains/mod.rs`).

use std::ops::ControlFlow;

use config::{finitization, rep_ok, CandidateAv, Config, Records, RootName, Siblings};
use ferastrau_sdk::korat;

mod config;
mod fixed_domains;

const PAPER: [u64; 5] = [2, 86, 1702, 27734, 417878];

fn count(cfg: Config, n: u32) -> korat::Stats {
    let (fin, f) = finitization("AVTree_lookup", n, cfg);
    korat::search(
        &fin,
        |c| rep_ok(&mut CandidateAv { c, f: &f }, &cfg),
        |_| ControlFlow::Continue(()),
    )
}

fn grid() -> Vec<Config> {
    let mut out = Vec::new();
    let base = Config::CHOSEN;
    let objects = std::env::var("NAME_OBJECTS").is_ok();
    for (shared_pools, disjoint) in [(true, true), (true, false), (false, true)] {
        for siblings in [Siblings::Sorted, Siblings::Distinct, Siblings::Free] {
            let name_objects = objects;
            if objects && siblings == Siblings::Sorted {
                continue;
            }
            let query_root_value = std::env::var("QUERY_ROOT_VALUE").is_ok();
            for tree_wildcards in [false, true] {
                for query_wildcards in [false, true] {
                    for root_name in [RootName::Fixed, RootName::Free] {
                        for extra_values in [0, 1, 2] {
                            for extra_attributes in [-1, 0, 1] {
                                for extra_value_names in [-1, 0, 1] {
                                    for extra_attribute_names in [-1, 0, 1] {
                                        let cfg = Config {
                                            shared_pools,
                                            disjoint,
                                            siblings,
                                            tree_wildcards,
                                            query_wildcards,
                                            root_name,
                                            extra_values,
                                            extra_attributes,
                                            extra_value_names,
                                            extra_attribute_names,
                                            records: Records::Absent,
                                            name_objects,
                                            query_root_value,
                                            ..base
                                        };
                                        out.push(cfg);
                                        for records in [Records::OnePerValue, Records::Lists] {
                                            for leaf_records in [false, true] {
                                                for root_records in [false, true] {
                                                    for query_records_null in [false, true] {
                                                        for extra_records in [-1, 0, 1] {
                                                            out.push(Config {
                                                                records,
                                                                leaf_records,
                                                                root_records,
                                                                query_records_null,
                                                                extra_records,
                                                                ..cfg
                                                            });
                                                        }
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

fn main() {
    let arg = std::env::args().nth(1);
    if arg.as_deref() == Some("fixed") {
        fixed_domains::sweep();
        return;
    }
    if arg.as_deref() == Some("sweep") {
        let mut alive = grid();
        println!("{} finitizations", alive.len());
        for n in 1..=5u32 {
            let want = PAPER[n as usize - 1];
            let mut near: Vec<(u64, String)> = Vec::new();
            alive.retain(|&cfg| {
                let got = count(cfg, n).valid;
                if got.abs_diff(want) * 10 <= want {
                    near.push((got, cfg.label()));
                }
                got == want
            });
            near.sort();
            near.dedup();
            println!(
                "scope {n}: {} give {want}; within 10%: {near:?}",
                alive.len()
            );
            if alive.is_empty() {
                break;
            }
            if n == 2 {
                let mut at3: Vec<(u64, String)> = alive
                    .iter()
                    .map(|&c| (count(c, 3).valid, c.label()))
                    .collect();
                at3.sort();
                println!("  their scope-3 counts: {at3:?}");
                return;
            }
            for cfg in alive.iter().take(20) {
                println!("  {}", cfg.label());
            }
        }
        return;
    }
    let max: u32 = arg.and_then(|a| a.parse().ok()).unwrap_or(3);
    println!("paper: {PAPER:?}");
    let filter = std::env::args().nth(2).unwrap_or_default();
    for cfg in curated()
        .into_iter()
        .filter(|c| c.label().contains(&filter))
    {
        let mut line = String::new();
        // Separate pools double the objects: their scope 3 takes many minutes.
        let top = if cfg.shared_pools { max } else { max.min(2) };
        for n in 1..=top {
            let s = count(cfg, n);
            line += &format!(" {} ({} explored, {:.1}s)", s.valid, s.explored, s.seconds);
            if s.seconds > 60.0 {
                break;
            }
        }
        println!("{line}   {}", cfg.label());
    }
}

/// The variants the README tabulates.
fn curated() -> Vec<Config> {
    let c = Config::CHOSEN;
    let ints = Config {
        name_objects: false,
        ..c
    };
    vec![
        c,
        Config {
            tree_wildcards: false,
            ..c
        },
        Config {
            leaf_records: true,
            ..c
        },
        Config {
            siblings: Siblings::Free,
            ..c
        },
        Config {
            records: Records::Lists,
            ..c
        },
        Config {
            query_root_value: true,
            extra_values: 1,
            ..c
        },
        Config {
            disjoint: false,
            ..c
        },
        Config {
            shared_pools: false,
            ..c
        },
        ints,
        Config {
            siblings: Siblings::Sorted,
            ..ints
        },
        Config {
            siblings: Siblings::Sorted,
            tree_wildcards: false,
            ..ints
        },
        Config {
            siblings: Siblings::Sorted,
            leaf_records: true,
            ..ints
        },
    ]
}
