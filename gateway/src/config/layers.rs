//! The managed configuration layer: a system file merged under the user's.
//!
//! The user's `[server]` keys override the system's key by key (see
//! `validate::parse`'s base); a user subscriber replaces the system one of
//! the same name, and `enabled = false` removes it. What the system marks
//! `locked = true` cannot be touched: a user subscriber or `[otel]` section
//! that would replace or disable it is ignored, not fatal, so a typo in the
//! user's file can never turn the machine's policy off, and each refusal is
//! logged and shown (with its count) in `gateway status`. A system guard's
//! locked rules survive the user replacing that guard, as their own guard
//! `<name>.locked` with the system's filter and priority.

use std::collections::HashMap;
use std::fmt;

use toml::Spanned;

use super::error::{ConfigError, Locator};
use super::{Config, SubscriberConfig, SubscriberKind};
pub use crate::layer::Layer;

/// One thing the user config tried that a system lock refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The subscriber's name, or `[otel]`.
    pub what: String,
    /// What was attempted: `replace` or `disable`.
    pub attempt: &'static str,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is locked by the system config; the user config's attempt to {} it is ignored",
            self.what, self.attempt
        )
    }
}

/// `locked` means something only in the system layer: a user cannot lock
/// against themselves, and a silently ignored key would mislead.
pub(super) fn only_in_system(
    at: &Locator<'_>,
    layer: Layer,
    locked: Option<&Spanned<bool>>,
    key: &str,
) -> Result<(), ConfigError> {
    match locked {
        Some(value) if layer != Layer::System => Err(at.error(
            value.span(),
            key,
            "only the system config (/etc/hookgate/gateway.toml) can lock",
        )),
        _ => Ok(()),
    }
}

/// The user's own entry for a system subscriber's name.
enum UserEntry {
    Replace(usize),
    Disable,
}

/// `user` (already parsed over `system.server`) merged over `system`.
pub(super) fn merge(system: Config, user: Option<Config>) -> Config {
    let system_origin = system.origin.clone();
    let Some(user) = user else {
        return Config {
            system_origin: Some(system_origin),
            ..system
        };
    };
    let mut entries: HashMap<&str, UserEntry> = HashMap::new();
    for (i, sub) in user.subscribers.iter().enumerate() {
        entries.insert(sub.name.as_str(), UserEntry::Replace(i));
    }
    for name in &user.disabled {
        entries.insert(name.as_str(), UserEntry::Disable);
    }
    let mut refused = Vec::new();
    let mut taken = vec![false; user.subscribers.len()];
    let mut out: Vec<SubscriberConfig> = Vec::new();
    for sub in system.subscribers {
        let entry = entries.get(sub.name.as_str());
        if let Some(UserEntry::Replace(i)) = entry {
            taken[*i] = true;
        }
        match entry {
            None => out.push(sub),
            Some(entry) if sub.locked => {
                refused.push(Refusal {
                    what: sub.name.clone(),
                    attempt: match entry {
                        UserEntry::Replace(_) => "replace",
                        UserEntry::Disable => "disable",
                    },
                });
                out.push(sub);
            }
            Some(_) => out.extend(locked_rules_of(sub)),
        }
    }
    for (sub, taken) in user.subscribers.into_iter().zip(taken) {
        // A taken name still in `out` is a locked system subscriber's,
        // refused above.
        if !(taken && out.iter().any(|s| s.name == sub.name)) {
            out.push(sub);
        }
    }
    // A user subscriber named like a generated `<name>.locked` guard.
    let mut seen = std::collections::HashSet::new();
    out.retain(|sub| {
        let first = seen.insert(sub.name.clone());
        if !first {
            refused.push(Refusal {
                what: sub.name.clone(),
                attempt: "replace",
            });
        }
        first
    });
    let otel = match (system.otel, user.otel) {
        (Some(system), Some(_)) if system.locked => {
            refused.push(Refusal {
                what: "[otel]".to_owned(),
                attempt: "replace",
            });
            Some(system)
        }
        (system, None) => system,
        (_, user) => user,
    };
    Config {
        origin: user.origin,
        server: user.server,
        subscribers: out,
        disabled: Vec::new(),
        otel,
        // The HTTP endpoint is the user's to turn on; a system file may
        // turn it on for everyone.
        http: user.http.or(system.http),
        // Who the events say they come from is the machine's unless the
        // user says otherwise: the user's file sets it whenever it has one.
        identity: user.identity,
        refused,
        system_origin: Some(system_origin),
    }
}

/// What stays of an unlocked system subscriber the user replaces or
/// disables: its locked guard rules, if any, under `<name>.locked`.
fn locked_rules_of(sub: SubscriberConfig) -> Option<SubscriberConfig> {
    let SubscriberKind::Guard {
        locked: Some(locked),
        ..
    } = sub.kind
    else {
        return None;
    };
    Some(SubscriberConfig {
        name: format!("{}.locked", sub.name),
        kind: SubscriberKind::Guard {
            guard: locked,
            locked: None,
        },
        locked: true,
        ..sub
    })
}
