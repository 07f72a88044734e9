//! `[[subscriber.rules]]` of the built-in guard: exactly one kind per rule,
//! only that kind's modifiers, every regex and flag checked, each error
//! pointing at the value it rejects.

use std::ops::Range;

use regex::Regex;
use toml::Spanned;

use super::error::{ConfigError, Locator};
use super::layers::{Layer, only_in_system};
use super::raw::{RawAccess, RawAction, RawRule};
use super::values::one_line;
use super::{Env, SubscriberKind};
use crate::builtin::guard::argv::Flag;
use crate::builtin::guard::facts::Access;
use crate::builtin::guard::rules::{CommandRule, FetchRule, PathRule};
use crate::builtin::guard::{Action, Guard, Matcher, Rule, Target};

/// Longest regex source accepted, and the compiled-size cap, so a config
/// cannot make the hook path slow.
const MAX_REGEX_LEN: usize = 4096;
const REGEX_SIZE_LIMIT: usize = 1 << 20;

const KINDS: &str = "`shell`, `file_path`, `mcp_tool`, `command`, `path` or `fetch`";

/// A guard's `rules`; in the system layer, its `locked = true` rules
/// also as a guard of their own (what survives a user's replacement).
pub(super) fn guard_kind(
    at: &Locator<'_>,
    env: &Env,
    rules: Option<Spanned<Vec<RawRule>>>,
    key: &dyn Fn(&str) -> String,
    layer: Layer,
) -> Result<SubscriberKind, ConfigError> {
    let mut locked = Vec::new();
    let rules = rules
        .map(Spanned::into_inner)
        .unwrap_or_default()
        .into_iter()
        .enumerate()
        .map(|(i, rule)| {
            let rule_key = key(&format!("rules[{i}]"));
            let lock = rule.locked.as_ref();
            only_in_system(at, layer, lock, &format!("{rule_key}.locked"))?;
            let is_locked = lock.is_some_and(|l| *l.get_ref());
            let rule = guard_rule(at, rule, &rule_key)?;
            if is_locked {
                locked.push(rule.clone());
            }
            Ok(rule)
        })
        .collect::<Result<Vec<_>, ConfigError>>()?;
    let home = env
        .home
        .as_ref()
        .and_then(|h| h.to_str())
        .map(str::to_owned);
    Ok(SubscriberKind::Guard {
        guard: Guard::new(rules).with_home(home.clone()),
        locked: (!locked.is_empty()).then(|| Guard::new(locked).with_home(home)),
    })
}

fn guard_rule(at: &Locator<'_>, rule: RawRule, key: &str) -> Result<Rule, ConfigError> {
    let field = |name: &str| format!("{key}.{name}");
    let kind = kind_of(at, &rule, key)?;
    // Modifiers of another kind are mistakes, not ignored settings.
    let modifiers: [(&str, &str, Option<Range<usize>>); 6] = [
        ("subcommand", "command", span(&rule.subcommand)),
        ("flags", "command", span(&rule.flags)),
        ("operand", "command", span(&rule.operand)),
        ("unless", "path", span(&rule.unless)),
        ("access", "path", span(&rule.access)),
        ("into", "fetch", span(&rule.into)),
    ];
    for (name, owner, span) in modifiers {
        if let Some(span) = span
            && owner != kind.name()
        {
            return Err(at.error(
                span,
                field(name),
                format!(
                    "`{name}` belongs to a `{owner}` rule, not a `{}` rule",
                    kind.name()
                ),
            ));
        }
    }
    if rule.reason.get_ref().trim().is_empty() {
        return Err(at.error(rule.reason.span(), field("reason"), "must not be empty"));
    }
    let matcher = matcher(at, &rule, kind, key)?;
    Ok(Rule {
        matcher,
        action: match rule.action.map(Spanned::into_inner) {
            None | Some(RawAction::Deny) => Action::Deny,
            Some(RawAction::Ask) => Action::Ask,
        },
        reason: rule.reason.into_inner(),
    })
}

fn span<T>(value: &Option<Spanned<T>>) -> Option<Range<usize>> {
    value.as_ref().map(Spanned::span)
}

