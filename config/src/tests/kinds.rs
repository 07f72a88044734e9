//! Which subscriber kind takes which key: every kind-specific key, written
//! on each kind, is taken by the kinds it is for and rejected by the
//! others at its own line and key, with the reason.

use super::*;

/// A subscriber of each kind: its first line, and what it needs after the
/// key under test.
const KINDS: [(&str, &str, &str); 5] = [
    ("remote", "endpoint = \"https://127.0.0.1:1\"", ""),
    ("audit", "builtin = \"audit\"", ""),
    ("memory", "builtin = \"memory\"", ""),
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
    ("path = AUDIT_FILE", &["audit", "memory"], "have a `path`"),
    ("anchor = ANCHOR_FILE", &["audit"], "writes an anchor"),
    (
        "rules = []",
        &["guard"],
        "only the built-in `guard` and `approval` have `rules`",
    ),
    (
        "queue_size = 8",
        &["remote", "audit", "memory"],
        "have a queue",
    ),
    (
        "timeout_ms = 50",
        &["remote", "guard", "rego", "memory"],
        "has no deadline",
    ),
    (
        "case_insensitive = true",
        &["guard"],
        "only the built-in `guard` and `approval` compare paths",
    ),
    ("on_error = \"deny\"", &["remote", "rego"], "`rego` take it"),
    (
        "max_bytes = 2000000",
        &["memory"],
        "only the built-in `memory` takes it",
    ),
    (
        "inject_bytes = 100",
        &["memory"],
        "only the built-in `memory` takes it",
    ),
    (
        "exclude = [\"/x/**\"]",
        &["memory"],
        "only the built-in `memory` takes it",
    ),
    (
        "retention_days = 7",
        &["memory"],
        "only the built-in `memory` takes it",
    ),
    (
        "compress_after = 50",
        &["memory"],
        "only the built-in `memory` takes it",
    ),
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
    (
        "hold_ms = 1000",
        &[],
        "only the built-in `approval` holds calls",
    ),
    (
        "max_held = 2",
        &[],
        "only the built-in `approval` holds calls",
    ),
    (
        "on_timeout = \"allow\"",
        &[],
        "only the built-in `approval` holds calls",
    ),
    (
        "desktop = true",
        &[],
        "only the built-in `approval` holds calls",
    ),
];

