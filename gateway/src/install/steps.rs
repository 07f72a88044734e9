//! One agent's install and uninstall: the changes to its files, computed
//! from what is there and applied, again from the files when someone else
//! edited one meanwhile ([`change::Changed`]); then what the agent needs
//! besides its hook entries (Codex: trusting them, [`codex`]).

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use super::agents::{AgentSpec, Format};
use super::change::{self, Change, Changed};
use super::command::HookCommand;
use super::hold::Hold;
use super::json::Json;
use super::json_config::{self, Registration};
use super::{codex, hermes, http, opencode, script_dir};

/// How often the changes are computed again when a file changed under
/// them (an agent rewriting its settings in a loop would otherwise hold
/// install off for ever).
const ATTEMPTS: usize = 3;

/// What every agent of one install shares.
pub(crate) struct Install<'a> {
    pub(crate) home: &'a Path,
    /// The directory configs of the scope are relative to.
    pub(crate) base: &'a Path,
    pub(crate) project: bool,
    pub(crate) command: &'a HookCommand,
    pub(crate) http: Option<&'a http::HttpTarget>,
    /// The config's longest `approval` hold: held events take it.
    pub(crate) hold: Option<&'a Hold>,
    pub(crate) dry_run: bool,
    /// Trust hookgate's own hooks where the agent asks (Codex).
    pub(crate) trust: bool,
}

/// Installs hookgate for `spec`; returns how many files it wrote.
pub(crate) fn install(spec: &AgentSpec, ctx: &Install<'_>) -> anyhow::Result<usize> {
    let path = spec.path(ctx.base, ctx.project);
    let label = spec.agent.as_str();
    let written = apply_fresh(label, &path, ctx.dry_run, change::apply_install, || {
        let (changes, skipped) = install_changes(spec, ctx, &path)?;
        Ok((changes, skipped))
    })?;
    if ctx.http.is_some() && !ctx.dry_run {
        for file in json_files(spec, &path) {
            if file.exists() {
                http::make_private(&file)?;
            }
        }
    }
    let trusted = if spec.hook_trust {
        trust(spec, ctx, &path)?
    } else {
        0
    };
    Ok(written + trusted)
}

/// Removes hookgate from `spec`; returns how many files it wrote.
pub(crate) fn uninstall(
    spec: &AgentSpec,
    home: &Path,
    base: &Path,
    project: bool,
    dry_run: bool,
) -> anyhow::Result<usize> {
    let path = spec.path(base, project);
    apply_fresh(
        spec.agent.as_str(),
        &path,
        dry_run,
        change::apply_uninstall,
        || uninstall_changes(spec, home, base, &path),
    )
}

/// Computes the changes with `compute` and applies them; computed again
/// when a file changed in between. Events left unhooked are reported.
fn apply_fresh(
    label: &str,
    path: &Path,
    dry_run: bool,
    apply: fn(&Change) -> anyhow::Result<()>,
    compute: impl Fn() -> anyhow::Result<(Vec<Change>, Vec<script_dir::Skipped>)>,
) -> anyhow::Result<usize> {
    let mut attempt = 1;
    loop {
        let (changes, skipped) = compute()?;
        match super::finish(label, path, &changes, dry_run, apply) {
            Err(err) if err.downcast_ref::<Changed>().is_some() && attempt < ATTEMPTS => {
                outln!("{label}: {err:#}; reading it again");
                attempt += 1;
            }
            result => {
                for skip in &skipped {
                    outln!(
                        "{label}: {} {}; left alone, so `{}` is not hooked",
                        skip.path.display(),
                        skip.why,
                        skip.event
                    );
                }
                return result;
            }
        }
    }
}

/// The JSON files an install writes for `spec` at `path`.
fn json_files(spec: &AgentSpec, path: &Path) -> Vec<PathBuf> {
    match spec.format {
        Format::Json(_) => vec![change::resolve(path)],
        Format::ScriptDir | Format::HermesYaml | Format::Plugin => Vec::new(),
    }
}

