//! What the agent will do with hookgate's entries, beyond their being
//! there: every settings layer the agent reads (managed, user, project,
//! local) for a switch that turns hooks off, the matcher on hookgate's
//! group (one that names a tool lets every other tool through), and the
//! agent's hook timeout against the shim's deadline (an agent that gives
//! up first kills the shim, and fail-closed is lost).
//!
//! The switches are the agents' own, read from their CLIs (docs/agents.md
//! says which version): a project `.claude/settings.json` with
//! `disableAllHooks` made both Claude Code versions run `cat .env`.

use std::path::{Path, PathBuf};

use hookgate_adapters::Agent;

use super::Report;
use crate::install::agents::{AgentSpec, Format, JsonFormat};
use crate::install::hooks::Entry;
use crate::install::json::Json;
use crate::install::{change, command, jsonc};

/// Where a settings file is.
#[derive(Debug, Clone, Copy)]
enum Place {
    /// An absolute path (a machine-wide, managed file).
    System(&'static str),
    /// A machine-wide file the agent reads from `env` when that is set,
    /// else from `path` (Gemini's and Qwen's `*_SYSTEM_SETTINGS_PATH`).
    SystemEnv {
        env: &'static str,
        path: &'static str,
    },
    /// The system defaults: `env` when set, else `system-defaults.json`
    /// beside the system settings `of` (as Gemini and Qwen find them).
    SystemDefaults {
        env: &'static str,
        of: &'static Place,
    },
    /// Relative to HOME.
    Home(&'static str),
    /// Relative to the project (the working directory).
    Project(&'static str),
}

impl Place {
    /// The file, where the agent would look from this environment.
    fn resolve(&self, home: Option<&Path>, cwd: Option<&Path>) -> Option<PathBuf> {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        match self {
            Place::System(path) => Some(PathBuf::from(path)),
            Place::SystemEnv { env, path } => {
                Some(var(env).map_or_else(|| PathBuf::from(path), PathBuf::from))
            }
            Place::SystemDefaults { env, of } => match var(env) {
                Some(path) => Some(PathBuf::from(path)),
                None => Some(
                    of.resolve(home, cwd)?
                        .parent()?
                        .join("system-defaults.json"),
                ),
            },
            Place::Home(rel) => home.map(|h| h.join(rel)),
            Place::Project(rel) => cwd.map(|c| c.join(rel)),
        }
    }
}

/// What a setting must hold to turn hooks off.
#[derive(Debug, Clone, Copy)]
enum Off {
    /// This boolean.
    Is(bool),
    /// A list holding hookgate's command (Gemini's disabled hooks).
    ListsOurCommand,
}

/// A setting that keeps hookgate's hooks from running.
#[derive(Debug, Clone, Copy)]
struct Switch {
    /// JSON pointer in the file.
    pointer: &'static str,
    off: Off,
    /// What it does, after "`key: value` in FILE".
    effect: &'static str,
    /// The files (by index in the agent's [`Layers::files`]) it is read
    /// in; empty: all.
    only_in: &'static [usize],
}

/// One agent's settings files and the switches in them.
#[derive(Debug)]
struct Layers {
    agent: Agent,
    files: &'static [(&'static str, Place)],
    switches: &'static [Switch],
}

/// Qwen Code's system settings (0.24.4, `getSystemSettingsPath`).
const QWEN_SYSTEM: Place = Place::SystemEnv {
    env: "QWEN_CODE_SYSTEM_SETTINGS_PATH",
    path: "/etc/qwen-code/settings.json",
};

/// Gemini CLI's system settings (0.61.0, `getSystemSettingsPath`).
const GEMINI_SYSTEM: Place = Place::SystemEnv {
    env: "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
    path: "/etc/gemini-cli/settings.json",
};

/// The agents' settings layers (scope name, place), observed in their
/// CLIs: docs/agents.md, "Switches that turn hooks off".
const LAYERS: &[Layers] = &[
    Layers {
        agent: Agent::ClaudeCode,
        files: &[
            (
                "managed",
                Place::System("/etc/claude-code/managed-settings.json"),
            ),
            ("user", Place::Home(".claude/settings.json")),
            ("project", Place::Project(".claude/settings.json")),
            ("local", Place::Project(".claude/settings.local.json")),
        ],
        switches: &[
            Switch {
                pointer: "/disableAllHooks",
                off: Off::Is(true),
                effect: "turns every hook off, hookgate's too",
                only_in: &[],
            },
            Switch {
                pointer: "/allowManagedHooksOnly",
                off: Off::Is(true),
                effect: "runs only managed hooks: user and project hooks, hookgate's too, are ignored",
                only_in: &[0],
            },
        ],
    },
    Layers {
        agent: Agent::QwenCode,
        files: &[
            ("system", QWEN_SYSTEM),
            (
                "system defaults",
                Place::SystemDefaults {
                    env: "QWEN_CODE_SYSTEM_DEFAULTS_PATH",
                    of: &QWEN_SYSTEM,
                },
            ),
            ("user", Place::Home(".qwen/settings.json")),
            ("project", Place::Project(".qwen/settings.json")),
        ],
        switches: &[Switch {
            pointer: "/disableAllHooks",
            off: Off::Is(true),
            effect: "turns every hook off, hookgate's too",
            only_in: &[],
        }],
    },
    Layers {
        agent: Agent::GeminiCli,
        files: &[
            ("system", GEMINI_SYSTEM),
            (
                "system defaults",
                Place::SystemDefaults {
                    env: "GEMINI_CLI_SYSTEM_DEFAULTS_PATH",
                    of: &GEMINI_SYSTEM,
                },
            ),
            ("user", Place::Home(".gemini/settings.json")),
            ("project", Place::Project(".gemini/settings.json")),
        ],
        switches: &[
            Switch {
                pointer: "/hooksConfig/enabled",
                off: Off::Is(false),
                effect: "turns every hook off, hookgate's too",
                only_in: &[],
            },
            Switch {
                pointer: "/hooksConfig/disabled",
                off: Off::ListsOurCommand,
                effect: "lists hookgate's command among the disabled hooks",
                only_in: &[],
            },
        ],
    },
    Layers {
        agent: Agent::Droid,
        files: &[
            ("user", Place::Home(".factory/settings.json")),
            ("user hooks", Place::Home(".factory/hooks.json")),
            ("project", Place::Project(".factory/settings.json")),
            ("local", Place::Project(".factory/settings.local.json")),
        ],
        switches: &[
            Switch {
                pointer: "/hooks/hooksDisabled",
                off: Off::Is(true),
                effect: "turns every hook off, hookgate's too",
                only_in: &[0, 2, 3],
            },
            Switch {
                pointer: "/hooksDisabled",
                off: Off::Is(true),
                effect: "turns every hook off, hookgate's too",
                only_in: &[1],
            },
        ],
    },
];

/// Checks every settings layer `spec`'s agent reads for a switch that
/// keeps hookgate's hooks (running `ours`) from running.
pub(crate) fn check_switches(spec: &AgentSpec, ours: &[String], report: &mut Report) {
    let Some(layers) = LAYERS.iter().find(|l| l.agent == spec.agent) else {
        return;
    };
    let accepts = match &spec.format {
        Format::Json(format) => format.accepts,
        Format::ScriptDir | Format::HermesYaml | Format::Plugin => return,
    };
    let home = crate::install::home().ok();
    let cwd = std::env::current_dir().ok();
    for (index, (scope, place)) in layers.files.iter().enumerate() {
        let Some(path) = place.resolve(home.as_deref(), cwd.as_deref()) else {
            continue;
        };
        let Ok(Some(text)) = change::read(&change::resolve(&path)) else {
            continue;
        };
        let Ok(parsed) = jsonc::parse(&text, accepts) else {
            report.problem(
                &format!(
                    "{}: cannot read its {scope} settings {}: the agent may not either",
                    spec.agent,
                    path.display()
                ),
                &format!("fix {}", path.display()),
            );
            continue;
        };
        for switch in layers.switches {
            if !switch.only_in.is_empty() && !switch.only_in.contains(&index) {
                continue;
            }
            if let Some(value) = off(&parsed.root, switch, ours) {
                let key = switch.pointer.trim_start_matches('/').replace('/', ".");
                report.problem(
                    &format!(
                        "{}: `{key}: {value}` in its {scope} settings {} {}",
                        spec.agent,
                        path.display(),
                        switch.effect
                    ),
                    &format!("remove `{key}` from {}", path.display()),
                );
            }
        }
    }
}

/// The value of `switch` in `root` when it is set to "off".
fn off(root: &Json, switch: &Switch, ours: &[String]) -> Option<String> {
    let value = pointer(root, switch.pointer)?;
    match (switch.off, value) {
        (Off::Is(off), Json::Bool(set)) if *set == off => Some(off.to_string()),
        (Off::ListsOurCommand, Json::Array(items)) => items
            .iter()
            .filter_map(Json::as_str)
            .find(|item| ours.iter().any(|cmd| cmd == item))
            .map(|_| "[<hookgate's command>]".to_owned()),
        _ => None,
    }
}

fn pointer<'a>(root: &'a Json, pointer: &str) -> Option<&'a Json> {
    pointer
        .split('/')
        .skip(1)
        .try_fold(root, |value, key| value.get(key))
}

