//! Events built by hand, for the tests of the crates built on adapters
//! (the config's filters and rules, the guard, the daemon's pipeline): one
//! definition of "an ordinary event", so their tests agree on it.

use crate::{Dialect, EventKind, HookEvent, Tool, ToolClass};

/// A minimal blocking event of `kind` in `dialect`, in session
/// `session-1` and `/home/dev/acme`, with no capabilities.
pub fn event(dialect: Dialect, kind: EventKind) -> HookEvent {
    HookEvent {
        blocking: true,
        session_id: Some("session-1".into()),
        cwd: Some("/home/dev/acme".into()),
        ..HookEvent::new(dialect, kind.as_str(), kind)
    }
}

/// A shell tool named `name` running `command`.
pub fn shell_tool(name: &str, command: &str) -> Tool {
    Tool {
        command: Some(command.to_owned()),
        ..Tool::new(
            name,
            ToolClass::Shell,
            serde_json::json!({ "command": command }),
        )
    }
}