/// The changes that install `spec` at `path`, and events left unhooked.
fn install_changes(
    spec: &AgentSpec,
    ctx: &Install<'_>,
    path: &Path,
) -> anyhow::Result<(Vec<Change>, Vec<script_dir::Skipped>)> {
    match &spec.format {
        Format::ScriptDir => Ok(script_dir::install(
            path,
            &spec.events(),
            ctx.command,
            spec.agent,
            ctx.hold,
        )),
        Format::HermesYaml => Ok((
            hermes::install_changes(path, &spec.events(), ctx.command)?,
            Vec::new(),
        )),
        Format::Plugin => Ok(opencode::install(path, ctx.command)),
        Format::Json(format) => {
            let path = &change::resolve(path);
            let before = change::read(path)?;
            let events = spec.events();
            let what = Registration::new(spec, &events, ctx.command, ctx.http).holding(ctx.hold);
            let after = json_config::install(format, before.as_deref(), what)
                .with_context(|| path.display().to_string())?;
            let mut changes = vec![Change {
                path: path.to_path_buf(),
                before,
                after: Some(after),
                executable: false,
            }];
            if let Some(switch) = &spec.switch {
                changes.push(switch.install_change(ctx.base)?);
            }
            Ok((changes, Vec::new()))
        }
    }
}

/// The changes that remove hookgate from `spec` at `path`: the backup
/// itself when removing hookgate's entries gives back its content, so the
/// file is the original byte for byte; the file removed when install
/// created it and nothing else was added since. Then the agent's TOML
/// switch turned back, and (Codex) the trust of hookgate's hooks taken
/// away, in one change when both are in the same file.
fn uninstall_changes(
    spec: &AgentSpec,
    home: &Path,
    base: &Path,
    path: &Path,
) -> anyhow::Result<(Vec<Change>, Vec<script_dir::Skipped>)> {
    let format = match &spec.format {
        Format::ScriptDir => return Ok(script_dir::uninstall(path, &spec.events())),
        Format::HermesYaml => return Ok((hermes::uninstall_changes(path)?, Vec::new())),
        Format::Plugin => return Ok(opencode::uninstall(path)),
        Format::Json(format) => format,
    };
    let path = &change::resolve(path);
    let current = change::read(path)?;
    let mut changes = Vec::new();
    let mut trusted_keys = Vec::new();
    if let Some(current) = current {
        if spec.hook_trust {
            let root = super::jsonc::parse(&current, format.accepts)?.root;
            let events = match format.hooks_key {
                Some(key) => root.get(key).cloned().unwrap_or_else(Json::object),
                None => root,
            };
            trusted_keys = codex::keys_of_ours(path, &events);
        }
        if let Some(change) = strip_entries(spec, path, &current)? {
            changes.push(change);
        }
    }
    let user_toml = home.join(".codex/config.toml");
    let mut keys_done = trusted_keys.is_empty();
    if let Some(switch) = &spec.switch {
        let same_file = change::resolve(&base.join(switch.path)) == change::resolve(&user_toml);
        let keys: &[String] = if same_file { &trusted_keys } else { &[] };
        keys_done |= same_file;
        if let Some(change) =
            switch.uninstall_change_with(base, |text| codex::untrust(text, keys))?
        {
            changes.push(change);
        }
    }
    if !keys_done && let Some(change) = untrust_change(&user_toml, &trusted_keys)? {
        changes.push(change);
    }
    Ok((changes, Vec::new()))
}

