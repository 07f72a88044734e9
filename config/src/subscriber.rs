//! One `[[subscriber]]` table to a [`SubscriberConfig`]: its name,
//! priority and filter, then its kind (remote, `audit`, `guard`, `memory`,
//! `rego` or `approval`), each
//! rejecting the keys that mean nothing to it.

use std::ops::Range;
use std::time::Duration;

use toml::Spanned;

use super::error::{ConfigError, Locator};
use super::numbers::{int_or, millis};
use super::raw::{RawBuiltin, RawEndpoints, RawMode, RawOnError, RawSubscriber};
use super::rules::subscriber_guard;
use super::{BreakerConfig, Env, Layer, Mode, OnError, SubscriberConfig, SubscriberKind};
use crate::filter::Filter;

const DEFAULT_TIMEOUT_MS: i64 = 200;
/// The guard's time limit per call: well under the shim's 5 s deadline,
/// leaving time for the reply.
const DEFAULT_GUARD_TIMEOUT_MS: u64 = 2000;
const MAX_GUARD_TIMEOUT_MS: i64 = 4000;
const MAX_TIMEOUT_MS: i64 = 60_000;
const DEFAULT_QUEUE: usize = 1024;
const MAX_QUEUE: i64 = 65_536;

/// The three kinds of subscriber, for the table of who takes which key.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Remote,
    Audit,
    Guard,
    Memory,
    Rego,
    Approval,
}

const BUILTIN_ONLY: &str = "not used by built-in subscribers";
const ROTATES: &str = "only the built-in `audit` rotates";

/// The keys only some kinds take: its span where written, its name, the
/// kinds that take it and why any other rejects it.
type KindKey = (
    Option<Range<usize>>,
    &'static str,
    &'static [Kind],
    &'static str,
);

fn kind_keys(raw: &RawSubscriber) -> Vec<KindKey> {
    fn at<T>(field: &Option<Spanned<T>>) -> Option<Range<usize>> {
        field.as_ref().map(Spanned::span)
    }
    const REMOTE: &[Kind] = &[Kind::Remote];
    let mut keys: Vec<KindKey> = vec![
        (
            at(&raw.max_size_kib),
            "max_size_kib",
            &[Kind::Audit],
            ROTATES,
        ),
        (at(&raw.keep), "keep", &[Kind::Audit], ROTATES),
        (
            at(&raw.path),
            "path",
            &[Kind::Audit, Kind::Memory],
            "only the built-in `audit` and `memory` have a `path`",
        ),
        (
            at(&raw.anchor),
            "anchor",
            &[Kind::Audit],
            "only the built-in `audit` writes an anchor",
        ),
        (
            at(&raw.rules),
            "rules",
            &[Kind::Guard, Kind::Approval],
            "only the built-in `guard` and `approval` have `rules`",
        ),
        (
            at(&raw.queue_size),
            "queue_size",
            &[Kind::Remote, Kind::Audit, Kind::Memory],
            "only remote subscribers and the built-in `audit` and `memory` have a queue",
        ),
        (
            at(&raw.timeout_ms),
            "timeout_ms",
            &[
                Kind::Remote,
                Kind::Guard,
                Kind::Rego,
                Kind::Memory,
                Kind::Approval,
            ],
            "the built-in `audit` answers nothing, so it has no deadline",
        ),
        (
            at(&raw.case_insensitive),
            "case_insensitive",
            &[Kind::Guard, Kind::Approval],
            "only the built-in `guard` and `approval` compare paths",
        ),
        (
            at(&raw.on_error),
            "on_error",
            &[Kind::Remote, Kind::Rego],
            "only remote subscribers and the built-in `rego` take it",
        ),
        (
            at(&raw.breaker_failures),
            "breaker_failures",
            REMOTE,
            BUILTIN_ONLY,
        ),
        (
            at(&raw.breaker_cooldown_ms),
            "breaker_cooldown_ms",
            REMOTE,
            BUILTIN_ONLY,
        ),
    ];
    for (field, name) in [
        (at(&raw.max_bytes), "max_bytes"),
        (at(&raw.inject_bytes), "inject_bytes"),
        (
            raw.exclude
                .as_ref()
                .and_then(|e| e.first())
                .map(Spanned::span),
            "exclude",
        ),
        (at(&raw.retention_days), "retention_days"),
        (at(&raw.compress_after), "compress_after"),
    ] {
        keys.push((
            field,
            name,
            &[Kind::Memory],
            "only the built-in `memory` takes it",
        ));
    }
    for (field, name) in [
        (at(&raw.hold_ms), "hold_ms"),
        (at(&raw.on_timeout), "on_timeout"),
        (at(&raw.max_held), "max_held"),
    ] {
        keys.push((
            field,
            name,
            &[Kind::Approval],
            "only the built-in `approval` holds calls",
        ));
    }
    for (field, name) in [
        (at(&raw.query), "query"),
        (at(&raw.bundle), "bundle"),
        (at(&raw.bundle_poll_ms), "bundle_poll_ms"),
        (at(&raw.bundle_key_file), "bundle_key_file"),
        (at(&raw.bundle_key_alg), "bundle_key_alg"),
        (at(&raw.bundle_key_id), "bundle_key_id"),
        (at(&raw.bundle_scope), "bundle_scope"),
        (at(&raw.bundle_signed), "bundle_signed"),
        (at(&raw.policy), "policy"),
        (at(&raw.data), "data"),
    ] {
        keys.push((
            field,
            name,
            &[Kind::Rego],
            "only the built-in `rego` takes it",
        ));
    }
    for (field, name) in super::remote::remote_only_keys(raw) {
        keys.push((at(field), name, REMOTE, BUILTIN_ONLY));
    }
    keys
}

