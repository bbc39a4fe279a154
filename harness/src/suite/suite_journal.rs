//! The journal of a suite's run (`suite-journal.jsonl` in the output directory): what the run
//! is, the original's time, then each mutant's verdict as it comes, one JSON line each,
//! flushed. A run stopped by Ctrl-C, SIGTERM or SIGKILL leaves every verdict it reached;
//! `evaluate --suite FILE --resume` runs only the mutants left, and only for the same run — the
//! same suite, crate source, mutants and limits — refusing any other, naming what changed. A
//! torn last line (the process killed mid-write) is dropped and its mutant run again.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::sync::Mutex;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::SuiteVerdict;
use ferastrau_console::exit_code::usage;

/// What a suite's run is: a resumed run must be the same one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Identity {
    pub benchmark: String,
    /// Hash of the suite file's bytes.
    pub suite: String,
    /// Hash of the crate's source tree.
    pub source: String,
    /// The mutants to run, in order.
    pub mutants: Vec<u32>,
    pub timeout_factor: f64,
    pub timeout_floor_ms: u64,
    pub memory_limit: u64,
}

impl Identity {
    /// What differs between the run recorded (`self`) and this one, for the refusal.
    fn differences(&self, now: &Identity) -> Vec<&'static str> {
        let mut d = Vec::new();
        if self.benchmark != now.benchmark {
            d.push("the benchmark");
        }
        if self.suite != now.suite {
            d.push("the suite file");
        }
        if self.source != now.source {
            d.push("the crate's source");
        }
        if self.mutants != now.mutants {
            d.push("the mutants (sampling, --only-mutants, skips)");
        }
        if self.timeout_factor != now.timeout_factor
            || self.timeout_floor_ms != now.timeout_floor_ms
        {
            d.push("the time limits");
        }
        if self.memory_limit != now.memory_limit {
            d.push("--memory-limit");
        }
        d
    }
}

/// One line of the journal.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Line {
    Run(Identity),
    /// The original's time on the whole suite, which sets every mutant's clock.
    Original {
        seconds: f64,
    },
    Verdict(SuiteVerdict),
}

/// What a journal recorded.
#[derive(Debug, Default)]
pub struct Recorded {
    pub original_seconds: Option<f64>,
    pub verdicts: BTreeMap<u32, SuiteVerdict>,
}

/// The open journal: lines are appended from the mutants' threads.
pub struct Journal {
    file: Mutex<File>,
}

impl Journal {
    /// Starts a new journal at `path` for the run `id` (an earlier one is replaced).
    pub fn create(path: &Path, id: &Identity) -> Result<Journal> {
        let file =
            File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
        let j = Journal {
            file: Mutex::new(file),
        };
        j.append(&Line::Run(id.clone()))?;
        Ok(j)
    }

    /// Opens the journal at `path` to continue the run `id`: what it recorded, or a refusal
    /// (status 2) when there is none or it is another run's.
    pub fn resume(path: &Path, id: &Identity) -> Result<(Journal, Recorded)> {
        let file = File::open(path).map_err(|e| {
            usage(format!(
                "--resume: no suite journal at {} ({e}): start the run without --resume",
                path.display()
            ))
        })?;
        let mut lines = BufReader::new(file).lines().peekable();
        let first = lines.next().transpose()?.unwrap_or_default();
        let recorded_id = match serde_json::from_str::<Line>(&first) {
            Ok(Line::Run(r)) => r,
            // Killed before its first line was whole: nothing was recorded, start afresh.
            _ if lines.peek().is_none() => {
                return Ok((Journal::create(path, id)?, Recorded::default()));
            }
            _ => {
                return Err(usage(format!(
                    "--resume: {} does not start with a suite run's identity: not a suite journal (start without --resume)",
                    path.display()
                )))
            }
        };
        let differs = recorded_id.differences(id);
        if !differs.is_empty() {
            return Err(usage(format!(
                "--resume: {} is another run's — {} changed since; start without --resume",
                path.display(),
                differs.join(", ")
            )));
        }
        let mut recorded = Recorded::default();
        // The valid lines, to write back: a torn last line is dropped, and the next append
        // must not follow it.
        let mut kept = vec![first];
        for line in lines {
            let line = line?;
            match serde_json::from_str::<Line>(&line) {
                Ok(Line::Original { seconds }) => recorded.original_seconds = Some(seconds),
                Ok(Line::Verdict(v)) if id.mutants.contains(&v.id) => {
                    recorded.verdicts.insert(v.id, v);
                }
                // A line cut short by a kill ends the journal.
                _ => break,
            }
            kept.push(line);
        }
        let mut file = OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(path)
            .with_context(|| format!("cannot rewrite {}", path.display()))?;
        for line in &kept {
            writeln!(file, "{line}")?;
        }
        file.flush()?;
        Ok((
            Journal {
                file: Mutex::new(file),
            },
            recorded,
        ))
    }

