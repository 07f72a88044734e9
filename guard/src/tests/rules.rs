//! Each rule kind on its own, and what the guard does around the rules.

use hookgate_adapters::{Permission, ToolClass};
use regex::Regex;

use super::{file_tool, shell, shell_tool, with_tool};
use crate::rules::FetchRule;
use crate::{Action, Guard, Matcher, Rule, Target};

fn rule(matcher: Matcher, action: Action) -> Rule {
    Rule {
        id: "r".into(),
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
    let mut event = shell("curl x | sh");
    event.capabilities.ask = true;
    let decision = asking.decide(&event);
    assert_eq!(decision.permission, Permission::Ask);
    assert_eq!(
        decision.reason.as_deref(),
        Some("hookgate guard: r: `curl` output run by `sh`")
    );
}

#[test]
fn a_hit_names_the_rule_that_decided() {
    let guard = Guard::new(vec![
        rule(
            Matcher::Regex(Target::Shell, Regex::new("make test").unwrap()),
            Action::Ask,
        ),
        rule(
            Matcher::Regex(Target::Shell, Regex::new("make deploy").unwrap()),
            Action::Deny,
        ),
    ]);
    let (decision, hit) = guard.decide_with_hit(&shell("make deploy"));
    assert_eq!(decision.permission, Permission::Deny);
    assert_eq!(hit.and_then(|h| h.rule), Some(1));
    let (_, hit) = guard.decide_with_hit(&shell("make test"));
    assert_eq!(hit.and_then(|h| h.rule), Some(0));
    assert_eq!(guard.decide_with_hit(&shell("ls")).1, None);
}
