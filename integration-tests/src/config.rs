//! The gateway's TOML config, written from typed entries so a test says
//! what it means ("a decide subscriber that fails closed") and the harness
//! spells the keys exactly as users write them.

use std::fmt::Write as _;

/// How the gateway uses a subscriber.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Awaited (up to its deadline); its decision is merged.
    Decide,
    /// Sent the event through a queue, never awaited.
    Observe,
    /// Called like a decider but never awaited or merged; counted.
    Shadow,
}

/// What the gateway does when a subscriber errs or misses its deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnError {
    Allow,
    Deny,
}

/// One `[[subscriber]]` table.
#[derive(Debug, Clone)]
pub struct SubscriberEntry {
    pub name: String,
    pub endpoint: String,
    pub mode: Mode,
    pub timeout_ms: u64,
    pub on_error: OnError,
    pub priority: i32,
    pub agents: Option<Vec<String>>,
    pub events: Option<Vec<String>>,
    pub tools: Option<Vec<String>>,
}

impl SubscriberEntry {
    /// A decide subscriber with a generous deadline (tests that are not
    /// about deadlines must not depend on the machine's speed) that fails
    /// open.
    pub fn decide(name: &str, endpoint: &str) -> SubscriberEntry {
        SubscriberEntry {
            name: name.to_owned(),
            endpoint: endpoint.to_owned(),
            mode: Mode::Decide,
            timeout_ms: 15_000,
            on_error: OnError::Allow,
            priority: 0,
            agents: None,
            events: None,
            tools: None,
        }
    }

    /// A shadow subscriber.
    pub fn shadow(name: &str, endpoint: &str) -> SubscriberEntry {
        SubscriberEntry {
            mode: Mode::Shadow,
            ..SubscriberEntry::decide(name, endpoint)
        }
    }

    /// An observe subscriber.
    pub fn observe(name: &str, endpoint: &str) -> SubscriberEntry {
        SubscriberEntry {
            mode: Mode::Observe,
            ..SubscriberEntry::decide(name, endpoint)
        }
    }

    pub fn timeout_ms(mut self, timeout_ms: u64) -> Self {
        self.timeout_ms = timeout_ms;
        self
    }

    pub fn on_error(mut self, on_error: OnError) -> Self {
        self.on_error = on_error;
        self
    }

    pub fn priority(mut self, priority: i32) -> Self {
        self.priority = priority;
        self
    }

    pub fn agents(mut self, agents: &[&str]) -> Self {
        self.agents = Some(agents.iter().map(|s| (*s).to_owned()).collect());
        self
    }

    pub fn events(mut self, events: &[&str]) -> Self {
        self.events = Some(events.iter().map(|s| (*s).to_owned()).collect());
        self
    }

    pub fn tools(mut self, tools: &[&str]) -> Self {
        self.tools = Some(tools.iter().map(|s| (*s).to_owned()).collect());
        self
    }
}

/// The config file text for `entries` (and no built-in subscribers, so a
/// test's outcome depends only on its own subscribers).
pub fn config_toml(entries: &[SubscriberEntry]) -> String {
    let mut out = String::from("# Written by hookgate-integration-tests.\n");
    for entry in entries {
        out.push_str("\n[[subscriber]]\n");
        let _ = writeln!(out, "name = {}", quote(&entry.name));
        let _ = writeln!(out, "endpoint = {}", quote(&entry.endpoint));
        let mode = match entry.mode {
            Mode::Decide => "decide",
            Mode::Observe => "observe",
            Mode::Shadow => "shadow",
        };
        let _ = writeln!(out, "mode = {}", quote(mode));
        let _ = writeln!(out, "timeout_ms = {}", entry.timeout_ms);
        let on_error = match entry.on_error {
            OnError::Allow => "allow",
            OnError::Deny => "deny",
        };
        let _ = writeln!(out, "on_error = {}", quote(on_error));
        let _ = writeln!(out, "priority = {}", entry.priority);
        for (key, list) in [
            ("agents", &entry.agents),
            ("events", &entry.events),
            ("tools", &entry.tools),
        ] {
            if let Some(list) = list {
                let items: Vec<String> = list.iter().map(|s| quote(s)).collect();
                let _ = writeln!(out, "{key} = [{}]", items.join(", "));
            }
        }
    }
    out
}

/// A TOML basic string.
fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `text` as a whole config: the embedded default's subscribers (`guard`,
/// `audit`) removed (`[defaults] embedded = false`), so a test gateway
/// runs exactly what its config names, as every test but the layering
/// ones want (a user config otherwise adds to the default). Appended, so
/// line numbers in `text` stay as written.
pub fn standalone(text: &str) -> String {
    format!("{text}\n[defaults]\nembedded = false\n")
}

/// The gateway's embedded default config (guard and audit), exactly as it
/// ships, with the audit log at `audit_path` instead of the user's state
/// directory.
pub fn default_config(audit_path: &std::path::Path) -> String {
    const DEFAULT: &str = include_str!("../../config/src/default.toml");
    const AUDIT_LINE: &str = "# path = \"~/.local/state/hookgate/audit.jsonl\"";
    assert!(
        DEFAULT.contains(AUDIT_LINE),
        "default.toml no longer has the commented audit path line"
    );
    let path = serde_json::Value::String(audit_path.display().to_string());
    DEFAULT.replace(AUDIT_LINE, &format!("path = {path}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_every_key() {
        let text = config_toml(&[SubscriberEntry::decide("a\"b", "http://127.0.0.1:1")
            .timeout_ms(200)
            .on_error(OnError::Deny)
            .priority(-3)
            .tools(&["shell"])]);
        assert!(text.contains("name = \"a\\\"b\"\n"), "{text}");
        assert!(text.contains("mode = \"decide\"\n"), "{text}");
        assert!(text.contains("timeout_ms = 200\n"), "{text}");
        assert!(text.contains("on_error = \"deny\"\n"), "{text}");
        assert!(text.contains("priority = -3\n"), "{text}");
        assert!(text.contains("tools = [\"shell\"]\n"), "{text}");
        assert!(!text.contains("agents"), "{text}");
    }
}
