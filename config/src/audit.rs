//! The built-in `audit` subscriber's keys: where the decision log is
//! written, when it rotates, how many old files it keeps, and the optional
//! anchor its chain head is also written to.

use std::ops::Range;

use super::error::{ConfigError, Locator};
use super::numbers::int_or;
use super::raw::RawSubscriber;
use super::values::{audit_path, file_path};
use super::{Env, SubscriberKind};

/// The audit log rotates past 64 MiB by default, keeping 5 old files.
const DEFAULT_AUDIT_KIB: u64 = 64 * 1024;
const MAX_AUDIT_KIB: i64 = 4 * 1024 * 1024;
const DEFAULT_AUDIT_KEEP: usize = 5;

/// An `audit` subscriber from its table's keys (`path`, `max_size_kib`,
/// `keep`, `anchor`); `queue_size` is read with every subscriber's.
pub(super) fn audit_kind(
    at: &Locator<'_>,
    env: &Env,
    raw: &mut RawSubscriber,
    queue_size: usize,
    key: &dyn Fn(&str) -> String,
    name_span: Range<usize>,
) -> Result<SubscriberKind, ConfigError> {
    let path = audit_path(at, env, raw.path.take(), &key("path"), name_span)?;
    // Absolute like every path key: a relative anchor would land wherever
    // the gateway happened to start.
    let anchor = match &raw.anchor {
        Some(anchor) => {
            let anchor_path = file_path(at, env, anchor, &key("anchor"))?;
            // Not the log nor one of its siblings (`.1`, `.head`): rotation
            // and the head sidecar would overwrite it.
            let log = path.as_os_str().to_string_lossy();
            if anchor_path.as_os_str().to_string_lossy().starts_with(&*log) {
                return Err(at.error(
                    anchor.span(),
                    key("anchor"),
                    "must be another file than the log: the anchor only helps out of the log's reach",
                ));
            }
            Some(anchor_path)
        }
        None => None,
    };
    Ok(SubscriberKind::Audit {
        path,
        queue_size,
        max_bytes: int_or(
            at,
            raw.max_size_kib.as_ref(),
            &key("max_size_kib"),
            1..=MAX_AUDIT_KIB,
            DEFAULT_AUDIT_KIB,
        )? * 1024,
        keep: int_or(
            at,
            raw.keep.as_ref(),
            &key("keep"),
            0..=1000,
            DEFAULT_AUDIT_KEEP,
        )?,
        anchor,
    })
}
