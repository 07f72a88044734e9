//! An example hookgate subscriber: a tonic `hookgate.v1.Subscriber` server
//! that shows the three things a policy usually does.
//!
//! - **deny**: shell commands containing `rm -rf` are denied with a reason;
//! - **context injection**: prompt-submit and session-start events get a
//!   line of extra context for the model;
//! - **input rewrite**: `npm test` becomes `npm test -- --ci`, in the
//!   agent's own tool-input shape (`updated_input_json` replaces the input
//!   the agent will run, exactly as `tool.input_json` came).
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

use hookgate_proto::v1::subscriber_server::{Subscriber, SubscriberServer};
use hookgate_proto::v1::{Decision, EventKind, HookEvent, Permission, ToolClass};
use tonic::{Request, Response, Status};

#[derive(Debug, Default)]
struct Example;

#[tonic::async_trait]
impl Subscriber for Example {
    async fn on_event(&self, request: Request<HookEvent>) -> Result<Response<Decision>, Status> {
        let event = request.into_inner();
        let decision = decide(&event);
        eprintln!(
            "event {} agent={:?} kind={:?} -> {:?}",
            event.id,
            event.agent(),
            event.kind(),
            decision.permission()
        );
        Ok(Response::new(decision))
    }
}

/// The policy: a pure function of the event, easy to test.
fn decide(event: &HookEvent) -> Decision {
    match event.kind() {
        EventKind::PromptSubmit | EventKind::SessionStart => Decision {
            additional_context:
                "Project rule (from the hookgate example subscriber): run `npm test` \
                                 before declaring a task done."
                    .into(),
            ..Decision::default()
        },
        EventKind::PreToolUse => {
            let Some(tool) = &event.tool else {
                return Decision::default();
            };
            let command = tool.command.as_deref().unwrap_or_default();
            if tool.class() != ToolClass::Shell || command.is_empty() {
                return Decision::default();
            }
            if command.contains("rm -rf") {
                return Decision {
                    permission: Permission::Deny as i32,
                    reason: "`rm -rf` is not allowed by the example policy".into(),
                    agent_message: "Delete specific files instead of using `rm -rf`.".into(),
                    ..Decision::default()
                };
            }
            rewrite_npm_test(&tool.input_json).unwrap_or_default()
        }
        _ => Decision::default(),
    }
}

/// Rewrites every `npm test` to `npm test -- --ci` in the tool's input,
/// keeping the rest: the gateway hands `updated_input_json` to the agent as
/// the tool's whole new input, so it must keep that agent's shape. Claude
/// Code's `Bash` and Cursor's shell take `{"command": "..."}`; Cline's
/// `run_commands` takes `{"commands": ["...", ...]}` (its `tool.command`
/// joins them with newlines). `None`: nothing to rewrite.
fn rewrite_npm_test(input_json: &str) -> Option<Decision> {
    let mut input: serde_json::Value = serde_json::from_str(input_json).ok()?;
    let rewrite = |command: &mut serde_json::Value| {
        let hit = command.as_str().map(str::trim) == Some("npm test");
        if hit {
            *command = "npm test -- --ci".into();
        }
        hit
    };
    let rewritten = match input.get_mut("commands").and_then(|c| c.as_array_mut()) {
        Some(commands) => commands.iter_mut().map(rewrite).fold(false, |a, b| a | b),
        None => input.get_mut("command").is_some_and(rewrite),
    };
    rewritten.then(|| Decision {
        permission: Permission::Allow as i32,
        reason: "CI mode for npm test".into(),
        updated_input_json: input.to_string(),
        ..Decision::default()
    })
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:50051".into());
    // Events can be ~16 MiB (the payload twice); accept what the gateway sends.
    let service = SubscriberServer::new(Example).max_decoding_message_size(32 * 1024 * 1024);
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let router = tonic::transport::Server::builder().add_service(service);
    if let Some(path) = addr.strip_prefix("unix://") {
        serve_unix(router, path, shutdown).await?;
    } else {
        let listener = tokio::net::TcpListener::bind(&addr).await?;
        eprintln!("example subscriber listening on {}", listener.local_addr()?);
        let incoming = tokio_stream::wrappers::TcpListenerStream::new(listener);
        router
            .serve_with_incoming_shutdown(incoming, shutdown)
            .await?;
    }
    Ok(())
}

/// Serves on the Unix socket at `path` (replacing a stale one).
#[cfg(unix)]
async fn serve_unix(
    router: tonic::transport::server::Router,
    path: &str,
    shutdown: impl std::future::Future<Output = ()>,
) -> Result<(), Box<dyn std::error::Error>> {
    let _ = std::fs::remove_file(path);
    let listener = tokio::net::UnixListener::bind(path)?;
    eprintln!("example subscriber listening on unix://{path}");
    let incoming = tokio_stream::wrappers::UnixListenerStream::new(listener);
    router
        .serve_with_incoming_shutdown(incoming, shutdown)
        .await?;
    Ok(())
}

/// Unix sockets are Unix-only: listen on `host:port` instead.
#[cfg(not(unix))]
async fn serve_unix(
    _router: tonic::transport::server::Router,
    path: &str,
    _shutdown: impl std::future::Future<Output = ()>,
) -> Result<(), Box<dyn std::error::Error>> {
    Err(format!("unix://{path}: Unix sockets are not available here; give host:port").into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hookgate_proto::v1::Tool;

    fn shell(command: &str) -> HookEvent {
        let input = serde_json::json!({ "command": command, "timeout": 5 });
        shell_tool("Bash", input, command)
    }

    fn shell_tool(name: &str, input: serde_json::Value, command: &str) -> HookEvent {
        HookEvent {
            kind: EventKind::PreToolUse as i32,
            tool: Some(Tool {
                name: name.into(),
                class: ToolClass::Shell as i32,
                input_json: input.to_string(),
                command: Some(command.into()),
                ..Tool::default()
            }),
            ..HookEvent::default()
        }
    }

    #[test]
    fn policy() {
        assert_eq!(
            decide(&shell("rm -rf build")).permission(),
            Permission::Deny
        );
        let rewrite = decide(&shell("npm test"));
        let input: serde_json::Value = serde_json::from_str(&rewrite.updated_input_json).unwrap();
        assert_eq!(
            input,
            serde_json::json!({ "command": "npm test -- --ci", "timeout": 5 })
        );
        assert_eq!(decide(&shell("ls")), Decision::default());
        // Cline's `run_commands`: the rewrite keeps its `commands` list.
        let cline = shell_tool(
            "run_commands",
            serde_json::json!({ "commands": ["npm ci", "npm test"] }),
            "npm ci\nnpm test",
        );
        let input: serde_json::Value =
            serde_json::from_str(&decide(&cline).updated_input_json).unwrap();
        assert_eq!(
            input,
            serde_json::json!({ "commands": ["npm ci", "npm test -- --ci"] })
        );
        let prompt = HookEvent {
            kind: EventKind::PromptSubmit as i32,
            ..HookEvent::default()
        };
        assert!(!decide(&prompt).additional_context.is_empty());
    }
}
