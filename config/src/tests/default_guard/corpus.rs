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

/// Whether an agent that can ask the user gets `permission` for a row
/// expecting `verdict`; one that cannot gets a deny for an ask.
fn expected(verdict: &str, can_ask: bool) -> Option<Permission> {
    match verdict {
        "deny" => Some(Permission::Deny),
        "ask" if can_ask => Some(Permission::Ask),
        "ask" => Some(Permission::Deny),
        "allow" => Some(Permission::Unspecified),
        _ => None,
    }
}

const SHELL: &str = include_str!("corpus/shell.tsv");
const FILES: &str = include_str!("corpus/files.tsv");

/// `event` decided by `guard` for an agent that can ask and for one that
/// cannot, against the row's `verdict` and `reason`: a deny rule turned
/// into an ask, or an ask into a deny, fails one of the two.
fn check(
    what: &str,
    guard: &hookgate_guard::Guard,
    mut event: hookgate_adapters::HookEvent,
    verdict: &str,
    reason: &str,
) -> Vec<String> {
    let mut failures = Vec::new();
    for can_ask in [true, false] {
        event.capabilities.ask = can_ask;
        let decision = guard.decide(&event);
        let got = decision.reason.clone().unwrap_or_default();
        let Some(wanted) = expected(verdict, can_ask) else {
            failures.push(format!("bad verdict {verdict:?}"));
            break;
        };
        let who = if can_ask { "asking" } else { "non-asking" };
        if decision.permission != wanted {
            failures.push(format!(
                "{what:?} ({who} agent): {:?}, wanted {wanted:?} {got}",
                decision.permission
            ));
        } else if wanted != Permission::Unspecified && !got.contains(reason) {
            failures.push(format!(
                "{what:?} ({who} agent): reason {got:?}, wanted {reason:?}"
            ));
        }
    }
    failures
}

#[test]
fn shell_corpus() {
    let guard = default_guard();
    let failures: Vec<String> = rows(SHELL)
        .iter()
        .flat_map(|row| {
            let [verdict, reason, command] = row.as_slice() else {
                return vec![format!("bad row {row:?}")];
            };
            check(command, &guard, shell(command), verdict, reason)
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
            let event = with_tool(file_tool(name, class, path));
            failures.extend(check(
                &format!("{name} {path}"),
                &guard,
                event,
                verdict,
                reason,
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
