//! The built-in `approval`: its keys, their defaults and bounds, its rules
//! compiled as the guard's, and what it refuses.

use super::*;
use crate::{ApprovalConfig, DEFAULT_HOLD_MS, DEFAULT_MAX_HELD, OnError};

const RULE: &str = "[[subscriber.rules]]\nid = \"deploy\"\nshell = \"^make deploy\"\nreason = \"a person decides\"\n";

fn approval(keys: &str) -> Result<ApprovalConfig, ConfigError> {
    let text = format!("[[subscriber]]\nname = \"ask\"\nbuiltin = \"approval\"\n{keys}\n{RULE}");
    let config = parse(&text)?;
    match &config.subscribers[0].kind {
        SubscriberKind::Approval(approval) => Ok((**approval).clone()),
        other => panic!("not an approval: {other:?}"),
    }
}

#[test]
fn keys_and_defaults() {
    let defaults = approval("").unwrap();
    assert_eq!(defaults.hold.as_millis(), u128::from(DEFAULT_HOLD_MS));
    assert_eq!(defaults.on_timeout, OnError::Deny);
    assert_eq!(defaults.max_held, DEFAULT_MAX_HELD);
    let ids: Vec<&str> = defaults
        .guard
        .rules()
        .iter()
        .map(|r| r.id.as_str())
        .collect();
    assert_eq!(ids, ["deploy"]);

    let set = approval("hold_ms = 90000\non_timeout = \"allow\"\nmax_held = 3").unwrap();
    assert_eq!(set.hold.as_millis(), 90_000);
    assert_eq!(set.on_timeout, OnError::Allow);
    assert_eq!(set.max_held, 3);
}

#[test]
fn bounds_and_refusals() {
    for (keys, key, fragment) in [
        ("hold_ms = 0", "hold_ms", "out of range"),
        ("hold_ms = 3600001", "hold_ms", "out of range"),
        ("max_held = 0", "max_held", "out of range"),
        ("max_held = 257", "max_held", "out of range"),
        ("on_timeout = \"ask\"", "on_timeout", ""),
        ("mode = \"observe\"", "mode", "only decides"),
        ("path = \"/tmp/x\"", "path", "only the built-in `audit`"),
    ] {
        let err = approval(keys).expect_err(keys);
        assert!(
            err.key.as_deref().is_some_and(|k| k.ends_with(key)),
            "{keys}: {err}"
        );
        assert!(err.message.contains(fragment), "{keys}: {err}");
    }
    // No rules: nothing to hold, which is surely a mistake.
    let err = parse("[[subscriber]]\nname = \"ask\"\nbuiltin = \"approval\"\n").unwrap_err();
    assert_eq!(err.key.as_deref(), Some("subscriber[0].rules"), "{err}");
    assert!(err.message.contains("needs `rules`"), "{err}");
}

#[test]
fn the_embedded_default_holds_nothing() {
    let config = parse(DEFAULT_TOML).unwrap();
    assert!(
        !config
            .subscribers
            .iter()
            .any(|s| matches!(s.kind, SubscriberKind::Approval(_))),
        "approvals are opt-in"
    );
}

#[test]
fn notifications_are_checked() {
    use crate::{Webhook, WebhookFormat};
    let none = approval("").unwrap();
    assert_eq!(none.notify, crate::Notify::default());
    let set = approval(
        "desktop = true\nconsole_url = \"http://127.0.0.1:1/x\"\nwebhooks = [\
         { url = \"https://ntfy.sh/t\", format = \"ntfy\", timeout_ms = 700 },\
         { url = \"http://127.0.0.1:9/h\" }]",
    )
    .unwrap();
    assert!(set.notify.desktop);
    assert_eq!(
        set.notify.console_url.as_deref(),
        Some("http://127.0.0.1:1/x")
    );
    assert_eq!(
        set.notify.webhooks,
        [
            Webhook {
                url: "https://ntfy.sh/t".to_owned(),
                format: WebhookFormat::Ntfy,
                timeout: std::time::Duration::from_millis(700),
            },
            Webhook {
                url: "http://127.0.0.1:9/h".to_owned(),
                format: WebhookFormat::Json,
                timeout: std::time::Duration::from_millis(5000),
            },
        ]
    );
    let nine = format!("webhooks = [{}]", ["{ url = \"http://h/\" }"; 9].join(", "));
    for (keys, key, fragment) in [
        (
            "webhooks = [{ url = \"file:///etc/passwd\" }]",
            "webhooks[0].url",
            "http://",
        ),
        (
            "webhooks = [{ url = \"https:///x\" }]",
            "webhooks[0].url",
            "with a host",
        ),
        (
            "webhooks = [{ url = \"http://h\", timeout_ms = 0 }]",
            "webhooks[0].timeout_ms",
            "out of range",
        ),
        (
            "webhooks = [{ url = \"http://h\", format = \"xml\" }]",
            "format",
            "unknown variant",
        ),
        (
            "webhooks = [{ url = \"http://h\", secret = \"x\" }]",
            "secret",
            "unknown field",
        ),
        (nine.as_str(), "webhooks", "at most 8"),
        (
            "console_url = \"javascript:alert(1)\"",
            "console_url",
            "http://",
        ),
    ] {
        let err = approval(keys).expect_err(keys);
        assert!(
            err.key.as_deref().is_some_and(|k| k.ends_with(key)),
            "{keys}: {err}"
        );
        assert!(err.message.contains(fragment), "{keys}: {err}");
    }
}
