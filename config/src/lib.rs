//! The gateway's configuration: where it comes from, what it means.
//!
//! Three layers, bottom to top (`layers`: how each adds to the ones
//! below, and what the user cannot remove or weaken): the embedded
//! `config/default.toml`, the system's managed file when one exists, and
//! the user's TOML file: `--config PATH`, else
//! `$XDG_CONFIG_HOME/hookgate/gateway.toml` (or
//! `~/.config/hookgate/gateway.toml`; on Windows `%APPDATA%` stands in for
//! `$XDG_CONFIG_HOME`, see [`Env::from_process`]). `load` reads them.
//! Parsing happens in two steps: serde into span-carrying raw types
//! (`raw`), then `validate` into the typed [`Config`] below. Every
//! rejection names the file, line, column and key.

#![cfg_attr(
    test,
    allow(
        clippy::disallowed_methods,
        reason = "tests write config files; the runtime rules are for the gateway's own code"
    )
)]

mod approval;
mod approval_notify;
mod audit;
mod error;
pub mod filter;
mod http;
mod identity;
mod kind;
mod kind_keys;
mod layer;
mod layers;
mod load;
mod memory;
mod memory_model;
mod numbers;
mod otel;
mod raw;
mod rego;
mod remote;
mod rule_id;
mod rules;
mod show;
mod subscriber;
mod table;
mod ui;
mod validate;
mod values;

#[cfg(test)]
mod testing;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use hookgate_adapters::FailMode;
use hookgate_guard::Guard;

pub use approval::{ApprovalConfig, DEFAULT_HOLD_MS, DEFAULT_MAX_HELD, MAX_HOLD_MS};
pub use approval_notify::{MAX_WEBHOOKS, Notify, Webhook, WebhookFormat};
pub use error::{ConfigError, LoadError};
pub use filter::Filter;
pub use http::HttpConfig;
pub use identity::IdentityConfig;
pub use layers::{Layer, Provenance, Refusal};
pub use load::Source;
pub use memory::MemoryConfig;
pub use memory_model::{MemoryModel, ModelKind};
pub use otel::OtelConfig;
pub use rego::{BundleConfig, DEFAULT_QUERY, RegoConfig};
pub use remote::{Connection, TlsFiles, TokenSource};
pub use show::effective;
pub use ui::UiConfig;

/// The built-in self-protection's name (`crate::protect`), which no
/// configured subscriber may take.
pub const SELF_PROTECTION_NAME: &str = "self-protection";
/// The embedded default, so `gateway serve` is useful with no file at all.
pub const DEFAULT_TOML: &str = include_str!("default.toml");
/// What `gateway config init` writes: every example commented out, so it
/// changes nothing until the user edits it.
pub const STARTER_TOML: &str = include_str!("starter.toml");
/// Overrides the system config's path (tests, packagers).
pub const SYSTEM_CONFIG_VAR: &str = "HOOKGATE_SYSTEM_CONFIG";
/// How the embedded default is named in messages.
pub const EMBEDDED_NAME: &str = "<embedded default config>";
/// The shim's default `HOOKGATE_TIMEOUT_MS`: its deadline for the whole
/// exchange, waiting for a connection slot included.
pub const SHIM_DEFAULT_TIMEOUT: Duration = Duration::from_millis(5000);

/// A validated configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// The file it came from, or [`EMBEDDED_NAME`].
    pub origin: String,
    pub server: ServerConfig,
    /// In file order (merge keeps this order for equal priorities): the
    /// lower layers' first, each where it was defined, then the upper
    /// layers' new ones.
    pub subscribers: Vec<SubscriberConfig>,
    /// `[otel]`; `None`: no export.
    pub otel: Option<OtelConfig>,
    /// What the user config tried and the system config's locks refused.
    pub refused: Vec<Refusal>,
    /// What a layer said that is probably not what it meant (a table that
    /// reads as a whole definition but adds to one, `enabled = false` on
    /// a name no layer defines): logged at load, shown by `gateway config`.
    pub warnings: Vec<String>,
    /// The layers it was merged from, bottom to top.
    pub layers: Vec<(Layer, String)>,
    /// The layer whose value each `[server]` key written has (as
    /// `server.KEY`), and the layer `[http]`, `[otel]` and `[identity]`
    /// come from (as `http`, ...) when one wrote them.
    pub key_layers: BTreeMap<String, Layer>,
    /// The system config merged under this one, if any.
    pub system_origin: Option<String>,
    /// `[http]`: the HTTP hook endpoint, off when `None`.
    pub http: Option<HttpConfig>,
    /// `[ui]`: the local web console, off when `None`.
    pub ui: Option<UiConfig>,
    /// `[identity]`: who every event sent to remote subscribers says it
    /// comes from.
    pub identity: IdentityConfig,
}

