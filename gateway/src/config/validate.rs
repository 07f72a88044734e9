//! Raw config to typed [`Config`]: every semantic check, each pointing at
//! the span of the value it rejects.

use std::collections::HashSet;
use std::ops::Range;
use std::time::Duration;

use hookgate_adapters::FailMode;
use toml::Spanned;

use super::error::{ConfigError, Locator};
use super::raw::{
    RawBuiltin, RawConfig, RawFailMode, RawMode, RawOnError, RawServer, RawSubscriber,
};
use super::rules::guard_rule;
use super::values::{Platform, audit_path, check_endpoint, check_socket};
use super::{
    BreakerConfig, Config, Env, Mode, OnError, ServerConfig, SubscriberConfig, SubscriberKind,
};
use crate::builtin::guard::Guard;
use crate::subscribers::filter::Filter;

const DEFAULT_TIMEOUT_MS: i64 = 200;
const MAX_TIMEOUT_MS: i64 = 60_000;
const DEFAULT_QUEUE: i64 = 1024;
const MAX_QUEUE: i64 = 65_536;
/// The audit log rotates past 64 MiB by default, keeping 5 old files.
const DEFAULT_AUDIT_KIB: i64 = 64 * 1024;
const MAX_AUDIT_KIB: i64 = 4 * 1024 * 1024;
const DEFAULT_AUDIT_KEEP: i64 = 5;

pub(super) fn parse(origin: &str, text: &str, env: &Env) -> Result<Config, ConfigError> {
    let at = Locator { file: origin, text };
    let raw: RawConfig = toml::from_str(text).map_err(|err| at.toml_error(&err))?;
    let server = server(&at, raw.server)?;
    let http = raw.http.map(|h| super::http::http(&at, h)).transpose()?;
    let mut names = HashSet::new();
    let mut tables = subscriber_tables(text).into_iter();
    let mut subscribers = Vec::with_capacity(raw.subscriber.len());
    for (index, sub) in raw.subscriber.into_iter().enumerate() {
        let key = |field: &str| format!("subscriber[{index}].{field}");
        if !names.insert(sub.name.get_ref().clone()) {
            return Err(at.error(
                sub.name.span(),
                key("name"),
                format!("duplicate subscriber name `{}`", sub.name.get_ref()),
            ));
        }
        let mut sub = subscriber(&at, env, sub, &key)?;
        sub.settings = tables.next().unwrap_or(toml::Value::Boolean(false));
        subscribers.push(sub);
    }
    Ok(Config {
        origin: origin.to_owned(),
        server,
        subscribers,
        http,
    })
}

/// Each `[[subscriber]]` table as written (no spans, comments or layout),
/// so a reload can tell an unchanged subscriber from a changed one. The
/// text already deserialized once, so this cannot fail in practice; an
/// empty list then just means nothing is reused.
fn subscriber_tables(text: &str) -> Vec<toml::Value> {
    let Ok(mut table) = toml::from_str::<toml::Table>(text) else {
        return Vec::new();
    };
    match table.remove("subscriber") {
        Some(toml::Value::Array(tables)) => tables,
        _ => Vec::new(),
    }
}

fn in_range(
    at: &Locator<'_>,
    value: &Spanned<i64>,
    key: &str,
    min: i64,
    max: i64,
) -> Result<i64, ConfigError> {
    let v = *value.get_ref();
    if (min..=max).contains(&v) {
        Ok(v)
    } else {
        Err(at.error(
            value.span(),
            key,
            format!("{v} is out of range {min}..={max}"),
        ))
    }
}

fn millis(
    at: &Locator<'_>,
    value: Option<&Spanned<i64>>,
    key: &str,
    default: Duration,
) -> Result<Duration, ConfigError> {
    match value {
        None => Ok(default),
        Some(v) => Ok(Duration::from_millis(
            in_range(at, v, key, 1, 600_000)?.unsigned_abs(),
        )),
    }
}

