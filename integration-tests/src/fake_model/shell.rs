//! The shell tools of the agents under test, by name: which one a request
//! offers decides the tool call the fake model answers with, and its
//! arguments in that tool's own schema.

use serde_json::{Value, json};

/// One agent's shell tool.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ShellTool {
    /// The tool's name in the request's `tools` list.
    pub(crate) name: &'static str,
    /// Builds the tool's input for a command line.
    input: fn(&str) -> Value,
}

/// Tools are one per name.
impl PartialEq for ShellTool {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for ShellTool {}

impl ShellTool {
    /// The tool's input (arguments) for running `command`.
    pub(crate) fn input(&self, command: &str) -> Value {
        (self.input)(command)
    }
}

/// Claude Code's `Bash`.
pub(crate) const BASH: ShellTool = ShellTool {
    name: "Bash",
    input: |command| json!({"command": command, "description": "Run the scripted command"}),
};

/// Factory Droid's `Execute` (its schema requires the risk fields).
pub(crate) const EXECUTE: ShellTool = ShellTool {
    name: "Execute",
    input: |command| {
        json!({"command": command, "summary": "Run the scripted command",
               "riskLevel": "low", "riskLevelReason": "scripted test command"})
    },
};

/// The Cline CLI's `run_commands`.
pub(crate) const RUN_COMMANDS: ShellTool = ShellTool {
    name: "run_commands",
    input: |command| json!({"commands": [command]}),
};

/// GitHub Copilot CLI's `bash`.
pub(crate) const COPILOT_BASH: ShellTool = ShellTool {
    name: "bash",
    input: |command| json!({"command": command, "description": "Run the scripted command", "mode": "sync"}),
};

/// Codex's `exec_command` (Codex's hooks call it `Bash`, `{command}`).
pub(crate) const EXEC_COMMAND: ShellTool = ShellTool {
    name: "exec_command",
    input: |command| json!({"cmd": command}),
};

/// Qwen Code's and Gemini CLI's `run_shell_command`.
pub(crate) const RUN_SHELL_COMMAND: ShellTool = ShellTool {
    name: "run_shell_command",
    input: |command| json!({"command": command, "description": "Run the scripted command", "is_background": false}),
};

/// Hermes Agent's `terminal`.
pub(crate) const TERMINAL: ShellTool = ShellTool {
    name: "terminal",
    input: |command| json!({"command": command}),
};

/// The first tool of `known` the request `body` offers (each agent offers
/// its own set, never two shells); `name_at` is where a tool entry of this
/// API keeps its name (a JSON pointer).
pub(crate) fn offered(body: &Value, known: &[ShellTool], name_at: &str) -> Option<ShellTool> {
    let tools = body.get("tools").and_then(Value::as_array)?;
    tools
        .iter()
        .filter_map(|tool| tool.pointer(name_at).and_then(Value::as_str))
        .find_map(|name| known.iter().copied().find(|tool| tool.name == name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_offered_shell_by_name() {
        let known = [BASH, EXECUTE];
        let body = json!({"tools": [{"name": "Read"}, {"name": "Execute"}]});
        assert_eq!(offered(&body, &known, "/name"), Some(EXECUTE));
        assert_eq!(offered(&body, &[BASH], "/name"), None);
        assert_eq!(offered(&json!({}), &known, "/name"), None);
        assert_eq!(
            EXECUTE.input("ls")["riskLevel"],
            "low",
            "Droid rejects an Execute call without its risk level"
        );
        assert_eq!(RUN_COMMANDS.input("ls"), json!({"commands": ["ls"]}));
    }
}
