//! The maintained set of secret shapes, as [`Rule`]s the engine in
//! `rules` runs in one set: key blocks and other secrets known by where
//! they stand (`structured`), provider token prefixes (`providers`), and
//! command-line options and arguments (`commands`). Then [`ASSIGNMENT`],
//! the `NAME=value` pass that `names` and `entropy` decide.

mod commands;
mod providers;
mod structured;

use std::sync::LazyLock;

use regex::Regex;

use super::rule::Rule;

/// Every rule, in the order they are applied: blocks first (a key block
/// is masked whole before anything inside it is looked at), then
/// providers, then command lines.
pub(super) fn rules() -> Vec<&'static Rule> {
    structured::RULES
        .iter()
        .chain(providers::RULES)
        .chain(commands::RULES)
        .collect()
}

/// `NAME=value`, `NAME: value`, `"name": "value"` in text. Group 1 is what
/// stays (the name and separator), group 2 the name, group 3 the value;
/// whether the value is masked is decided by the name or the value's
/// entropy (`super::assignment_is_secret`).
pub(super) static ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&super::rule::ascii_boundaries(
        r#"(\b([A-Za-z_][A-Za-z0-9_.\-]*)["']?\s*[=:]\s*)("[^"\n]*"|'[^'\n]*'|[^\s"',;&|}\]]+)"#,
    ))
    .expect("constant mask regex is valid")
});