fn server(at: &Locator<'_>, raw: RawServer) -> Result<ServerConfig, ConfigError> {
    let default = ServerConfig::default();
    let socket = match raw.socket {
        None => None,
        Some(s) => Some(check_socket(at, &s, "server.socket", Platform::CURRENT)?),
    };
    let max_connections = match &raw.max_connections {
        None => default.max_connections,
        Some(v) => {
            usize::try_from(in_range(at, v, "server.max_connections", 1, 65_536)?).unwrap_or(1)
        }
    };
    Ok(ServerConfig {
        socket,
        max_connections,
        queue_wait: millis(
            at,
            raw.queue_wait_ms.as_ref(),
            "server.queue_wait_ms",
            default.queue_wait,
        )?,
        read_timeout: millis(
            at,
            raw.read_timeout_ms.as_ref(),
            "server.read_timeout_ms",
            default.read_timeout,
        )?,
        shutdown_grace: millis(
            at,
            raw.shutdown_grace_ms.as_ref(),
            "server.shutdown_grace_ms",
            default.shutdown_grace,
        )?,
        on_unparsed: match raw.on_unparsed.map(Spanned::into_inner) {
            None | Some(RawFailMode::Open) => FailMode::Open,
            Some(RawFailMode::Closed) => FailMode::Closed,
        },
        memory_budget: match &raw.memory_budget_mib {
            None => default.memory_budget,
            Some(v) => {
                let mib = in_range(at, v, "server.memory_budget_mib", 64, 65_536)?;
                usize::try_from(mib).unwrap_or(64) << 20
            }
        },
    })
}

/// Rejects `field` when present: it means nothing for this kind of subscriber.
fn forbid<T>(
    at: &Locator<'_>,
    field: &Option<Spanned<T>>,
    key: String,
    why: &str,
) -> Result<(), ConfigError> {
    match field {
        Some(value) => Err(at.error(value.span(), key, why.to_owned())),
        None => Ok(()),
    }
}

/// Rejects a `mode` other than `only` (a built-in has one fixed mode).
fn only_mode(
    at: &Locator<'_>,
    mode: &Option<Spanned<RawMode>>,
    only: RawMode,
    key: String,
    why: &str,
) -> Result<(), ConfigError> {
    match mode {
        Some(mode) if *mode.get_ref() != only => Err(at.error(mode.span(), key, why.to_owned())),
        _ => Ok(()),
    }
}

