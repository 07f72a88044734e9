//! Event ids: unique per event, sortable by time, cheap, no dependency.
//!
//! ULID-shaped: 26 Crockford base32 characters encoding 48 bits of
//! milliseconds since the epoch, 32 bits of per-process salt (so two
//! gateways, or two runs, never collide) and a 48-bit counter (so two
//! events in the same millisecond never collide).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// Generates ids for one gateway process.
#[derive(Debug)]
pub(crate) struct EventIds {
    salt: u32,
    counter: AtomicU64,
}

impl Default for EventIds {
    fn default() -> Self {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        // Mix the pid and the start time (FNV-1a over their bytes).
        let mut hash: u32 = 0x811c_9dc5;
        for byte in std::process::id()
            .to_le_bytes()
            .into_iter()
            .chain(nanos.to_le_bytes())
        {
            hash ^= u32::from(byte);
            hash = hash.wrapping_mul(0x0100_0193);
        }
        EventIds {
            salt: hash,
            counter: AtomicU64::new(0),
        }
    }
}

impl EventIds {
    /// The next id.
    pub(crate) fn next_id(&self) -> String {
        let millis = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        let count = self.counter.fetch_add(1, Ordering::Relaxed);
        encode(millis, self.salt, count)
    }
}

fn encode(millis: u64, salt: u32, count: u64) -> String {
    let value: u128 = (u128::from(millis & 0xFFFF_FFFF_FFFF) << 80)
        | (u128::from(salt) << 48)
        | u128::from(count & 0xFFFF_FFFF_FFFF);
    // 26 characters × 5 bits = 130 bits; the top two are zero.
    (0..26)
        .rev()
        .map(|i| char::from(CROCKFORD[((value >> (i * 5)) & 0x1F) as usize]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn ids_are_unique_and_well_formed() {
        let ids = EventIds::default();
        let all: HashSet<String> = (0..10_000).map(|_| ids.next_id()).collect();
        assert_eq!(all.len(), 10_000);
        assert!(
            all.iter()
                .all(|id| id.len() == 26 && id.bytes().all(|b| CROCKFORD.contains(&b)))
        );
    }

    #[test]
    fn ids_sort_by_time_then_counter() {
        assert!(encode(1, 7, 0) < encode(2, 0, 0));
        assert!(encode(5, 7, 1) < encode(5, 7, 2));
        assert_eq!(encode(0, 0, 0), "0".repeat(26));
    }
}
