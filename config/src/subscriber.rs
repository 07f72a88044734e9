//! One `[[subscriber]]` table to a [`SubscriberConfig`]: its name,
//! priority and filter, then its kind: remote, or one of the built-ins
//! (`kind.rs`), each rejecting the keys that mean nothing to it
//! (`kind_keys.rs`).

use std::ops::Range;

use toml::Spanned;

use super::error::{ConfigError, Locator};
use super::kind::{builtin as builtin_of, check_mode};
use super::kind_keys::{Kind, only_keys_of};
use super::numbers::{int_or, millis};
use super::raw::{RawEndpoints, RawMode, RawOnError, RawSubscriber};
use super::table::Table;
use super::{BreakerConfig, Env, Layer, Mode, OnError, SubscriberConfig, SubscriberKind};
use crate::filter::Filter;

const DEFAULT_TIMEOUT_MS: u64 = 200;
const MAX_TIMEOUT_MS: i64 = 60_000;
const DEFAULT_QUEUE: usize = 1024;
const MAX_QUEUE: i64 = 65_536;

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
    let reading = Table {
        at,
        env,
        written: table,
        key,
        layer,
        name: &name,
        name_span: name_span.clone(),
        queue_size,
    };
    let kind = match (raw.builtin.take(), raw.endpoint.take()) {
        (Some(builtin), Some(endpoint)) => {
            return Err(reading.error(
                endpoint.span(),
                "endpoint",
                format!(
                    "a built-in subscriber (`builtin = \"{}\"`) has no endpoint",
                    builtin_of(*builtin.get_ref()).name
                ),
            ));
        }
        (None, None) => {
            return Err(reading.error_here(
                "endpoint",
                "a subscriber needs an `endpoint` or a `builtin`",
            ));
        }
        (None, Some(endpoint)) => {
            only_keys_of(at, &raw, Kind::Remote, key)?;
            remote(&reading, endpoint, &raw)?
        }
        (Some(builtin), None) => {
            let builtin = builtin_of(builtin.into_inner());
            only_keys_of(at, &raw, builtin.kind, key)?;
            check_mode(&reading, raw.mode.as_ref(), builtin)?;
            (builtin.read)(&reading, &mut raw)?
        }
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

fn remote(
    table: &Table<'_>,
    endpoint: Spanned<RawEndpoints>,
    raw: &RawSubscriber,
) -> Result<SubscriberKind, ConfigError> {
    Ok(SubscriberKind::Remote {
        connection: super::remote::connection(table.at, table.env, &endpoint, raw, table.key)?,
        mode: match raw.mode.as_ref().map(Spanned::get_ref) {
            None | Some(RawMode::Decide) => Mode::Decide,
            Some(RawMode::Observe) => Mode::Observe,
            Some(RawMode::Shadow) => Mode::Shadow,
        },
        timeout: table.timeout(raw.timeout_ms.as_ref(), MAX_TIMEOUT_MS, DEFAULT_TIMEOUT_MS)?,
        on_error: match raw.on_error.as_ref().map(Spanned::get_ref) {
            None | Some(RawOnError::Allow) => OnError::Allow,
            Some(RawOnError::Deny) => OnError::Deny,
        },
        queue_size: table.queue_size,
        breaker: breaker(table, raw)?,
    })
}

/// `breaker_failures` (0..=1000, 0 turns it off) and
/// `breaker_cooldown_ms`, with the defaults of [`BreakerConfig`].
fn breaker(table: &Table<'_>, raw: &RawSubscriber) -> Result<BreakerConfig, ConfigError> {
    let default = BreakerConfig::default();
    Ok(BreakerConfig {
        failures: table.int(
            raw.breaker_failures.as_ref(),
            "breaker_failures",
            0..=1000,
            default.failures,
        )?,
        cooldown: millis(
            table.at,
            raw.breaker_cooldown_ms.as_ref(),
            &table.key("breaker_cooldown_ms"),
            default.cooldown,
        )?,
    })
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
