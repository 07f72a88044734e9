//! The built-in `audit` subscriber's keys: where the decision log is
//! written, when it rotates, how many old files it keeps, and the optional
//! anchor its chain head is also written to.

use super::SubscriberKind;
use super::error::ConfigError;
use super::raw::RawSubscriber;
use super::table::Table;
use super::values::{audit_path, file_path};

/// The audit log rotates past 64 MiB by default, keeping 5 old files.
const DEFAULT_AUDIT_KIB: u64 = 64 * 1024;
const MAX_AUDIT_KIB: i64 = 4 * 1024 * 1024;
const DEFAULT_AUDIT_KEEP: usize = 5;

/// An `audit` subscriber from its table's keys (`path`, `max_size_kib`,
/// `keep`, `anchor`); `queue_size` is read with every subscriber's.
pub(super) fn audit_kind(
    table: &Table<'_>,
    raw: &mut RawSubscriber,
) -> Result<SubscriberKind, ConfigError> {
    let (at, env) = (table.at, table.env);
    let path = audit_path(
        at,
        env,
        raw.path.take(),
        &table.key("path"),
        table.name_span.clone(),
    )?;
    // Absolute like every path key: a relative anchor would land wherever
    // the gateway happened to start.
    let anchor = match &raw.anchor {
        Some(anchor) => {
            let anchor_path = file_path(at, env, anchor, &table.key("anchor"))?;
            // Not the log nor one of its siblings (`.1`, `.head`): rotation
            // and the head sidecar would overwrite it.
            let log = path.as_os_str().to_string_lossy();
            if anchor_path.as_os_str().to_string_lossy().starts_with(&*log) {
                return Err(table.error(
                    anchor.span(),
                    "anchor",
                    "must be another file than the log: the anchor only helps out of the log's reach",
                ));
            }
            Some(anchor_path)
        }
        None => None,
    };
    Ok(SubscriberKind::Audit {
        path,
        queue_size: table.queue_size,
        max_bytes: table.int(
            raw.max_size_kib.as_ref(),
            "max_size_kib",
            1..=MAX_AUDIT_KIB,
            DEFAULT_AUDIT_KIB,
        )? * 1024,
        keep: table.int(raw.keep.as_ref(), "keep", 0..=1000, DEFAULT_AUDIT_KEEP)?,
        anchor,
    })
}