/// One subscriber from its table (`raw`, with spans; `table`, the same as
/// written: its settings, and its rules for their derived ids).
pub(super) fn subscriber(
    at: &Locator<'_>,
    env: &Env,
    mut raw: RawSubscriber,
    table: &toml::Value,
    key: &dyn Fn(&str) -> String,
    layer: Layer,
) -> Result<SubscriberConfig, ConfigError> {
    let name_span = raw.name.span();
    let name = raw.name.get_ref().clone();
    if name.is_empty()
        || name.len() > 64
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    {
        return Err(at.error(
            name_span,
            key("name"),
            "must be 1-64 characters of A-Z a-z 0-9 - _ .",
        ));
    }
    if name == super::SELF_PROTECTION_NAME {
        return Err(at.error(
            name_span,
            key("name"),
            format!(
                "`{}` is the built-in self-protection's name (docs/self-protection.md)",
                super::SELF_PROTECTION_NAME
            ),
        ));
    }
    let priority = int_or(
        at,
        raw.priority.as_ref(),
        &key("priority"),
        i32::MIN.into()..=i32::MAX.into(),
        0,
    )?;
    let filter = filter(at, &raw, name_span.clone(), key)?;
    let queue_size = int_or(
        at,
        raw.queue_size.as_ref(),
        &key("queue_size"),
        1..=MAX_QUEUE,
        DEFAULT_QUEUE,
    )?;
    let kind = match (raw.builtin.take(), raw.endpoint.take()) {
        (Some(builtin), Some(endpoint)) => {
            return Err(at.error(
                endpoint.span(),
                key("endpoint"),
                format!(
                    "a built-in subscriber (`builtin = \"{}\"`) has no endpoint",
                    builtin_name(*builtin.get_ref())
                ),
            ));
        }
        (None, None) => {
            return Err(at.error(
                name_span,
                key("endpoint"),
                "a subscriber needs an `endpoint` or a `builtin`",
            ));
        }
        (None, Some(endpoint)) => {
            only_keys_of(at, &raw, Kind::Remote, key)?;
            remote(at, env, endpoint, &raw, queue_size, key)?
        }
        (Some(builtin), None) => match builtin.into_inner() {
            RawBuiltin::Audit => {
                only_keys_of(at, &raw, Kind::Audit, key)?;
                only_mode(
                    at,
                    &raw.mode,
                    RawMode::Observe,
                    key,
                    "the built-in `audit` only observes",
                )?;
                super::audit::audit_kind(at, env, &mut raw, queue_size, key, name_span)?
            }
            RawBuiltin::Guard => {
                only_keys_of(at, &raw, Kind::Guard, key)?;
                only_mode(
                    at,
                    &raw.mode,
                    RawMode::Decide,
                    key,
                    "the built-in `guard` only decides",
                )?;
                let limits = (MAX_GUARD_TIMEOUT_MS, DEFAULT_GUARD_TIMEOUT_MS);
                let guard = subscriber_guard(at, env, &mut raw, table, key, layer, limits)?;
                SubscriberKind::Guard { guard }
            }
            RawBuiltin::Approval => {
                only_keys_of(at, &raw, Kind::Approval, key)?;
                only_mode(
                    at,
                    &raw.mode,
                    RawMode::Decide,
                    key,
                    "the built-in `approval` only decides",
                )?;
                super::approval::approval_kind(at, env, &mut raw, table, key, layer, name_span)?
            }
            RawBuiltin::Memory => {
                only_keys_of(at, &raw, Kind::Memory, key)?;
                only_mode(
                    at,
                    &raw.mode,
                    RawMode::Decide,
                    key,
                    "the built-in `memory` records and answers with context",
                )?;
                super::memory::memory_kind(at, env, &mut raw, queue_size, key, name_span)?
            }
            RawBuiltin::Rego => {
                only_keys_of(at, &raw, Kind::Rego, key)?;
                super::rego::rego_kind(at, env, &raw, &name, name_span, key)?
            }
        },
    };
    let mut settings = table.clone();
    super::rego::note_revision(&kind, &mut settings);
    Ok(SubscriberConfig {
        name,
        priority,
        filter,
        kind,
        settings,
        layer,
        locked: raw.locked.is_some_and(|l| l.into_inner()),
        provenance: super::Provenance::default(),
    })
}

