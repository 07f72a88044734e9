//! Where the built-in `approval` says a call is held: outgoing webhooks
//! (`webhooks = [{ url, format, timeout_ms }]`), a desktop notification
//! (`desktop`), and the console link they carry (`console_url`). Checked
//! here so the gateway only ever POSTs to an `http(s)://` URL the user
//! wrote, a bounded number of times, each bounded in time.

use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use super::error::{ConfigError, Locator};
use super::numbers::int_or;

/// Webhooks one `approval` may have.
pub const MAX_WEBHOOKS: usize = 8;
/// The longest URL taken (a webhook's or the console's).
const MAX_URL_BYTES: usize = 2048;
/// A webhook's default and longest request time.
const DEFAULT_WEBHOOK_MS: u64 = 5000;
const MAX_WEBHOOK_MS: i64 = 30_000;

/// One webhook as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawWebhook {
    url: Spanned<String>,
    format: Option<Spanned<WebhookFormat>>,
    timeout_ms: Option<Spanned<i64>>,
}

/// The body a webhook gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WebhookFormat {
    /// A JSON object of the held call's summary (the default).
    Json,
    /// Slack's incoming-webhook body (`{"text": ...}`).
    Slack,
    /// ntfy's: the text as the body, the title in a header.
    Ntfy,
}

/// A webhook, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Webhook {
    pub url: String,
    pub format: WebhookFormat,
    /// The whole request's bound (connect, TLS, send, answer).
    pub timeout: Duration,
}

/// Where an `approval` says a call is held.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Notify {
    pub webhooks: Vec<Webhook>,
    /// A desktop notification (`notify-send`, `osascript`); off by default.
    pub desktop: bool,
    /// The console's address, linked from every notification.
    pub console_url: Option<String>,
}

/// The keys as written, validated.
pub(super) fn notify(
    at: &Locator<'_>,
    webhooks: Option<&Spanned<Vec<RawWebhook>>>,
    desktop: Option<&Spanned<bool>>,
    console_url: Option<&Spanned<String>>,
    key: &dyn Fn(&str) -> String,
) -> Result<Notify, ConfigError> {
    let mut out = Notify {
        desktop: desktop.is_some_and(|d| *d.get_ref()),
        ..Notify::default()
    };
    if let Some(url) = console_url {
        out.console_url = Some(checked_url(at, url, &key("console_url"))?);
    }
    let Some(list) = webhooks else {
        return Ok(out);
    };
    if list.get_ref().len() > MAX_WEBHOOKS {
        return Err(at.error(
            list.span(),
            key("webhooks"),
            format!("at most {MAX_WEBHOOKS} webhooks"),
        ));
    }
    for (i, raw) in list.get_ref().iter().enumerate() {
        let name = |field: &str| key(&format!("webhooks[{i}].{field}"));
        out.webhooks.push(Webhook {
            url: checked_url(at, &raw.url, &name("url"))?,
            format: raw
                .format
                .as_ref()
                .map_or(WebhookFormat::Json, |f| *f.get_ref()),
            timeout: Duration::from_millis(int_or(
                at,
                raw.timeout_ms.as_ref(),
                &name("timeout_ms"),
                1..=MAX_WEBHOOK_MS,
                DEFAULT_WEBHOOK_MS,
            )?),
        });
    }
    Ok(out)
}

/// An `http://` or `https://` URL with a host, within the length bound.
fn checked_url(at: &Locator<'_>, url: &Spanned<String>, key: &str) -> Result<String, ConfigError> {
    let text = url.get_ref();
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"));
    let host_ok = rest.is_some_and(|rest| {
        let host = rest.split(['/', '?', '#']).next().unwrap_or("");
        !host.is_empty() && !host.contains(char::is_whitespace)
    });
    if !host_ok || text.len() > MAX_URL_BYTES || text.chars().any(char::is_control) {
        return Err(at.error(
            url.span(),
            key,
            format!(
                "must be an http:// or https:// URL with a host, at most {MAX_URL_BYTES} bytes"
            ),
        ));
    }
    Ok(text.clone())
}
