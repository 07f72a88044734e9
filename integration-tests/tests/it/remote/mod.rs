//! Remote subscribers as a central policy service runs them: behind TLS
//! with a test CA and client certificates (`tls`), with a bearer token
//! that rotates (`tls`), over several endpoints of which one dies
//! (`endpoints`); every event saying who sent it.

mod endpoints;
mod local;
mod pki;
mod tls;

use hookgate_integration_tests::{ShimOutput, TestGateway};
use hookgate_proto::v1 as pb;
use serde_json::Value;

use crate::support::{Dialect, UnderTest, claude_specific, str_at};

/// The policy's own reason: the subscriber answered.
const POLICY_SAYS_NO: &str = "central policy says no";

fn deny() -> pb::Decision {
    pb::Decision {
        permission: pb::Permission::Deny as i32,
        reason: POLICY_SAYS_NO.into(),
        ..pb::Decision::default()
    }
}

async fn call(gateway: &TestGateway) -> ShimOutput {
    let payload = Dialect::ClaudeCode.shell_payload("echo hi");
    gateway.shim(Some("claude-code")).run(payload).await
}

/// The reason of a Claude Code deny (in its JSON, or on stderr for exit
/// 2); panics on anything but a deny.
fn deny_reason(out: &ShimOutput) -> String {
    match out.code {
        Some(0) => {
            let json = out.json();
            let specific = claude_specific(out, &json, "PreToolUse");
            assert_eq!(str_at(specific, "permissionDecision"), "deny", "{out}");
            str_at(specific, "permissionDecisionReason").to_owned()
        }
        Some(2) => out.stderr_str(),
        _ => panic!("not a Claude Code deny: {out}"),
    }
}

/// The `policy` subscriber's entry in `gateway status --json`.
async fn policy(gateway: &TestGateway) -> Value {
    crate::support::subscriber_status(gateway, "policy").await
}

/// A TOML basic string of `path`.
fn toml_path(path: &std::path::Path) -> String {
    Value::String(path.display().to_string()).to_string()
}
