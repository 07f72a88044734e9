//! The YAML block and the allowlist edits: the user's other settings and
//! approvals kept byte for byte, hookgate's block replaced in place and
//! removed whole, a user's own hooks refused rather than merged.

use serde_json::Value;

use super::*;

const CMD: &str = "/usr/bin/env HOOKGATE_SOCKET='/run/g.sock' HOOKGATE_AUTOSTART=1 HOOKGATE_GATEWAY='/bin/gateway' '/bin/gateway-shim' hermes";

fn pairs() -> Vec<(&'static str, String)> {
    vec![
        ("pre_tool_call", CMD.to_owned()),
        ("pre_llm_call", CMD.to_owned()),
    ]
}

const USER: &str = "model:\n  provider: custom\n  base_url: http://127.0.0.1:1/v1\n# a comment of the user's\ntoolsets:\n- hermes-cli\n";

#[test]
fn install_keeps_the_users_settings_and_uninstall_gives_them_back() {
    let installed = install(Some(USER), &pairs(), 30).unwrap();
    assert!(installed.starts_with(USER), "{installed}");
    assert_eq!(
        super::installed(&installed).unwrap(),
        vec![
            ("pre_tool_call".to_owned(), CMD.to_owned()),
            ("pre_llm_call".to_owned(), CMD.to_owned())
        ]
    );
    assert!(installed.contains("      timeout: 30\n"), "{installed}");
    // Installing again replaces the block in place.
    assert_eq!(install(Some(&installed), &pairs(), 30).unwrap(), installed);
    assert_eq!(
        uninstall(&installed, Some(USER)).unwrap().as_deref(),
        Some(USER)
    );
    assert_eq!(uninstall(USER, None).unwrap(), None);
}

#[test]
fn an_empty_hooks_mapping_is_replaced_and_given_back() {
    let user = format!("{USER}hooks: {{}}\nhooks_auto_accept: false\n");
    let installed = install(Some(&user), &pairs(), 30).unwrap();
    assert!(!installed.contains("hooks: {}"), "{installed}");
    assert!(installed.ends_with("# hookgate: end\nhooks_auto_accept: false\n"));
    assert_eq!(uninstall(&installed, Some(&user)).unwrap(), Some(user));
}

#[test]
fn hooks_of_the_users_are_refused_not_merged() {
    let user = format!("{USER}hooks:\n  pre_tool_call:\n    - command: /home/u/mine.sh\n");
    let err = install(Some(&user), &pairs(), 30).unwrap_err();
    assert!(err.to_string().contains("already holds hooks"), "{err}");
    let flow = format!("{USER}hooks: {{pre_tool_call: [{{command: x}}]}}\n");
    assert!(install(Some(&flow), &pairs(), 30).is_err());
}

/// YAML keeps one of two `hooks:` keys (PyYAML the last): a user's own
/// mapping added beside hookgate's block would silently replace it, so
/// install refuses and doctor reports instead of reading the block.
#[test]
fn a_second_hooks_key_beside_the_block_is_refused() {
    let installed = install(Some(USER), &pairs(), 30).unwrap();
    for theirs in [
        "hooks:\n  pre_tool_call:\n    - command: /home/u/mine.sh\n",
        "\"hooks\": {}\n",
    ] {
        for text in [
            format!("{installed}{theirs}"),
            format!("{theirs}{installed}"),
        ] {
            let err = super::installed(&text).unwrap_err();
            assert!(err.to_string().contains("second top-level"), "{err}");
            assert!(install(Some(&text), &pairs(), 30).is_err(), "{text}");
            // Uninstall still takes hookgate's block out.
            let rest = uninstall(&text, None).unwrap().unwrap();
            assert!(!rest.contains(BEGIN) && rest.contains(theirs), "{rest}");
        }
    }
    // Other keys that start alike are the user's settings.
    let text = format!("{installed}hooks_auto_accept: false\n");
    assert_eq!(super::installed(&text).unwrap().len(), 2);
}

#[test]
fn the_command_is_a_yaml_double_quoted_string() {
    let odd = "/usr/bin/env HOOKGATE_SOCKET='/a \"b\"\\c' '/bin/gateway-shim' hermes";
    let text = install(None, &[("pre_tool_call", odd.to_owned())], 30).unwrap();
    assert_eq!(
        super::installed(&text).unwrap(),
        vec![("pre_tool_call".to_owned(), odd.to_owned())]
    );
}

#[test]
fn approvals_are_added_kept_and_removed() {
    let theirs = r#"{"approvals": [{"event": "pre_tool_call", "command": "/home/u/x.sh", "approved_at": "t"}], "other": 1}"#;
    let approved = approve(Some(theirs), &pairs(), "2026-01-01T00:00:00Z").unwrap();
    let value: Value = serde_json::from_str(&approved).unwrap();
    assert_eq!(value["other"], 1);
    assert_eq!(value["approvals"].as_array().unwrap().len(), 3);
    let mine: Vec<(String, String)> = pairs()
        .into_iter()
        .map(|(e, c)| (e.to_owned(), c))
        .collect();
    assert!(unapproved(Some(&approved), &mine).is_empty());
    assert_eq!(unapproved(Some(theirs), &mine).len(), 2);
    assert_eq!(unapproved(None, &mine).len(), 2);
    // Approving again replaces hookgate's entries, never doubles them.
    let again = approve(Some(&approved), &pairs(), "2026-01-02T00:00:00Z").unwrap();
    let value: Value = serde_json::from_str(&again).unwrap();
    assert_eq!(value["approvals"].as_array().unwrap().len(), 3);
    let removed = unapprove(&again).unwrap().unwrap();
    let value: Value = serde_json::from_str(&removed).unwrap();
    assert_eq!(value["approvals"].as_array().unwrap().len(), 1);
    assert_eq!(value["approvals"][0]["command"], "/home/u/x.sh");
    assert_eq!(unapprove(&removed).unwrap(), None);
    assert!(approve(Some("[1]"), &pairs(), "t").is_err());
}
