//! What `gateway status` says about config reloads: the generation in
//! effect, when it was loaded, and how the last attempt went.

use std::sync::Mutex;

use serde::Serialize;

/// How one reload attempt ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A valid, different config now answers new events.
    Applied { generation: u64 },
    /// Valid, and the same subscribers and settings: nothing to do.
    Unchanged { generation: u64 },
    /// Refused (unreadable, invalid, or a subscriber could not be built):
    /// the running config stays.
    Invalid { generation: u64, error: String },
    /// Valid, but it weakens hookgate (`what`): refused, the running config
    /// stays, until `gateway reload --allow-weaker`.
    Weaker { generation: u64, what: String },
}

impl Outcome {
    /// The generation in effect after this attempt.
    pub fn generation(&self) -> u64 {
        match self {
            Outcome::Applied { generation }
            | Outcome::Unchanged { generation }
            | Outcome::Invalid { generation, .. }
            | Outcome::Weaker { generation, .. } => *generation,
        }
    }

    pub fn as_str(&self) -> &'static str {
        match self {
            Outcome::Applied { .. } => "applied",
            Outcome::Unchanged { .. } => "unchanged",
            Outcome::Invalid { .. } => "invalid",
            Outcome::Weaker { .. } => "weaker",
        }
    }

    /// Why it was refused, when it was.
    pub fn error(&self) -> Option<&str> {
        match self {
            Outcome::Invalid { error, .. } => Some(error),
            Outcome::Weaker { what, .. } => Some(what),
            Outcome::Applied { .. } | Outcome::Unchanged { .. } => None,
        }
    }
}

/// The reload part of the status document (stable JSON, fields only
/// added).
#[derive(Debug, Clone, Serialize)]
pub struct ReloadSnapshot {
    /// The config in effect: 1 as started, +1 per applied reload.
    pub generation: u64,
    /// When the config in effect was loaded (Unix milliseconds).
    pub loaded_at_ms: u64,
    /// The last reload attempt, if any: when, what asked for it
    /// (`signal`, `watch`, `admin`), how it ended (`applied`,
    /// `unchanged`, `invalid`, `weaker`) and, when refused, why.
    pub last_attempt_at_ms: Option<u64>,
    pub last_trigger: Option<&'static str>,
    pub last_result: Option<&'static str>,
    pub last_error: Option<String>,
    /// Attempts by how they ended.
    pub applied: u64,
    pub unchanged: u64,
    pub invalid: u64,
    /// Refused because they weaken hookgate (docs/self-protection.md).
    pub weaker: u64,
}

/// Shared between the reloader (writes) and reports (read); touched once
/// per reload, never on the hook path. Also holds the config files in
/// effect once a reload loaded them (before: those the gateway started
/// with, which the status source knows).
#[derive(Debug)]
pub struct ReloadStatus(Mutex<ReloadSnapshot>, Mutex<Option<Origins>>);

/// The config files in effect: the user's (or the embedded default's
/// name) and the system one under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origins {
    pub config: String,
    pub system_config: Option<String>,
}

impl Default for ReloadStatus {
    fn default() -> Self {
        ReloadStatus(
            Mutex::new(ReloadSnapshot {
                generation: 1,
                loaded_at_ms: crate::clock::now_ms(),
                last_attempt_at_ms: None,
                last_trigger: None,
                last_result: None,
                last_error: None,
                applied: 0,
                unchanged: 0,
                invalid: 0,
                weaker: 0,
            }),
            Mutex::new(None),
        )
    }
}

impl ReloadStatus {
    pub fn snapshot(&self) -> ReloadSnapshot {
        match self.0.lock() {
            Ok(state) => state.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    pub fn generation(&self) -> u64 {
        self.snapshot().generation
    }

    /// Records the config files a reload found valid (applied, or the
    /// same subscribers from another file: a first user config that says
    /// what the default says).
    pub fn set_origins(&self, origins: Origins) {
        let mut state = match self.1.lock() {
            Ok(state) => state,
            Err(poisoned) => poisoned.into_inner(),
        };
        *state = Some(origins);
    }

    /// The config files in effect, if a reload has loaded them.
    pub fn origins(&self) -> Option<Origins> {
        match self.1.lock() {
            Ok(state) => state.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Records an attempt asked for by `trigger`; for `applied`, the
    /// generation it gave.
    pub fn record(&self, trigger: &'static str, outcome: &Outcome) {
        let mut state = match self.0.lock() {
            Ok(state) => state,
            Err(poisoned) => poisoned.into_inner(),
        };
        let now = crate::clock::now_ms();
        state.last_attempt_at_ms = Some(now);
        state.last_trigger = Some(trigger);
        state.last_result = Some(outcome.as_str());
        state.last_error = None;
        match outcome {
            Outcome::Applied { generation } => {
                state.applied += 1;
                state.generation = *generation;
                state.loaded_at_ms = now;
            }
            Outcome::Unchanged { .. } => state.unchanged += 1,
            Outcome::Invalid { error, .. } => {
                state.invalid += 1;
                state.last_error = Some(error.clone());
            }
            Outcome::Weaker { what, .. } => {
                state.weaker += 1;
                state.last_error = Some(what.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attempts_move_the_generation_only_when_applied() {
        let status = ReloadStatus::default();
        let steps = [
            (Outcome::Applied { generation: 2 }, 2, None),
            (
                Outcome::Invalid {
                    generation: 2,
                    error: "gw.toml:1:1: bad".into(),
                },
                2,
                Some("gw.toml:1:1: bad"),
            ),
            (Outcome::Unchanged { generation: 2 }, 2, None),
            (Outcome::Applied { generation: 3 }, 3, None),
        ];
        for (outcome, generation, error) in steps {
            status.record("admin", &outcome);
            let snap = status.snapshot();
            assert_eq!(snap.generation, generation, "{outcome:?}");
            assert_eq!(snap.last_error.as_deref(), error, "{outcome:?}");
            assert_eq!(snap.last_result, Some(outcome.as_str()));
        }
        let snap = status.snapshot();
        assert_eq!((snap.applied, snap.invalid, snap.unchanged), (2, 1, 1));
    }
}
