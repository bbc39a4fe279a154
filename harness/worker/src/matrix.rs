//! The worker's side of the kill matrix: one mutant against the original on every input a
//! request names, with no first-kill stop, reporting which inputs kill it and why.
//!
//! Inputs are judged exactly as the first-kill run judges them ([`trial`]). Results leave in
//! [`Message::MatrixChunk`]s of at most [`CHUNK`] inputs, so that when the mutant kills the
//! process (a crash, the memory limit, the clock watchdog) the harness knows every input
//! before the last chunk and can restart a child after the input the cursor names.

use std::path::Path;

use roaring::RoaringBitmap;

use crate::channel::send;
use crate::cursor;
use crate::evaluate::{selection, trial, Judging, Stops};
use crate::protocol::{KillRun, Message, Span};
use crate::store::{inputs_path, times_path, StateReader, TimesReader};
use ferastrau_sdk::Benchmark;

/// Inputs per chunk: small enough that a dead process loses little work to re-run, large
/// enough that messages cost nothing beside the calls.
pub const CHUNK: u64 = 4096;

/// `matrix`: runs `mutant` on the inputs of `scope` that `spans` name, in order; with
/// `reach`, only those that reach its point (the chunks still cover every input of the spans:
/// the others are known not to kill). Returns `false` when it stopped early after a
/// [`Message::Recycle`] (abandoned calls leaked too much: a fresh process takes the rest).
#[allow(clippy::too_many_arguments)]
pub fn matrix<B: Benchmark>(
    bench: &B,
    mutant: u32,
    scope: u32,
    spans: &[Span],
    dir: &Path,
    cursor_file: &Path,
    judging: Judging,
    reach: bool,
) -> std::io::Result<bool> {
    cursor::open(cursor_file)?;
    cursor::set(cursor::SCOPE, scope);
    let stops = Stops::start()?;
    // Per method: the reaching inputs, or `None` for every input.
    let selections: Vec<Option<RoaringBitmap>> = (0..bench.methods().len())
        .map(|m| selection(dir, scope, m, mutant, reach))
        .collect::<std::io::Result<_>>()?;
    for span in spans {
        if span.method >= bench.methods().len() {
            return Err(std::io::Error::other(format!("no method {}", span.method)));
        }
        let m = span.method;
        cursor::set(cursor::METHOD, m as u32);
        let chosen = &selections[m];
        let (fin, fields) = bench.finitize(m, scope);
        let mut reader = StateReader::open(&inputs_path(dir, scope, m))?;
        let mut times = TimesReader::open(&times_path(dir, scope, m))?;
        reader.seek_to(span.from)?;
        times.seek_to(span.from)?;
        let mut at = span.from;
        let mut chunk_from = span.from;
        while chunk_from < span.to {
            let chunk_to = (chunk_from + CHUNK).min(span.to);
            let indices: Box<dyn Iterator<Item = u64>> = match chosen {
                Some(bits) => Box::new(
                    bits.range(chunk_from as u32..chunk_to as u32)
                        .map(u64::from),
                ),
                None => Box::new(chunk_from..chunk_to),
            };
            let mut kills: Vec<KillRun> = Vec::new();
            let mut ran = 0;
            // Where the chunk ends: `chunk_to`, or just after the input run last when the
            // process is to be replaced (`abandon`).
            let mut end = chunk_to;
            let mut recycled = false;
            for index in indices {
                reader.skip(index - at)?;
                times.skip(index - at)?;
                let Some(state) = reader.next_state()? else {
                    return Err(std::io::Error::other(format!(
                        "scope {scope} method {m} has no input {index}"
                    )));
                };
                at = index + 1;
                ran += 1;
                cursor::set(cursor::INDEX, index as u32);
                let original_nanos = times.next_time()?;
                let pre = bench.decode(m, &fields, &mut korat::Candidate::new(&fin, state));
                let (_, t) = trial(bench, m, mutant, pre, original_nanos, judging, &stops);
                if let Some(reason) = t.reason {
                    match kills.last_mut() {
                        Some(r) if r.reason == reason && r.index + r.len == index => r.len += 1,
                        _ => kills.push(KillRun {
                            index,
                            len: 1,
                            reason,
                        }),
                    }
                }
                if stops.calls.must_recycle() {
                    (end, recycled) = (index + 1, true);
                    break;
                }
            }
            send(&Message::MatrixChunk {
                method: m,
                from: chunk_from,
                to: end,
                kills,
                skipped: end - chunk_from - ran,
            })?;
            if recycled {
                send(&stops.calls.recycle_message())?;
                return Ok(false);
            }
            chunk_from = chunk_to;
        }
    }
    Ok(true)
}
