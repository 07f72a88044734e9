//! Config layers, bottom to top: the embedded default, the system's
//! managed file, the user's file. Each layer adds to the ones below.
//!
//! A `[[subscriber]]` whose name is new adds a subscriber. One whose name
//! a lower layer defines adds to that subscriber: the keys it writes win,
//! and a guard's `[[subscriber.rules]]` are added to the lower guard's (a
//! rule with a lower rule's `id` replaces it, with `enabled = false`
//! removes it; a rule the lower guard already has, word for word, is not
//! added twice). Removing or redefining is explicit: `enabled = false`
//! removes the subscriber, `replace = true` defines it anew, and
//! `[defaults] embedded = false` removes the embedded default's (`guard`
//! and `audit`). `[server]` keys merge one by one.
//!
//! What the system marks `locked = true` cannot be touched: a user table
//! that would replace, extend, weaken or disable it is ignored, not fatal,
//! so a typo in the user's file can never turn the machine's policy off,
//! and each refusal is logged and shown (with its count) in `gateway
//! status`. A system guard's locked rules survive the user replacing,
//! disabling or refiltering that guard, as their own guard `<name>.locked`
//! with the system's filter and priority.

mod rules;

use std::collections::BTreeMap;
use std::fmt;

use toml::Spanned;

use super::error::{ConfigError, Locator, Place};
use super::{HttpConfig, IdentityConfig, OtelConfig, ServerConfig, UiConfig};
pub use crate::layer::Layer;

/// One layer's file, checked (`validate`): what it adds to the layers below.
#[derive(Debug)]
pub(super) struct LayerFile {
    pub(super) layer: Layer,
    /// Over the `[server]` of the layers below (a key left out keeps
    /// their value).
    pub(super) server: ServerConfig,
    /// The `[server]` keys this file writes.
    pub(super) server_keys: Vec<String>,
    /// Which of `[http]`, `[ui]`, `[otel]` and `[identity]` it writes.
    pub(super) sections: Vec<String>,
    pub(super) otel: Option<OtelConfig>,
    pub(super) http: Option<HttpConfig>,
    pub(super) ui: Option<UiConfig>,
    pub(super) identity: IdentityConfig,
    /// `[defaults] embedded`: `false` removes the embedded default's
    /// subscribers first.
    pub(super) embedded: bool,
    pub(super) tables: Vec<Written>,
}

/// One thing a layer tried that a lock (or nothing to act on) refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The subscriber's name, `<name> rule <id>`, or `[otel]`.
    pub what: String,
    /// What was attempted: `replace`, `extend` or `disable`.
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

/// Which layer set each part of a merged subscriber.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Provenance {
    /// Key → the layer whose value it has.
    pub keys: BTreeMap<String, Layer>,
    /// Per rule (guards), in order.
    pub rules: Vec<Layer>,
}

/// What one layer's `[[subscriber]]` table does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Does {
    /// A new subscriber (or, with `replace = true`, one defined anew).
    Define,
    /// Adds to the lower layer's subscriber of this name.
    Extend,
    /// `enabled = false`: removes it.
    Disable,
}

/// One `[[subscriber]]` table of a layer, checked.
#[derive(Debug, Clone)]
pub(super) struct Written {
    pub(super) name: String,
    pub(super) does: Does,
    /// As written, without `enabled` and `replace`.
    pub(super) table: toml::Table,
    /// Where the file names it.
    pub(super) place: Place,
    /// It writes `builtin` or `endpoint`: it reads as a whole definition
    /// (an old copy of the default config), whatever it does.
    pub(super) full: bool,
}

/// One subscriber as the layers so far define it.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    pub(super) name: String,
    /// The merged table.
    pub(super) table: toml::Table,
    /// The layer whose table it started from.
    pub(super) defined_by: Layer,
    pub(super) provenance: Provenance,
    /// Where the top layer that touched it names it.
    pub(super) place: Place,
}

impl Entry {
    fn new(written: Written, layer: Layer) -> Entry {
        let rules = rules::count(&written.table);
        Entry {
            provenance: Provenance {
                keys: written.table.keys().map(|k| (k.clone(), layer)).collect(),
                rules: vec![layer; rules],
            },
            name: written.name,
            table: rules::without_switches(written.table),
            defined_by: layer,
            place: written.place,
        }
    }

    /// `locked = true` (system layer).
    pub(super) fn locked(&self) -> bool {
        self.table.get("locked").and_then(toml::Value::as_bool) == Some(true)
    }
}

/// The layers merged so far.
#[derive(Debug, Default)]
pub(super) struct Stack {
    pub(super) entries: Vec<Entry>,
    pub(super) refused: Vec<Refusal>,
    /// What a layer said that is probably not what it meant (logged, and
    /// shown by `gateway config check`).
    pub(super) warnings: Vec<String>,
}

