//! `[[subscriber.rules]]` of the built-in guard: exactly one kind per rule,
//! only that kind's modifiers, every regex and flag checked, each error
//! pointing at the value it rejects.

use std::collections::HashSet;
use std::ops::Range;

use hookgate_guard::argv::Flag;
use hookgate_guard::facts::Access;
use hookgate_guard::rules::{CommandRule, FetchRule, PathRule};
use hookgate_guard::{Action, Guard, Matcher, Rule, Target};
use regex::Regex;
use toml::Spanned;

use super::error::{ConfigError, Locator};
use super::layers::{Layer, only_in_system};
use super::raw::{RawAccess, RawAction, RawRule, RawSubscriber};
use super::rule_id::{check_id, disabling_entry, rule_id, rule_span};
use super::table::Table;
use super::values::one_line;
use super::{Env, SubscriberKind};

/// Longest regex source accepted, and the compiled-size cap, so a config
/// cannot make the hook path slow.
const MAX_REGEX_LEN: usize = 4096;
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// The guard's time limit per call: well under the shim's 5 s deadline,
/// leaving time for the reply.
const DEFAULT_GUARD_TIMEOUT_MS: u64 = 2000;
const MAX_GUARD_TIMEOUT_MS: i64 = 4000;

const KINDS: &str = "`shell`, `file_path`, `mcp_tool`, `command`, `path` or `fetch`";

/// A guard's settings besides its rules.
#[derive(Debug, Clone, Copy)]
struct GuardSettings {
    /// `timeout_ms`: how long one call may take.
    time_limit: std::time::Duration,
    /// `case_insensitive`: paths and command names compared without case.
    case_insensitive: bool,
}