/// `[server]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerConfig {
    /// `None`: the path the shim resolves (`hookgate_wire::socket`).
    pub socket: Option<PathBuf>,
    /// Most shim connections served at once.
    pub max_connections: usize,
    /// How long a new connection waits for a free slot before it is closed
    /// unanswered (the shim then applies its own fail mode).
    pub queue_wait: Duration,
    /// Deadline to read one whole request.
    pub read_timeout: Duration,
    /// How long in-flight events may finish after SIGINT/SIGTERM.
    pub shutdown_grace: Duration,
    /// `Closed`: block every payload that cannot be understood; `Open`:
    /// each hook call's own fail mode decides (a fail-closed shim's payload
    /// is still blocked).
    pub on_unparsed: FailMode,
    /// The most bytes held in flight at once (request frames being read,
    /// events queued for observers and the audit log, replies buffered);
    /// past it, new work is refused or dropped and counted.
    pub memory_budget: usize,
    /// The most stop events in a row one session may have answered with a
    /// follow-up; the next one's follow-up is left out (and counted), so
    /// the agent stops. Well below the agents' own caps (8), and a bound
    /// for the agents that have none.
    pub max_followups: u32,
    /// hookgate's self-protection (docs/self-protection.md): on unless
    /// the system config turns it off; no user config can.
    pub self_protection: bool,
    /// Prometheus metrics at `http://ADDR/metrics` (`serve
    /// --metrics-addr` wins); off when `None`.
    pub metrics_addr: Option<SocketAddr>,
}

/// `[server] max_followups` when the config does not say.
pub const DEFAULT_MAX_FOLLOWUPS: u32 = 3;

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            socket: None,
            max_connections: 256,
            queue_wait: Duration::from_millis(500),
            read_timeout: Duration::from_millis(2000),
            shutdown_grace: Duration::from_millis(5000),
            on_unparsed: FailMode::Open,
            memory_budget: 256 << 20,
            max_followups: DEFAULT_MAX_FOLLOWUPS,
            self_protection: true,
            metrics_addr: None,
        }
    }
}

/// Whether the gateway waits for a subscriber's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Awaited (in parallel with the others) before the agent gets a reply.
    Decide,
    /// Sent through a bounded queue, never awaited by the hook path.
    Observe,
    /// Called like a decider, under its deadline, but never awaited and
    /// never merged: its decisions are only counted (what it would have
    /// done), so a new policy can be tried on real traffic.
    Shadow,
}

/// What a failed or late decide subscriber counts as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnError {
    /// No opinion: fail open.
    Allow,
    /// A deny naming the subscriber: fail closed.
    Deny,
}

/// A remote subscriber's circuit breaker: after `failures` consecutive
/// failed calls it is not called for `cooldown` (its `on_error` applies at
/// once), then one probe call decides whether it closes again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BreakerConfig {
    /// 0: the breaker never opens.
    pub failures: u32,
    pub cooldown: Duration,
}

impl Default for BreakerConfig {
    fn default() -> Self {
        BreakerConfig {
            failures: 5,
            cooldown: Duration::from_millis(5000),
        }
    }
}

/// One `[[subscriber]]`.
#[derive(Debug, Clone)]
pub struct SubscriberConfig {
    pub name: String,
    /// Higher wins rewrite conflicts and comes first in joined text.
    pub priority: i32,
    pub filter: Filter,
    pub kind: SubscriberKind,
    /// The `[[subscriber]]` table as written: two configs' subscribers of
    /// one name with equal settings are the same subscriber, which a reload
    /// keeps (connections, queues, workers) instead of rebuilding.
    pub settings: toml::Value,
    /// The config layer it came from.
    pub layer: Layer,
    /// System layer: the user config cannot replace or disable it.
    pub locked: bool,
    /// Which layer set each of its keys and rules.
    pub provenance: Provenance,
}

impl SubscriberConfig {
    /// Same name and same settings as `other`.
    pub fn same_as(&self, other: &SubscriberConfig) -> bool {
        self.name == other.name && self.settings == other.settings && self.layer == other.layer
    }
}

/// What answers for a subscriber.
#[derive(Debug, Clone)]
pub enum SubscriberKind {
    /// A gRPC `hookgate.v1.Subscriber`.
    Remote {
        /// Its endpoints (`http://host:port`, `https://host:port` or
        /// `unix:///absolute/path`), TLS files and token source.
        connection: Connection,
        mode: Mode,
        timeout: Duration,
        on_error: OnError,
        /// Observe mode: the queue bound.
        queue_size: usize,
        breaker: BreakerConfig,
    },
    /// Built-in `audit`: JSON lines of every event and its merged decision.
    Audit {
        path: PathBuf,
        queue_size: usize,
        /// Rotate before the file would pass this size.
        max_bytes: u64,
        /// Rotated files kept (`<path>.1` newest).
        keep: usize,
        /// Where the chain head is also written after each write, if set:
        /// out of the agent's reach, it makes a rewrite of the whole chain
        /// detectable (`gateway audit verify --anchor`).
        anchor: Option<PathBuf>,
    },
    /// Built-in `guard`: its rules, in-process.
    Guard { guard: Guard },
    /// Built-in `rego`: a policy in Rego, from files or an OPA bundle.
    /// Boxed: it is much larger than the other kinds.
    Rego(Box<RegoConfig>),
    /// Built-in `memory`: what agents did, kept and told to later sessions.
    Memory(Box<MemoryConfig>),
    /// Built-in `approval`: holds matching calls for a person. Boxed, as
    /// `Rego`.
    Approval(Box<ApprovalConfig>),
}

