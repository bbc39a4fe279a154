//! Each `ded.` bench case (a structure search with dedicated generators) finds what its plain
//! case finds, from fewer candidates, on one thread and on two: the bench compares like with
//! like.

use ferastrau_speed::STRUCTURES;

#[test]
fn every_ded_case_finds_the_plain_structures_from_fewer_candidates() {
    let mut pairs = 0;
    for ded in STRUCTURES.iter().filter(|s| s.name.ends_with(" ded.")) {
        let plain_name = ded.name.trim_end_matches(" ded.");
        let plain = STRUCTURES
            .iter()
            .find(|s| s.name == plain_name)
            .unwrap_or_else(|| panic!("{} has no plain case", ded.name));
        let p = (plain.run)(1);
        for jobs in [1, 2] {
            let d = (ded.run)(jobs);
            assert_eq!(d.valid, p.valid, "{} on {jobs} threads", ded.name);
            assert!(d.explored < p.explored, "{}: {d:?} vs {p:?}", ded.name);
        }
        pairs += 1;
    }
    assert_eq!(pairs, 8, "a ded. case per benchmark with generators");
}
