//! One layer's file to a [`LayerFile`]: every semantic check, each
//! pointing at the span of the value it rejects, and for each
//! `[[subscriber]]` table what it does to the layers below (defines,
//! adds to, or removes a subscriber). `build` turns the merged tables into
//! typed subscribers.

use std::collections::HashSet;

use hookgate_adapters::FailMode;
use toml::Spanned;

use super::error::{ConfigError, Locator, Place};
use super::layers::{Does, LayerFile, Stack, Written, only_in_system};
use super::numbers::{int_or, millis};
use super::otel::otel_section;
use super::raw::{RawBuiltin, RawConfig, RawEndpoints, RawFailMode, RawServer, RawSubscriber};
use super::values::{Platform, check_metrics_addr, check_socket};
use super::{Env, Layer, ServerConfig, SubscriberConfig};

/// Parses one layer's file over `below` (the layers under it, merged;
/// `base` their `[server]`).
pub(super) fn parse_layer(
    origin: &str,
    text: &str,
    env: &Env,
    layer: Layer,
    base: &ServerConfig,
    below: &Stack,
) -> Result<LayerFile, ConfigError> {
    let at = Locator { file: origin, text };
    let raw: RawConfig = toml::from_str(text).map_err(|err| at.toml_error(&err))?;
    let server_keys = written_keys(text, "server");
    let sections = [
        ("http", raw.http.is_some()),
        ("ui", raw.ui.is_some()),
        ("otel", raw.otel.is_some()),
        ("identity", !written_keys(text, "identity").is_empty()),
    ]
    .into_iter()
    .filter(|(_, written)| *written)
    .map(|(name, _)| name.to_owned())
    .collect();
    let server = server(&at, raw.server, base, layer)?;
    let otel = match &raw.otel {
        None => None,
        Some(otel) => otel_section(&at, otel, layer)?,
    };
    let http = raw.http.map(|h| super::http::http(&at, h)).transpose()?;
    let ui = raw.ui.map(|u| super::ui::ui(&at, u)).transpose()?;
    let identity = super::identity::identity(&at, raw.identity)?;
    let embedded = raw.defaults.embedded.is_none_or(Spanned::into_inner);
    let mut names = HashSet::new();
    let mut tables = subscriber_tables(text).into_iter();
    let mut written = Vec::with_capacity(raw.subscriber.len());
    for (index, sub) in raw.subscriber.into_iter().enumerate() {
        let key = |field: &str| format!("subscriber[{index}].{field}");
        let table = tables
            .next()
            .unwrap_or_else(|| toml::Value::Table(toml::Table::new()));
        if !names.insert(sub.name.get_ref().clone()) {
            return Err(at.error(
                sub.name.span(),
                key("name"),
                format!("duplicate subscriber name `{}`", sub.name.get_ref()),
            ));
        }
        only_in_system(&at, layer, sub.locked.as_ref(), &key("locked"))?;
        written.push(table_of(
            &at, env, sub, table, &key, layer, below, embedded,
        )?);
    }
    Ok(LayerFile {
        layer,
        server,
        server_keys,
        sections,
        otel,
        http,
        ui,
        identity,
        embedded,
        tables: written,
    })
}

/// One `[[subscriber]]` table: checked as what it does to the layers
/// below.
#[expect(
    clippy::too_many_arguments,
    reason = "the table, where it is and what lies under it, each used once"
)]
fn table_of(
    at: &Locator<'_>,
    env: &Env,
    mut sub: RawSubscriber,
    table: toml::Value,
    key: &dyn Fn(&str) -> String,
    layer: Layer,
    below: &Stack,
    embedded: bool,
) -> Result<Written, ConfigError> {
    let name = sub.name.get_ref().clone();
    let name_span = sub.name.span();
    let place = at.place(name_span.clone());
    let mut table = match table {
        toml::Value::Table(table) => table,
        _ => toml::Table::new(),
    };
    let full = table.contains_key("builtin") || table.contains_key("endpoint");
    if at.file != super::EMBEDDED_NAME {
        super::rego::anchor_paths(at.file, &mut table);
    }
    table.remove("enabled");
    table.remove("replace");
    if sub.enabled.as_ref().is_some_and(|e| !*e.get_ref()) {
        return Ok(Written {
            name,
            does: Does::Disable,
            table,
            place,
            full,
        });
    }
    let replace = sub.replace.as_ref().is_some_and(|r| *r.get_ref());
    let lower = below.visible(&name, embedded).filter(|_| !replace);
    let does = match lower {
        Some(lower) => {
            inherit_kind(at, &mut sub, lower, key, name_span)?;
            Does::Extend
        }
        None => {
            if let Some(span) = disabling_rule(&sub) {
                return Err(at.error(
                    span,
                    key("rules"),
                    format!(
                        "`enabled = false` removes a lower layer's rule, but this table defines \
                         `{name}` anew"
                    ),
                ));
            }
            Does::Define
        }
    };
    // Checked now, so a mistake is reported at its line in this file; the
    // subscriber itself is built from the merged tables (`build`). Not the
    // embedded default's: its text is ours (its tests build it), and
    // checking it here compiled its guard a second time at every start and
    // reload, or for nothing when `embedded = false` drops it.
    if layer != Layer::Default {
        let written = toml::Value::Table(table.clone());
        super::subscriber::subscriber(at, env, sub, &written, key, layer)?;
    }
    Ok(Written {
        name,
        does,
        table,
        place,
        full,
    })
}

