//! The agents table's tests: aliases, per-agent limits, and that every
//! file install writes is covered by self-protection.

use super::*;

#[test]
fn program_names_are_aliases() {
    for (name, agent) in [
        ("claude", Agent::ClaudeCode),
        ("claude-code", Agent::ClaudeCode),
        ("gemini", Agent::GeminiCli),
        ("qwen", Agent::QwenCode),
        ("cursor-agent", Agent::Cursor),
        ("codex", Agent::Codex),
        ("copilot", Agent::Copilot),
    ] {
        assert_eq!(parse(name), Ok(agent), "{name}");
    }
    let err = parse("vim").unwrap_err();
    assert!(err.contains("claude-code (claude)"), "{err}");
    assert!(err.contains("gemini-cli (gemini)"), "{err}");
}

#[test]
fn short_events_are_hooked_and_fit_the_shim() {
    for entry in AGENTS {
        let Format::Json(format) = &entry.format else {
            continue;
        };
        for short in format.short {
            assert!(entry.events().contains(&short.event), "{:?}", entry.agent);
            assert!(
                format.timeout_unit.to_millis(short.timeout) > short.shim_ms,
                "{:?}: the shim must answer before the agent gives up",
                entry.agent
            );
        }
    }
}

#[test]
fn every_entry_is_consistent() {
    for entry in AGENTS {
        let events = entry.events();
        for event in entry.guarded {
            assert!(events.contains(event), "{:?}: {event}", entry.agent);
        }
        assert!(!events.contains(&"WorktreeCreate"));
        assert_eq!(spec(entry.agent).map(|s| s.agent), Some(entry.agent));
    }
}

/// Self-protection holds every file install writes, in any home or
/// project: each config path (and the TOML switch's) is one of its
/// agent configs or inside one.
#[test]
fn self_protection_covers_every_config_install_writes() {
    let covered = |path: &str| {
        hookgate_daemon::protect::AGENT_CONFIGS.iter().any(|c| {
            path == *c || path.starts_with(&format!("{c}/")) || path.ends_with(&format!("/{c}"))
        })
    };
    for entry in AGENTS {
        let switch = entry.switch.as_ref().map(|s| s.path);
        for path in [entry.user_path, entry.project_path]
            .into_iter()
            .chain(switch)
        {
            assert!(covered(path), "{:?}: {path}", entry.agent);
        }
    }
}

/// What install hooks and the adapters' table agree: the dialect is
/// the agent's, and its hooked rows are what install hooks.
#[test]
fn installed_events_are_the_hooked_rows_of_the_agents_table() {
    for entry in AGENTS {
        assert_eq!(entry.dialect.agent(), entry.agent);
        let events = entry.events();
        assert!(!events.is_empty(), "{:?}", entry.agent);
        let rows = entry.dialect.descriptor().events;
        let left: Vec<&str> = (rows.iter())
            .filter(|row| row.hook.is_none())
            .map(|row| row.name)
            .collect();
        // Pinned: leaving an event unhooked, or hooking one, is a decision
        // made here on purpose, not by editing a row.
        let pinned: &[&str] = match entry.agent {
            Agent::ClaudeCode => &[
                "Setup",
                "InstructionsLoaded",
                "UserPromptExpansion",
                "MessageDisplay",
                "PostModelSwitch",
                "PermissionDenied",
                "TaskCreated",
                "TaskCompleted",
                "StopFailure",
                "TeammateIdle",
                "CwdChanged",
                "DirectoryAdded",
                "FileChanged",
                "WorktreeCreate",
                "WorktreeRemove",
                "PostCompact",
                "Elicitation",
                "ElicitationResult",
            ],
            Agent::QwenCode => &["PermissionDenied", "StopFailure", "MessageDisplay"],
            Agent::Hermes => &["post_llm_call", "subagent_start"],
            Agent::Cursor => &["workspaceOpen"],
            _ => &[],
        };
        assert_eq!(left, pinned, "{:?}", entry.agent);
        assert_eq!(events.len() + left.len(), rows.len(), "{:?}", entry.agent);
        // A guarded event left unhooked would make `--fail-closed` a
        // switch on nothing there.
        for event in entry.guarded {
            assert!(
                events.contains(event),
                "{:?}: guarded {event} is not hooked",
                entry.agent
            );
        }
    }
}
