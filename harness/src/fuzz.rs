//! Arbitrary bytes for the readers of what a user hands the tool or a run leaves behind (issue
//! 57): none may panic, whatever the bytes, UTF-8 or not. [`no_panic`] feeds a reader 100,000
//! inputs: a valid file mutated (cut short, bytes changed, invalid UTF-8 put in, lines
//! duplicated, dropped or swapped, a number made extreme, a token of its syntax or a byte of
//! its own put in, a piece of another valid file spliced in; one to three of them), and one in
//! ten made of random bytes and tokens. The generator is seeded (ChaCha8, as the harness
//! samples with), so that a failure names the case that replays it.
//!
//! The readers: `--in-diff`'s parser (`in_diff.rs`), the journal `--resume` reads
//! (`evaluate/journal.rs`), and here a gate baseline, `evaluation.json` and `mutants.json`
//! through their artifact readers (`Artifact::from_bytes`: what `read`, and so
//! `ferastrau-report`'s `gate::baseline::read_baseline`, does with a file's bytes).
//! In-process, from the bytes on (a file per case spent more time on the disk than in the
//! readers), so that they fit CI's time.

use std::panic::{catch_unwind, AssertUnwindSafe};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The inputs each reader gets.
pub(crate) const CASES: usize = 100_000;

/// Byte sequences that are not UTF-8: a lone continuation byte, bytes never in UTF-8, a start
/// byte without its continuation, an overlong `/`, a surrogate, a code point past U+10FFFF.
const NOT_UTF8: &[&[u8]] = &[
    b"\x80",
    b"\xff",
    b"\xfe\xff",
    b"\xc3",
    b"\xe2\x82",
    b"\xc0\xaf",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
];

/// Numbers at and past the edges of the integer and float types readers parse.
const NUMBERS: &[&[u8]] = &[
    b"0",
    b"-1",
    b"4294967295",
    b"4294967296",
    b"18446744073709551615",
    b"18446744073709551616",
    b"99999999999999999999999999999",
    b"1e400",
    b"-0.0",
    b"NaN",
];

/// JSON's syntax, for the readers of JSON files and JSON lines (each adds its own keys).
pub(crate) const JSON: &[&[u8]] = &[
    b"{", b"}", b"[", b"]", b",", b":", b"\"", b"\\u0000", b"\\ud800", b"null", b"true", b"\n",
    b" ",
];

/// Inputs for a reader: mutations of `seeds` (valid files), with `tokens` of their syntax.
struct Inputs<'a> {
    rng: ChaCha8Rng,
    seeds: &'a [&'a [u8]],
    tokens: &'a [&'a [u8]],
}

impl Inputs<'_> {
    fn next(&mut self) -> Vec<u8> {
        if self.rng.random_ratio(1, 10) {
            return self.random();
        }
        let mut input = self.seeds[self.rng.random_range(0..self.seeds.len())].to_vec();
        for _ in 0..self.rng.random_range(1..=3) {
            self.mutate(&mut input);
        }
        input
    }

    /// Random bytes and tokens, up to 200 pieces.
    fn random(&mut self) -> Vec<u8> {
        let mut input = Vec::new();
        for _ in 0..self.rng.random_range(0..200) {
            match self.rng.random_range(0..3) {
                0 => input.push(self.rng.random()),
                1 => input.extend_from_slice(self.pick(self.tokens)),
                _ => input.extend_from_slice(self.pick(NOT_UTF8)),
            }
        }
        input
    }

    fn pick<'t>(&mut self, from: &[&'t [u8]]) -> &'t [u8] {
        from[self.rng.random_range(0..from.len())]
    }

    /// A position in `input` (its end included).
    fn at(&mut self, input: &[u8]) -> usize {
        self.rng.random_range(0..=input.len())
    }

    fn mutate(&mut self, input: &mut Vec<u8>) {
        match self.rng.random_range(0..10) {
            // Cut short.
            0 => input.truncate(self.at(input)),
            // Bytes changed.
            1 => {
                for _ in 0..self.rng.random_range(1..=4) {
                    if !input.is_empty() {
                        let i = self.rng.random_range(0..input.len());
                        input[i] = self.rng.random();
                    }
                }
            }
            // Invalid UTF-8 put in.
            2 => {
                let (i, bad) = (self.at(input), self.pick(NOT_UTF8));
                input.splice(i..i, bad.iter().copied());
            }
            // A token of the syntax put in.
            3 => {
                let (i, token) = (self.at(input), self.pick(self.tokens));
                input.splice(i..i, token.iter().copied());
            }
            // A byte of its own copied over another: the input keeps its alphabet (base64,
            // digits), so that decoding goes further.
            4 => {
                if !input.is_empty() {
                    let from = self.rng.random_range(0..input.len());
                    let to = self.rng.random_range(0..input.len());
                    input[to] = input[from];
                }
            }
            // A number made extreme.
            5 => {
                let start = self.at(input);
                if let Some(i) = input[start..].iter().position(u8::is_ascii_digit) {
                    let i = start + i;
                    let end = input[i..]
                        .iter()
                        .position(|b| !b.is_ascii_digit())
                        .map_or(input.len(), |e| i + e);
                    let number = self.pick(NUMBERS);
                    input.splice(i..end, number.iter().copied());
                }
            }
            // A piece of another valid input spliced in.
            6 => {
                let other = self.seeds[self.rng.random_range(0..self.seeds.len())];
                let a = self.rng.random_range(0..=other.len());
                let b = self.rng.random_range(a..=other.len().min(a + 200));
                let i = self.at(input);
                input.splice(i..i, other[a..b].iter().copied());
            }
            // A line duplicated, dropped or moved (found by offsets: no allocation per line).
            kind => {
                let line = self.line(input);
                let bytes: Vec<u8> = input[line.clone()].to_vec();
                match kind {
                    7 => {
                        let to = self.line(input).start;
                        input.splice(to..to, bytes);
                    }
                    8 => {
                        input.drain(line);
                    }
                    _ => {
                        input.drain(line);
                        let to = self.line(input).start;
                        input.splice(to..to, bytes);
                    }
                }
            }
        }
    }

    /// The byte range of a random line of `input`, its `\n` included.
    fn line(&mut self, input: &[u8]) -> std::ops::Range<usize> {
        let at = self.at(input);
        let start = input[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let end = input[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(input.len(), |i| at + i + 1);
        start..end
    }
}

/// Feeds `read` [`CASES`] inputs made from `seeds` and `tokens` (generator seeded with `seed`);
/// fails naming the case, and the input, that made it panic. A reader's result is its own
/// business: a refusal is as good as a reading.
pub(crate) fn no_panic(
    reader: &str,
    seed: u64,
    seeds: &[&[u8]],
    tokens: &[&[u8]],
    mut read: impl FnMut(&[u8]),
) {
    let mut inputs = Inputs {
        rng: ChaCha8Rng::seed_from_u64(seed),
        seeds,
        tokens,
    };
    for case in 0..CASES {
        let input = inputs.next();
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| read(&input))) {
            let message = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("?");
            panic!(
                "{reader}: case {case} (seed {seed}) panicked: {message}\ninput: {:?}",
                String::from_utf8_lossy(&input)
            );
        }
    }
}

