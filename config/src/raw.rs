//! The config file exactly as written: serde types with spans, so every
//! later check can point at the line of the key it rejects.
//!
//! `deny_unknown_fields` everywhere: a misspelt key is an error, never a
//! silently ignored setting. Values are checked in `validate`.

use serde::Deserialize;
use toml::Spanned;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawConfig {
    #[serde(default)]
    pub(super) server: RawServer,
    #[serde(default)]
    pub(super) subscriber: Vec<RawSubscriber>,
    pub(super) otel: Option<Spanned<RawOtel>>,
    pub(super) http: Option<super::http::RawHttp>,
    pub(super) ui: Option<super::ui::RawUi>,
    #[serde(default)]
    pub(super) identity: RawIdentity,
    #[serde(default)]
    pub(super) defaults: RawDefaults,
}

/// `[defaults]`: what this layer builds on.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDefaults {
    /// `false`: the embedded default's subscribers (`guard`, `audit`) are
    /// removed, as if each had `enabled = false`.
    pub(super) embedded: Option<Spanned<bool>>,
}

/// `[identity]`: who every event says it comes from.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawIdentity {
    pub(super) hostname: Option<Spanned<bool>>,
    pub(super) user: Option<Spanned<bool>>,
    pub(super) origin: Option<Spanned<String>>,
    pub(super) labels: Option<Spanned<std::collections::BTreeMap<String, String>>>,
}

/// A remote subscriber's `endpoint`: one, or a list to balance over.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum RawEndpoints {
    One(String),
    Many(Vec<String>),
}

/// `[otel]`: OpenTelemetry export (off when absent or `enabled = false`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawOtel {
    pub(super) enabled: Option<Spanned<bool>>,
    /// System layer only: the user config cannot replace this section.
    pub(super) locked: Option<Spanned<bool>>,
    /// The collector's OTLP/gRPC endpoint, `http://host:port`.
    pub(super) endpoint: Option<Spanned<String>>,
    pub(super) service_name: Option<Spanned<String>>,
    /// The fraction of hook events traced (0.0..=1.0); an incoming
    /// `traceparent`'s sampled flag wins.
    pub(super) sample_ratio: Option<Spanned<f64>>,
    /// Headers (`authorization = "..."`) read from environment variables:
    /// header name → variable name. Never the secret itself.
    pub(super) headers_env: Option<Spanned<toml::Table>>,
    /// A file of `name: value` lines, for secrets kept on disk.
    pub(super) headers_file: Option<Spanned<String>>,
    /// Send the headers over plaintext to a collector that is not on
    /// loopback anyway (refused unless said).
    pub(super) headers_over_plaintext: Option<Spanned<bool>>,
    /// Finished spans that may wait for export; past it, dropped and counted.
    pub(super) queue_size: Option<Spanned<i64>>,
    pub(super) export_timeout_ms: Option<Spanned<i64>>,
    /// How often metrics are exported.
    pub(super) metrics_interval_ms: Option<Spanned<i64>>,
    /// Attach the payload, masked, to each event's span.
    pub(super) payloads: Option<Spanned<bool>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawServer {
    pub(super) socket: Option<Spanned<String>>,
    pub(super) max_connections: Option<Spanned<i64>>,
    pub(super) queue_wait_ms: Option<Spanned<i64>>,
    pub(super) read_timeout_ms: Option<Spanned<i64>>,
    pub(super) shutdown_grace_ms: Option<Spanned<i64>>,
    pub(super) on_unparsed: Option<Spanned<RawFailMode>>,
    pub(super) memory_budget_mib: Option<Spanned<i64>>,
    pub(super) max_followups: Option<Spanned<i64>>,
    /// System layer only: hookgate's self-protection (on by default).
    pub(super) self_protection: Option<Spanned<bool>>,
    /// Prometheus `GET /metrics`: `"HOST:PORT"`, or a port on loopback.
    pub(super) metrics_addr: Option<Spanned<RawAddr>>,
}

