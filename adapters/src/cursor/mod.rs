//! Cursor's hook dialect. IMPLEMENT: parse + render (+ tests over test_data/cursor).

use crate::{Decision, HookEvent, ParseError, Rendered};

pub(crate) fn parse(payload: &[u8]) -> Result<HookEvent, ParseError> {
    let _ = payload;
    unimplemented!()
}

pub(crate) fn render(event: &HookEvent, decision: &Decision) -> Rendered {
    let _ = (event, decision);
    unimplemented!()
}