/// hookgate's groups match every tool, and the agent waits for each
/// handler longer than the shim's deadline.
pub(crate) fn check_entries(
    spec: &AgentSpec,
    format: &JsonFormat,
    path: &Path,
    entries: &[Entry],
    report: &mut Report,
) {
    let agent = spec.agent;
    for entry in entries {
        if let Some(matcher) = &entry.matcher
            && !matches_everything(matcher)
        {
            report.problem(
                &format!(
                    "{agent}: hookgate's {} group in {} has the matcher {}: every other tool goes unchecked",
                    entry.event,
                    path.display(),
                    matcher.render().trim_end()
                ),
                &format!("gateway install --agent {agent} (it writes an empty matcher)"),
            );
        }
        let Some(line) = &entry.command else { continue };
        let Some(timeout) = entry.handler.get(format.timeout_key).and_then(|v| match v {
            Json::Number(n) => n.as_u64(),
            _ => None,
        }) else {
            continue;
        };
        let agent_ms = format.timeout_unit.to_millis(timeout);
        let shim_ms = command::var_of(line, command::TIMEOUT_VAR)
            .and_then(|ms| ms.parse().ok())
            .unwrap_or(command::SHIM_DEFAULT_MS);
        if agent_ms <= shim_ms {
            report.problem(
                &format!(
                    "{agent}: `{key}: {timeout}` on hookgate's {} hook in {} is {agent_ms} ms (`{key}` is in {}), not more than the shim's {shim_ms} ms: the agent kills the shim before it answers or blocks, and fail-closed is lost",
                    entry.event,
                    path.display(),
                    format.timeout_unit.name(),
                    key = format.timeout_key,
                ),
                &format!("gateway install --agent {agent} (it writes a timeout above the shim's)"),
            );
        }
    }
}

