//! Self-protection, the gateway's side: which files, processes and
//! services are hookgate's own, resolved when the gateway starts (and its
//! files again on every reload), for the guard's
//! [`Protection`] to hold against
//! every tool call. It runs as a built-in decider every registry has
//! ([`NAME`]): no user config can remove it, only the system config's
//! `[server] self_protection = false` (docs/self-protection.md).
//!
//! - `parts`: the paths (config, state, socket, token, decision log, the
//!   binaries, the agents' hook configs, the service units) and the
//!   gateway as a process;
//! - [`manifest`]: the record `gateway install` keeps of the shim and the
//!   configs it wrote, read here.

pub mod manifest;
mod parts;

use std::path::Path;
use std::sync::Arc;

use hookgate_adapters::EventKind;
use hookgate_guard::protect::Protection;

use crate::builtin::SelfProtection;
use crate::metrics::{Metrics, State, StateSource};
use crate::subscribers::{Decider, DeciderKind};
use hookgate_config::{Config, Env, Filter, Layer};

pub use parts::{AGENT_CONFIGS, LABELS, UNITS};

/// The built-in's name, in `gateway status`, the decision log and the
/// deciders' order (first); no configured subscriber may take it.
pub const NAME: &str = hookgate_config::SELF_PROTECTION_NAME;

/// The events it checks: the tool calls an agent lets a hook block, and
/// the agents' in-session config reloads.
const EVENTS: [EventKind; 4] = [
    EventKind::PreToolUse,
    EventKind::FileRead,
    EventKind::PermissionRequest,
    EventKind::ConfigChange,
];

/// What the gateway knows that its files depend on.
#[derive(Debug, Clone)]
pub(crate) struct Site {
    /// The socket served.
    pub(crate) socket: std::path::PathBuf,
    /// `--config`, when given.
    pub(crate) explicit: Option<std::path::PathBuf>,
    /// Off only by the system config (`[server] self_protection`), read at
    /// start.
    pub(crate) enabled: bool,
}

/// The self-protection decider for `config` at `site`, counted in
/// `metrics`; `None` when the system config turned it off. Reads the
/// install manifest and the binary's path: call it off the runtime.
pub(crate) fn decider(config: &Config, site: &Site, metrics: &Metrics) -> Option<Arc<Decider>> {
    if !site.enabled {
        return None;
    }
    let protection = protection(config, site, &Env::from_process());
    let stats = metrics.subscriber(NAME);
    stats.set_layer(Layer::Default, true);
    stats.set_state(State::Builtin, StateSource::Builtin);
    let filter = Filter::new(None, Some(EVENTS.to_vec()), None::<Vec<&str>>).unwrap_or_default();
    Some(Arc::new(Decider {
        name: NAME.to_owned(),
        priority: i32::MAX,
        filter,
        kind: DeciderKind::Builtin(Arc::new(SelfProtection::new(protection, &stats)), stats),
        shadow: false,
    }))
}

/// hookgate's state directory in `env`, as the shim resolves it
/// (`$XDG_STATE_HOME/hookgate`, else `~/.local/state/hookgate`).
pub(crate) fn state_dir(env: &Env) -> Option<std::path::PathBuf> {
    let var = |name: &str| match name {
        "XDG_STATE_HOME" => env.xdg_state_home.as_ref().map(|p| p.display().to_string()),
        "HOME" => env.home.as_ref().map(|p| p.display().to_string()),
        _ => None,
    };
    hookgate_wire::socket::state_dir(var).map(std::path::PathBuf::from)
}

/// hookgate's parts for `config` at `site`, in `env`.
pub(crate) fn protection(config: &Config, site: &Site, env: &Env) -> Protection {
    let home = env
        .home
        .as_deref()
        .and_then(Path::to_str)
        .map(str::to_owned);
    let paths = parts::paths(config, site, env);
    let processes = parts::processes();
    tracing::debug!(
        paths = paths.len(),
        "self-protection: hookgate's parts resolved"
    );
    Protection::new(paths, processes, home)
}
