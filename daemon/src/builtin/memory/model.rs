//! The model endpoint memory compresses with, when `[subscriber.model]`
//! names one: an OpenAI-compatible chat completion or an Anthropic message,
//! sent over a small blocking HTTP client (rustls for `https://`) from the
//! compressor thread only, never from the hook path. Each request ends
//! within `timeout_ms`; the reply is read up to a byte cap and must hold
//! memory lines, else it is garbage. The key is read from its file or
//! variable at each request (a rotated key is used at once) and never
//! logged; the log sent was masked when it was captured.

use hookgate_config::{MemoryModel, ModelKind, TokenSource};
use hookgate_memory::{MODEL_INSTRUCTIONS, MemoryKind, model_prompt, parse_reply};
use serde_json::{Value, json};

/// A reply larger than this is refused (a model answers a few KiB).
const MAX_REPLY_BYTES: u64 = 256 * 1024;
/// A key is a line; this stops a runaway file.
const MAX_KEY_BYTES: u64 = 16 * 1024;

/// Why a compression by the model failed (the batch waits and is retried).
#[derive(Debug, thiserror::Error)]
pub(super) enum ModelError {
    #[error("model endpoint: {0}")]
    Transport(String),
    #[error("model endpoint answered HTTP {0}")]
    Status(u16),
    #[error("model endpoint's reply holds no memories")]
    Garbage,
    #[error("model key: {0}")]
    Key(String),
}

/// A client for one configured endpoint.
#[derive(Debug)]
pub(super) struct ModelClient {
    config: MemoryModel,
    agent: ureq::Agent,
}

impl ModelClient {
    pub(super) fn new(config: &MemoryModel) -> ModelClient {
        ModelClient {
            config: config.clone(),
            agent: hookgate_policy::fetch::http_agent(config.timeout),
        }
    }

    /// The log the model would be sent for `observations`
    /// ([`model_prompt`] within `max_input_bytes`); empty: nothing to ask.
    pub(super) fn log(&self, observations: &[hookgate_memory::Observation]) -> String {
        model_prompt(observations, self.config.max_input_bytes)
    }

    /// The memories the model makes of `log` (from [`ModelClient::log`]).
    pub(super) fn compress(&self, log: &str) -> Result<Vec<(MemoryKind, String)>, ModelError> {
        // Masked when captured; masked again, so nothing unmasked is sent
        // even from a database an older hookgate wrote.
        let log = hookgate_mask::mask_str(log);
        let key = self.key()?;
        let max_tokens = self.config.max_output_tokens;
        let (body, request) = match self.config.kind {
            ModelKind::OpenAi => {
                let body = json!({
                    "model": self.config.model,
                    "max_tokens": max_tokens,
                    "temperature": 0,
                    "messages": [
                        { "role": "system", "content": MODEL_INSTRUCTIONS },
                        { "role": "user", "content": log },
                    ],
                });
                let mut request = self.agent.post(&self.config.url);
                if let Some(key) = &key {
                    request = request.header("authorization", &format!("Bearer {key}"));
                }
                (body, request)
            }
            ModelKind::Anthropic => {
                let body = json!({
                    "model": self.config.model,
                    "max_tokens": max_tokens,
                    "system": MODEL_INSTRUCTIONS,
                    "messages": [{ "role": "user", "content": log }],
                });
                let mut request = self
                    .agent
                    .post(&self.config.url)
                    .header("anthropic-version", "2023-06-01");
                if let Some(key) = &key {
                    request = request.header("x-api-key", key);
                }
                (body, request)
            }
        };
        let mut response = request
            .header("content-type", "application/json")
            .send(body.to_string())
            .map_err(|err| ModelError::Transport(err.to_string()))?;
        let status = response.status().as_u16();
        if status != 200 {
            return Err(ModelError::Status(status));
        }
        let bytes = response
            .body_mut()
            .with_config()
            .limit(MAX_REPLY_BYTES)
            .read_to_vec()
            .map_err(|err| ModelError::Transport(err.to_string()))?;
        let reply: Value = serde_json::from_slice(&bytes).map_err(|_| ModelError::Garbage)?;
        let text = match self.config.kind {
            ModelKind::OpenAi => reply["choices"][0]["message"]["content"]
                .as_str()
                .map(str::to_owned),
            ModelKind::Anthropic => reply["content"].as_array().map(|blocks| {
                blocks
                    .iter()
                    .filter_map(|b| b["text"].as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
            }),
        };
        // What the model says is masked too before it is stored.
        let text = hookgate_mask::mask_str(&text.ok_or(ModelError::Garbage)?);
        parse_reply(&text).ok_or(ModelError::Garbage)
    }

    /// The key now, from its file or variable, if one is configured.
    fn key(&self) -> Result<Option<String>, ModelError> {
        let (value, from) = match &self.config.api_key {
            None => return Ok(None),
            Some(TokenSource::Env(name)) => (
                std::env::var(name).map_err(|_| ModelError::Key(format!("`{name}` is not set")))?,
                "api_key_env",
            ),
            Some(TokenSource::File(path)) => (
                hookgate_transport::files::read_to_string(path, MAX_KEY_BYTES)
                    .map_err(|err| ModelError::Key(format!("{}: {err}", path.display())))?,
                "api_key_file",
            ),
        };
        let key = value.trim();
        if key.is_empty() || !key.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(ModelError::Key(format!(
                "the key from {from} is empty or not one token"
            )));
        }
        Ok(Some(key.to_owned()))
    }
}