/// An empty matcher, `*`, or none at all: every tool.
fn matches_everything(matcher: &Json) -> bool {
    matches!(matcher, Json::Null) || matches!(matcher.as_str(), Some("" | "*" | ".*"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_are_read_at_their_pointer() {
        let root = Json::parse(
            r#"{"disableAllHooks": true, "hooksConfig": {"enabled": false, "disabled": ["other", "ours"]}}"#,
        )
        .unwrap();
        let ours = ["ours".to_owned()];
        let claude = &LAYERS[0].switches[0];
        assert_eq!(off(&root, claude, &ours).as_deref(), Some("true"));
        let gemini = LAYERS.iter().find(|l| l.agent == Agent::GeminiCli).unwrap();
        assert_eq!(
            off(&root, &gemini.switches[0], &ours).as_deref(),
            Some("false")
        );
        assert!(off(&root, &gemini.switches[1], &ours).is_some());
        assert!(off(&root, &gemini.switches[1], &["x".to_owned()]).is_none());
        let on = Json::parse(r#"{"disableAllHooks": false}"#).unwrap();
        assert!(off(&on, claude, &ours).is_none());
    }

    #[test]
    fn only_wildcards_match_everything() {
        for (matcher, all) in [
            ("\"\"", true),
            ("\"*\"", true),
            ("null", true),
            ("\"Bash\"", false),
        ] {
            assert_eq!(
                matches_everything(&Json::parse(matcher).unwrap()),
                all,
                "{matcher}"
            );
        }
    }

    #[test]
    fn every_layer_list_belongs_to_an_installable_agent() {
        for layers in LAYERS {
            assert!(crate::install::agents::spec(layers.agent).is_some());
            for switch in layers.switches {
                for index in switch.only_in {
                    assert!(*index < layers.files.len(), "{:?}", layers.agent);
                }
            }
        }
    }
}