#[test]
fn each_kind_takes_its_own_keys_and_names_the_others() {
    for (kind, first, tail) in KINDS {
        for &(line, takes, why) in KEYS {
            // An absolute path on each platform.
            let line = line
                .replace("AUDIT_FILE", per_os("'/tmp/a.jsonl'", r"'C:\a.jsonl'"))
                .replace("ANCHOR_FILE", per_os("'/tmp/anchor'", r"'C:\anchor'"));
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
        ("memory", "observe", Some("records and answers")),
        ("memory", "decide", None),
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

/// The audit `anchor`: refused relative or empty (it would land wherever
/// the gateway started), and refused as the log or one of its siblings
/// (rotation and the head sidecar would overwrite it); taken absolute.
#[test]
fn the_audit_anchor_is_an_absolute_file_apart_from_the_log() {
    let audit = |anchor: &str| {
        format!(
            "[[subscriber]]\nname = \"a\"\nbuiltin = \"audit\"\npath = {}\nanchor = {anchor}\n",
            per_os("'/tmp/a.jsonl'", r"'C:\a.jsonl'")
        )
    };
    let cases = [
        ("relative anchor", audit("\"anchor.json\""), "absolute"),
        ("empty anchor", audit("\"\""), "absolute"),
        (
            "the log's sibling",
            audit(per_os("'/tmp/a.jsonl.anchor'", r"'C:\a.jsonl.anchor'")),
            "another file than the log",
        ),
    ];
    for (what, text, fragment) in cases {
        let err = Config::parse("gw.toml", &text, &env_of(&[("HOME", "/h")])).expect_err(what);
        assert_eq!(
            (err.line, err.key.as_deref()),
            (5, Some("subscriber[0].anchor")),
            "{what}: {err}"
        );
        assert!(err.to_string().contains(fragment), "{what}: {err}");
    }
    let ok = Config::parse(
        "gw.toml",
        &audit(per_os("'/var/lib/anchors/a.json'", r"'C:\anchors\a.json'")),
        &env_of(&[("HOME", "/h")]),
    )
    .expect("an absolute anchor");
    let audit = ok
        .subscribers
        .iter()
        .find(|s| s.name == "a")
        .map(|s| &s.kind);
    match audit {
        Some(SubscriberKind::Audit { anchor, .. }) => assert!(anchor.is_some()),
        other => panic!("{other:?}"),
    }
}

/// The `memory` kind: its defaults (the state directory's `memory.db`, a
/// 2 KiB injection within 100 ms, 90 days), and a bad `exclude` glob named
/// at its index.
#[test]
fn memory_defaults_and_its_exclude_globs() {
    let ok = parse(&format!(
        "[[subscriber]]\nname = \"m\"\nbuiltin = \"memory\"\nexclude = [\"{}\"]\n",
        per_os("/work/clients/**", "C:/clients/**")
    ))
    .expect("a memory subscriber");
    let Some(SubscriberKind::Memory(memory)) = ok.subscribers.first().map(|s| &s.kind) else {
        panic!("{:?}", ok.subscribers);
    };
    assert!(memory.path.ends_with("hookgate/memory.db"), "{memory:?}");
    assert_eq!(memory.inject_bytes, 2048);
    assert_eq!(memory.timeout, std::time::Duration::from_millis(100));
    assert_eq!(
        memory.retention,
        Some(std::time::Duration::from_secs(90 * 86_400))
    );
    let project = per_os("/work/clients/acme", "C:/clients/acme");
    assert!(memory.exclude.is_match(project));
    assert!(!memory.exclude.is_match(per_os("/work/mine", "C:/mine")));
    let err = parse(
        "[[subscriber]]\nname = \"m\"\nbuiltin = \"memory\"\nexclude = [\"/ok/**\", \"a[\"]\n",
    )
    .expect_err("an unclosed class");
    assert_eq!(
        err.key.as_deref(),
        Some("subscriber[0].exclude[1]"),
        "{err}"
    );
}

#[test]
fn memory_model_endpoint_keys() {
    let base = "[[subscriber]]\nname = \"m\"\nbuiltin = \"memory\"\npath = \"~/m.db\"\n";
    let ok = parse(&format!(
        "{base}[subscriber.model]\nkind = \"anthropic\"\nurl = \"https://api.example.com/v1/messages\"\n\
         model = \"small\"\napi_key_env = \"MODEL_KEY\"\ntimeout_ms = 5000\n"
    ))
    .expect("a memory subscriber with a model");
    let Some(SubscriberKind::Memory(memory)) = ok.subscribers.first().map(|s| &s.kind) else {
        panic!("{:?}", ok.subscribers);
    };
    let model = memory.model.as_ref().expect("the model");
    assert_eq!(model.kind, crate::ModelKind::Anthropic);
    assert_eq!(model.timeout, std::time::Duration::from_millis(5000));
    assert!(matches!(&model.api_key, Some(TokenSource::Env(name)) if name == "MODEL_KEY"));
    for (table, key) in [
        (
            "kind = \"llama\"\nurl = \"https://a/\"\nmodel = \"m\"",
            "subscriber[0].model.kind",
        ),
        (
            "kind = \"openai\"\nurl = \"http://example.com/\"\nmodel = \"m\"",
            "subscriber[0].model.url",
        ),
        (
            "kind = \"openai\"\nurl = \"https://a/\"\nmodel = \"m\"\napi_key_env = \"sk-live-123\"",
            "subscriber[0].model.api_key_env",
        ),
        (
            "kind = \"openai\"\nurl = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\napi_key_env = \"K\"",
            "subscriber[0].model.api_key_env",
        ),
    ] {
        let err = parse(&format!("{base}[subscriber.model]\n{table}\n")).expect_err(table);
        assert_eq!(err.key.as_deref(), Some(key), "{err}");
    }
    let err = parse(
        "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\n[subscriber.model]\nkind = \"openai\"\nurl = \"https://a/\"\nmodel = \"m\"\n",
    )
    .expect_err("model on a guard");
    assert!(
        err.to_string().contains("only the built-in `memory`"),
        "{err}"
    );
}