/// The compiled [`Guard`] of a subscriber's `rules` (the guard's, and the
/// rules that select what the built-in `approval` holds), with its
/// `timeout_ms` (1..=`max_ms`, default `default_ms`) and
/// `case_insensitive`. `table` is the subscriber as written, for the
/// rules' derived ids.
pub(super) fn subscriber_guard(
    table: &Table<'_>,
    raw: &mut RawSubscriber,
    (max_ms, default_ms): (i64, u64),
) -> Result<Guard, ConfigError> {
    let settings = GuardSettings {
        time_limit: table.timeout(raw.timeout_ms.as_ref(), max_ms, default_ms)?,
        case_insensitive: raw
            .case_insensitive
            .as_ref()
            .map_or(hookgate_guard::CASE_INSENSITIVE_PLATFORM, |c| *c.get_ref()),
    };
    let tables = table
        .written
        .get("rules")
        .and_then(toml::Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let (at, env, key, layer) = (table.at, table.env, table.key, table.layer);
    guard_rules(at, env, raw.rules.take(), tables, key, layer, settings)
}

/// `builtin = "guard"`'s keys, as a [`SubscriberKind::Guard`].
pub(super) fn guard_kind(
    table: &Table<'_>,
    raw: &mut RawSubscriber,
) -> Result<SubscriberKind, ConfigError> {
    let limits = (MAX_GUARD_TIMEOUT_MS, DEFAULT_GUARD_TIMEOUT_MS);
    let guard = subscriber_guard(table, raw, limits)?;
    Ok(SubscriberKind::Guard { guard })
}

/// A guard's `rules`, each with its id (written, or derived from its
/// content: [`rule_id`]). `tables` are the same rules as written, for
/// the derived ids. `enabled = false` entries remove a lower layer's rule
/// when layers merge (`layers`); here they are only checked.
fn guard_rules(
    at: &Locator<'_>,
    env: &Env,
    rules: Option<Spanned<Vec<RawRule>>>,
    tables: &[toml::Value],
    key: &dyn Fn(&str) -> String,
    layer: Layer,
    settings: GuardSettings,
) -> Result<Guard, ConfigError> {
    let mut ids = HashSet::new();
    let mut compiled = Vec::new();
    // Each compiled rule's key and span, for an error about it.
    let mut written = Vec::new();
    let (all, list) = match rules {
        Some(rules) => (rules.span(), rules.into_inner()),
        None => (0..0, Vec::new()),
    };
    for (i, rule) in list.into_iter().enumerate() {
        let rule_key = key(&format!("rules[{i}]"));
        only_in_system(
            at,
            layer,
            rule.locked.as_ref(),
            &format!("{rule_key}.locked"),
        )?;
        let id = match &rule.id {
            Some(id) => check_id(at, id, &format!("{rule_key}.id"))?,
            None => tables
                .get(i)
                .and_then(toml::Value::as_table)
                .map(rule_id)
                .unwrap_or_default(),
        };
        if let Some(enabled) = rule.enabled.as_ref().filter(|e| !*e.get_ref()) {
            disabling_entry(at, &rule, enabled, &rule_key)?;
            continue;
        }
        if !ids.insert(id.clone()) {
            let span = rule
                .id
                .as_ref()
                .map_or_else(|| rule_span(&rule, &all), Spanned::span);
            return Err(at.error(
                span,
                format!("{rule_key}.id"),
                format!("two rules of this guard have the id `{id}`"),
            ));
        }
        written.push((rule_key.clone(), rule_span(&rule, &all)));
        compiled.push(guard_rule(at, rule, id, &rule_key, &all)?);
    }
    let home = env
        .home
        .as_ref()
        .and_then(|h| h.to_str())
        .map(str::to_owned);
    let guard = Guard::new(compiled)
        .with_home(home)
        .with_case_folding(settings.case_insensitive)
        .with_time_limit(settings.time_limit);
    // The guard would judge every call such a rule could apply to as the
    // worst it could be: a config that says what to fix is kinder.
    if let Some(id) = guard.uncompiled().first() {
        let (rule_key, span) = guard
            .rules()
            .iter()
            .position(|r| r.id == *id)
            .and_then(|i| written.get(i).cloned())
            .unwrap_or_else(|| (key("rules"), all.clone()));
        return Err(at.error(
            span,
            rule_key,
            "this rule's pattern grows too large to compile without case (paths and names \
             are compared without case here: `case_insensitive`); make it smaller",
        ));
    }
    Ok(guard)
}

fn guard_rule(
    at: &Locator<'_>,
    rule: RawRule,
    id: String,
    key: &str,
    all: &Range<usize>,
) -> Result<Rule, ConfigError> {
    let field = |name: &str| format!("{key}.{name}");
    let kind = kind_of(at, &rule, key, all)?;
    // Modifiers of another kind are mistakes, not ignored settings.
    let modifiers: [(&str, &str, Option<Range<usize>>); 7] = [
        ("subcommand", "command", span(&rule.subcommand)),
        ("flags", "command", span(&rule.flags)),
        ("without_flags", "command", span(&rule.without_flags)),
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
    let Some(reason) = &rule.reason else {
        return Err(at.error(
            kind.span(),
            field("reason"),
            "a rule needs a `reason` (the agent and the decision log show it)",
        ));
    };
    if reason.get_ref().trim().is_empty() {
        return Err(at.error(reason.span(), field("reason"), "must not be empty"));
    }
    let matcher = matcher(at, &rule, kind, key)?;
    Ok(Rule {
        id,
        matcher,
        action: match rule.action.map(Spanned::into_inner) {
            None | Some(RawAction::Deny) => Action::Deny,
            Some(RawAction::Ask) => Action::Ask,
        },
        reason: rule.reason.map(Spanned::into_inner).unwrap_or_default(),
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
fn kind_of<'r>(
    at: &Locator<'_>,
    rule: &'r RawRule,
    key: &str,
    all: &Range<usize>,
) -> Result<Kind<'r>, ConfigError> {
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
            rule_span(rule, all),
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
            without_flags: flags(at, rule.without_flags.as_ref(), &field("without_flags"))?,
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
