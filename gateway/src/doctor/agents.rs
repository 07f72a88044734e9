//! The agents' side: hookgate's entries in each agent's config, and what
//! the agent will do with them ([`super::gates`], [`super::codex`]).

use std::path::PathBuf;

use hookgate_adapters::Agent;

use super::{Report, gates};
use crate::install::agents::{AGENTS, AgentSpec, Format};
use crate::install::hold::Hold;
use crate::install::{change, command, hermes, json_config, opencode, script_dir, shim};

/// An agent whose config runs hookgate, with the command it runs.
#[derive(Debug, Clone)]
pub(crate) struct Installed {
    pub(crate) agent: Agent,
    pub(crate) command: String,
    pub(crate) socket: Option<PathBuf>,
}

/// Checks the agents named (or all with hookgate's hooks); returns those
/// installed.
pub(crate) fn check(named: &[Agent], report: &mut Report) -> Vec<Installed> {
    let home = match crate::install::home() {
        Ok(home) => home,
        Err(err) => {
            report.problem(
                &format!("{err:#}"),
                "run doctor as the user the agents run as",
            );
            return Vec::new();
        }
    };
    let cwd = std::env::current_dir().ok();
    // A config that does not load is named by `gateway::check_config`.
    let hold = hookgate_config::Config::load(None)
        .ok()
        .and_then(|config| Hold::of(&config));
    let mut installed = Vec::new();
    for spec in AGENTS {
        let asked = named.contains(&spec.agent);
        if !named.is_empty() && !asked {
            continue;
        }
        let mut paths = vec![(spec.path(&home, false), "user", home.clone())];
        if let Some(cwd) = &cwd
            && spec.path(cwd, true) != paths[0].0
        {
            paths.push((spec.path(cwd, true), "project", cwd.clone()));
        }
        let mut found = false;
        let mut every_command = Vec::new();
        for (path, scope, base) in paths {
            let commands = match commands(spec, &path) {
                Ok(commands) => commands,
                Err(err) => {
                    let fix = match spec.format {
                        Format::Json(_) => "fix the file (it must be valid JSON)",
                        _ => "fix the file",
                    };
                    report.problem(
                        &format!("{}: cannot read {}: {err:#}", spec.agent, path.display()),
                        &format!("{fix}, then `gateway install`"),
                    );
                    continue;
                }
            };
            if commands.is_empty() {
                continue;
            }
            found = true;
            check_entries(spec, &path, scope, &commands, report);
            check_switch(spec, &path, scope, report);
            check_handlers(spec, &path, report);
            if let Some(hold) = &hold {
                super::holds::check(spec, &path, &commands, hold, report);
            }
            if spec.hook_trust {
                super::codex::check(spec, &path, &base, report);
            }
            if matches!(spec.format, Format::HermesYaml) {
                check_consent(&path, &commands, report);
            }
            every_command.extend(commands.iter().map(|(_, line)| line.clone()));
            // The probe goes through the entry of its own event (Copilot's
            // camelCase commands name it), else any entry.
            let probe = hookgate_adapters::probe_event(spec.agent);
            let entry = commands.iter().find(|(event, _)| event == probe);
            if let Some((_, line)) = entry.or(commands.first()) {
                installed.push(Installed {
                    agent: spec.agent,
                    command: line.clone(),
                    socket: command::var_of(line, "HOOKGATE_SOCKET").map(PathBuf::from),
                });
            }
        }
        if found {
            gates::check_switches(spec, &every_command, report);
        }
        if !found && asked {
            report.problem(
                &format!("{}: no hookgate hooks in its config", spec.agent),
                &format!("gateway install --agent {}", spec.agent),
            );
        }
    }
    if installed.is_empty() && named.is_empty() {
        report.problem("no agent's config runs hookgate", "gateway install --all");
    }
    installed
}

/// The (event, command) pairs of hookgate's entries at `path`.
fn commands(spec: &AgentSpec, path: &std::path::Path) -> anyhow::Result<Vec<(String, String)>> {
    match &spec.format {
        Format::Json(format) => match change::read(&change::resolve(path))? {
            None => Ok(Vec::new()),
            Some(text) => Ok(json_config::installed(format, &text)?),
        },
        Format::ScriptDir => {
            let mut found = Vec::new();
            for event in spec.events() {
                if let Some(text) = change::read(&path.join(event))?
                    && let Some(line) = script_dir::command_of(&text)
                {
                    found.push((event.to_owned(), line.to_owned()));
                }
            }
            Ok(found)
        }
        Format::HermesYaml => match change::read(&change::resolve(path))? {
            None => Ok(Vec::new()),
            Some(text) => hermes::installed(&text),
        },
        // One plugin serves every event.
        Format::Plugin => Ok(change::read(&change::resolve(path))?
            .and_then(|text| opencode::command_of(&text))
            .map(|line| {
                spec.events()
                    .into_iter()
                    .map(|event| (event.to_owned(), line.clone()))
                    .collect()
            })
            .unwrap_or_default()),
    }
}

