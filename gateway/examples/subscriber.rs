//! An example hookgate subscriber: a tonic `hookgate.v1.Subscriber` server
//! that shows the three things a policy usually does.
//!
//! - **deny**: shell commands containing `rm -rf` are denied with a reason;
//! - **context injection**: prompt-submit and session-start events get a
//!   line of extra context for the model;
//! - **input rewrite**: `npm test` becomes `npm test -- --ci`.
//!
//! Run it and point the gateway at it:
//!
//! ```text
//! cargo run -p hookgate-gateway --example subscriber -- 127.0.0.1:50051
//! cargo run -p hookgate-gateway --example subscriber -- unix:///tmp/example-subscriber.sock
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
            if command.trim() == "npm test" {
                return rewrite_command(&tool.input_json, "npm test -- --ci");
            }
            Decision::default()
        }
        _ => Decision::default(),
    }
}

/// Replaces the `command` field of the tool's input, keeping the rest (the
/// gateway expects a full replacement input, as a JSON object).
fn rewrite_command(input_json: &str, command: &str) -> Decision {
    let mut input: serde_json::Value =
        serde_json::from_str(input_json).unwrap_or_else(|_| serde_json::json!({}));
    let Some(object) = input.as_object_mut() else {
        return Decision::default();
    };
    object.insert("command".into(), command.into());
    Decision {
        permission: Permission::Allow as i32,
        reason: "CI mode for npm test".into(),
        updated_input_json: input.to_string(),
        ..Decision::default()
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:50051".into());
    let service = SubscriberServer::new(Example);
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let router = tonic::transport::Server::builder().add_service(service);
    if let Some(path) = addr.strip_prefix("unix://") {
        let _ = std::fs::remove_file(path);
        let listener = tokio::net::UnixListener::bind(path)?;
        eprintln!("example subscriber listening on unix://{path}");
        let incoming = tokio_stream::wrappers::UnixListenerStream::new(listener);
        router
            .serve_with_incoming_shutdown(incoming, shutdown)
            .await?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use hookgate_proto::v1::Tool;

    fn shell(command: &str) -> HookEvent {
        HookEvent {
            kind: EventKind::PreToolUse as i32,
            tool: Some(Tool {
                name: "Bash".into(),
                class: ToolClass::Shell as i32,
                input_json: serde_json::json!({ "command": command, "timeout": 5 }).to_string(),
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
        let prompt = HookEvent {
            kind: EventKind::PromptSubmit as i32,
            ..HookEvent::default()
        };
        assert!(!decide(&prompt).additional_context.is_empty());
    }
}