/// A rule's one kind, with the value of its key.
#[derive(Clone, Copy)]
enum Kind<'r> {
    Regex(Target, &'r Spanned<String>),
    Command(&'r Spanned<Vec<String>>),
    Path(&'r Spanned<String>),
    Fetch(&'r Spanned<Vec<String>>),
}

impl Kind<'_> {
    /// Its key in the config.
    fn name(self) -> &'static str {
        match self {
            Kind::Regex(target, _) => target.as_str(),
            Kind::Command(_) => "command",
            Kind::Path(_) => "path",
            Kind::Fetch(_) => "fetch",
        }
    }

    fn span(self) -> Range<usize> {
        match self {
            Kind::Regex(_, value) | Kind::Path(value) => value.span(),
            Kind::Command(list) | Kind::Fetch(list) => list.span(),
        }
    }
}

/// The rule's one kind: the key it matches on.
fn kind_of<'r>(at: &Locator<'_>, rule: &'r RawRule, key: &str) -> Result<Kind<'r>, ConfigError> {
    let kinds = [
        rule.shell.as_ref().map(|v| Kind::Regex(Target::Shell, v)),
        rule.file_path
            .as_ref()
            .map(|v| Kind::Regex(Target::FilePath, v)),
        rule.mcp_tool
            .as_ref()
            .map(|v| Kind::Regex(Target::McpTool, v)),
        rule.command.as_ref().map(Kind::Command),
        rule.path.as_ref().map(Kind::Path),
        rule.fetch.as_ref().map(Kind::Fetch),
    ];
    let mut present = kinds.into_iter().flatten();
    let Some(kind) = present.next() else {
        return Err(at.error(
            rule.reason.span(),
            key,
            format!("a rule needs one of {KINDS}"),
        ));
    };
    if let Some(other) = present.next() {
        return Err(at.error(
            other.span(),
            format!("{key}.{}", other.name()),
            format!(
                "a rule has exactly one kind (here `{}`); write a second rule for `{}`",
                kind.name(),
                other.name()
            ),
        ));
    }
    Ok(kind)
}

/// What a rule of `kind` matches, its regexes compiled and its names and
/// flags checked.
fn matcher(
    at: &Locator<'_>,
    rule: &RawRule,
    kind: Kind<'_>,
    key: &str,
) -> Result<Matcher, ConfigError> {
    let field = |name: &str| format!("{key}.{name}");
    let regex = |value: &Spanned<String>, name: &str| compile(at, value, &field(name));
    let optional = |value: &Option<Spanned<String>>, name: &str| {
        value.as_ref().map(|v| regex(v, name)).transpose()
    };
    Ok(match kind {
        Kind::Regex(target, value) => Matcher::Regex(target, regex(value, target.as_str())?),
        Kind::Command(command) => Matcher::Command(CommandRule {
            names: names(at, Some(command), &field("command"))?,
            subcommands: match &rule.subcommand {
                None => Vec::new(),
                Some(list) => names(at, Some(list), &field("subcommand"))?,
            },
            flags: flags(at, rule.flags.as_ref(), &field("flags"))?,
            operand: optional(&rule.operand, "operand")?,
        }),
        Kind::Path(path) => Matcher::Path(PathRule {
            pattern: regex(path, "path")?,
            unless: optional(&rule.unless, "unless")?,
            access: match rule.access.as_ref().map(Spanned::get_ref) {
                None | Some(RawAccess::Any) => Access::Any,
                Some(RawAccess::Read) => Access::Read,
                Some(RawAccess::Write) => Access::Write,
            },
        }),
        Kind::Fetch(fetch) => {
            let fetchers = names(at, Some(fetch), &field("fetch"))?;
            let Some(into) = &rule.into else {
                return Err(at.error(
                    fetch.span(),
                    field("into"),
                    "a `fetch` rule needs `into`: the interpreters (`sh`, `python*`, ...)",
                ));
            };
            Matcher::Fetch(FetchRule {
                fetchers,
                interpreters: names(at, Some(into), &field("into"))?,
            })
        }
    })
}

fn compile(at: &Locator<'_>, value: &Spanned<String>, key: &str) -> Result<Regex, ConfigError> {
    if value.get_ref().len() > MAX_REGEX_LEN {
        return Err(at.error(
            value.span(),
            key,
            format!("regex longer than {MAX_REGEX_LEN} bytes"),
        ));
    }
    regex::RegexBuilder::new(value.get_ref())
        .size_limit(REGEX_SIZE_LIMIT)
        .build()
        .map_err(|err| {
            at.error(
                value.span(),
                key,
                format!("bad regex: {}", one_line(&err.to_string())),
            )
        })
}

/// A non-empty list of command names: no spaces, no `/` (names are matched
/// after the directory is dropped), `*` only at the end.
fn names(
    at: &Locator<'_>,
    list: Option<&Spanned<Vec<String>>>,
    key: &str,
) -> Result<Vec<String>, ConfigError> {
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    if list.get_ref().is_empty() {
        return Err(at.error(list.span(), key, "an empty list matches nothing"));
    }
    for (i, name) in list.get_ref().iter().enumerate() {
        let star = name.find('*');
        if name.is_empty()
            || name.contains(|c: char| c.is_whitespace() || c == '/')
            || star.is_some_and(|i| i + 1 != name.len())
        {
            return Err(at.error(
                list.span(),
                format!("{key}[{i}]"),
                format!("`{name}` is not a command name (no spaces or `/`; `*` only at the end)"),
            ));
        }
    }
    Ok(list.get_ref().clone())
}

/// Flags as `-x` or `--long`.
fn flags(
    at: &Locator<'_>,
    list: Option<&Spanned<Vec<String>>>,
    key: &str,
) -> Result<Vec<Flag>, ConfigError> {
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    if list.get_ref().is_empty() {
        return Err(at.error(
            list.span(),
            key,
            "an empty list matches nothing; remove the key",
        ));
    }
    list.get_ref()
        .iter()
        .enumerate()
        .map(|(i, spelling)| {
            Flag::parse(spelling).ok_or_else(|| {
                at.error(
                    list.span(),
                    format!("{key}[{i}]"),
                    format!("`{spelling}` is not a flag: write `-x` (one letter) or `--long`"),
                )
            })
        })
        .collect()
}