mod tests {
    use super::*;
    use ferastrau_artifacts::GateBaseline as Baseline;
    use ferastrau_artifacts::{Artifact, Evaluation, Mutants};

    /// A committed report, every array in it cut to its first two elements (a small, valid
    /// file: a reader's time grows with its input), written back by its own writer.
    fn small<T: Artifact>(committed: &str) -> Vec<u8> {
        fn cut(v: &mut serde_json::Value) {
            match v {
                serde_json::Value::Array(a) => {
                    a.truncate(2);
                    a.iter_mut().for_each(cut);
                }
                serde_json::Value::Object(o) => o.values_mut().for_each(cut),
                _ => {}
            }
        }
        let mut value: serde_json::Value = serde_json::from_str(committed).unwrap();
        cut(&mut value);
        let doc: T = serde_json::from_value(value).unwrap();
        doc.to_text().unwrap().into_bytes()
    }

    /// JSON's syntax, and keys the report files hold.
    fn json_tokens() -> Vec<&'static [u8]> {
        [
            JSON,
            &[b"\"schema_version\": 99,".as_slice(), b"\"version\": 0,"],
        ]
        .concat()
    }

    #[test]
    fn fuzz_a_gate_baseline_never_panics_its_reader() {
        let committed = include_str!("../../reports/gate-baseline.json");
        let mut full: Baseline = serde_json::from_str(committed).unwrap();
        // One benchmark, a few of its mutants and their places.
        full.benchmarks.retain(|name, _| name == "sorted_list");
        for b in full.benchmarks.values_mut() {
            let few: Vec<String> = b.mutants.keys().take(3).cloned().collect();
            b.mutants.retain(|k, _| few.contains(k));
            b.places.retain(|k, _| few.contains(k));
            let first = b.regions.keys().next().cloned();
            b.regions.retain(|k, _| Some(k) == first.as_ref());
        }
        let seed = full.to_text().unwrap();
        let path = std::path::Path::new("gate-baseline.json");
        no_panic(
            "gate baseline",
            1,
            &[seed.as_bytes()],
            &json_tokens(),
            |bytes| {
                let _ = Baseline::from_bytes(bytes, path);
            },
        );
    }

    #[test]
    fn fuzz_evaluation_json_never_panics_its_reader() {
        let seeds = [
            small::<Evaluation>(include_str!("../../reports/disj_set/evaluation.json")),
            small::<Evaluation>(include_str!("../../reports/tree_map/evaluation.json")),
        ];
        let seeds: Vec<&[u8]> = seeds.iter().map(Vec::as_slice).collect();
        let path = std::path::Path::new("evaluation.json");
        no_panic("evaluation.json", 2, &seeds, &json_tokens(), |bytes| {
            let _ = Evaluation::from_bytes(bytes, path);
        });
    }

    #[test]
    fn fuzz_mutants_json_never_panics_its_reader() {
        let seeds = [small::<Mutants>(include_str!(
            "../../reports/disj_set/mutants.json"
        ))];
        let seeds: Vec<&[u8]> = seeds.iter().map(Vec::as_slice).collect();
        let path = std::path::Path::new("mutants.json");
        no_panic("mutants.json", 3, &seeds, &json_tokens(), |bytes| {
            let _ = Mutants::from_bytes(bytes, path);
        });
    }
}
