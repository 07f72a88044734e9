//! Anti-rollback: is a bundle's revision newer than the last good one?
//!
//! OPA treats a revision as an opaque string; hookgate needs an order to
//! refuse an older bundle replayed by a compromised or stale server. The
//! order is "natural": runs of digits compare as numbers, everything else
//! byte by byte, so `9 < 10`, `v1.2.9 < v1.2.10` and ISO timestamps
//! (`2026-12-01T10:00:00Z`) all order as people expect. Publishers give
//! each bundle a revision that grows (a counter, a timestamp, a version);
//! docs/policies.md says so.

use std::cmp::Ordering;

/// True when `candidate` orders after `current`.
pub fn newer(candidate: &str, current: &str) -> bool {
    compare(candidate, current) == Ordering::Greater
}

/// The natural order of two revisions.
pub fn compare(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a.first(), b.first()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let (da, ra) = split_digits(a);
                let (db, rb) = split_digits(b);
                let (ta, tb) = (trim_zeros(da), trim_zeros(db));
                let order = ta.len().cmp(&tb.len()).then_with(|| ta.cmp(tb));
                if order != Ordering::Equal {
                    return order;
                }
                (a, b) = (ra, rb);
            }
            (Some(x), Some(y)) => {
                if x != y {
                    return x.cmp(y);
                }
                (a, b) = (&a[1..], &b[1..]);
            }
        }
    }
}

fn split_digits(s: &[u8]) -> (&[u8], &[u8]) {
    let end = s
        .iter()
        .position(|c| !c.is_ascii_digit())
        .unwrap_or(s.len());
    s.split_at(end)
}

fn trim_zeros(s: &[u8]) -> &[u8] {
    let start = s.iter().position(|&c| c != b'0').unwrap_or(s.len());
    &s[start..]
}
