//! Hermes Agent's hooks: a `hooks:` block in its YAML config
//! (`~/.hermes/config.yaml`) and the consent Hermes asks for each
//! `(event, command)` pair, kept in `~/.hermes/shell-hooks-allowlist.json`
//! (docs/agents.md, "Hermes Agent").
//!
//! hookgate owns one marked block: the top-level `hooks:` mapping between
//! a begin and an end comment line. Everything outside it is kept byte for
//! byte, so the user's other settings survive (no YAML library rewrites
//! the file). A config whose `hooks:` already holds hooks of the user's is
//! refused by name rather than merged: hookgate does not guess at YAML it
//! did not write. An empty `hooks: {}` (what `hermes setup` writes) is
//! replaced, and given back by uninstall.
//!
//! Hermes runs the command without a shell (`shlex` split), so it starts
//! with `/usr/bin/env`, which sets the variables and becomes the shim.
//! Consent: install records an approval for each of its own pairs (never
//! `hooks_auto_accept`, which would approve any hook); without one a
//! non-interactive Hermes skips the hook. Doctor says when one is missing.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use hookgate_adapters::Agent;
use serde_json::{Value, json};

use super::agents::HOOK_TIMEOUT_SECS;
use super::change::{self, Change};
use super::command::{self, HookCommand};

/// The first line of hookgate's block.
const BEGIN: &str = "# hookgate: begin (written by `gateway install --agent hermes`; `gateway uninstall` removes it)";
/// The last line of hookgate's block.
const END: &str = "# hookgate: end";
/// What a hook command starts with: Hermes runs it without a shell.
pub(crate) const ENV: &str = "/usr/bin/env ";
/// The empty hooks mapping hookgate's block replaces, and uninstall puts
/// back when it replaced one.
const EMPTY: &str = "hooks: {}";
/// The consent file, next to the config.
pub(crate) const ALLOWLIST: &str = "shell-hooks-allowlist.json";
/// An allowlist bigger than this is not Hermes'.
const MAX_ALLOWLIST_APPROVALS: usize = 10_000;

/// The hook command Hermes runs for `line` (hookgate's shell line).
pub(crate) fn command_for(line: &str) -> String {
    format!("{ENV}{line}")
}

/// Whether a command in the config is hookgate's.
pub(crate) fn is_ours(command: &str) -> bool {
    command.strip_prefix(ENV).is_some_and(command::is_ours)
}

/// hookgate's block hooking `pairs` (event, command) with `timeout`
/// seconds each.
fn block(pairs: &[(&str, String)], timeout: u64) -> String {
    let mut out = format!("{BEGIN}\nhooks:\n");
    for (event, command) in pairs {
        // A JSON string is a YAML double-quoted scalar.
        let quoted = Value::String(command.clone()).to_string();
        out.push_str(&format!(
            "  {event}:\n    - command: {quoted}\n      timeout: {timeout}\n"
        ));
    }
    out.push_str(END);
    out.push('\n');
    out
}

/// Where the top-level `hooks` key is, as line indices: its own line and
/// the first line after its mapping.
fn hooks_key(lines: &[&str]) -> Option<(usize, usize)> {
    let at = lines.iter().position(|line| is_hooks_line(line))?;
    let end = lines[at + 1..]
        .iter()
        .position(|line| {
            let text = line.trim_start();
            !(text.is_empty() || text.starts_with('#') || line.starts_with([' ', '\t', '-']))
        })
        .map_or(lines.len(), |n| at + 1 + n);
    Some((at, end))
}

/// Whether `line` is a top-level `hooks` key, of any value and quoting
/// (`hooks:`, `"hooks": …`), but not `hooks_auto_accept:`.
fn is_hooks_key(line: &str) -> bool {
    !line.starts_with([' ', '\t', '#', '-'])
        && line.split_once(':').is_some_and(|(key, _)| {
            key.trim_end().trim_matches(|c| c == '"' || c == '\'') == "hooks"
        })
}

fn is_hooks_line(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("hooks:") else {
        return false;
    };
    let rest = rest.split('#').next().unwrap_or("").trim();
    rest.is_empty() || rest == "{}" || rest == "null" || rest == "~"
}

/// hookgate's block as line indices (begin..=end), if present.
fn ours(lines: &[&str]) -> anyhow::Result<Option<(usize, usize)>> {
    let Some(begin) = lines.iter().position(|line| *line == BEGIN) else {
        return Ok(None);
    };
    match lines[begin..].iter().position(|line| *line == END) {
        Some(n) => Ok(Some((begin, begin + n))),
        None => bail!("hookgate's hooks block has no end line (`{END}`): fix it by hand"),
    }
}

/// [`ours`], where Hermes reads it: a second top-level `hooks` key outside
/// the block is an error, since YAML keeps one of the two (PyYAML the
/// last) and Hermes could run none of hookgate's hooks while the block is
/// still there to read.
fn read_ours(lines: &[&str]) -> anyhow::Result<Option<(usize, usize)>> {
    let Some((begin, end)) = ours(lines)? else {
        return Ok(None);
    };
    let mut outside = lines[..begin].iter().chain(&lines[end + 1..]);
    if outside.any(|line| is_hooks_key(line)) {
        bail!(
            "a second top-level `hooks:` outside hookgate's block, which Hermes may read instead: merge them by hand (docs/agents.md, \"Setting up an agent by hand\")"
        );
    }
    Ok(Some((begin, end)))
}

