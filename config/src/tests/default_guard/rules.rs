//! The default rules' reasons, how they know the home directory, and
//! events they leave alone.

use hookgate_adapters::{Dialect, EventKind, Permission};

use super::{HOME, default_guard, shell};
use crate::testing::event;

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
