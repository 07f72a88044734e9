//! Who takes which key: the keys only some kinds of subscriber take, and
//! why every other kind rejects them.

use std::ops::Range;

use toml::Spanned;

use super::error::{ConfigError, Locator};
use super::raw::RawSubscriber;

/// The kinds of subscriber, for the table of who takes which key.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Remote,
    Audit,
    Guard,
    Memory,
    Rego,
    Approval,
}

const BUILTIN_ONLY: &str = "not used by built-in subscribers";
const ROTATES: &str = "only the built-in `audit` rotates";

/// The keys only some kinds take: its span where written, its name, the
/// kinds that take it and why any other rejects it.
type KindKey = (
    Option<Range<usize>>,
    &'static str,
    &'static [Kind],
    &'static str,
);

fn kind_keys(raw: &RawSubscriber) -> Vec<KindKey> {
    fn at<T>(field: &Option<Spanned<T>>) -> Option<Range<usize>> {
        field.as_ref().map(Spanned::span)
    }
    const REMOTE: &[Kind] = &[Kind::Remote];
    let mut keys: Vec<KindKey> = vec![
        (
            at(&raw.max_size_kib),
            "max_size_kib",
            &[Kind::Audit],
            ROTATES,
        ),
        (at(&raw.keep), "keep", &[Kind::Audit], ROTATES),
        (
            at(&raw.path),
            "path",
            &[Kind::Audit, Kind::Memory],
            "only the built-in `audit` and `memory` have a `path`",
        ),
        (
            at(&raw.anchor),
            "anchor",
            &[Kind::Audit],
            "only the built-in `audit` writes an anchor",
        ),
        (
            at(&raw.rules),
            "rules",
            &[Kind::Guard, Kind::Approval],
            "only the built-in `guard` and `approval` have `rules`",
        ),
        (
            at(&raw.queue_size),
            "queue_size",
            &[Kind::Remote, Kind::Audit, Kind::Memory],
            "only remote subscribers and the built-in `audit` and `memory` have a queue",
        ),
        (
            at(&raw.timeout_ms),
            "timeout_ms",
            &[
                Kind::Remote,
                Kind::Guard,
                Kind::Rego,
                Kind::Memory,
                Kind::Approval,
            ],
            "the built-in `audit` answers nothing, so it has no deadline",
        ),
        (
            at(&raw.case_insensitive),
            "case_insensitive",
            &[Kind::Guard, Kind::Approval],
            "only the built-in `guard` and `approval` compare paths",
        ),
        (
            at(&raw.on_error),
            "on_error",
            &[Kind::Remote, Kind::Rego],
            "only remote subscribers and the built-in `rego` take it",
        ),
        (
            at(&raw.breaker_failures),
            "breaker_failures",
            REMOTE,
            BUILTIN_ONLY,
        ),
        (
            at(&raw.breaker_cooldown_ms),
            "breaker_cooldown_ms",
            REMOTE,
            BUILTIN_ONLY,
        ),
    ];
    for (field, name) in [
        (at(&raw.max_bytes), "max_bytes"),
        (at(&raw.inject_bytes), "inject_bytes"),
        (
            raw.exclude
                .as_ref()
                .and_then(|e| e.first())
                .map(Spanned::span),
            "exclude",
        ),
        (at(&raw.retention_days), "retention_days"),
        (at(&raw.compress_after), "compress_after"),
        (at(&raw.model), "model"),
    ] {
        keys.push((
            field,
            name,
            &[Kind::Memory],
            "only the built-in `memory` takes it",
        ));
    }
    for (field, name) in [
        (at(&raw.hold_ms), "hold_ms"),
        (at(&raw.on_timeout), "on_timeout"),
        (at(&raw.max_held), "max_held"),
        (at(&raw.webhooks), "webhooks"),
        (at(&raw.desktop), "desktop"),
        (at(&raw.console_url), "console_url"),
    ] {
        keys.push((
            field,
            name,
            &[Kind::Approval],
            "only the built-in `approval` holds calls",
        ));
    }
    for (field, name) in [
        (at(&raw.query), "query"),
        (at(&raw.bundle), "bundle"),
        (at(&raw.bundle_poll_ms), "bundle_poll_ms"),
        (at(&raw.bundle_key_file), "bundle_key_file"),
        (at(&raw.bundle_key_alg), "bundle_key_alg"),
        (at(&raw.bundle_key_id), "bundle_key_id"),
        (at(&raw.bundle_scope), "bundle_scope"),
        (at(&raw.bundle_signed), "bundle_signed"),
        (at(&raw.policy), "policy"),
        (at(&raw.data), "data"),
    ] {
        keys.push((
            field,
            name,
            &[Kind::Rego],
            "only the built-in `rego` takes it",
        ));
    }
    for (field, name) in super::remote::remote_only_keys(raw) {
        keys.push((at(field), name, REMOTE, BUILTIN_ONLY));
    }
    keys
}

/// Rejects the first key written that `kind` does not take.
pub(super) fn only_keys_of(
    at: &Locator<'_>,
    raw: &RawSubscriber,
    kind: Kind,
    key: &dyn Fn(&str) -> String,
) -> Result<(), ConfigError> {
    for (span, name, takes, why) in kind_keys(raw) {
        if let Some(span) = span.filter(|_| !takes.contains(&kind)) {
            return Err(at.error(span, key(name), why.to_owned()));
        }
    }
    Ok(())
}
