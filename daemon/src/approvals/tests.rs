//! The registry's bounds and answers, without a gateway.

use super::*;

fn call(subscriber: &str, session: Option<&str>) -> HeldCall {
    HeldCall {
        id: 0,
        subscriber: subscriber.to_owned(),
        agent: "claude-code".to_owned(),
        event: "PreToolUse".to_owned(),
        session: session.map(str::to_owned),
        tool: Some("Bash".to_owned()),
        input: "{}".to_owned(),
        rule: None,
        reason: None,
        held_at_unix_ms: 0,
        deadline_unix_ms: u64::MAX,
        time_left_ms: 0,
    }
}

fn approve(scope: Scope) -> Verdict {
    Verdict::Approve {
        approver: "dev".to_owned(),
        channel: "cli".to_owned(),
        scope,
    }
}

#[test]
fn held_calls_are_listed_answered_once_and_removed() {
    let approvals = Approvals::default();
    let mut holding = approvals.hold(call("ask", Some("s1")), None, 4).unwrap();
    let listed = approvals.list();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].id, holding.id);
    let answered = approvals.answer(holding.id, approve(Scope::Once)).unwrap();
    assert_eq!(answered.id, holding.id);
    assert_eq!(holding.answer.try_recv().unwrap(), approve(Scope::Once));
    assert!(approvals.list().is_empty());
    assert_eq!(
        approvals.answer(holding.id, approve(Scope::Once)),
        Err(Unknown(holding.id))
    );
    // Once only: nothing remembered.
    assert_eq!(approvals.allowed("ask", Some("s1"), None), None);
}

#[test]
fn max_held_is_per_subscriber_and_a_dropped_hold_frees_its_place() {
    let approvals = Approvals::default();
    let first = approvals.hold(call("a", None), None, 1).unwrap();
    assert!(matches!(
        approvals.hold(call("a", None), None, 1),
        Err(NotHeld::Full(1))
    ));
    let _other = approvals.hold(call("b", None), None, 1).unwrap();
    drop(first);
    assert_eq!(approvals.list().len(), 1);
    assert!(approvals.hold(call("a", None), None, 1).is_ok());
}

#[test]
fn session_and_command_approvals_are_remembered_per_session() {
    let approvals = Approvals::default();
    let held = approvals
        .hold(call("a", Some("s1")), Some("make deploy".to_owned()), 4)
        .unwrap();
    approvals.answer(held.id, approve(Scope::Command)).unwrap();
    assert_eq!(
        approvals.allowed("a", Some("s1"), Some("make deploy")),
        Some(Scope::Command)
    );
    assert_eq!(approvals.allowed("a", Some("s1"), Some("make clean")), None);
    assert_eq!(
        approvals.allowed("a", Some("s2"), Some("make deploy")),
        None
    );
    assert_eq!(
        approvals.allowed("b", Some("s1"), Some("make deploy")),
        None
    );

    let held = approvals.hold(call("a", Some("s1")), None, 4).unwrap();
    approvals.answer(held.id, approve(Scope::Session)).unwrap();
    assert_eq!(
        approvals.allowed("a", Some("s1"), Some("anything")),
        Some(Scope::Session)
    );
    assert_eq!(approvals.allowed("a", None, Some("anything")), None);
}

#[test]
fn the_holder_is_told_the_scope_really_remembered() {
    let approvals = Approvals::default();
    // No command to remember: this call only.
    let mut held = approvals.hold(call("a", Some("s1")), None, 4).unwrap();
    approvals.answer(held.id, approve(Scope::Command)).unwrap();
    assert_eq!(held.answer.try_recv().unwrap(), approve(Scope::Once));
    // No session to remember it in: this call only.
    let mut held = approvals
        .hold(call("a", None), Some("make deploy".to_owned()), 4)
        .unwrap();
    approvals.answer(held.id, approve(Scope::Session)).unwrap();
    assert_eq!(held.answer.try_recv().unwrap(), approve(Scope::Once));
    // Past the commands a session remembers: this call only.
    for n in 0..=sessions::MAX_COMMANDS {
        let mut held = approvals
            .hold(call("a", Some("s2")), Some(format!("make {n}")), 4)
            .unwrap();
        approvals.answer(held.id, approve(Scope::Command)).unwrap();
        let expected = if n < sessions::MAX_COMMANDS {
            Scope::Command
        } else {
            Scope::Once
        };
        assert_eq!(held.answer.try_recv().unwrap(), approve(expected), "{n}");
    }
    assert_eq!(approvals.allowed("a", Some("s1"), None), None);
    let last = format!("make {}", sessions::MAX_COMMANDS);
    assert_eq!(approvals.allowed("a", Some("s2"), Some(&last)), None);
    assert_eq!(
        approvals.allowed("a", Some("s2"), Some("make 0")),
        Some(Scope::Command)
    );
}

#[test]
fn sessions_are_bounded() {
    let approvals = Approvals::default();
    for n in 0..=sessions::MAX_SESSIONS {
        let held = approvals
            .hold(call("a", Some(&format!("s{n}"))), None, 4)
            .unwrap();
        approvals.answer(held.id, approve(Scope::Session)).unwrap();
    }
    assert_eq!(approvals.allowed("a", Some("s0"), None), None, "forgotten");
    assert_eq!(
        approvals.allowed("a", Some(&format!("s{}", sessions::MAX_SESSIONS)), None),
        Some(Scope::Session)
    );
}

#[test]
fn a_stopping_gateway_holds_nothing_new() {
    let approvals = Approvals::default();
    approvals.stop();
    assert!(matches!(
        approvals.hold(call("a", None), None, 4),
        Err(NotHeld::Stopping)
    ));
}

#[test]
fn shortening_keeps_characters_whole() {
    assert_eq!(shorten("abc", 10), "abc");
    assert_eq!(shorten("ééé", 3), "é…");
}
