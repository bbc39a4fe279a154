//! Value parsers of the command line: each refuses what no run could mean (a zero limit, a
//! duration over a day, a size over 1 TiB) with a message naming the value.

use std::time::Duration;

/// The longest duration any option takes: a day.
const MAX_DURATION: Duration = Duration::from_secs(24 * 3600);

/// A scope range, `3` or `1..7` (both ends included); scopes start at 1 and must not descend.
pub fn parse_scopes(s: &str) -> Result<std::ops::RangeInclusive<u32>, String> {
    let number = |t: &str| -> Result<u32, String> {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("{t:?} is not a scope (expected e.g. 3 or 1..7)"))
    };
    let (lo, hi) = match s.split_once("..") {
        Some((a, b)) => (number(a)?, number(b.trim_start_matches('='))?),
        None => {
            let n = number(s)?;
            (n, n)
        }
    };
    if lo == 0 {
        return Err("scope 0 is empty: scopes start at 1".into());
    }
    if lo > hi {
        return Err(format!("scopes {lo}..{hi} descend; write {hi}..{lo}"));
    }
    Ok(lo..=hi)
}

/// `--compare`: `abstract` or `structural`.
pub fn parse_comparison(s: &str) -> Result<ferastrau_protocol::Comparison, String> {
    s.parse()
}

/// `--matching`: `isomorphism` or `abstraction`.
pub fn parse_matching(s: &str) -> Result<ferastrau_protocol::Matching, String> {
    s.parse()
}

/// `--engine`: `korat` or `generator`.
pub fn parse_engine(s: &str) -> Result<ferastrau_protocol::Engine, String> {
    s.parse()
}

/// A family of mutants: `operator`, `variable`, `call` or `constant`.
pub fn parse_family(s: &str) -> Result<ferastrau_artifacts::Family, String> {
    s.parse()
}

/// A clock factor: a finite number from 0 to 1000.
pub fn parse_factor(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=1000.0).contains(&v) => Ok(v),
        _ => Err(format!("{s:?} is not a factor from 0 to 1000")),
    }
}

/// `250ms`, `1s`, `2.5s`, `1m`, `1h`.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let bad = || format!("{s:?} is not a duration (e.g. 1s, 250ms, 10m)");
    let (num, unit) = s
        .find(|c: char| c.is_ascii_alphabetic())
        .map(|i| s.split_at(i))
        .ok_or_else(bad)?;
    let v: f64 = num.parse().map_err(|_| bad())?;
    let secs = match unit {
        "ms" => v / 1000.0,
        "s" => v,
        "m" => v * 60.0,
        "h" => v * 3600.0,
        _ => return Err(bad()),
    };
    match Duration::try_from_secs_f64(secs) {
        Ok(d) if d <= MAX_DURATION => Ok(d),
        Ok(_) => Err(format!("{s:?} is longer than a day")),
        Err(_) => Err(bad()),
    }
}

/// A percentage from 0 to 100.
pub fn parse_percent(s: &str) -> Result<f64, String> {
    match s.trim_end_matches('%').parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=100.0).contains(&v) => Ok(v),
        _ => Err(format!("{s:?} is not a percentage from 0 to 100")),
    }
}

/// A duration longer than zero.
pub fn parse_positive_duration(s: &str) -> Result<Duration, String> {
    match parse_duration(s)? {
        d if d.is_zero() => Err(format!("{s:?}: the limit must be longer than zero")),
        d => Ok(d),
    }
}

/// The smallest `--memory-limit` taken: 4 MiB, a margin under the smallest worker measured.
///
/// Measured on Linux x86-64 (glibc, Rust 1.89) with `ferastrau evaluate --benchmark-path
/// testdata/chain --scopes 1 --memory-limit N`, N in steps of 128 KiB: `chain`, the smallest
/// fixture, generates scope 1 and runs its original and every mutant from 5.1 MiB (5248K) with
/// workers at opt-level 3, from 6.4 MiB (6528K) at 0 (`FERASTRAU_OPT_LEVEL=0`). Below, the
/// worker cannot start its watchdog thread, then (under 5 MiB) the program loader cannot map
/// it, and under about 2 MiB the loader crashes (signal 11, which was reported as the code
/// under test's). The margin keeps any limit a worker might start under (another libc, a
/// smaller build) from being refused here; a limit between the floor and what a crate's worker
/// needs still stops the run with status 4, saying to raise it.
pub const MIN_MEMORY_LIMIT: u64 = 4 << 20;

/// `--memory-limit`: a size ([`parse_size`]) of at least [`MIN_MEMORY_LIMIT`].
pub fn parse_memory_limit(s: &str) -> Result<u64, String> {
    let bytes = parse_size(s)?;
    if bytes < MIN_MEMORY_LIMIT {
        return Err(format!(
            "{s:?} ({}) is less address space than any worker starts under: give at least {} (the default is 1G)",
            ferastrau_console::term::size(bytes),
            ferastrau_console::term::size(MIN_MEMORY_LIMIT)
        ));
    }
    Ok(bytes)
}

/// `1G`, `512M`, `64K` or plain bytes.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let bad = || format!("{s:?} is not a size (e.g. 1G, 512M)");
    let (num, mult) = match s.chars().last() {
        Some('G' | 'g') => (&s[..s.len() - 1], 1u64 << 30),
        Some('M' | 'm') => (&s[..s.len() - 1], 1 << 20),
        Some('K' | 'k') => (&s[..s.len() - 1], 1 << 10),
        _ => (s, 1),
    };
    let v: u64 = num.parse().map_err(|_| bad())?;
    if v == 0 {
        return Err(format!("{s:?}: a size must be positive"));
    }
    match v.checked_mul(mult) {
        Some(b) if b <= 1 << 40 => Ok(b),
        _ => Err(format!("{s:?} is more than 1 TiB")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_ranges_singles_and_errors() {
        assert_eq!(parse_scopes("1..7"), Ok(1..=7));
        assert_eq!(parse_scopes("1..=7"), Ok(1..=7));
        assert_eq!(parse_scopes("4"), Ok(4..=4));
        assert!(parse_scopes("7..1").unwrap_err().contains("descend"));
        assert!(parse_scopes("0..3").unwrap_err().contains("scope 0"));
        assert!(parse_scopes("x").unwrap_err().contains("not a scope"));
        assert!(parse_scopes("1..").is_err());
    }

    #[test]
    fn a_memory_limit_no_worker_starts_under_is_refused_in_its_unit() {
        let e = parse_memory_limit("1536K").unwrap_err();
        assert!(
            e.contains("(1.5 MiB)") && e.contains("at least 4 MiB"),
            "{e}"
        );
        assert!(parse_memory_limit("4095K").unwrap_err().contains("3.9 MiB"));
        assert_eq!(parse_memory_limit("4M"), Ok(4 << 20));
        assert_eq!(parse_memory_limit("1G"), Ok(1 << 30));
        assert!(parse_memory_limit("0").unwrap_err().contains("positive"));
    }
}