/// `path`'s change once hookgate's entries are out of `current`.
fn strip_entries(spec: &AgentSpec, path: &Path, current: &str) -> anyhow::Result<Option<Change>> {
    let Format::Json(format) = &spec.format else {
        return Ok(None);
    };
    let Some(stripped) =
        json_config::uninstall(format, current).with_context(|| path.display().to_string())?
    else {
        return Ok(None);
    };
    let same = |a: &str, b: &str| json_config::same_without_ours(format, a, b);
    let after = match change::read(&change::backup_path(path))? {
        Some(original) if same(&original, &stripped) => Some(original),
        Some(_) => Some(stripped),
        None => {
            let mut created = Json::object();
            if let Some(version) = format.version {
                created.entry("version", Json::uint(version));
            }
            (!same(&created.render(), &stripped)).then_some(stripped)
        }
    };
    Ok(Some(Change {
        path: path.to_path_buf(),
        before: Some(current.to_owned()),
        after,
        executable: false,
    }))
}

/// The user's Codex config without the trust of `keys` (project scope:
/// the switch is in the project's file, the trust in the user's).
fn untrust_change(user_toml: &Path, keys: &[String]) -> anyhow::Result<Option<Change>> {
    let path = change::resolve(user_toml);
    let Some(current) = change::read(&path)? else {
        return Ok(None);
    };
    let after = codex::untrust(&current, keys)?;
    if after == current {
        return Ok(None);
    }
    Ok(Some(Change {
        path,
        before: Some(current),
        after: Some(after),
        executable: false,
    }))
}

/// Trusts hookgate's hooks in Codex (its own review of new hooks), through
/// the user's `codex`; returns how many files it wrote. Says what the user
/// must do where it cannot.
fn trust(spec: &AgentSpec, ctx: &Install<'_>, path: &Path) -> anyhow::Result<usize> {
    let label = spec.agent.as_str();
    let manual =
        "start `codex` and answer \"Trust all and continue\" (`codex exec` skips untrusted hooks)";
    if ctx.dry_run {
        outln!("{label}: would trust hookgate's hooks in Codex's review of new hooks");
        return Ok(0);
    }
    if !ctx.trust {
        outln!(
            "{label}: note: --no-trust: Codex runs hookgate's hooks only once you trust them: {manual}"
        );
        return Ok(0);
    }
    let Some(program) = codex::find(std::env::var_os("PATH").as_deref()) else {
        outln!(
            "{label}: note: `codex` is not on PATH, so its review of new hooks is left to you: {manual}"
        );
        return Ok(0);
    };
    let hooks_file = change::resolve(path);
    let listing = codex::list(&program, ctx.home, ctx.base)
        .with_context(|| format!("asking {} which hooks it trusts", program.display()))?;
    let ours: Vec<&codex::CodexHook> = listing
        .hooks
        .iter()
        .filter(|hook| hook.is_ours() && hook.source_path == hooks_file)
        .collect();
    if ours.is_empty() {
        outln!(
            "{label}: note: Codex does not list the hooks in {} (a project Codex does not trust yet ignores its .codex/): {manual}",
            hooks_file.display()
        );
        return Ok(0);
    }
    let user_toml = change::resolve(&ctx.home.join(".codex/config.toml"));
    // A file this install created (just the switch, no backup) gets no
    // backup now either: uninstall removes it, as before there was none.
    let created = spec.switch.as_ref().is_some_and(|switch| {
        !change::backup_path(&user_toml).exists()
            && change::read(&user_toml).ok().flatten() == Some(switch.created())
    });
    let apply = if created {
        change::apply_plain
    } else {
        change::apply_install
    };
    let written = apply_fresh(label, &user_toml, false, apply, || {
        let before = change::read(&user_toml)?;
        let (after, _) =
            codex::trust(before.as_deref().unwrap_or(""), &listing.hooks, &hooks_file)?;
        let change = Change {
            path: user_toml.clone(),
            before,
            after: Some(after),
            executable: false,
        };
        Ok((vec![change], Vec::new()))
    })?;
    outln!(
        "{label}: hookgate's {} hooks are trusted in Codex's review of new hooks ({})",
        ours.len(),
        user_toml.display()
    );
    Ok(written)
}
