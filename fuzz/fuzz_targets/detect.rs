//! Any bytes with any agent hint and agent variable names: `detect` (which
//! the shim runs with no JSON library) never panics, and a detected
//! payload then parses or errs without panicking.

#![no_main]

use hookgate_adapters::{Agent, detect, parse};
use libfuzzer_sys::fuzz_target;

/// Variable names the agents set, a few per dialect.
const ENV_NAMES: [&str; 6] = [
    "CLAUDE_PROJECT_DIR",
    "CURSOR_VERSION",
    "CLINE_HOOKS_DIR",
    "QWEN_PROJECT_DIR",
    "FACTORY_PROJECT_DIR",
    "GEMINI_PROJECT_DIR",
];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, payload)) = data.split_first() else {
        return;
    };
    let hint = Agent::ALL.get(usize::from(selector % 16));
    let env: Vec<&str> = ENV_NAMES
        .iter()
        .enumerate()
        .filter(|(i, _)| selector >> 4 & (1 << (i % 4)) != 0)
        .map(|(_, name)| *name)
        .collect();
    if let Ok(detected) = detect(payload, hint.copied(), &env) {
        let _ = parse(detected.dialect, payload);
    }
});
