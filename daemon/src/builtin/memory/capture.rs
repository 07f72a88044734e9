//! What memory keeps of one event: a few observations (a prompt, a command
//! and its outcome, a failure, the files written), each text masked with
//! the audit log's masking (`hookgate-mask`) before it is queued, so a
//! secret never reaches the queue, the writer or the file.

use hookgate_adapters::{EventKind, HookEvent, ToolClass};
use hookgate_memory::ObservationKind;

/// How much of a tool's output or error is kept.
const EXCERPT_BYTES: usize = 320;
/// How much of a text is masked before its excerpt is cut from it: cut at
/// whitespace, so no secret is split before masking sees it whole.
const WINDOW_BYTES: usize = 4096;

/// One event's observations, on their way to the writer.
#[derive(Debug)]
pub(super) struct Capture {
    /// The event's working directory as sent (checked by the writer).
    pub cwd: String,
    pub agent: &'static str,
    pub session: String,
    pub at_ms: i64,
    pub items: Vec<(ObservationKind, String)>,
    /// The session ended (or its turn stopped): compress it now.
    pub compress: bool,
}

/// The capture of `event`, masked; `None` when it says nothing worth
/// keeping or cannot be placed (no session or working directory).
pub(super) fn capture(event: &HookEvent, at_ms: i64) -> Option<Capture> {
    let session = event.session_id.as_deref().filter(|s| !s.is_empty())?;
    let cwd = event
        .cwd
        .as_deref()
        .or(event.workspace_roots.first().map(String::as_str))?;
    let mut items = Vec::new();
    let mut compress = false;
    match event.kind {
        EventKind::SessionStart | EventKind::SessionResume => {
            items.push((ObservationKind::SessionStart, event.native_event.clone()));
        }
        EventKind::SessionEnd | EventKind::Stop => {
            items.push((ObservationKind::SessionEnd, event.native_event.clone()));
            compress = true;
        }
        EventKind::PromptSubmit => {
            if let Some(prompt) = &event.prompt {
                items.push((ObservationKind::Prompt, masked(prompt, EXCERPT_BYTES)));
            }
        }
        EventKind::PostToolUse | EventKind::ToolFailure | EventKind::FileEdit => {
            tool_items(event, &mut items);
        }
        _ => {}
    }
    if items.is_empty() {
        return None;
    }
    Some(Capture {
        cwd: cwd.to_owned(),
        agent: event.dialect.agent().as_str(),
        session: session.to_owned(),
        at_ms,
        items,
        compress,
    })
}

fn tool_items(event: &HookEvent, items: &mut Vec<(ObservationKind, String)>) {
    let Some(tool) = &event.tool else {
        return;
    };
    let what = match &tool.command {
        Some(command) => format!("`{}`", masked(command, EXCERPT_BYTES)),
        None => masked(&tool.name, 128),
    };
    let failed = event.kind == EventKind::ToolFailure || tool.error.is_some();
    if failed {
        let why = tool
            .error
            .as_deref()
            .or(tool.output.as_deref())
            .unwrap_or("");
        items.push((
            ObservationKind::Failure,
            format!("{what} failed: {}", masked(why, EXCERPT_BYTES)),
        ));
        return;
    }
    let written = matches!(tool.class, ToolClass::FileWrite) || event.kind == EventKind::FileEdit;
    if written {
        let mut paths: Vec<&String> = tool.file_path.iter().chain(&tool.paths).collect();
        paths.dedup();
        for path in paths.into_iter().take(16) {
            items.push((ObservationKind::File, masked(path, 512)));
        }
        return;
    }
    let kind = if tool.command.is_some() {
        ObservationKind::Command
    } else {
        ObservationKind::Tool
    };
    let output = tool.output.as_deref().map(|o| masked(o, EXCERPT_BYTES));
    let text = match output.filter(|o| !o.is_empty()) {
        Some(output) => format!("{what} → {output}"),
        None => format!("{what} ran"),
    };
    items.push((kind, text));
}

/// `text` masked, then on one line and cut to `max` bytes: only its first
/// [`WINDOW_BYTES`] (up to a whitespace) are masked and kept.
fn masked(text: &str, max: usize) -> String {
    let mut window = text;
    if window.len() > WINDOW_BYTES {
        let mut end = WINDOW_BYTES;
        while !window.is_char_boundary(end) {
            end -= 1;
        }
        window = &window[..end];
        // The last word may be a secret cut short: left out whole.
        window = window
            .rfind(char::is_whitespace)
            .map_or("", |at| &window[..at]);
    }
    // A JSON output is masked as the decision log masks documents (keys
    // that name secrets, argument lists), then as text.
    let json = match serde_json::from_str::<serde_json::Value>(window) {
        Ok(mut doc) if doc.is_object() || doc.is_array() => {
            hookgate_mask::mask_json(&mut doc);
            Some(doc.to_string())
        }
        _ => None,
    };
    one_line(
        &hookgate_mask::mask_str(json.as_deref().unwrap_or(window)),
        max,
    )
}

/// `text`'s whitespace folded to single spaces, cut to `max` bytes at a
/// character boundary.
fn one_line(text: &str, max: usize) -> String {
    let mut out = String::new();
    for word in text.split_whitespace() {
        if out.len() + word.len() + 1 > max {
            let room = max.saturating_sub(out.len() + 1);
            let mut end = room.min(word.len());
            while !word.is_char_boundary(end) {
                end -= 1;
            }
            if end > 0 {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(&word[..end]);
            }
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}
