//! The corpora: every dangerous variant must be denied (or, for the
//! rules that ask, asked) with the right reason, every ordinary command
//! must pass.

use hookgate_adapters::{Permission, ToolClass};

use super::{default_guard, file_tool, shell, with_tool};

/// `verdict \t reason \t ...fields`, `#` comments; `\n` in a field is a
/// newline.
pub(crate) fn rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').map(|f| f.replace("\\n", "\n")).collect())
        .collect()
}

/// `event` from an agent that can ask the user when the row expects an
/// ask (one that cannot denies instead, which the other rows check).
fn asking(mut event: hookgate_adapters::HookEvent, verdict: &str) -> hookgate_adapters::HookEvent {
    event.capabilities.ask = verdict == "ask";
    event
}

const SHELL: &str = include_str!("corpus/shell.tsv");
const FILES: &str = include_str!("corpus/files.tsv");

fn check(
    what: &str,
    decision: hookgate_adapters::Decision,
    verdict: &str,
    reason: &str,
) -> Option<String> {
    let denied = decision.permission == Permission::Deny;
    let got = decision.reason.clone().unwrap_or_default();
    match verdict {
        "deny" if !denied => Some(format!("{what:?}: not denied")),
        "deny" if !got.contains(reason) => {
            Some(format!("{what:?}: reason {got:?}, wanted {reason:?}"))
        }
        "ask" if decision.permission != Permission::Ask => {
            Some(format!("{what:?}: {:?}, not asked", decision.permission))
        }
        "ask" if !got.contains(reason) => {
            Some(format!("{what:?}: reason {got:?}, wanted {reason:?}"))
        }
        "allow" if decision.permission != Permission::Unspecified => {
            Some(format!("{what:?}: {:?} {got}", decision.permission))
        }
        "deny" | "ask" | "allow" => None,
        other => Some(format!("bad verdict {other:?}")),
    }
}

#[test]
fn shell_corpus() {
    let guard = default_guard();
    let failures: Vec<String> = rows(SHELL)
        .iter()
        .filter_map(|row| {
            let [verdict, reason, command] = row.as_slice() else {
                return Some(format!("bad row {row:?}"));
            };
            check(
                command,
                guard.decide(&asking(shell(command), verdict)),
                verdict,
                reason,
            )
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(rows(SHELL).len() > 150);
}

#[test]
fn files_corpus_for_every_tool_class() {
    let guard = default_guard();
    let mut failures = Vec::new();
    for row in rows(FILES) {
        let [verdict, reason, access, path] = row.as_slice() else {
            panic!("bad row {row:?}");
        };
        let tools = match access.as_str() {
            "read" => vec![
                ("Read", ToolClass::FileRead),
                ("mcp__fs__read_file", ToolClass::Mcp),
            ],
            "write" => vec![
                ("Write", ToolClass::FileWrite),
                ("Edit", ToolClass::FileWrite),
                ("mcp__fs__write_file", ToolClass::Mcp),
            ],
            "search" => vec![("Grep", ToolClass::Search), ("Glob", ToolClass::Search)],
            other => panic!("bad access {other}"),
        };
        for (name, class) in tools {
            let event = asking(with_tool(file_tool(name, class, path)), verdict);
            let decision = guard.decide(&event);
            failures.extend(check(&format!("{name} {path}"), decision, verdict, reason));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