/// Rejects the first key written that `kind` does not take.
fn only_keys_of(
    at: &Locator<'_>,
    raw: &RawSubscriber,
    kind: Kind,
    key: &dyn Fn(&str) -> String,
) -> Result<(), ConfigError> {
    for (span, name, takes, why) in kind_keys(raw) {
        if let Some(span) = span.filter(|_| !takes.contains(&kind)) {
            return Err(at.error(span, key(name), why.to_owned()));
        }
    }
    Ok(())
}

/// Rejects a `mode` other than `only` (a built-in has one fixed mode).
fn only_mode(
    at: &Locator<'_>,
    mode: &Option<Spanned<RawMode>>,
    only: RawMode,
    key: &dyn Fn(&str) -> String,
    why: &str,
) -> Result<(), ConfigError> {
    match mode {
        Some(mode) if *mode.get_ref() != only => Err(at.error(mode.span(), key("mode"), why)),
        _ => Ok(()),
    }
}

fn remote(
    at: &Locator<'_>,
    env: &Env,
    endpoint: Spanned<RawEndpoints>,
    raw: &RawSubscriber,
    queue_size: usize,
    key: &dyn Fn(&str) -> String,
) -> Result<SubscriberKind, ConfigError> {
    let timeout = int_or(
        at,
        raw.timeout_ms.as_ref(),
        &key("timeout_ms"),
        1..=MAX_TIMEOUT_MS,
        DEFAULT_TIMEOUT_MS.unsigned_abs(),
    )?;
    Ok(SubscriberKind::Remote {
        connection: super::remote::connection(at, env, &endpoint, raw, key)?,
        mode: match raw.mode.as_ref().map(Spanned::get_ref) {
            None | Some(RawMode::Decide) => Mode::Decide,
            Some(RawMode::Observe) => Mode::Observe,
            Some(RawMode::Shadow) => Mode::Shadow,
        },
        timeout: Duration::from_millis(timeout),
        on_error: match raw.on_error.as_ref().map(Spanned::get_ref) {
            None | Some(RawOnError::Allow) => OnError::Allow,
            Some(RawOnError::Deny) => OnError::Deny,
        },
        queue_size,
        breaker: breaker(at, raw, key)?,
    })
}

/// `breaker_failures` (0..=1000, 0 turns it off) and
/// `breaker_cooldown_ms`, with the defaults of [`BreakerConfig`].
fn breaker(
    at: &Locator<'_>,
    raw: &RawSubscriber,
    key: &dyn Fn(&str) -> String,
) -> Result<BreakerConfig, ConfigError> {
    let default = BreakerConfig::default();
    Ok(BreakerConfig {
        failures: int_or(
            at,
            raw.breaker_failures.as_ref(),
            &key("breaker_failures"),
            0..=1000,
            default.failures,
        )?,
        cooldown: millis(
            at,
            raw.breaker_cooldown_ms.as_ref(),
            &key("breaker_cooldown_ms"),
            default.cooldown,
        )?,
    })
}

fn builtin_name(builtin: RawBuiltin) -> &'static str {
    match builtin {
        RawBuiltin::Audit => "audit",
        RawBuiltin::Guard => "guard",
        RawBuiltin::Memory => "memory",
        RawBuiltin::Rego => "rego",
        RawBuiltin::Approval => "approval",
    }
}
fn filter(
    at: &Locator<'_>,
    raw: &RawSubscriber,
    name_span: Range<usize>,
    key: &dyn Fn(&str) -> String,
) -> Result<Filter, ConfigError> {
    let located = |list: &[Spanned<String>], field: &str, index: usize, message: String| {
        let span = list.get(index).map_or(name_span.clone(), Spanned::span);
        at.error(span, format!("{}[{index}]", key(field)), message)
    };
    let agents = match &raw.agents {
        None => None,
        Some(list) => Some(
            Filter::agents(list.iter().map(|s| s.get_ref().as_str()))
                .map_err(|e| located(list, "agents", e.index, e.message))?,
        ),
    };
    let events = match &raw.events {
        None => None,
        Some(list) => Some(
            Filter::events(list.iter().map(|s| s.get_ref().as_str()))
                .map_err(|e| located(list, "events", e.index, e.message))?,
        ),
    };
    for (field, list) in [
        ("agents", &raw.agents),
        ("events", &raw.events),
        ("tools", &raw.tools),
    ] {
        if list.as_ref().is_some_and(Vec::is_empty) {
            return Err(at.error(
                name_span.clone(),
                key(field),
                "an empty filter matches nothing; remove the key to match everything",
            ));
        }
    }
    let tools = raw.tools.as_deref();
    Filter::new(
        agents,
        events,
        tools.map(|list| list.iter().map(|s| s.get_ref().as_str())),
    )
    .map_err(|e| located(tools.unwrap_or_default(), "tools", e.index, e.message))
}
