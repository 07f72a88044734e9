//! Whether a new config weakens hookgate against the one running: a
//! built-in guard, policy or decision log gone, checking or recording
//! fewer agents, events or tools, guard rules gone or changed (a rule's
//! `reason` may change freely), a policy only shadowing, failing open or
//! read from other files or another bundle (its files' contents are
//! self-protection's to hold), a decision log moved or keeping fewer
//! files.
//!
//! The system layer's subscribers are left out: that file is the
//! administrator's, which the user's agent cannot write.
//!
//! A reload that weakens is not applied on a file change or SIGHUP, only
//! by `gateway reload --allow-weaker` (docs/self-protection.md): an agent
//! cannot write the config or run that command through a hook, so a
//! weaker config never becomes the running one unnoticed.

use toml::Value;

use hookgate_config::{Config, Layer, OnError, SubscriberConfig, SubscriberKind};

/// What `new` takes away from `old`, one line each; empty when nothing.
pub(crate) fn weakened(old: &Config, new: &Config) -> Vec<String> {
    let mut out = Vec::new();
    // The system layer is the administrator's file, out of the agent's
    // reach: its changes are theirs to make.
    for before in old.subscribers.iter().filter(|s| s.layer != Layer::System) {
        let kind = match before.kind {
            SubscriberKind::Guard { .. } => "the built-in guard",
            SubscriberKind::Audit { .. } => "the decision log",
            SubscriberKind::Rego(_) => "the policy",
            // Memory protects nothing: turning it off weakens nothing.
            SubscriberKind::Remote { .. }
            | SubscriberKind::Memory(_)
            | SubscriberKind::Approval(_) => continue,
        };
        let name = &before.name;
        let Some(after) = new.subscribers.iter().find(|s| s.name == *name) else {
            out.push(format!("{kind} `{name}` is gone"));
            continue;
        };
        match (&before.kind, &after.kind) {
            (SubscriberKind::Guard { .. }, SubscriberKind::Guard { .. }) => {
                narrower(before, after, kind, &mut out);
                let gone = rules(before)
                    .iter()
                    .filter(|rule| !rules(after).contains(rule))
                    .count();
                if gone > 0 {
                    out.push(format!(
                        "{gone} of {kind} `{name}`'s rules are gone or changed"
                    ));
                }
            }
            (
                SubscriberKind::Audit {
                    path: old_path,
                    keep: old_keep,
                    anchor: old_anchor,
                    ..
                },
                SubscriberKind::Audit {
                    path: new_path,
                    keep: new_keep,
                    anchor: new_anchor,
                    ..
                },
            ) => {
                if old_anchor.is_some() && old_anchor != new_anchor {
                    out.push(format!("{kind} `{name}` no longer writes its anchor there"));
                }
                narrower(before, after, kind, &mut out);
                if old_path != new_path {
                    out.push(format!(
                        "{kind} `{name}` moves from {} to {}",
                        old_path.display(),
                        new_path.display()
                    ));
                }
                if new_keep < old_keep {
                    out.push(format!(
                        "{kind} `{name}` keeps {new_keep} rotated files, not {old_keep}"
                    ));
                }
            }
            (SubscriberKind::Rego(old), SubscriberKind::Rego(new)) => {
                narrower(before, after, kind, &mut out);
                if !old.shadow && new.shadow {
                    out.push(format!("{kind} `{name}` only shadows now"));
                }
                if old.on_error == OnError::Deny && new.on_error == OnError::Allow {
                    out.push(format!("{kind} `{name}` fails open now"));
                }
                for key in ["policy", "data", "bundle", "query", "bundle_key_file"] {
                    if before.settings.get(key) != after.settings.get(key) {
                        out.push(format!("{kind} `{name}` changes its `{key}`"));
                    }
                }
            }
            _ => out.push(format!("{kind} `{name}` is replaced by another kind")),
        }
    }
    out
}

/// A filter key (`agents`, `events`, `tools`) that now lets fewer through:
/// absent means everything.
fn narrower(
    before: &SubscriberConfig,
    after: &SubscriberConfig,
    kind: &str,
    out: &mut Vec<String>,
) {
    for key in ["agents", "events", "tools"] {
        let list = |sub: &SubscriberConfig| -> Option<Vec<Value>> {
            match sub.settings.get(key) {
                Some(Value::Array(items)) => Some(items.clone()),
                Some(other) => Some(vec![other.clone()]),
                None => None,
            }
        };
        let covered = match (list(before), list(after)) {
            (_, None) => true,
            (None, Some(_)) => false,
            (Some(old), Some(new)) => old.iter().all(|item| new.contains(item)),
        };
        if !covered {
            out.push(format!("{kind} `{}` covers fewer {key}", before.name));
        }
    }
}

/// A guard's rules as written, without their `reason` (rewording a reason
/// weakens nothing).
fn rules(sub: &SubscriberConfig) -> Vec<Value> {
    match sub.settings.get("rules") {
        Some(Value::Array(rules)) => rules
            .iter()
            .map(|rule| {
                let mut rule = rule.clone();
                if let Value::Table(table) = &mut rule {
                    table.remove("reason");
                }
                rule
            })
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hookgate_config::Env;

    fn config(text: &str) -> Config {
        // The tests' audit path, absolute on the platform.
        let text = if cfg!(windows) {
            text.replace("\"/tmp/", "\"C:/tmp/")
        } else {
            text.to_owned()
        };
        Config::parse("gateway.toml", &text, &Env::default()).unwrap()
    }

    const GUARD: &str = "[[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\n\
        events = [\"pre_tool_use\", \"file_read\"]\n\
        [[subscriber.rules]]\ncommand = [\"rm\"]\nreason = \"one\"\n\
        [[subscriber.rules]]\npath = \"\\\\.env$\"\nreason = \"env\"\n\
        [[subscriber]]\nname = \"audit\"\nbuiltin = \"audit\"\npath = \"/tmp/hg-audit.jsonl\"\n";

    #[test]
    fn dropping_or_narrowing_the_guard_or_the_log_is_weaker() {
        let old = config(GUARD);
        assert!(weakened(&old, &old).is_empty());
        assert!(weakened(&old, &config(&GUARD.replace("\"one\"", "\"reworded\""))).is_empty());
        let wider = GUARD.replace("\"file_read\"]", "\"file_read\", \"permission_request\"]");
        assert!(weakened(&old, &config(&wider)).is_empty());
        let cases = [
            ("", 2),
            ("[server]\n", 2),
            (&GUARD.replace(", \"file_read\"", "") as &str, 1),
            (
                &GUARD.replace("command = [\"rm\"]", "command = [\"rmx\"]"),
                1,
            ),
            (
                &GUARD.replace("/tmp/hg-audit.jsonl", "/tmp/elsewhere.jsonl"),
                1,
            ),
            (
                &GUARD.replace(
                    "builtin = \"audit\"",
                    "builtin = \"audit\"\nagents = [\"cursor\"]",
                ),
                1,
            ),
        ];
        for (text, found) in cases {
            let what = weakened(&old, &config(text));
            assert_eq!(what.len(), found, "{text}: {what:?}");
        }
    }
}