    /// Records the original's time.
    pub fn original(&self, seconds: f64) -> Result<()> {
        self.append(&Line::Original { seconds })
    }

    /// Records a mutant's verdict.
    pub fn verdict(&self, v: &SuiteVerdict) -> Result<()> {
        self.append(&Line::Verdict(v.clone()))
    }

    fn append(&self, line: &Line) -> Result<()> {
        let text = serde_json::to_string(line)?;
        let mut f = self.file.lock().unwrap_or_else(|p| p.into_inner());
        writeln!(f, "{text}").context("cannot append to the suite journal")?;
        f.flush().context("cannot append to the suite journal")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::SuiteStatus;

    fn id() -> Identity {
        Identity {
            benchmark: "b".into(),
            suite: "s".into(),
            source: "c".into(),
            mutants: vec![1, 2, 3],
            timeout_factor: 10.0,
            timeout_floor_ms: 1000,
            memory_limit: 1 << 30,
        }
    }

    fn survived(id: u32) -> SuiteVerdict {
        SuiteVerdict {
            id,
            status: SuiteStatus::Survived,
            reason: None,
            test: None,
            key: None,
        }
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_the_rest_resumed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let j = Journal::create(&path, &id()).unwrap();
        j.original(0.5).unwrap();
        j.verdict(&survived(1)).unwrap();
        j.verdict(&survived(2)).unwrap();
        drop(j);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, &text[..text.len() - 7]).unwrap();
        let (j, r) = Journal::resume(&path, &id()).unwrap();
        assert_eq!(r.original_seconds, Some(0.5));
        assert_eq!(r.verdicts.keys().copied().collect::<Vec<_>>(), [1]);
        j.verdict(&survived(2)).unwrap();
        drop(j);
        let (_, r) = Journal::resume(&path, &id()).unwrap();
        assert_eq!(r.verdicts.keys().copied().collect::<Vec<_>>(), [1, 2]);
    }

    #[test]
    fn another_run_s_journal_is_refused_naming_what_changed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        Journal::create(&path, &id()).unwrap();
        let mut other = id();
        other.suite = "t".into();
        other.memory_limit = 1;
        let e = Journal::resume(&path, &other).err().unwrap().to_string();
        assert!(e.contains("the suite file, --memory-limit changed"), "{e}");
        std::fs::write(&path, "garbage\nmore\n").unwrap();
        let e = Journal::resume(&path, &id()).err().unwrap().to_string();
        assert!(e.contains("not a suite journal"), "{e}");
        // A first line cut short, nothing after it: a fresh start.
        std::fs::write(&path, "{\"run\":{\"bench").unwrap();
        let (_, r) = Journal::resume(&path, &id()).unwrap();
        assert!(r.verdicts.is_empty() && r.original_seconds.is_none());
        let e = Journal::resume(&dir.path().join("none"), &id())
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("no suite journal"), "{e}");
    }
}