impl Config {
    /// Decide subscribers whose deadline plus `queue_wait` reaches the
    /// shim's default timeout, with that sum: the shim would give up first
    /// and apply its own fail mode, so their `on_error` could never apply.
    pub fn outlasting_the_shim(&self) -> Vec<(&str, Duration)> {
        self.subscribers
            .iter()
            .filter_map(|sub| match &sub.kind {
                SubscriberKind::Remote {
                    mode: Mode::Decide,
                    timeout,
                    ..
                } => Some((sub.name.as_str(), *timeout + self.server.queue_wait)),
                _ => None,
            })
            .filter(|(_, total)| *total >= SHIM_DEFAULT_TIMEOUT)
            .collect()
    }

    /// Warns about what [`Config::outlasting_the_shim`] finds.
    fn warn_about_deadlines(&self) {
        for (name, total) in self.outlasting_the_shim() {
            tracing::warn!(
                subscriber = name,
                timeout_plus_queue_wait_ms = total.as_millis(),
                shim_timeout_ms = SHIM_DEFAULT_TIMEOUT.as_millis(),
                "the shim gives up before this subscriber's deadline and applies its own fail mode \
                 (on_error never applies); lower timeout_ms / queue_wait_ms or raise HOOKGATE_TIMEOUT_MS"
            );
        }
    }
}

/// `$XDG_RUNTIME_DIR` and hookgate's state directory
/// (`$XDG_STATE_HOME/hookgate`, else `~/.local/state/hookgate`), for
/// [`hookgate_transport::files::kept_dir_in`].
pub fn runtime_and_state_dirs() -> (Option<PathBuf>, Option<PathBuf>) {
    let runtime = std::env::var_os("XDG_RUNTIME_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let state = Env::from_process()
        .default_audit_path()
        .and_then(|audit| audit.parent().map(std::path::Path::to_path_buf));
    (runtime, state)
}

/// The environment config resolution depends on, injected so tests need
/// not mutate the process environment.
#[derive(Debug, Clone, Default)]
pub struct Env {
    pub home: Option<PathBuf>,
    pub xdg_config_home: Option<PathBuf>,
    pub xdg_state_home: Option<PathBuf>,
    /// The managed (system) config: `$HOOKGATE_SYSTEM_CONFIG`, else
    /// `/etc/hookgate/gateway.toml`, else on Windows
    /// `%ProgramData%\hookgate\gateway.toml`.
    pub system_config: Option<PathBuf>,
}

impl Env {
    /// The process's environment. Windows sets none of these variables but
    /// has a per-user place for each, private to the user: the profile
    /// (`%USERPROFILE%`), roaming settings (`%APPDATA%`) and local state
    /// (`%LOCALAPPDATA%`), used when the variable is unset.
    pub fn from_process() -> Env {
        Env::from_vars(|name| std::env::var_os(name))
    }

    /// [`Env::from_process`] over any variable lookup, so tests can state
    /// each platform's fallbacks without mutating the process environment.
    fn from_vars(lookup: impl Fn(&str) -> Option<OsString>) -> Env {
        let var = |name: &str| lookup(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let windows = |name: &str| if cfg!(windows) { var(name) } else { None };
        Env {
            home: var("HOME").or_else(|| windows("USERPROFILE")),
            xdg_config_home: var("XDG_CONFIG_HOME").or_else(|| windows("APPDATA")),
            xdg_state_home: var("XDG_STATE_HOME").or_else(|| windows("LOCALAPPDATA")),
            system_config: var(SYSTEM_CONFIG_VAR).or_else(|| {
                if cfg!(windows) {
                    var("ProgramData").map(|d| d.join("hookgate").join("gateway.toml"))
                } else {
                    Some(PathBuf::from("/etc/hookgate/gateway.toml"))
                }
            }),
        }
    }

    /// `$XDG_CONFIG_HOME/hookgate/gateway.toml`, else `~/.config/...`.
    pub fn user_config_path(&self) -> Option<PathBuf> {
        let base = self
            .xdg_config_home
            .clone()
            .or_else(|| self.home.as_ref().map(|h| h.join(".config")))?;
        Some(base.join("hookgate").join("gateway.toml"))
    }

    /// `$XDG_STATE_HOME/hookgate/audit.jsonl`, else `~/.local/state/...`.
    pub fn default_audit_path(&self) -> Option<PathBuf> {
        let base = self
            .xdg_state_home
            .clone()
            .or_else(|| self.home.as_ref().map(|h| h.join(".local").join("state")))?;
        Some(base.join("hookgate").join("audit.jsonl"))
    }
}
