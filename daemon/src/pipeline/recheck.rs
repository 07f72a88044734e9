//! Step two and a half: a rewritten tool input is checked again.
//!
//! A decide subscriber may rewrite the tool's input (`updated_input`); the
//! agent then runs the rewrite, not the call the built-in rules saw. So the
//! rewritten call goes through every matching built-in that judges
//! rewrites (`Builtin::recheck`: the guard) once more, and a deny there
//! wins over the merge: a subscriber, buggy or compromised, cannot launder
//! a command past the guard. An ask there makes the merged decision ask.
//! Remote subscribers are not asked again (one round trip per event; they
//! saw the call they rewrote).

use std::sync::Arc;

use hookgate_adapters::{Decision, HookEvent, Merged, Permission};

use crate::builtin::Call;
use crate::subscribers::Registry;

/// `merged` after the built-in rules judged the call it rewrote.
pub(super) async fn recheck(registry: &Registry, call: &Call<'_>, merged: &mut Merged) {
    let (event, id) = (call.event, call.id);
    let decision = &mut merged.decision;
    if decision.permission == Permission::Deny {
        return;
    }
    let (Some(input), Some(tool)) = (&decision.updated_input, &event.tool) else {
        return;
    };
    let rewritten_tool = tool.with_input(input.clone());
    if tool.command.is_some() && rewritten_tool.command.is_none() {
        // What the guard cannot read, it does not let through.
        tracing::warn!(
            id,
            "a subscriber's rewrite of a shell call has no command the guard can read; denied"
        );
        *decision = denied(
            "hookgate: the rewritten input of this shell call names no command hookgate can check"
                .to_owned(),
        );
        return;
    }
    let rewritten = Arc::new(HookEvent {
        tool: Some(rewritten_tool),
        ..HookEvent::clone(event)
    });
    let call = Call {
        event: &rewritten,
        ..*call
    };
    for decider in registry.deciders_for(&rewritten) {
        let Some(second) = decider.recheck(&call).await else {
            continue;
        };
        match second.permission {
            Permission::Deny => {
                tracing::warn!(id, subscriber = %decider.name, "a rewritten tool input was denied by the built-in rules");
                let reason = second.reason.unwrap_or_default();
                *decision = denied(format!("{reason} (in the tool input a subscriber rewrote)"));
                return;
            }
            Permission::Ask if decision.permission < Permission::Ask => {
                decision.permission = Permission::Ask;
                decision.reason = second.reason;
            }
            _ => {}
        }
    }
}

/// A deny that carries no rewrite: the agent runs nothing.
fn denied(reason: String) -> Decision {
    Decision {
        permission: Permission::Deny,
        reason: Some(reason),
        agent_message: Some(
            "Do not retry this; choose a safer alternative or ask the user.".to_owned(),
        ),
        ..Decision::default()
    }
}