fn subscriber(
    at: &Locator<'_>,
    env: &Env,
    raw: RawSubscriber,
    key: &dyn Fn(&str) -> String,
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
    let priority = match &raw.priority {
        None => 0,
        Some(p) => i32::try_from(in_range(
            at,
            p,
            &key("priority"),
            i32::MIN.into(),
            i32::MAX.into(),
        )?)
        .unwrap_or(0),
    };
    let filter = filter(at, &raw, name_span.clone(), key)?;
    let queue_size = match &raw.queue_size {
        None => DEFAULT_QUEUE,
        Some(q) => in_range(at, q, &key("queue_size"), 1, MAX_QUEUE)?,
    }
    .unsigned_abs() as usize;

    let kind = match (raw.builtin, raw.endpoint) {
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
                format!(
                    "subscriber `{name}` needs an `endpoint` (or `builtin = \"audit\"|\"guard\"`)"
                ),
            ));
        }
        (None, Some(endpoint)) => {
            let why = "only the built-in `audit` rotates";
            forbid(at, &raw.max_size_kib, key("max_size_kib"), why)?;
            forbid(at, &raw.keep, key("keep"), why)?;
            forbid(
                at,
                &raw.path,
                key("path"),
                "only the built-in `audit` has a `path`",
            )?;
            forbid(
                at,
                &raw.rules,
                key("rules"),
                "only the built-in `guard` has `rules`",
            )?;
            let timeout = match &raw.timeout_ms {
                None => DEFAULT_TIMEOUT_MS,
                Some(t) => in_range(at, t, &key("timeout_ms"), 1, MAX_TIMEOUT_MS)?,
            };
            let breaker = breaker(
                at,
                raw.breaker_failures.as_ref(),
                raw.breaker_cooldown_ms.as_ref(),
                key,
            )?;
            SubscriberKind::Remote {
                endpoint: check_endpoint(at, &endpoint, &key("endpoint"), Platform::CURRENT)?,
                mode: match raw.mode.map(Spanned::into_inner) {
                    None | Some(RawMode::Decide) => Mode::Decide,
                    Some(RawMode::Observe) => Mode::Observe,
                    Some(RawMode::Shadow) => Mode::Shadow,
                },
                timeout: Duration::from_millis(timeout.unsigned_abs()),
                on_error: match raw.on_error.map(Spanned::into_inner) {
                    None | Some(RawOnError::Allow) => OnError::Allow,
                    Some(RawOnError::Deny) => OnError::Deny,
                },
                queue_size,
                breaker,
            }
        }
        (Some(builtin), None) => {
            let why = "not used by built-in subscribers";
            forbid(at, &raw.timeout_ms, key("timeout_ms"), why)?;
            forbid(at, &raw.on_error, key("on_error"), why)?;
            forbid(at, &raw.breaker_failures, key("breaker_failures"), why)?;
            forbid(
                at,
                &raw.breaker_cooldown_ms,
                key("breaker_cooldown_ms"),
                why,
            )?;
            match builtin.into_inner() {
                RawBuiltin::Audit => {
                    only_mode(
                        at,
                        &raw.mode,
                        RawMode::Observe,
                        key("mode"),
                        "the built-in `audit` only observes",
                    )?;
                    forbid(
                        at,
                        &raw.rules,
                        key("rules"),
                        "only the built-in `guard` has `rules`",
                    )?;
                    let max_kib = match &raw.max_size_kib {
                        None => DEFAULT_AUDIT_KIB,
                        Some(v) => in_range(at, v, &key("max_size_kib"), 1, MAX_AUDIT_KIB)?,
                    };
                    let keep = match &raw.keep {
                        None => DEFAULT_AUDIT_KEEP,
                        Some(v) => in_range(at, v, &key("keep"), 0, 1000)?,
                    };
                    SubscriberKind::Audit {
                        path: audit_path(at, env, raw.path, &key("path"), name_span)?,
                        queue_size,
                        max_bytes: max_kib.unsigned_abs() * 1024,
                        keep: usize::try_from(keep).unwrap_or(0),
                    }
                }
                RawBuiltin::Guard => {
                    let why = "only the built-in `audit` rotates";
                    forbid(at, &raw.max_size_kib, key("max_size_kib"), why)?;
                    forbid(at, &raw.keep, key("keep"), why)?;
                    only_mode(
                        at,
                        &raw.mode,
                        RawMode::Decide,
                        key("mode"),
                        "the built-in `guard` only decides",
                    )?;
                    forbid(
                        at,
                        &raw.path,
                        key("path"),
                        "only the built-in `audit` has a `path`",
                    )?;
                    forbid(
                        at,
                        &raw.queue_size,
                        key("queue_size"),
                        "the built-in `guard` has no queue",
                    )?;
                    let rules = raw.rules.map(Spanned::into_inner).unwrap_or_default();
                    let rules = rules
                        .into_iter()
                        .enumerate()
                        .map(|(i, rule)| guard_rule(at, rule, &key(&format!("rules[{i}]"))))
                        .collect::<Result<Vec<_>, _>>()?;
                    let home = env
                        .home
                        .as_ref()
                        .and_then(|h| h.to_str())
                        .map(str::to_owned);
                    SubscriberKind::Guard {
                        guard: Guard::new(rules).with_home(home),
                    }
                }
            }
        }
    };
    Ok(SubscriberConfig {
        name,
        priority,
        filter,
        kind,
        settings: toml::Value::Boolean(false),
    })
}

/// `breaker_failures` (0..=1000, 0 turns it off) and
/// `breaker_cooldown_ms`, with the defaults of [`BreakerConfig`].
fn breaker(
    at: &Locator<'_>,
    failures: Option<&Spanned<i64>>,
    cooldown_ms: Option<&Spanned<i64>>,
    key: &dyn Fn(&str) -> String,
) -> Result<BreakerConfig, ConfigError> {
    let default = BreakerConfig::default();
    let failures = match failures {
        None => default.failures,
        Some(n) => u32::try_from(in_range(at, n, &key("breaker_failures"), 0, 1000)?)
            .unwrap_or(default.failures),
    };
    let cooldown = millis(
        at,
        cooldown_ms,
        &key("breaker_cooldown_ms"),
        default.cooldown,
    )?;
    Ok(BreakerConfig { failures, cooldown })
}

fn builtin_name(builtin: RawBuiltin) -> &'static str {
    match builtin {
        RawBuiltin::Audit => "audit",
        RawBuiltin::Guard => "guard",
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