/// `before` (`None`: no config) with hookgate's block hooking `pairs`.
pub(crate) fn install(
    before: Option<&str>,
    pairs: &[(&str, String)],
    timeout: u64,
) -> anyhow::Result<String> {
    let text = before.unwrap_or("");
    let lines: Vec<&str> = text.lines().collect();
    let new = block(pairs, timeout);
    let (from, to) = if let Some((begin, end)) = read_ours(&lines)? {
        (begin, end + 1)
    } else if let Some((at, end)) = hooks_key(&lines) {
        let held = lines[at + 1..end]
            .iter()
            .any(|line| !line.trim().is_empty() && !line.trim_start().starts_with('#'));
        if held || lines[at].trim() != EMPTY && lines[at].trim() != "hooks:" {
            bail!(
                "its `hooks:` already holds hooks of yours: add hookgate's by hand (docs/agents.md, \"Setting up an agent by hand\") or move yours out first"
            );
        }
        (at, at + 1)
    } else if lines.iter().any(|line| is_hooks_key(line)) {
        bail!("its top-level `hooks:` is not a block mapping hookgate can read");
    } else {
        (lines.len(), lines.len())
    };
    let mut out = String::new();
    for line in &lines[..from] {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&new);
    for line in &lines[to..] {
        out.push_str(line);
        out.push('\n');
    }
    Ok(out)
}

/// `current` without hookgate's block (`None`: there is none). The block
/// becomes `hooks: {}` when `original` (the backup) had that line.
pub(crate) fn uninstall(current: &str, original: Option<&str>) -> anyhow::Result<Option<String>> {
    let lines: Vec<&str> = current.lines().collect();
    let Some((begin, end)) = ours(&lines)? else {
        return Ok(None);
    };
    let had_empty = original.is_some_and(|text| text.lines().any(|line| line.trim() == EMPTY));
    let mut out = String::new();
    for line in &lines[..begin] {
        out.push_str(line);
        out.push('\n');
    }
    if had_empty {
        out.push_str(EMPTY);
        out.push('\n');
    }
    for line in &lines[end + 1..] {
        out.push_str(line);
        out.push('\n');
    }
    Ok(Some(out))
}

/// The (event, command) pairs of hookgate's block in `text`; an error
/// when the block is broken or another `hooks:` may win over it.
pub(crate) fn installed(text: &str) -> anyhow::Result<Vec<(String, String)>> {
    let lines: Vec<&str> = text.lines().collect();
    let Some((begin, end)) = read_ours(&lines)? else {
        return Ok(Vec::new());
    };
    let mut found = Vec::new();
    let mut event = None;
    for line in &lines[begin..end] {
        if let Some(name) = line.strip_prefix("  ").and_then(|l| l.strip_suffix(':'))
            && !name.starts_with(' ')
        {
            event = Some(name.to_owned());
        } else if let Some(quoted) = line.trim_start().strip_prefix("- command: ")
            && let (Some(event), Ok(Value::String(command))) =
                (&event, serde_json::from_str::<Value>(quoted))
        {
            found.push((event.clone(), command));
        }
    }
    Ok(found)
}

/// The allowlist's approvals, read leniently as Hermes does (a missing
/// or unreadable file is none).
fn approvals(text: Option<&str>) -> Vec<Value> {
    let parsed = text.and_then(|text| serde_json::from_str::<Value>(text).ok());
    match parsed.as_ref().and_then(|v| v.get("approvals")) {
        Some(Value::Array(items)) => items.clone(),
        _ => Vec::new(),
    }
}

fn pair_of(entry: &Value) -> Option<(&str, &str)> {
    Some((
        entry.get("event")?.as_str()?,
        entry.get("command")?.as_str()?,
    ))
}

/// The allowlist `before` with hookgate's pairs approved (and its stale
/// approvals dropped); `now` is the approval time (RFC 3339).
pub(crate) fn approve(
    before: Option<&str>,
    pairs: &[(&str, String)],
    now: &str,
) -> anyhow::Result<String> {
    let mut root = match before.map(serde_json::from_str::<Value>) {
        Some(Ok(value @ Value::Object(_))) => value,
        Some(_) => bail!("not a JSON object, as Hermes writes it: fix or remove it"),
        None => json!({}),
    };
    let mut kept: Vec<Value> = approvals(before)
        .into_iter()
        .filter(|entry| !is_ours_entry(entry))
        .collect();
    if kept.len() > MAX_ALLOWLIST_APPROVALS {
        bail!("holds more than {MAX_ALLOWLIST_APPROVALS} approvals: not Hermes'");
    }
    for (event, command) in pairs {
        kept.push(json!({
            "approved_at": now,
            "command": command,
            "event": event,
            "script_mtime_at_approval": null,
        }));
    }
    root["approvals"] = Value::Array(kept);
    serde_json::to_string_pretty(&root).context("rendering the allowlist")
}

