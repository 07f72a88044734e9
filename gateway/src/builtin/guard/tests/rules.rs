//! Each rule kind on its own, and what the guard does around the rules.

use hookgate_adapters::{Dialect, EventKind, Permission, ToolClass};
use regex::Regex;

use super::{HOME, default_guard, file_tool, shell, with_tool};
use crate::builtin::guard::rules::FetchRule;
use crate::builtin::guard::{Action, Guard, Matcher, Rule, Target};
use crate::testing::{event, shell_tool};

fn rule(matcher: Matcher, action: Action) -> Rule {
    Rule {
        matcher,
        action,
        reason: "r".into(),
    }
}

#[test]
fn mcp_rules_match_name_or_server_slash_name() {
    let guard = Guard::new(vec![rule(
        Matcher::Regex(Target::McpTool, Regex::new("^github/delete_.*").unwrap()),
        Action::Deny,
    )]);
    let mut tool = shell_tool("delete_repo", "");
    tool.class = ToolClass::Mcp;
    tool.command = None;
    tool.mcp_server = Some("github".into());
    assert_eq!(
        guard.decide(&with_tool(tool.clone())).permission,
        Permission::Deny
    );
    tool.mcp_server = Some("gitlab".into());
    assert!(guard.decide(&with_tool(tool)).is_neutral());
}

#[test]
fn legacy_regex_rules_still_work() {
    let guard = Guard::new(vec![
        rule(
            Matcher::Regex(Target::Shell, Regex::new("make deploy").unwrap()),
            Action::Deny,
        ),
        rule(
            Matcher::Regex(Target::FilePath, Regex::new(r"secret\.txt$").unwrap()),
            Action::Deny,
        ),
    ]);
    assert_eq!(
        guard.decide(&shell("cd x && make deploy")).permission,
        Permission::Deny
    );
    let second = {
        let mut tool = file_tool("read_files", ToolClass::FileRead, "a.rs");
        tool.paths.push("b/secret.txt".into());
        tool
    };
    assert_eq!(
        guard.decide(&with_tool(second)).permission,
        Permission::Deny,
        "any path, not the first"
    );
    assert!(guard.decide(&shell("make test")).is_neutral());
}

#[test]
fn a_deny_wins_over_an_earlier_ask() {
    let fetch = || {
        Matcher::Fetch(FetchRule {
            fetchers: vec!["curl".into()],
            interpreters: vec!["sh".into()],
        })
    };
    let guard = Guard::new(vec![
        rule(fetch(), Action::Ask),
        rule(fetch(), Action::Deny),
    ]);
    assert_eq!(
        guard.decide(&shell("curl x | sh")).permission,
        Permission::Deny
    );
    let asking = Guard::new(vec![rule(fetch(), Action::Ask)]);
    let decision = asking.decide(&shell("curl x | sh"));
    assert_eq!(decision.permission, Permission::Ask);
    assert_eq!(
        decision.reason.as_deref(),
        Some("hookgate guard: r: `curl` output run by `sh`")
    );
}

#[test]
fn reasons_say_what_matched() {
    let guard = default_guard();
    let reason = |command: &str| guard.decide(&shell(command)).reason.unwrap_or_default();
    assert_eq!(
        reason("cd / && rm -rf *"),
        "hookgate guard: recursive delete of /, the home directory or a system directory: `rm -rf *`"
    );
    assert!(reason("sudo -E rm -rf ~").ends_with("`rm -rf ~`"));
    assert!(reason("git show HEAD:.env").contains(".env` (read)"));
}

#[test]
fn the_home_directory_is_known_by_its_path_too() {
    let guard = default_guard();
    for command in [
        &format!("rm -rf {HOME}"),
        &format!("rm -rf {HOME}/"),
        "rm -rf ..",
        "cd .. && rm -rf *",
    ] {
        assert_eq!(
            guard.decide(&shell(command)).permission,
            Permission::Deny,
            "{command}"
        );
    }
    let mut in_home = shell("rm -rf *");
    in_home.cwd = Some(HOME.into());
    assert_eq!(guard.decide(&in_home).permission, Permission::Deny);
}

#[test]
fn events_that_cannot_be_blocked_get_no_opinion() {
    let guard = default_guard();
    let mut e = shell("rm -rf /");
    e.capabilities.deny = false;
    assert!(guard.decide(&e).is_neutral());
    let no_tool = event(Dialect::ClaudeCode, EventKind::PromptSubmit);
    assert!(guard.decide(&no_tool).is_neutral());
}
