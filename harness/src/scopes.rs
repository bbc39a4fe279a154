//! Scope ranges on the command line: `3` or `1..7` (both ends included).

use std::ops::RangeInclusive;

/// Parses a scope range; scopes start at 1 and must not descend.
pub fn parse_scopes(s: &str) -> Result<RangeInclusive<u32>, String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_singles_and_errors() {
        assert_eq!(parse_scopes("1..7"), Ok(1..=7));
        assert_eq!(parse_scopes("1..=7"), Ok(1..=7));
        assert_eq!(parse_scopes("4"), Ok(4..=4));
        assert!(parse_scopes("7..1").unwrap_err().contains("descend"));
        assert!(parse_scopes("0..3").unwrap_err().contains("scope 0"));
        assert!(parse_scopes("x").unwrap_err().contains("not a scope"));
        assert!(parse_scopes("1..").is_err());
    }
}
