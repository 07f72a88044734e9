//! The Gemini CLI 0.61.0 hook events (`HookEventName` in its bundle) and
//! what a reply can do on each, as measured with the real CLI and read in
//! its hook-output classes (docs/agents.md, "Gemini CLI").
//!
//! Rows of Claude Code's [`EventSpec`] so the shared parser reads them;
//! Gemini's own renderer reads the same rows, with one meaning per column:
//! `deny` other than `None` is `decision: "deny"` (`Feedback`: the tool
//! already ran and only its result is replaced), `context` is
//! `hookSpecificOutput.additionalContext`, `rewrite` is
//! `hookSpecificOutput.tool_input`, `halt` is `continue: false`, `followup`
//! is AfterAgent's `decision: "block"`. Nowhere can an ask be shown in a
//! headless run (BeforeTool's `ask` hangs until the hook times out), so no
//! row has `ask`.

use super::{
    CTX, CTX_HALT, DenyForm as D, Descriptor, EventSpec, FailClosed as C, FollowupForm as F, HALT,
    NONE, REWRITE_HALT, row,
};
use crate::{Dialect, EventKind as K};

/// Failing closed, the events before an action deny it (an unknown or
/// unnamed event too: deny wherever Gemini reads one); the others have
/// nothing left to block (AfterTool: the tool ran; AfterAgent: "blocking"
/// forces another turn).
pub(super) const DESCRIPTOR: Descriptor =
    Descriptor::new(Dialect::GeminiCli, &EVENTS, C::DecisionDenyExit2);

#[rustfmt::skip]
const EVENTS: [EventSpec; 11] = [
    row("SessionStart", K::SessionStart, false, D::None, CTX, F::None, Some("source")),
    row("BeforeAgent", K::PromptSubmit, true, D::Block, CTX_HALT, F::None, None).fails(C::DecisionDenyExit2),
    row("BeforeModel", K::Other, true, D::Block, HALT, F::None, None).fails(C::DecisionDenyExit2),
    row("BeforeToolSelection", K::Other, true, D::None, NONE, F::None, None),
    row("AfterModel", K::Other, true, D::None, HALT, F::None, None),
    row("BeforeTool", K::PreToolUse, true, D::Block, REWRITE_HALT, F::None, None).fails(C::DecisionDenyExit2),
    row("AfterTool", K::PostToolUse, true, D::Feedback, CTX_HALT, F::None, None),
    row("AfterAgent", K::Stop, true, D::None, HALT, F::Block, None),
    row("PreCompress", K::PreCompact, false, D::None, NONE, F::None, Some("trigger")),
    row("Notification", K::Notification, false, D::None, NONE, F::None, Some("message")),
    row("SessionEnd", K::SessionEnd, false, D::None, NONE, F::None, Some("reason")),
];
