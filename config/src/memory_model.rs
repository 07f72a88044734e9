//! The `memory` built-in's `[subscriber.model]` table: the model endpoint
//! sessions are compressed with (OpenAI-compatible chat completions or
//! Anthropic messages), the key from a file or an environment variable
//! (never the config text), how long one request may take and how much
//! is sent and asked for. Without it, compression stays the extractive
//! summary. Plain `http://` is for a model on loopback without a key
//! only: a key is never sent in the clear, as a remote subscriber's token
//! is not.

use std::time::Duration;

use toml::Spanned;

use super::TokenSource;
use super::error::ConfigError;
use super::raw::RawMemoryModel;
use super::table::Table;

const DEFAULT_TIMEOUT_MS: u64 = 30_000;
const MAX_TIMEOUT_MS: i64 = 300_000;
const DEFAULT_MAX_INPUT_BYTES: usize = 32 * 1024;
const MAX_MAX_INPUT_BYTES: i64 = 1 << 20;
const DEFAULT_MAX_OUTPUT_TOKENS: u32 = 1024;
const MAX_URL_BYTES: usize = 2048;

/// Which API the endpoint speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelKind {
    /// `POST` chat completions (`choices[0].message.content`).
    OpenAi,
    /// `POST` messages (`content[].text`).
    Anthropic,
}

/// A model endpoint for compression.
#[derive(Debug, Clone)]
pub struct MemoryModel {
    pub kind: ModelKind,
    /// The whole endpoint URL (`https://…/v1/chat/completions`).
    pub url: String,
    pub model: String,
    /// Where the key is read from at each request; `None`: no key sent.
    pub api_key: Option<TokenSource>,
    /// The longest one request may take.
    pub timeout: Duration,
    /// The most bytes of a session's log sent (the newest kept).
    pub max_input_bytes: usize,
    /// The `max_tokens` asked for.
    pub max_output_tokens: u32,
}

pub(super) fn memory_model(
    parent: &Table<'_>,
    raw: &RawMemoryModel,
) -> Result<MemoryModel, ConfigError> {
    let key = |name: &str| parent.key(&format!("model.{name}"));
    let table = parent.with_key(&key);
    let kind = match raw.kind.get_ref().as_str() {
        "openai" => ModelKind::OpenAi,
        "anthropic" => ModelKind::Anthropic,
        _ => {
            return Err(table.error(
                raw.kind.span(),
                "kind",
                "`openai` (chat completions) or `anthropic` (messages)",
            ));
        }
    };
    let url = raw.url.get_ref();
    check_url(url).map_err(|why| table.error(raw.url.span(), "url", why))?;
    let model = raw.model.get_ref();
    if model.is_empty() || model.len() > 256 || model.chars().any(char::is_control) {
        return Err(table.error(
            raw.model.span(),
            "model",
            "a model name, 1 to 256 characters",
        ));
    }
    let api_key = super::remote::secret_source(
        table.at,
        table.env,
        (raw.api_key_file.as_ref(), &key("api_key_file")),
        (raw.api_key_env.as_ref(), &key("api_key_env")),
        "key",
    )?;
    if api_key.is_some() && url.starts_with("http://") {
        let field = raw.api_key_file.as_ref().or(raw.api_key_env.as_ref());
        return Err(table.error(
            field.map_or(raw.url.span(), Spanned::span),
            if raw.api_key_file.is_some() { "api_key_file" } else { "api_key_env" },
            "a key is never sent over plaintext `http://`, not even to loopback: another local user \
             listening on the port while the model server is down would get it. Use `https://`",
        ));
    }
    Ok(MemoryModel {
        kind,
        url: url.clone(),
        model: model.clone(),
        api_key,
        timeout: table.timeout(raw.timeout_ms.as_ref(), MAX_TIMEOUT_MS, DEFAULT_TIMEOUT_MS)?,
        max_input_bytes: table.int(
            raw.max_input_bytes.as_ref(),
            "max_input_bytes",
            1024..=MAX_MAX_INPUT_BYTES,
            DEFAULT_MAX_INPUT_BYTES,
        )?,
        max_output_tokens: table.int(
            raw.max_output_tokens.as_ref(),
            "max_output_tokens",
            16..=32_768,
            DEFAULT_MAX_OUTPUT_TOKENS,
        )?,
    })
}

/// `https://host…`, or `http://` to a loopback host only.
fn check_url(url: &str) -> Result<(), &'static str> {
    if url.len() > MAX_URL_BYTES || url.chars().any(|c| c.is_control() || c == ' ') {
        return Err("a URL of at most 2048 characters, no spaces");
    }
    // `user:password@` before the host: a credential in the config's
    // text, and a host a reader misreads (`http://localhost:80@example.com/`
    // goes to example.com).
    let authority = url.split_once("://").map_or("", |(_, rest)| {
        rest.split(['/', '?', '#']).next().unwrap_or_default()
    });
    if authority.contains('@') {
        return Err(
            "no `user@` or `user:password@` in the URL: a key goes in `api_key_env` or `api_key_file`",
        );
    }
    if let Some(rest) = url.strip_prefix("https://") {
        return if rest.is_empty() || rest.starts_with('/') {
            Err("no host")
        } else {
            Ok(())
        };
    }
    if !url.starts_with("http://") {
        return Err("must start with `https://` (or `http://` to a loopback address)");
    }
    if super::otel::on_loopback(url) {
        Ok(())
    } else {
        Err(
            "plain `http://` only to a loopback address; use `https://` (the key would travel in the clear)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::check_url;

    #[test]
    fn plain_http_only_to_loopback() {
        for ok in [
            "https://api.openai.com/v1/chat/completions",
            "http://127.0.0.1:8080/v1/messages",
            "http://localhost/v1/chat/completions",
            "http://[::1]:9/v1",
        ] {
            assert_eq!(check_url(ok), Ok(()), "{ok}");
        }
        for bad in [
            "http://10.0.0.1/v1",
            "http://example.com/v1",
            "ftp://127.0.0.1/",
            "https:///v1",
            "https://a b",
            "http://localhost:80@example.com/v1",
            "http://127.0.0.1@example.com/v1",
            "http://[::1]@example.com/v1",
            "https://user:secret@api.example.com/v1",
        ] {
            assert!(check_url(bad).is_err(), "{bad}");
        }
    }
}
