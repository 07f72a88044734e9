//! [`builtin`]: the one place a built-in kind is named: its
//! `builtin = "…"` value, the keys it takes, the one mode it runs in and
//! the function that reads the rest (with a `table::Table`).

use toml::Spanned;

use super::SubscriberKind;
use super::error::ConfigError;
use super::kind_keys::Kind;
use super::raw::{RawBuiltin, RawMode, RawSubscriber};
use super::table::Table;

/// A built-in kind: how it is written and read.
pub(super) struct Builtin {
    /// Its `builtin = "…"` value.
    pub(super) name: &'static str,
    /// Which kind-specific keys it takes (`kind_keys`).
    pub(super) kind: Kind,
    /// The one `mode` it runs in, and why no other, if it has one.
    pub(super) only_mode: Option<(RawMode, &'static str)>,
    /// Reads its keys; the name, filter and queue are read already.
    pub(super) read: fn(&Table<'_>, &mut RawSubscriber) -> Result<SubscriberKind, ConfigError>,
}

/// Every built-in kind. Adding one: its `RawBuiltin` and row here, its
/// `Kind` and keys in `kind_keys`, its module with its `read`.
pub(super) fn builtin(raw: RawBuiltin) -> &'static Builtin {
    match raw {
        RawBuiltin::Audit => &Builtin {
            name: "audit",
            kind: Kind::Audit,
            only_mode: Some((RawMode::Observe, "the built-in `audit` only observes")),
            read: super::audit::audit_kind,
        },
        RawBuiltin::Guard => &Builtin {
            name: "guard",
            kind: Kind::Guard,
            only_mode: Some((RawMode::Decide, "the built-in `guard` only decides")),
            read: super::rules::guard_kind,
        },
        RawBuiltin::Approval => &Builtin {
            name: "approval",
            kind: Kind::Approval,
            only_mode: Some((RawMode::Decide, "the built-in `approval` only decides")),
            read: super::approval::approval_kind,
        },
        RawBuiltin::Memory => &Builtin {
            name: "memory",
            kind: Kind::Memory,
            only_mode: Some((
                RawMode::Decide,
                "the built-in `memory` records and answers with context",
            )),
            read: super::memory::memory_kind,
        },
        RawBuiltin::Rego => &Builtin {
            name: "rego",
            kind: Kind::Rego,
            only_mode: None,
            read: super::rego::rego_kind,
        },
    }
}

/// Rejects a `mode` other than the built-in's one.
pub(super) fn check_mode(
    table: &Table<'_>,
    mode: Option<&Spanned<RawMode>>,
    builtin: &Builtin,
) -> Result<(), ConfigError> {
    match (mode, builtin.only_mode) {
        (Some(mode), Some((only, why))) if *mode.get_ref() != only => {
            Err(table.error(mode.span(), "mode", why))
        }
        _ => Ok(()),
    }
}
