//! The admin API's `Approvals` call: the registry of held calls
//! (`crate::approvals`) listed or answered, for `gateway approvals` (and a
//! console later). Only this user reaches it: the admin socket checks
//! every peer on accept.

use hookgate_proto::v1;

use crate::approvals::{Approvals, HeldCall, MAX_APPROVER, MAX_REASON, Scope, Verdict, shorten};

/// What the channel is called when the caller names none.
const DEFAULT_CHANNEL: &str = "cli";

/// The reply's JSON for `request`, or why it cannot be done.
pub(crate) fn answer(
    approvals: &Approvals,
    request: &v1::ApprovalsRequest,
) -> Result<String, tonic::Status> {
    let approver = || {
        let name = request.approver.trim();
        let name = if name.is_empty() { "unknown" } else { name };
        shorten(&printable(name), MAX_APPROVER)
    };
    let channel = || {
        let channel = request.channel.trim();
        let channel = if channel.is_empty() {
            DEFAULT_CHANNEL
        } else {
            channel
        };
        shorten(&printable(channel), MAX_APPROVER)
    };
    let answered = |verdict| -> Result<String, tonic::Status> {
        let call: HeldCall = approvals
            .answer(request.id, verdict)
            .map_err(|unknown| tonic::Status::not_found(unknown.to_string()))?;
        json(&call)
    };
    match request.action.as_str() {
        "list" => json(&approvals.list()),
        "approve" => {
            let scope = Scope::parse(&request.scope).ok_or_else(|| {
                tonic::Status::invalid_argument("scope must be once, session or command")
            })?;
            answered(Verdict::Approve {
                approver: approver(),
                channel: channel(),
                scope,
            })
        }
        "deny" => {
            let reason = request.reason.trim();
            let reason = (!reason.is_empty()).then(|| shorten(&printable(reason), MAX_REASON));
            answered(Verdict::Deny {
                approver: approver(),
                channel: channel(),
                reason,
            })
        }
        other => Err(tonic::Status::invalid_argument(format!(
            "unknown action `{}`: list, approve or deny",
            shorten(&printable(other), 32)
        ))),
    }
}

fn json<T: serde::Serialize>(value: &T) -> Result<String, tonic::Status> {
    serde_json::to_string(value).map_err(|err| tonic::Status::internal(err.to_string()))
}

/// `text` without control characters (a reason reaches the agent's
/// terminal and the decision log as one line).
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
