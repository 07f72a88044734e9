//! A tool call as the agent will run it after a subscriber rewrote its
//! input (`updated_input`).
//!
//! The gateway checks the rewritten call again (a decide subscriber, buggy
//! or compromised, must not launder a command past the guard), so what
//! the guard reads of a tool, its command and paths, is derived from the
//! new input the way the adapter derived it from the old one. Rather than
//! a second parser per agent, the adapter's own reading is replayed: a
//! top-level key of the old input whose value the adapter took as the
//! command, the file or a path is read again from the new input, and the
//! generic path finder runs over it, as on parse.

use serde_json::Value;

use crate::Tool;

impl Tool {
    /// This call with `input` instead of its input, the command and paths
    /// derived again. A new input that is not an object keeps no command
    /// and no file: the agent cannot run one from it.
    pub fn with_input(&self, input: Value) -> Tool {
        let old = self.input.as_object();
        let new = input.as_object();
        // The old input's keys holding exactly what the adapter read.
        let keys_of = |wanted: &str| -> Vec<&String> {
            old.into_iter()
                .flatten()
                .filter(|(_, value)| value.as_str() == Some(wanted))
                .map(|(key, _)| key)
                .collect()
        };
        let reread = |wanted: Option<&String>| -> Option<String> {
            let wanted = wanted?;
            keys_of(wanted)
                .into_iter()
                .find_map(|key| new?.get(key)?.as_str().map(str::to_owned))
        };
        let command =
            reread(self.command.as_ref()).or_else(|| self.command.as_ref().and(command_list(new?)));
        let file_path = reread(self.file_path.as_ref());
        let mut paths = Vec::new();
        for path in file_path.iter() {
            crate::paths::push(&mut paths, path);
        }
        let named = crate::paths::find(&input);
        for path in &named.paths {
            crate::paths::push(&mut paths, path);
        }
        // What the adapter took as a path beyond the generic finder (a
        // glob's `pattern`): the same keys, read again.
        for old_path in &self.paths {
            if let Some(path) = reread(Some(old_path)) {
                crate::paths::push(&mut paths, &path);
            }
        }
        Tool {
            input,
            command,
            file_path,
            paths_overflow: named.overflow || paths.len() >= crate::paths::MAX_PATHS,
            paths,
            ..self.clone()
        }
    }
}

/// A shell call's commands as a list (Cline's `run_commands`), one line
/// each as the adapter joins them; the mirror's stringified array too.
fn command_list(input: &serde_json::Map<String, Value>) -> Option<String> {
    let list: Vec<String> = match input.get("commands")? {
        Value::Array(items) => items
            .iter()
            .map(|item| item.as_str().map(str::to_owned))
            .collect::<Option<_>>()?,
        Value::String(text) => serde_json::from_str(text).ok()?,
        _ => return None,
    };
    Some(list.join("\n")).filter(|line| !line.is_empty())
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::{Dialect, parse};

    fn tool(payload: Value) -> crate::Tool {
        let bytes = serde_json::to_vec(&payload).unwrap();
        parse(Dialect::ClaudeCode, &bytes).unwrap().tool.unwrap()
    }

    fn pre_tool_use(name: &str, input: Value) -> Value {
        json!({
            "session_id": "s", "transcript_path": "/t", "cwd": "/home/dev/acme",
            "hook_event_name": "PreToolUse", "tool_name": name, "tool_input": input,
        })
    }

    #[test]
    fn a_rewritten_command_is_the_new_command() {
        let old = tool(pre_tool_use("Bash", json!({"command": "ls", "timeout": 5})));
        let new = old.with_input(json!({"command": "rm -rf ~", "timeout": 5}));
        assert_eq!(new.command.as_deref(), Some("rm -rf ~"));
        assert_eq!(new.name, "Bash");
        assert_eq!(new.input["command"], "rm -rf ~");
    }

    #[test]
    fn a_rewritten_file_is_the_new_file_and_path() {
        let old = tool(pre_tool_use(
            "Read",
            json!({"file_path": "/home/dev/acme/a.rs"}),
        ));
        let new = old.with_input(json!({"file_path": "/home/dev/acme/.env"}));
        assert_eq!(new.file_path.as_deref(), Some("/home/dev/acme/.env"));
        assert_eq!(new.paths, ["/home/dev/acme/.env"]);
    }

    /// Glob's `pattern` is a path only by the adapter's knowledge.
    #[test]
    fn an_adapter_specific_path_key_is_read_again() {
        let old = tool(pre_tool_use("Glob", json!({"pattern": "src/**"})));
        assert_eq!(old.paths, ["src/**"]);
        let new = old.with_input(json!({"pattern": "~/.ssh/*"}));
        assert_eq!(new.paths, ["~/.ssh/*"]);
    }

    #[test]
    fn a_rewritten_command_list_is_the_new_command() {
        let old = tool(pre_tool_use("Bash", json!({"command": "ls"})));
        let new = old.with_input(json!({"commands": ["npm test", "rm -rf ~"]}));
        assert_eq!(new.command.as_deref(), Some("npm test\nrm -rf ~"));
    }

    #[test]
    fn a_rewrite_that_drops_the_command_has_none() {
        let old = tool(pre_tool_use("Bash", json!({"command": "ls"})));
        assert_eq!(old.with_input(json!({"other": "x"})).command, None);
        assert_eq!(old.with_input(json!("rm -rf ~")).command, None);
    }
}
