//! What a notification says: the held call's summary (agent, session,
//! tool, the masked input, time left, id, the console link) as a generic
//! JSON object, a Slack message, or plain text (ntfy, the desktop).

use serde_json::{Value, json};

use super::Notice;
use crate::approvals::shorten;

/// The input shown on a desktop notification: a glance, not the record.
pub(super) const DESKTOP_INPUT_BYTES: usize = 300;

/// The title: who wants what.
pub(super) fn title(notice: &Notice) -> String {
    let call = &notice.call;
    format!(
        "hookgate: {} holds {} of {}",
        call.subscriber,
        call.tool.as_deref().unwrap_or("a call"),
        call.agent
    )
}

/// The summary as text, the input cut at `input_bytes`.
pub(super) fn text(notice: &Notice, console: Option<&str>, input_bytes: usize) -> String {
    let call = &notice.call;
    let mut text = format!(
        "{} wants to run {}: {}\nsession {}, held {} s at most ({})\n\
         answer: gateway approvals approve {id} | gateway approvals deny {id} --reason R",
        call.agent,
        call.tool.as_deref().unwrap_or("a call"),
        shorten(&call.input, input_bytes),
        call.session.as_deref().unwrap_or("unknown"),
        notice.time_left.as_secs(),
        call.reason.as_deref().unwrap_or("a rule matched"),
        id = call.id,
    );
    if let Some(url) = console {
        text.push_str("\nconsole: ");
        text.push_str(url);
    }
    text
}

/// The generic JSON body.
pub(super) fn json(notice: &Notice, console: Option<&str>) -> Value {
    let call = &notice.call;
    json!({
        "type": "approval.held",
        "id": call.id,
        "subscriber": call.subscriber,
        "agent": call.agent,
        "event": call.event,
        "session": call.session,
        "tool": call.tool,
        "input": call.input,
        "rule": call.rule,
        "reason": call.reason,
        "held_at_unix_ms": call.held_at_unix_ms,
        "deadline_unix_ms": call.deadline_unix_ms,
        "time_left_ms": u64::try_from(notice.time_left.as_millis()).unwrap_or(u64::MAX),
        "console_url": console,
    })
}

/// Slack's incoming-webhook body.
pub(super) fn slack(notice: &Notice, console: Option<&str>) -> Value {
    json!({ "text": format!("*{}*\n{}", title(notice), text(notice, console, 1000)) })
}
