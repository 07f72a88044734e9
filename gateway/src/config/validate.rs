//! Raw config to typed [`Config`]: every semantic check, each pointing at
//! the span of the value it rejects.

use std::collections::HashSet;

use hookgate_adapters::FailMode;
use toml::Spanned;

use super::error::{ConfigError, Locator};
use super::layers::only_in_system;
use super::numbers::{int_or, millis};
use super::otel::otel_section;
use super::raw::{RawConfig, RawFailMode, RawServer};
use super::values::{Platform, check_socket};
use super::{Config, Env, Layer, ServerConfig};

/// Parses one layer's file; `base` holds the `[server]` values of the
/// layer below (a key this file leaves out keeps that value).
pub(super) fn parse(
    origin: &str,
    text: &str,
    env: &Env,
    layer: Layer,
    base: &ServerConfig,
) -> Result<Config, ConfigError> {
    let at = Locator { file: origin, text };
    let raw: RawConfig = toml::from_str(text).map_err(|err| at.toml_error(&err))?;
    let server = server(&at, raw.server, base)?;
    let otel = match &raw.otel {
        None => None,
        Some(otel) => otel_section(&at, otel, layer)?,
    };
    let http = raw.http.map(|h| super::http::http(&at, h)).transpose()?;
    let identity = super::identity::identity(&at, raw.identity)?;
    let mut names = HashSet::new();
    let mut tables = subscriber_tables(text).into_iter();
    let mut subscribers = Vec::with_capacity(raw.subscriber.len());
    let mut disabled = Vec::new();
    for (index, sub) in raw.subscriber.into_iter().enumerate() {
        let key = |field: &str| format!("subscriber[{index}].{field}");
        let table = tables.next().unwrap_or(toml::Value::Boolean(false));
        if !names.insert(sub.name.get_ref().clone()) {
            return Err(at.error(
                sub.name.span(),
                key("name"),
                format!("duplicate subscriber name `{}`", sub.name.get_ref()),
            ));
        }
        only_in_system(&at, layer, sub.locked.as_ref(), &key("locked"))?;
        if sub.enabled.as_ref().is_some_and(|e| !*e.get_ref()) {
            disabled.push(sub.name.into_inner());
            continue;
        }
        let mut sub = super::subscriber::subscriber(&at, env, sub, &key, layer)?;
        sub.settings = table;
        subscribers.push(sub);
    }
    Ok(Config {
        origin: origin.to_owned(),
        server,
        subscribers,
        disabled,
        otel,
        refused: Vec::new(),
        system_origin: None,
        http,
        identity,
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

fn server(
    at: &Locator<'_>,
    raw: RawServer,
    default: &ServerConfig,
) -> Result<ServerConfig, ConfigError> {
    let socket = match raw.socket {
        None => default.socket.clone(),
        Some(s) => Some(check_socket(at, &s, "server.socket", Platform::CURRENT)?),
    };
    Ok(ServerConfig {
        socket,
        max_connections: int_or(
            at,
            raw.max_connections.as_ref(),
            "server.max_connections",
            1..=65_536,
            default.max_connections,
        )?,
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
            None => default.on_unparsed,
            Some(RawFailMode::Open) => FailMode::Open,
            Some(RawFailMode::Closed) => FailMode::Closed,
        },
        memory_budget: int_or(
            at,
            raw.memory_budget_mib.as_ref(),
            "server.memory_budget_mib",
            64..=65_536,
            default.memory_budget >> 20,
        )? << 20,
    })
}
