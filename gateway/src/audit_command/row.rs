//! One decision-log record as one line of `gateway audit`: when (local
//! time by default), agent, event, tool, decision, what ran (the command,
//! or the paths a file tool named) and, for a deny or an ask, the rule
//! that decided and why.

use jiff::Timestamp;
use jiff::tz::TimeZone;
use serde_json::Value;

/// How times are shown.
#[derive(Debug)]
pub(super) enum Clock {
    Utc,
    Local(TimeZone),
}

impl Clock {
    /// The user's time zone (`$TZ`, else the system's; UTC when neither
    /// can be read).
    pub(super) fn local() -> Clock {
        Clock::Local(TimeZone::system())
    }

    /// Unix milliseconds as `YYYY-MM-DD HH:MM:SS.mmm` in the local zone,
    /// or `YYYY-MM-DDTHH:MM:SS.mmmZ` in UTC.
    pub(super) fn show(&self, ms: u64) -> String {
        let Ok(at) = Timestamp::from_millisecond(i64::try_from(ms).unwrap_or(i64::MAX)) else {
            return "-".to_owned();
        };
        match self {
            Clock::Utc => at.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string(),
            Clock::Local(zone) => at
                .to_zoned(zone.clone())
                .strftime("%Y-%m-%d %H:%M:%S%.3f")
                .to_string(),
        }
    }
}

/// Longest command shown in a row (the rest is elided; `--json` has all).
const MAX_COMMAND: usize = 120;

/// One event in one line.
pub(super) fn row(r: &Value, clock: &Clock) -> String {
    let text = |v: &Value| v.as_str().map_or_else(|| "-".to_owned(), printable);
    let mut out = format!(
        "{}  {:<12} {:<16} {:<12} {:<5}  {}",
        clock.show(r["ts_ms"].as_u64().unwrap_or(0)),
        text(&r["agent"]),
        text(&r["kind"]),
        text(&r["tool"]["name"]),
        text(&r["decision"]["permission"]),
        command(&r["tool"]),
    );
    if let Some(note) = undelivered(r) {
        out.push_str("  [NOT DELIVERED: ");
        out.push_str(note);
        out.push(']');
    }
    if let Some(rule) = r["decision"]["rule"].as_str() {
        out.push_str("  [");
        out.push_str(&printable(rule));
        out.push(']');
    }
    if let Some(reason) = r["decision"]["reason"].as_str() {
        out.push_str("  ");
        out.push_str(&printable(reason));
    }
    if let Some(error) = r["error"].as_str() {
        out.push_str("  not understood: ");
        out.push_str(&printable(error));
    }
    if r["probe"] == true {
        out.push_str("  (gateway doctor probe)");
    }
    out
}

/// What the call ran: its command line, else the paths it named, else `-`;
/// on one line, cut at [`MAX_COMMAND`] characters.
fn command(tool: &Value) -> String {
    let shown = match tool["command"].as_str() {
        Some(command) => printable(command),
        None => {
            let paths: Vec<String> = tool["paths"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(printable)
                .collect();
            if paths.is_empty() {
                "-".to_owned()
            } else {
                paths.join(" ")
            }
        }
    };
    if shown.chars().count() > MAX_COMMAND {
        let cut: String = shown.chars().take(MAX_COMMAND - 1).collect();
        format!("{cut}…")
    } else {
        shown
    }
}

/// What the agent got instead, for a record whose reply never reached it
/// (its `delivery`: docs/decision-log.md); `None` when it did or nobody
/// knows (an HTTP hook, an older shim, a record from before the field).
pub(super) fn undelivered(r: &Value) -> Option<&'static str> {
    match (r["delivery"].as_str()?, r["fail_mode"].as_str()) {
        ("late", Some("closed")) => Some(
            "the shim's deadline passed first; its fail-closed answer blocked the call instead",
        ),
        ("late", _) => {
            Some("the shim's deadline passed first; it answered fail-open and the call went ahead")
        }
        ("gone", _) => Some(
            "the shim was gone (killed by the agent's own hook timeout) before the reply; the agent did not get it",
        ),
        _ => None,
    }
}

/// `text` on one line, safe for a terminal: whitespace runs become one
/// space, and every other character a terminal acts on is written as a
/// visible escape (`crate::terminal::printable`).
fn printable(text: &str) -> String {
    let mut line = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            if !space {
                line.push(' ');
            }
            space = true;
            continue;
        }
        space = false;
        line.push(c);
    }
    crate::terminal::printable(line.trim()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn times_read_in_utc_and_in_a_zone() {
        let times = [
            (0, "1970-01-01T00:00:00.000Z"),
            (1_700_000_000_123, "2023-11-14T22:13:20.123Z"),
            (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        ];
        for (ms, text) in times {
            assert_eq!(Clock::Utc.show(ms), text);
        }
        let india = Clock::Local(TimeZone::fixed(jiff::tz::offset(5)));
        // +05:00, whole hours: what `TZ` with a fixed offset gives.
        assert_eq!(india.show(1_700_000_000_123), "2023-11-15 03:13:20.123");
    }

    #[test]
    fn a_row_shows_what_ran_and_the_rule_on_one_line() {
        let record = json!({
            "ts_ms": 0, "agent": "claude-code", "kind": "pre_tool_use",
            "tool": {"name": "Bash", "command": "rm -rf ~\n\u{1b}[2Jecho"},
            "decision": {"permission": "deny", "rule": "guard/rm-recursive-system", "reason": "no"},
        });
        let line = row(&record, &Clock::Utc);
        assert!(
            line.ends_with("deny   rm -rf ~ \\x1b[2Jecho  [guard/rm-recursive-system]  no"),
            "{line}"
        );
        let read = json!({"tool": {"name": "Read", "paths": [".env", "a b"]}, "decision": {"permission": "allow"}});
        assert!(
            row(&read, &Clock::Utc).ends_with("allow  .env a b"),
            "{}",
            row(&read, &Clock::Utc)
        );
        let long = json!({"tool": {"command": "x".repeat(500)}});
        assert_eq!(command(&long["tool"]).chars().count(), MAX_COMMAND);
    }

    #[test]
    fn undelivered_replies_are_marked() {
        let row = |delivery: &str, fail_mode: &str| {
            row(
                &json!({
                    "ts_ms": 0, "agent": "gemini-cli", "kind": "pre_tool_use",
                    "tool": {"name": "run_shell_command"},
                    "decision": {"permission": "deny", "reason": "no"},
                    "delivery": delivery, "fail_mode": fail_mode,
                }),
                &Clock::Utc,
            )
        };
        assert!(!row("delivered", "open").contains("NOT DELIVERED"));
        assert!(!row("unconfirmed", "open").contains("NOT DELIVERED"));
        assert!(
            row("late", "open")
                .contains("NOT DELIVERED: the shim's deadline passed first; it answered fail-open")
        );
        assert!(row("late", "closed").contains("fail-closed answer blocked"));
        assert!(row("gone", "closed").contains("NOT DELIVERED: the shim was gone"));
        let old = json!({"ts_ms": 0, "decision": {"permission": "deny"}});
        assert!(!super::row(&old, &Clock::Utc).contains("NOT DELIVERED"));
    }
}
