//! Cline's two hook dialects (SDK file hooks and legacy VS Code hooks).
//! IMPLEMENT: parse + render (+ tests over test_data/cline).

use crate::{Decision, HookEvent, ParseError, Rendered};

pub(crate) fn parse_sdk(payload: &[u8]) -> Result<HookEvent, ParseError> {
    let _ = payload;
    unimplemented!()
}

pub(crate) fn parse_legacy(payload: &[u8]) -> Result<HookEvent, ParseError> {
    let _ = payload;
    unimplemented!()
}

pub(crate) fn render(event: &HookEvent, decision: &Decision) -> Rendered {
    let _ = (event, decision);
    unimplemented!()
}