/// An extending table is of its lower layer's kind: a built-in stays that
/// built-in, a remote subscriber remote (its `endpoint` may change).
/// Unwritten, the kind is taken from below (at the table's name, for
/// errors); written otherwise, it is an error.
fn inherit_kind(
    at: &Locator<'_>,
    sub: &mut RawSubscriber,
    lower: &toml::Table,
    key: &dyn Fn(&str) -> String,
    name_span: std::ops::Range<usize>,
) -> Result<(), ConfigError> {
    let lower_builtin = lower.get("builtin").and_then(toml::Value::as_str);
    let change = |span, what: &str| {
        at.error(
            span,
            key(what),
            format!(
                "a lower layer defines `{}` as {}; this table adds to it, so it cannot change \
                 its kind (add `replace = true` to define it anew)",
                sub.name.get_ref(),
                lower_builtin.map_or("a remote subscriber".to_owned(), |b| format!(
                    "the built-in `{b}`"
                )),
            ),
        )
    };
    match (&sub.builtin, &sub.endpoint, lower_builtin) {
        (Some(builtin), _, Some(lower))
            if super::kind::builtin(*builtin.get_ref()).name != lower =>
        {
            return Err(change(builtin.span(), "builtin"));
        }
        (_, Some(endpoint), Some(_)) => return Err(change(endpoint.span(), "endpoint")),
        (Some(builtin), _, None) => return Err(change(builtin.span(), "builtin")),
        _ => {}
    }
    match lower_builtin {
        Some(lower) if sub.builtin.is_none() => {
            // The lower layer was read already: its name is one of ours.
            let builtin = toml::Value::from(lower)
                .try_into::<RawBuiltin>()
                .unwrap_or(RawBuiltin::Guard);
            sub.builtin = Some(Spanned::new(name_span, builtin));
        }
        None if sub.endpoint.is_none() => {
            let endpoint = lower
                .get("endpoint")
                .cloned()
                .and_then(|v| v.try_into::<RawEndpoints>().ok());
            sub.endpoint = endpoint.map(|e| Spanned::new(name_span, e));
        }
        _ => {}
    }
    Ok(())
}

/// The span of a rule written `enabled = false`, if any.
fn disabling_rule(sub: &RawSubscriber) -> Option<std::ops::Range<usize>> {
    sub.rules.as_ref()?.get_ref().iter().find_map(|rule| {
        rule.enabled
            .as_ref()
            .filter(|e| !*e.get_ref())
            .map(Spanned::span)
    })
}

/// The typed subscriber of one merged table. Each part was checked in
/// its own file; what can still fail here is a combination of parts from
/// two layers, reported at `place` (where the top layer names it).
pub(super) fn build(
    table: &toml::Table,
    env: &Env,
    place: &Place,
) -> Result<SubscriberConfig, ConfigError> {
    let mut doc = toml::Table::new();
    doc.insert(
        "subscriber".to_owned(),
        toml::Value::Array(vec![toml::Value::Table(table.clone())]),
    );
    let text = toml::to_string(&doc).map_err(|err| place.error("subscriber", err.to_string()))?;
    let at = Locator {
        file: &place.file,
        text: &text,
    };
    let merged = |err: ConfigError| {
        place.error(
            err.key.as_deref().unwrap_or("subscriber"),
            format!("{} (in the merged layers)", err.message),
        )
    };
    let mut raw: RawConfig = toml::from_str(&text).map_err(|err| merged(at.toml_error(&err)))?;
    let Some(sub) = raw.subscriber.pop() else {
        return Err(place.error("subscriber", "an empty subscriber table"));
    };
    let key = |field: &str| format!("subscriber.{field}");
    // The merged table may hold the system layer's `locked` keys, already
    // checked where they were written.
    super::subscriber::subscriber(
        &at,
        env,
        sub,
        &toml::Value::Table(table.clone()),
        &key,
        Layer::System,
    )
    .map_err(merged)
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

/// The keys the file writes in its `[section]`.
fn written_keys(text: &str, section: &str) -> Vec<String> {
    toml::from_str::<toml::Table>(text)
        .ok()
        .and_then(|mut t| t.remove(section))
        .and_then(|v| match v {
            toml::Value::Table(t) => Some(t.keys().cloned().collect()),
            _ => None,
        })
        .unwrap_or_default()
}

fn server(
    at: &Locator<'_>,
    raw: RawServer,
    default: &ServerConfig,
    layer: Layer,
) -> Result<ServerConfig, ConfigError> {
    // A switch the hook path could flip would protect nothing: only the
    // managed layer, which the user's agent cannot write, holds it.
    let self_protection = match raw.self_protection {
        Some(value) if layer != Layer::System => {
            return Err(at.error(
                value.span(),
                "server.self_protection",
                "only the system config (/etc/hookgate/gateway.toml) can turn self-protection \
                 off (docs/self-protection.md)",
            ));
        }
        Some(value) => value.into_inner(),
        None => default.self_protection,
    };
    let socket = match raw.socket {
        None => default.socket.clone(),
        Some(s) => Some(check_socket(at, &s, "server.socket", Platform::CURRENT)?),
    };
    let metrics_addr = match raw.metrics_addr {
        None => default.metrics_addr,
        Some(addr) => Some(check_metrics_addr(at, &addr, "server.metrics_addr")?),
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
        max_followups: int_or(
            at,
            raw.max_followups.as_ref(),
            "server.max_followups",
            0..=100,
            default.max_followups,
        )?,
        self_protection,
        metrics_addr,
    })
}
