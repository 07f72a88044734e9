//! Test support: canonical events built by hand, as the daemon's own tests
//! build them (`hookgate-daemon`'s `testing`), for the filters and the
//! default guard's rules.

use hookgate_adapters::{Dialect, EventKind, HookEvent, Tool, ToolClass};

/// A minimal event of `kind` in `dialect`, with no capabilities.
pub(crate) fn event(dialect: Dialect, kind: EventKind) -> HookEvent {
    HookEvent {
        blocking: true,
        session_id: Some("session-1".into()),
        cwd: Some("/home/dev/acme".into()),
        ..HookEvent::new(dialect, kind.as_str(), kind)
    }
}

/// A shell tool named `name` running `command`.
pub(crate) fn shell_tool(name: &str, command: &str) -> Tool {
    Tool {
        command: Some(command.to_owned()),
        ..Tool::new(
            name,
            ToolClass::Shell,
            serde_json::json!({ "command": command }),
        )
    }
}
