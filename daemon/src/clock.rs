//! Wall-clock time as the gateway writes it everywhere (status, the
//! decision log, held calls, memory): milliseconds since the Unix epoch.

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch of `at` (0 before it).
pub fn unix_ms(at: SystemTime) -> u64 {
    at.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> u64 {
    unix_ms(SystemTime::now())
}

/// [`now_ms`] as SQLite stores it (the memory store's times).
pub fn now_ms_i64() -> i64 {
    i64::try_from(now_ms()).unwrap_or(i64::MAX)
}