/// The allowlist `current` without hookgate's approvals (`None`: it has
/// none).
pub(crate) fn unapprove(current: &str) -> anyhow::Result<Option<String>> {
    let Ok(mut root @ Value::Object(_)) = serde_json::from_str::<Value>(current) else {
        return Ok(None);
    };
    let all = approvals(Some(current));
    let kept: Vec<Value> = all
        .iter()
        .filter(|entry| !is_ours_entry(entry))
        .cloned()
        .collect();
    if kept.len() == all.len() {
        return Ok(None);
    }
    root["approvals"] = Value::Array(kept);
    Ok(Some(serde_json::to_string_pretty(&root)?))
}

/// The pairs of `pairs` the allowlist at `path` does not approve.
pub(crate) fn unapproved<'a>(
    allowlist: Option<&str>,
    pairs: &'a [(String, String)],
) -> Vec<&'a (String, String)> {
    let approved = approvals(allowlist);
    pairs
        .iter()
        .filter(|(event, command)| {
            !approved
                .iter()
                .any(|entry| pair_of(entry) == Some((event.as_str(), command.as_str())))
        })
        .collect()
}

/// The allowlist next to the config at `config`.
pub(crate) fn allowlist_path(config: &Path) -> PathBuf {
    config.with_file_name(ALLOWLIST)
}

/// The (event, command) pairs install writes for `events`.
fn pairs<'a>(events: &[&'a str], command: &HookCommand) -> Vec<(&'a str, String)> {
    let line = command_for(&command.line_for(Agent::Hermes, None, None, None));
    events.iter().map(|event| (*event, line.clone())).collect()
}

/// The changes that hook `events` in the config at `config` and approve
/// them in its allowlist.
pub(crate) fn install_changes(
    config: &Path,
    events: &[&str],
    command: &HookCommand,
) -> anyhow::Result<Vec<Change>> {
    let pairs = pairs(events, command);
    let config = change::resolve(config);
    let before = change::read(&config)?;
    let after = install(before.as_deref(), &pairs, HOOK_TIMEOUT_SECS)
        .with_context(|| config.display().to_string())?;
    let list = change::resolve(&allowlist_path(&config));
    let listed = change::read(&list)?;
    let mine: Vec<(String, String)> = pairs
        .iter()
        .map(|(event, command)| ((*event).to_owned(), command.clone()))
        .collect();
    // Approving the same pairs again would only move their time.
    let unchanged = listed.as_deref().is_some_and(|text| {
        unapproved(Some(text), &mine).is_empty()
            && approvals(Some(text))
                .iter()
                .filter(|e| is_ours_entry(e))
                .count()
                == mine.len()
    });
    let mut changes = vec![Change {
        path: config,
        before,
        after: Some(after),
        executable: false,
    }];
    if !unchanged {
        let now = jiff::Timestamp::now().to_string();
        let approved =
            approve(listed.as_deref(), &pairs, &now).with_context(|| list.display().to_string())?;
        changes.push(Change {
            path: list,
            before: listed,
            after: Some(approved),
            executable: false,
        });
    }
    Ok(changes)
}

/// The changes that take hookgate's block out of the config at `config`
/// (its backup given back when the rest is the user's file as it was)
/// and hookgate's approvals out of the allowlist.
pub(crate) fn uninstall_changes(config: &Path) -> anyhow::Result<Vec<Change>> {
    let config = change::resolve(config);
    let mut changes = Vec::new();
    if let Some(current) = change::read(&config)? {
        let original = change::read(&change::backup_path(&config))?;
        if let Some(stripped) = uninstall(&current, original.as_deref())
            .with_context(|| config.display().to_string())?
        {
            let after = match original {
                Some(original) if original == stripped => Some(original),
                Some(_) => Some(stripped),
                None if stripped.trim().is_empty() => None,
                None => Some(stripped),
            };
            changes.push(Change {
                path: config.clone(),
                before: Some(current),
                after,
                executable: false,
            });
        }
    }
    let list = change::resolve(&allowlist_path(&config));
    if let Some(current) = change::read(&list)?
        && let Some(after) = unapprove(&current)?
    {
        // The user's file as it was when nothing else changed since;
        // none when install created it and nothing else is in it.
        let parsed = |text: &str| serde_json::from_str::<Value>(text).ok();
        let after = match change::read(&change::backup_path(&list))? {
            Some(original) if parsed(&original) == parsed(&after) => Some(original),
            Some(_) => Some(after),
            None if parsed(&after) == Some(json!({"approvals": []})) => None,
            None => Some(after),
        };
        changes.push(Change {
            path: list,
            before: Some(current),
            after,
            executable: false,
        });
    }
    Ok(changes)
}

fn is_ours_entry(entry: &Value) -> bool {
    pair_of(entry).is_some_and(|(_, command)| is_ours(command))
}

#[cfg(test)]
mod tests;
