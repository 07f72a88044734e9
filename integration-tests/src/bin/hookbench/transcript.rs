//! When Claude Code received each `tool_use` from the model, from the
//! session transcript it writes under `~/.claude/projects/` (one JSON line
//! per message, with an ISO-8601 `timestamp` in milliseconds): section 1b
//! times from there to the moment the tool's command ran.

use std::path::Path;

use anyhow::{Context as _, bail};
use serde_json::Value;

/// The `tool_use` arrival times (seconds since the epoch) of the one
/// session transcript under `home`, in order.
pub(crate) fn tool_use_times(home: &Path) -> anyhow::Result<Vec<f64>> {
    let projects = home.join(".claude/projects");
    let mut files = Vec::new();
    for project in
        std::fs::read_dir(&projects).with_context(|| format!("reading {}", projects.display()))?
    {
        let project = project?.path();
        for entry in std::fs::read_dir(&project)? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "jsonl") {
                files.push(path);
            }
        }
    }
    let [file] = files.as_slice() else {
        bail!("expected one session transcript, found {}", files.len());
    };
    let text = std::fs::read_to_string(file)?;
    let mut times = Vec::new();
    for line in text.lines() {
        let Ok(entry) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let uses_tool = entry["type"] == "assistant"
            && entry["message"]["content"]
                .as_array()
                .is_some_and(|c| c.iter().any(|b| b["type"] == "tool_use"));
        if uses_tool {
            let stamp = entry["timestamp"]
                .as_str()
                .context("tool_use without a timestamp")?;
            times.push(parse_iso(stamp).with_context(|| format!("timestamp {stamp:?}"))?);
        }
    }
    Ok(times)
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` as seconds since the Unix epoch.
fn parse_iso(stamp: &str) -> Option<f64> {
    let (date, time) = stamp.strip_suffix('Z')?.split_once('T')?;
    let mut d = date.split('-').map(|p| p.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let mut t = time.split(':');
    let (h, min) = (
        t.next()?.parse::<i64>().ok()?,
        t.next()?.parse::<i64>().ok()?,
    );
    let sec = t.next()?.parse::<f64>().ok()?;
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some((days * 86_400 + h * 3600 + min * 60) as f64 + sec)
}
