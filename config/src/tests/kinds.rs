//! Which subscriber kind takes which key: every kind-specific key, written
//! on each kind, is taken by the kinds it is for and rejected by the
//! others at its own line and key, with the reason.

use super::*;

/// A subscriber of each kind: its first line, and what it needs after the
/// key under test.
const KINDS: [(&str, &str, &str); 4] = [
    ("remote", "endpoint = \"https://127.0.0.1:1\"", ""),
    ("audit", "builtin = \"audit\"", ""),
    ("guard", "builtin = \"guard\"", ""),
    (
        "rego",
        "builtin = \"rego\"",
        "bundle = \"https://example.com/b.tar.gz\"",
    ),
];

/// (key = value, the kinds that take it, what the others say)
const KEYS: &[(&str, &[&str], &str)] = &[
    (
        "max_size_kib = 8",
        &["audit"],
        "only the built-in `audit` rotates",
    ),
    ("keep = 2", &["audit"], "only the built-in `audit` rotates"),
    ("path = AUDIT_FILE", &["audit"], "has a `path`"),
    (
        "rules = []",
        &["guard"],
        "only the built-in `guard` has `rules`",
    ),
    ("queue_size = 8", &["remote", "audit"], "has no queue"),
    (
        "timeout_ms = 50",
        &["remote", "guard", "rego"],
        "has no deadline",
    ),
    (
        "case_insensitive = true",
        &["guard"],
        "only the built-in `guard` compares paths",
    ),
    ("on_error = \"deny\"", &["remote", "rego"], "not"),
    (
        "query = \"data.x.y\"",
        &["rego"],
        "only the built-in `rego` takes it",
    ),
    (
        "bundle_poll_ms = 5000",
        &["rego"],
        "only the built-in `rego` takes it",
    ),
    ("breaker_failures = 3", &["remote"], "not used by built-in"),
    (
        "breaker_cooldown_ms = 9",
        &["remote"],
        "not used by built-in",
    ),
    ("token_env = \"T\"", &["remote"], "not used by built-in"),
];

#[test]
fn each_kind_takes_its_own_keys_and_names_the_others() {
    for (kind, first, tail) in KINDS {
        for &(line, takes, why) in KEYS {
            // An absolute path on each platform.
            let line = line.replace("AUDIT_FILE", per_os("'/tmp/a.jsonl'", r"'C:\a.jsonl'"));
            let text = format!("[[subscriber]]\nname = \"s\"\n{first}\n{line}\n{tail}\n");
            let key = line.split(" = ").next().unwrap_or_default();
            let parsed = Config::parse("gw.toml", &text, &env_of(&[("HOME", "/h"), ("T", "t")]));
            if takes.contains(&kind) {
                assert!(parsed.is_ok(), "{kind} takes {key}: {parsed:?}");
                continue;
            }
            let err = parsed.expect_err(&format!("{kind} must reject {key}"));
            assert_eq!(
                (err.line, err.key.as_deref()),
                (4, Some(format!("subscriber[0].{key}").as_str())),
                "{kind}/{key}: {err}"
            );
            assert!(err.message.contains(why), "{kind}/{key}: {err}");
        }
    }
}

#[test]
fn a_builtin_keeps_its_one_mode() {
    let cases = [
        ("audit", "decide", Some("only observes")),
        ("audit", "observe", None),
        ("guard", "observe", Some("only decides")),
        ("guard", "decide", None),
    ];
    for (builtin, mode, refused) in cases {
        let text =
            format!("[[subscriber]]\nname = \"s\"\nbuiltin = \"{builtin}\"\nmode = \"{mode}\"\n");
        match (parse(&text), refused) {
            (Ok(_), None) => {}
            (Err(err), Some(why)) => {
                assert_eq!(err.key.as_deref(), Some("subscriber[0].mode"));
                assert!(err.message.contains(why), "{builtin}/{mode}: {err}");
            }
            (got, want) => panic!("{builtin} in {mode}: {got:?}, expected refusal {want:?}"),
        }
    }
}