/// Every event hooked, every shim and gateway there and executable.
fn check_entries(
    spec: &AgentSpec,
    path: &std::path::Path,
    scope: &str,
    commands: &[(String, String)],
    report: &mut Report,
) {
    let agent = spec.agent;
    let reinstall = format!(
        "gateway install --agent {agent}{}",
        if scope == "project" {
            " --scope project"
        } else {
            ""
        }
    );
    let mut missing = spec.events();
    missing.retain(|event| !commands.iter().any(|(e, _)| e == event));
    if missing.is_empty() {
        report.ok(&format!(
            "{agent}: {} hooks {} events",
            path.display(),
            commands.len()
        ));
    } else {
        report.problem(
            &format!(
                "{agent}: {} does not hook {}",
                path.display(),
                missing.join(", ")
            ),
            &reinstall,
        );
    }
    let mut seen = Vec::new();
    for (_, line) in commands {
        if seen.contains(line) {
            continue;
        }
        seen.push(line.clone());
        match command::shim_of(line) {
            Some(shim) if shim::is_executable(&shim) => {}
            Some(shim) => report.problem(
                &format!(
                    "{agent}: the hooks run {}, which is not an executable file: every hook call fails and the agent carries on unprotected",
                    shim.display()
                ),
                &reinstall,
            ),
            None => report.problem(
                &format!("{agent}: cannot tell which shim `{line}` runs"),
                &reinstall,
            ),
        }
        if let Some(gateway) = command::var_of(line, "HOOKGATE_GATEWAY")
            && !shim::is_executable(std::path::Path::new(&gateway))
        {
            report.problem(
                &format!("{agent}: autostart names {gateway}, which is not an executable file"),
                &format!("{reinstall} (run it with the gateway you keep)"),
            );
        }
    }
}

/// The agent's TOML switch is on (Codex's `[features] hooks`): without it
/// the agent reads none of the hooks above.
fn check_switch(spec: &AgentSpec, path: &std::path::Path, scope: &str, report: &mut Report) {
    let Some(switch) = &spec.switch else { return };
    // The switch's file sits where the hooks file does, in the same scope.
    let base = match scope {
        "project" => std::env::current_dir().ok(),
        _ => crate::install::home().ok(),
    };
    let Some(base) = base else { return };
    let agent = spec.agent;
    if switch.is_on_at(&base) {
        report.ok(&format!(
            "{agent}: `{}.{} = true` in {}",
            switch.table,
            switch.key,
            base.join(switch.path).display()
        ));
    } else {
        report.problem(
            &format!(
                "{agent}: `[{}] {} = true` is missing from {}: {agent} ignores {}",
                switch.table,
                switch.key,
                base.join(switch.path).display(),
                path.display()
            ),
            &format!("gateway install --agent {agent}"),
        );
    }
}

/// hookgate's handlers at `path` match every tool and outlast the shim.
fn check_handlers(spec: &AgentSpec, path: &std::path::Path, report: &mut Report) {
    if let Format::Plugin = spec.format {
        return check_plugin(spec, path, report);
    }
    let Format::Json(format) = &spec.format else {
        return;
    };
    let Ok(Some(text)) = change::read(&change::resolve(path)) else {
        return;
    };
    if let Ok(entries) = json_config::entries(format, &text) {
        gates::check_entries(spec, format, path, &entries, report);
    }
}

/// Hermes runs a hook only once its `(event, command)` pair is approved in
/// the allowlist next to the config; a non-interactive Hermes skips an
/// unapproved one with a warning (docs/agents.md, "Hermes Agent").
fn check_consent(config: &std::path::Path, commands: &[(String, String)], report: &mut Report) {
    let list = hermes::allowlist_path(&change::resolve(config));
    let text = change::read(&change::resolve(&list)).ok().flatten();
    let missing = hermes::unapproved(text.as_deref(), commands);
    if let Some((event, _)) = missing.first() {
        report.problem(
            &format!(
                "hermes: {} of hookgate's hooks ({event}, ...) not approved in {}: Hermes skips them when it cannot ask",
                missing.len(),
                list.display()
            ),
            "gateway install --agent hermes",
        );
    }
}

/// hookgate's plugin is the one this gateway writes: an older hookgate's
/// (or an edited one) may apply replies differently.
fn check_plugin(spec: &AgentSpec, path: &std::path::Path, report: &mut Report) {
    let Ok(Some(text)) = change::read(&change::resolve(path)) else {
        return;
    };
    if !opencode::is_current(&text) {
        report.problem(
            &format!(
                "{}: {} is not the plugin this gateway writes (another hookgate version's, or edited)",
                spec.agent,
                path.display()
            ),
            &format!("gateway install --agent {}", spec.agent),
        );
    }
}