impl Stack {
    /// The table of the subscriber `name` a layer with `[defaults]
    /// embedded = embedded` builds on.
    pub(super) fn visible(&self, name: &str, embedded: bool) -> Option<&toml::Table> {
        self.entries
            .iter()
            .find(|e| e.name == name)
            .filter(|e| embedded || !drops_with_default(e))
            .map(|e| &e.table)
    }

    /// Merges one layer's subscriber tables over the stack.
    pub(super) fn push(&mut self, file: &LayerFile) {
        let layer = file.layer;
        if !file.embedded {
            let defaults: Vec<String> = self
                .entries
                .iter()
                .filter(|e| drops_with_default(e))
                .map(|e| e.name.clone())
                .collect();
            for name in defaults {
                self.remove(&name, "disable", layer);
            }
        }
        for written in &file.tables {
            let index = self.entries.iter().position(|e| e.name == written.name);
            match (written.does, index) {
                (Does::Disable, None) => self.warnings.push(format!(
                    "{}: `{}` has `enabled = false`, but no lower layer defines it",
                    written.place, written.name
                )),
                (Does::Disable, Some(_)) => self.remove(&written.name, "disable", layer),
                (Does::Define, None) => self.entries.push(Entry::new(written.clone(), layer)),
                (Does::Define, Some(i)) => {
                    if self.refuse_if_locked(i, "replace") {
                        continue;
                    }
                    let old =
                        std::mem::replace(&mut self.entries[i], Entry::new(written.clone(), layer));
                    self.keep_locked_rules(old, i + 1);
                }
                (Does::Extend, Some(i)) => {
                    if !self.refuse_if_locked(i, "extend") {
                        self.extend(i, written, layer);
                    }
                }
                // Parsed over this stack, so an extension always has a base.
                (Does::Extend, None) => self.entries.push(Entry::new(written.clone(), layer)),
            }
        }
    }

    /// Removes `name` (keeping its locked rules), unless it is locked.
    fn remove(&mut self, name: &str, attempt: &'static str, _layer: Layer) {
        let Some(i) = self.entries.iter().position(|e| e.name == name) else {
            return;
        };
        if self.refuse_if_locked(i, attempt) {
            return;
        }
        let old = self.entries.remove(i);
        self.keep_locked_rules(old, i);
    }

    /// Records a refusal and says so when entry `i` is locked.
    fn refuse_if_locked(&mut self, i: usize, attempt: &'static str) -> bool {
        let entry = &self.entries[i];
        if entry.locked() {
            self.refused.push(Refusal {
                what: entry.name.clone(),
                attempt,
            });
        }
        entry.locked()
    }

    /// The locked rules of `old` (a guard going away or refiltered), as
    /// their own locked guard `<name>.locked` at `at`.
    fn keep_locked_rules(&mut self, old: Entry, at: usize) {
        if let Some(kept) = rules::locked_part(&old) {
            match self.entries.iter_mut().find(|e| e.name == kept.name) {
                Some(existing) => rules::append(existing, kept),
                None => self.entries.insert(at.min(self.entries.len()), kept),
            }
        }
    }

    /// Adds `written` to entry `i`.
    fn extend(&mut self, i: usize, written: &Written, layer: Layer) {
        if written.full {
            let missing = rules::left_out(&self.entries[i], &written.table);
            if !missing.is_empty() {
                self.warnings.push(format!(
                    "{}: `{}` writes `builtin` like a whole definition but leaves out {} of the \
                     lower layer's rules ({}); they still apply, since a table adds to the \
                     subscriber of its name. Add `replace = true` to use only this table's rules, \
                     or remove one rule with `[[subscriber.rules]] id = \"…\" enabled = false`",
                    written.place,
                    written.name,
                    missing.len(),
                    missing.join(", ")
                ));
            }
        }
        let refilters = written
            .table
            .keys()
            .any(|k| matches!(k.as_str(), "priority" | "agents" | "events" | "tools"));
        if refilters && rules::has_locked(&self.entries[i]) {
            let old = self.entries[i].clone();
            rules::drop_locked(&mut self.entries[i]);
            self.keep_locked_rules(old, i + 1);
        }
        let entry = &mut self.entries[i];
        for (key, value) in &written.table {
            if key == "rules" || key == "name" {
                continue;
            }
            entry.table.insert(key.clone(), value.clone());
            entry.provenance.keys.insert(key.clone(), layer);
        }
        let outcome = rules::merge(entry, &written.table, layer);
        entry.place = written.place.clone();
        self.refused.extend(outcome.refused);
        for id in outcome.not_found {
            self.warnings.push(format!(
                "{}: `{}` removes rule `{id}` (`enabled = false`), which no lower layer's `{}` has",
                written.place, written.name, written.name
            ));
        }
    }
}

/// Whether `[defaults] embedded = false` removes this entry: it comes
/// from the embedded default.
fn drops_with_default(entry: &Entry) -> bool {
    entry.defined_by == Layer::Default
}