/// An address with a port, or a port alone (on loopback).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum RawAddr {
    Port(i64),
    Addr(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum RawFailMode {
    Open,
    Closed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum RawMode {
    Decide,
    Observe,
    Shadow,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum RawOnError {
    Allow,
    Deny,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum RawBuiltin {
    Audit,
    Guard,
    Memory,
    Rego,
    Approval,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSubscriber {
    pub(super) name: Spanned<String>,
    /// System layer only: the user config cannot replace, weaken or
    /// disable this subscriber.
    pub(super) locked: Option<Spanned<bool>>,
    /// `false`: removes a lower layer's subscriber of this name (a locked
    /// one stays); needs nothing else.
    pub(super) enabled: Option<Spanned<bool>>,
    /// `true`: this table defines the subscriber anew instead of adding to
    /// a lower layer's of the same name.
    pub(super) replace: Option<Spanned<bool>>,
    pub(super) endpoint: Option<Spanned<RawEndpoints>>,
    /// Remote, `https://`: a PEM CA bundle instead of the system's roots.
    pub(super) tls_ca_file: Option<Spanned<String>>,
    /// Remote, `https://`: a client certificate and its key (mTLS).
    pub(super) tls_cert_file: Option<Spanned<String>>,
    pub(super) tls_key_file: Option<Spanned<String>>,
    /// Remote, `https://`: the name for SNI, certificate checks and `:authority`.
    pub(super) tls_server_name: Option<Spanned<String>>,
    /// Remote: the bearer token, from a file or an environment variable.
    pub(super) token_file: Option<Spanned<String>>,
    pub(super) token_env: Option<Spanned<String>>,
    pub(super) builtin: Option<Spanned<RawBuiltin>>,
    pub(super) mode: Option<Spanned<RawMode>>,
    pub(super) timeout_ms: Option<Spanned<i64>>,
    pub(super) on_error: Option<Spanned<RawOnError>>,
    pub(super) priority: Option<Spanned<i64>>,
    pub(super) agents: Option<Vec<Spanned<String>>>,
    pub(super) events: Option<Vec<Spanned<String>>>,
    pub(super) tools: Option<Vec<Spanned<String>>>,
    /// Remote: consecutive failures that open the circuit breaker (0: never).
    pub(super) breaker_failures: Option<Spanned<i64>>,
    /// Remote: how long an open breaker skips the subscriber.
    pub(super) breaker_cooldown_ms: Option<Spanned<i64>>,
    /// Observe and audit: how many events may wait for the worker.
    pub(super) queue_size: Option<Spanned<i64>>,
    /// Built-in `audit`: rotate past this size (KiB), keeping `keep` files.
    pub(super) max_size_kib: Option<Spanned<i64>>,
    pub(super) keep: Option<Spanned<i64>>,
    /// Built-in `audit`: the JSON-lines file; `memory`: the database.
    pub(super) path: Option<Spanned<String>>,
    /// Built-in `memory`: the database's size cap, in bytes.
    pub(super) max_bytes: Option<Spanned<i64>>,
    /// Built-in `memory`: the most memory text injected per event.
    pub(super) inject_bytes: Option<Spanned<i64>>,
    /// Built-in `memory`: project path globs it leaves alone.
    pub(super) exclude: Option<Vec<Spanned<String>>>,
    /// Built-in `memory`: days rows are kept (0: no limit).
    pub(super) retention_days: Option<Spanned<i64>>,
    /// Built-in `memory`: raw observations of a session that trigger an
    /// early compression.
    pub(super) compress_after: Option<Spanned<i64>>,
    /// Built-in `memory`: the model endpoint sessions are compressed with.
    pub(super) model: Option<Spanned<RawMemoryModel>>,
    /// Built-in `audit`: a file the chain head is also written to.
    pub(super) anchor: Option<Spanned<String>>,
    /// Built-in `guard`: the rules.
    pub(super) rules: Option<Spanned<Vec<RawRule>>>,
    /// Built-in `rego`: `.rego` files (globs in the file name allowed).
    pub(super) policy: Option<Spanned<Vec<String>>>,
    /// Built-in `rego`: JSON data files, merged into `data`.
    pub(super) data: Option<Spanned<Vec<String>>>,
    /// Built-in `rego`: the rule asked (default `data.hookgate.decision`).
    pub(super) query: Option<Spanned<String>>,
    /// Built-in `rego`: an OPA bundle's URL, polled.
    pub(super) bundle: Option<Spanned<String>>,
    pub(super) bundle_poll_ms: Option<Spanned<i64>>,
    /// Built-in `rego`: the PEM public key bundles are signed with...
    pub(super) bundle_key_file: Option<Spanned<String>>,
    /// ...its algorithm (`RS256`, `ES256`) and id (the JWT's `kid`).
    pub(super) bundle_key_alg: Option<Spanned<String>>,
    pub(super) bundle_key_id: Option<Spanned<String>>,
    /// Built-in `rego`: the scope signatures must carry.
    pub(super) bundle_scope: Option<Spanned<String>>,
    /// Built-in `rego`: refuse unsigned bundles (default: when a key is set).
    pub(super) bundle_signed: Option<Spanned<bool>>,
    /// Built-in `guard`: compare paths and command names without case
    /// (default: as the platform's file systems do).
    pub(super) case_insensitive: Option<Spanned<bool>>,
    /// Built-in `approval`: how long a matching call is held.
    pub(super) hold_ms: Option<Spanned<i64>>,
    /// Built-in `approval`: `deny` (default) or `allow` when nobody answered.
    pub(super) on_timeout: Option<Spanned<RawOnError>>,
    /// Built-in `approval`: calls held at once.
    pub(super) max_held: Option<Spanned<i64>>,
    /// Built-in `approval`: webhooks told of each held call.
    pub(super) webhooks: Option<Spanned<Vec<super::approval_notify::RawWebhook>>>,
    /// Built-in `approval`: a desktop notification per held call.
    pub(super) desktop: Option<Spanned<bool>>,
    /// Built-in `approval`: the console link notifications carry.
    pub(super) console_url: Option<Spanned<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum RawAction {
    Deny,
    Ask,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum RawAccess {
    Read,
    Write,
    Any,
}

/// One guard rule: one kind (`shell`, `file_path`, `mcp_tool`, `command`,
/// `path`, `fetch`), its modifiers, an action and a reason.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRule {
    /// Names the rule in the decision log and the counters; a lower
    /// layer's rule of the same id is replaced by this one.
    pub(super) id: Option<Spanned<String>>,
    /// `false` (with the `id` alone): removes a lower layer's rule.
    pub(super) enabled: Option<Spanned<bool>>,
    /// System layer only: the rule stays even if the user config replaces
    /// its guard.
    pub(super) locked: Option<Spanned<bool>>,
    pub(super) shell: Option<Spanned<String>>,
    pub(super) file_path: Option<Spanned<String>>,
    pub(super) mcp_tool: Option<Spanned<String>>,
    /// Command names (`rm`, `python*`).
    pub(super) command: Option<Spanned<Vec<String>>>,
    pub(super) subcommand: Option<Spanned<Vec<String>>>,
    pub(super) flags: Option<Spanned<Vec<String>>>,
    /// None of these flags is present.
    pub(super) without_flags: Option<Spanned<Vec<String>>>,
    pub(super) operand: Option<Spanned<String>>,
    /// A path regex, with `unless` and `access`.
    pub(super) path: Option<Spanned<String>>,
    pub(super) unless: Option<Spanned<String>>,
    pub(super) access: Option<Spanned<RawAccess>>,
    /// Fetcher names, with the interpreters in `into`.
    pub(super) fetch: Option<Spanned<Vec<String>>>,
    pub(super) into: Option<Spanned<Vec<String>>>,
    pub(super) action: Option<Spanned<RawAction>>,
    /// Required, except on an `enabled = false` entry.
    pub(super) reason: Option<Spanned<String>>,
}

/// Built-in `memory`: its `[subscriber.model]` table (memory_model.rs).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMemoryModel {
    pub(super) kind: Spanned<String>,
    pub(super) url: Spanned<String>,
    pub(super) model: Spanned<String>,
    pub(super) api_key_file: Option<Spanned<String>>,
    pub(super) api_key_env: Option<Spanned<String>>,
    pub(super) timeout_ms: Option<Spanned<i64>>,
    pub(super) max_input_bytes: Option<Spanned<i64>>,
    pub(super) max_output_tokens: Option<Spanned<i64>>,
}
