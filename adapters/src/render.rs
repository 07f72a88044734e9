//! Merged decision to the agent's exact reply: dispatch to the dialect's
//! adapter, and the [`Loss`]es it reports.

use crate::dispatch::adapter;
use crate::{Decision, HookEvent, Reply};

/// A part of a decision the agent cannot express for this event. The
/// gateway counts them, so operators see what their subscribers asked for
/// in vain. Each adapter documents how it degrades (docs/agents.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Loss {
    /// A deny on an event that cannot be blocked.
    Deny,
    /// An ask the agent cannot show; degraded to deny or allow as documented.
    Ask,
    /// An explicit allow the agent has no way to say (neutral reply instead).
    Allow,
    Context,
    InputRewrite,
    Halt,
    Followup,
}

/// The rendered reply plus what was lost on the way.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Rendered {
    pub reply: Reply,
    pub losses: Vec<Loss>,
}

impl Loss {
    /// Name used in metrics labels.
    pub fn as_str(self) -> &'static str {
        match self {
            Loss::Deny => "deny",
            Loss::Ask => "ask",
            Loss::Allow => "allow",
            Loss::Context => "context",
            Loss::InputRewrite => "input_rewrite",
            Loss::Halt => "halt",
            Loss::Followup => "followup",
        }
    }
}

/// Renders `decision` (already merged) as `event.dialect`'s reply to `event`.
/// A neutral decision renders the agent's neutral reply.
pub fn render(event: &HookEvent, decision: &Decision) -> Rendered {
    (adapter(event.dialect).render)(event, decision)
}
