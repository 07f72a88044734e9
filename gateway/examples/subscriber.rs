//! An example hookgate subscriber on the Rust SDK (`hookgate-subscriber`),
//! showing the three things a policy usually does.
//!
//! - **deny**: `rm` with `-r` and `-f` (as the guard parsed the line:
//!   `sudo rm -fr`, `bash -c 'rm -rf x'` included) is denied with a reason;
//! - **context injection**: prompt-submit and session-start events get a
//!   line of extra context for the model;
//! - **input rewrite**: `npm test` becomes `npm test -- --ci`, in the
//!   agent's own tool-input shape (the rewrite replaces the input the
//!   agent will run, exactly as `tool.input_json` came).
//!
//! Run it and point the gateway at it:
//!
//! ```text
//! cargo run -p hookgate-gateway --example subscriber -- 127.0.0.1:50051
//! cargo run -p hookgate-gateway --example subscriber -- unix:///tmp/example-subscriber.sock  # Unix only
//! ```
//!
//! ```toml
//! [[subscriber]]
//! name = "example"
//! endpoint = "http://127.0.0.1:50051"
//! timeout_ms = 200
//! ```

use hookgate_subscriber::{Decision, Event, Subscriber, ToolClass, context, deny, none, rewrite};

/// The policy: handlers that are pure functions of the event, easy to test.
fn policy() -> Subscriber {
    let note = |_: &Event| {
        context(
            "Project rule (from the hookgate example subscriber): run `npm test` before \
             declaring a task done.",
        )
    };
    Subscriber::new()
        .on_prompt_submit(note)
        .on_session_start(note)
        .on_pre_tool_use(pre_tool_use)
}

fn pre_tool_use(event: &Event) -> Decision {
    let Some(tool) = &event.tool else {
        return none();
    };
    if tool.class != ToolClass::Shell {
        return none();
    }
    let forced_recursive_rm = event.commands.iter().any(|c| {
        c.name == "rm"
            && c.flags
                .iter()
                .any(|f| f == "-r" || f == "-R" || f == "--recursive")
            && c.flags.iter().any(|f| f == "-f" || f == "--force")
    });
    if forced_recursive_rm {
        return deny("`rm -rf` is not allowed by the example policy")
            .with_agent_message("Delete specific files instead of using `rm -rf`.");
    }
    rewrite_npm_test(tool.input()).unwrap_or_default()
}

/// Rewrites every `npm test` to `npm test -- --ci` in the tool's input,
/// keeping the rest: the gateway hands the rewrite to the agent as the
/// tool's whole new input, so it must keep that agent's shape. Claude
/// Code's `Bash` and Cursor's shell take `{"command": "..."}`; Cline's
/// `run_commands` takes `{"commands": ["...", ...]}` (its `tool.command`
/// joins them with newlines). `None`: nothing to rewrite.
fn rewrite_npm_test(input: Option<serde_json::Value>) -> Option<Decision> {
    let mut input = input?;
    let rewrite_one = |command: &mut serde_json::Value| {
        let hit = command.as_str().map(str::trim) == Some("npm test");
        if hit {
            *command = "npm test -- --ci".into();
        }
        hit
    };
    let rewritten = match input.get_mut("commands").and_then(|c| c.as_array_mut()) {
        Some(commands) => commands
            .iter_mut()
            .map(rewrite_one)
            .fold(false, |a, b| a | b),
        None => input.get_mut("command").is_some_and(rewrite_one),
    };
    let input = input.as_object()?.clone();
    rewritten.then(|| rewrite(input))
}

#[tokio::main]
async fn main() -> Result<(), hookgate_subscriber::Error> {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:50051".into());
    policy().serve(&address).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use hookgate_proto::v1;
    use hookgate_subscriber::{Kind, Permission};

    fn event(kind: v1::EventKind, tool: Option<v1::Tool>, commands: &[(&str, &[&str])]) -> Event {
        let shell = v1::ShellLine {
            commands: commands
                .iter()
                .map(|(name, flags)| v1::ShellCommand {
                    name: (*name).into(),
                    flags: flags.iter().map(|f| (*f).into()).collect(),
                    ..v1::ShellCommand::default()
                })
                .collect(),
            resolved: true,
        };
        Event::from_proto(
            v1::HookEvent {
                kind: kind as i32,
                tool,
                shell: Some(shell),
                ..v1::HookEvent::default()
            },
            None,
        )
    }

    fn shell(input: serde_json::Value, commands: &[(&str, &[&str])]) -> Event {
        let tool = v1::Tool {
            name: "Bash".into(),
            class: v1::ToolClass::Shell as i32,
            input_json: input.to_string(),
            ..v1::Tool::default()
        };
        event(v1::EventKind::PreToolUse, Some(tool), commands)
    }

    #[tokio::test]
    async fn policy_denies_rewrites_and_adds_context() {
        let app = policy();
        let rm = shell(
            serde_json::json!({"command": "sudo rm -fr build"}),
            &[("sudo", &[]), ("rm", &["-f", "-r"])],
        );
        assert_eq!(app.decide(rm).await.permission, Some(Permission::Deny));
        let npm = shell(
            serde_json::json!({"command": "npm test", "timeout": 5}),
            &[("npm", &[])],
        );
        let input = app.decide(npm).await.updated_input.unwrap();
        assert_eq!(
            serde_json::Value::Object(input),
            serde_json::json!({ "command": "npm test -- --ci", "timeout": 5 })
        );
        let ls = shell(serde_json::json!({"command": "ls"}), &[("ls", &[])]);
        assert_eq!(app.decide(ls).await, none());
        // Cline's `run_commands`: the rewrite keeps its `commands` list.
        let cline = shell(
            serde_json::json!({ "commands": ["npm ci", "npm test"] }),
            &[("npm", &[])],
        );
        let input = app.decide(cline).await.updated_input.unwrap();
        assert_eq!(
            serde_json::Value::Object(input),
            serde_json::json!({ "commands": ["npm ci", "npm test -- --ci"] })
        );
        let prompt = event(v1::EventKind::PromptSubmit, None, &[]);
        assert_eq!(prompt.kind, Kind::PromptSubmit);
        assert!(!app.decide(prompt).await.context.is_empty());
    }
}
