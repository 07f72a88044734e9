//! Codex's own gate: it runs a hook only once the user trusted that exact
//! definition, and skips an untrusted one silently in `codex exec` (a
//! `cat .env > leaked.txt` ran with hookgate installed and doctor saying
//! "protected": issue 27). With `codex` on PATH, its app server says for
//! each hook whether it is trusted and enabled (`hooks/list`); without it,
//! `[hooks.state]` in `~/.codex/config.toml` says at least whether a hash
//! was ever recorded for each of hookgate's hooks.

use std::path::Path;

use toml_edit::{DocumentMut, Item};

use super::Report;
use crate::install::agents::{AgentSpec, Format};
use crate::install::{change, codex, json::Json, jsonc};

/// What to run about hooks Codex will not run.
const FIX: &str = "gateway install --agent codex (it trusts hookgate's hooks through your `codex`), or start `codex` and answer \"Trust all and continue\"";

/// Checks that Codex will run hookgate's hooks in `path` (its hooks file,
/// of the `scope` whose directory is `base`).
pub(crate) fn check(spec: &AgentSpec, path: &Path, base: &Path, report: &mut Report) {
    let Some(home) = crate::install::home().ok() else {
        return;
    };
    let file = change::resolve(path);
    match codex::find(std::env::var_os("PATH").as_deref()) {
        Some(program) => match codex::list(&program, &home, base) {
            Ok(listing) => from_listing(&listing, &file, report),
            Err(err) => report.problem(
                &format!(
                    "codex: cannot ask {} which hooks it runs: {err:#}",
                    program.display()
                ),
                "run `codex` once by hand, then `gateway doctor` again",
            ),
        },
        None => from_config(spec, &home, &file, report),
    }
}

/// Judged by Codex itself.
fn from_listing(listing: &codex::Listing, file: &Path, report: &mut Report) {
    said_about(listing, file, report);
    let ours: Vec<&codex::CodexHook> = listing
        .hooks
        .iter()
        .filter(|hook| hook.is_ours() && hook.source_path == file)
        .collect();
    if ours.is_empty() {
        report.problem(
            &format!(
                "codex: Codex lists none of hookgate's hooks in {}: it does not run them (a project Codex does not trust yet has its .codex/ ignored)",
                file.display()
            ),
            "trust the project in Codex (start `codex` there), or install for the user: gateway install --agent codex",
        );
        return;
    }
    let untrusted: Vec<&str> = ours
        .iter()
        .filter(|hook| !matches!(hook.trust_status.as_str(), "trusted" | "managed"))
        .map(|hook| hook.event.as_str())
        .collect();
    if !untrusted.is_empty() {
        report.problem(
            &format!(
                "codex: {} of hookgate's {} hooks are not trusted in Codex ({}): `codex exec` skips them silently",
                untrusted.len(),
                ours.len(),
                untrusted.join(", ")
            ),
            FIX,
        );
    }
    let disabled: Vec<&str> = ours
        .iter()
        .filter(|hook| !hook.enabled)
        .map(|hook| hook.event.as_str())
        .collect();
    if !disabled.is_empty() {
        report.problem(
            &format!(
                "codex: hookgate's hooks are disabled in Codex's hook state ({})",
                disabled.join(", ")
            ),
            "remove `enabled = false` from their [hooks.state] entries in ~/.codex/config.toml",
        );
    }
    if untrusted.is_empty() && disabled.is_empty() {
        report.ok(&format!(
            "codex: Codex trusts and runs hookgate's {} hooks",
            ours.len()
        ));
    }
}

/// What Codex said loading hookgate's hooks file: an error is a file it
/// does not run; a warning (a timeout it clamps, warned on every run) is
/// something install should not have written.
fn said_about(listing: &codex::Listing, file: &Path, report: &mut Report) {
    let name = file.display().to_string();
    for error in listing.errors.iter().filter(|e| e.contains(&name)) {
        report.problem(
            &format!("codex: Codex cannot use hookgate's hooks: {error}"),
            "gateway install --agent codex",
        );
    }
    for warning in listing.warnings.iter().filter(|w| w.contains(&name)) {
        report.note(&format!(
            "codex: Codex warns about hookgate's hooks on every run: {warning}"
        ));
    }
}

/// Judged from `[hooks.state]` alone (no `codex` on PATH to ask): a hook
/// with no recorded hash is certainly untrusted; a recorded one may be
/// for an older definition, which only Codex can tell.
fn from_config(spec: &AgentSpec, home: &Path, file: &Path, report: &mut Report) {
    let Format::Json(format) = &spec.format else {
        return;
    };
    let Ok(Some(text)) = change::read(file) else {
        return;
    };
    let Ok(parsed) = jsonc::parse(&text, format.accepts) else {
        return;
    };
    let events = match format.hooks_key {
        Some(key) => parsed.root.get(key).cloned().unwrap_or_else(Json::object),
        None => parsed.root,
    };
    let keys = codex::keys_of_ours(file, &events);
    let config = home.join(".codex/config.toml");
    let doc = change::read(&change::resolve(&config))
        .ok()
        .flatten()
        .and_then(|text| text.parse::<DocumentMut>().ok());
    let state = doc
        .as_ref()
        .and_then(|doc| doc.get("hooks"))
        .and_then(|hooks| hooks.get("state"));
    let entry = |key: &str| state.and_then(|state| state.get(key));
    let untrusted = keys
        .iter()
        .filter(|key| entry(key).and_then(|e| e.get("trusted_hash")).is_none())
        .count();
    let disabled = keys
        .iter()
        .filter(|key| {
            entry(key)
                .and_then(|e| e.get("enabled"))
                .and_then(Item::as_bool)
                == Some(false)
        })
        .count();
    if untrusted > 0 {
        report.problem(
            &format!(
                "codex: {untrusted} of hookgate's {} hooks have no trusted hash in {}: `codex exec` skips them silently",
                keys.len(),
                config.display()
            ),
            FIX,
        );
    }
    if disabled > 0 {
        report.problem(
            &format!(
                "codex: {disabled} of hookgate's hooks are disabled in {}",
                config.display()
            ),
            "remove their `enabled = false`",
        );
    }
    if untrusted == 0 && disabled == 0 {
        report.note(&format!(
            "codex: hookgate's hooks have trusted hashes in {}; `codex` is not on PATH to confirm they match",
            config.display()
        ));
    }
}
