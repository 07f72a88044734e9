//! The built-in `approval` subscriber's keys: rules of the guard's kinds
//! that select the calls to hold for a person (compiled by the guard's
//! own `rules`, never copied), how long a call is held (`hold_ms`), what
//! a call nobody answered gets (`on_timeout`), and how many calls may be
//! held at once (`max_held`). Opt-in: never in the embedded default.

use std::time::Duration;

use hookgate_guard::Guard;
use toml::Spanned;

use super::approval_notify::{Notify, notify};
use super::error::ConfigError;
use super::raw::{RawOnError, RawSubscriber};
use super::rules::subscriber_guard;
use super::table::Table;
use super::{OnError, SubscriberKind};

/// Default hold: two minutes, under every agent's default hook timeout
/// that `gateway install` raises (docs/approvals.md).
pub const DEFAULT_HOLD_MS: u64 = 120_000;
/// The longest hold: the shim's own ceiling (`hookgate_wire::MAX_HOLD_MS`).
pub const MAX_HOLD_MS: u64 = 3_600_000;
/// Default and largest `max_held`: calls held at once by one subscriber.
pub const DEFAULT_MAX_HELD: usize = 16;
const MAX_MAX_HELD: i64 = 256;
/// Matching is the guard's walk, bounded the same way.
const DEFAULT_MATCH_MS: u64 = 2000;
const MAX_MATCH_MS: i64 = 4000;

/// A built-in `approval` subscriber, validated.
#[derive(Debug, Clone)]
pub struct ApprovalConfig {
    /// The rules selecting the calls to hold (their `action` and `reason`
    /// are shown to the approver; any hit holds).
    pub guard: Guard,
    /// How long a call is held before `on_timeout` applies.
    pub hold: Duration,
    /// What a held call gets when nobody answered in time, when the
    /// gateway stops, or when `max_held` calls are already held.
    pub on_timeout: OnError,
    /// Calls held at once; past it, `on_timeout` at once (counted).
    pub max_held: usize,
    /// Who is told a call is held (webhooks, the desktop).
    pub notify: Notify,
}

/// `builtin = "approval"`'s keys, as a [`SubscriberKind::Approval`].
pub(super) fn approval_kind(
    table: &Table<'_>,
    raw: &mut RawSubscriber,
) -> Result<SubscriberKind, ConfigError> {
    if raw.rules.as_ref().is_none_or(|r| r.get_ref().is_empty()) {
        return Err(table.error_here(
            "rules",
            "the built-in `approval` needs `rules` saying which calls to hold",
        ));
    }
    let hold_ms = table.int(
        raw.hold_ms.as_ref(),
        "hold_ms",
        1..=i64::try_from(MAX_HOLD_MS).unwrap_or(i64::MAX),
        DEFAULT_HOLD_MS,
    )?;
    let max_held = table.int(
        raw.max_held.as_ref(),
        "max_held",
        1..=MAX_MAX_HELD,
        DEFAULT_MAX_HELD,
    )?;
    let on_timeout = match raw.on_timeout.as_ref().map(Spanned::get_ref) {
        None | Some(RawOnError::Deny) => OnError::Deny,
        Some(RawOnError::Allow) => OnError::Allow,
    };
    let notify = notify(
        table.at,
        raw.webhooks.as_ref(),
        raw.desktop.as_ref(),
        raw.console_url.as_ref(),
        table.key,
    )?;
    let guard = subscriber_guard(table, raw, (MAX_MATCH_MS, DEFAULT_MATCH_MS))?;
    Ok(SubscriberKind::Approval(Box::new(ApprovalConfig {
        guard,
        hold: Duration::from_millis(hold_ms),
        on_timeout,
        max_held,
        notify,
    })))
}
