//! The secret corpus (every family) must not survive; benign text must.

use serde_json::json;

use super::*;

const SECRETS: &str = include_str!("corpus/secrets.tsv");
const BENIGN: &str = include_str!("corpus/benign.txt");

/// A row of the secret corpus.
pub(crate) struct Row {
    pub family: String,
    pub secret: String,
    pub text: String,
}

/// The rows of the secret corpus.
pub(crate) fn secrets() -> Vec<Row> {
    SECRETS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut fields = l.splitn(3, '\t');
            let mut next = || fields.next().unwrap_or_default().to_owned();
            let (family, secret, text) = (next(), next(), next());
            assert!(
                !secret.is_empty() && !text.is_empty(),
                "malformed row: {l:?}"
            );
            Row {
                family,
                secret,
                text: text.replace("\\n", "\n"),
            }
        })
        .collect()
}

/// Where `row`'s secret survives: a JSON document is masked as JSON (as
/// the audit line and the OTLP attribute are) and as a string holding it;
/// anything else as text and as a JSON string.
fn leak(row: &Row) -> Option<String> {
    let outputs = match serde_json::from_str::<serde_json::Value>(&row.text) {
        Ok(mut doc) if doc.is_object() || doc.is_array() => {
            mask_json(&mut doc);
            let mut embedded = json!({ "text": row.text });
            mask_json(&mut embedded);
            vec![doc.to_string(), embedded.to_string()]
        }
        _ => {
            let mut as_json = json!([row.text]);
            mask_json(&mut as_json);
            vec![mask_str(&row.text), as_json.to_string()]
        }
    };
    outputs
        .iter()
        .any(|out| out.contains(&row.secret))
        .then(|| format!("{}: {:?} -> {outputs:?}", row.family, row.text))
}

#[test]
fn no_secret_of_the_corpus_survives() {
    let rows = secrets();
    let leaks: Vec<String> = rows.iter().filter_map(leak).collect();
    assert!(
        leaks.is_empty(),
        "{} leaks:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
    let families: std::collections::HashSet<&str> =
        rows.iter().map(|r| r.family.as_str()).collect();
    assert_eq!(families.len(), rows.len(), "one row per shape");
    assert!(rows.len() >= 100, "{} shapes", rows.len());
}

/// Each rule's own regex is compiled on its first match, in production:
/// a pattern that does not compile must fail here instead.
#[test]
fn every_rule_compiles_on_its_own() {
    for pattern in rules::patterns() {
        let _ = rules::compile(pattern);
    }
}

/// Every rule earns its place: some corpus row needs it to match.
#[test]
fn every_rule_is_exercised_by_the_corpus() {
    let patterns = rules::patterns();
    let mut hit = vec![false; patterns.len()];
    for row in secrets() {
        for index in rules::matching(&row.text) {
            hit[index] = true;
        }
    }
    let unused: Vec<&str> = (0..hit.len())
        .filter(|&i| !hit[i])
        .map(|i| patterns[i])
        .collect();
    assert!(unused.is_empty(), "rules no corpus row matches: {unused:?}");
}

#[test]
fn benign_text_survives() {
    for line in BENIGN
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        assert_eq!(mask_str(line), line);
        let mut value = json!(line);
        mask_json(&mut value);
        assert_eq!(value, json!(line), "as a JSON string");
    }
}

#[test]
fn secret_keys_are_masked_and_kept_apart() {
    let mut value = json!({
        "ghp_0123456789abcdefghij0123456789abcdef": 1,
        "q8Xz2LmP4vN7tR1wY6bK9sD3": 2,
        "[REDACTED]": 3,
        "name": "ok",
    });
    mask_json(&mut value);
    let map = value.as_object().expect("an object");
    let mut keys: Vec<&str> = map.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["[REDACTED]", "[REDACTED]#2", "[REDACTED]#3", "name"]);
    let mut values: Vec<i64> = map.values().filter_map(serde_json::Value::as_i64).collect();
    values.sort_unstable();
    assert_eq!(values, [1, 2, 3], "no value lost to a collision");
}

/// A file's content that is one base64 run, longer than any key.
const BASE64_FILE: &str = "TG9yZW0gaXBzdW0gZG9sb3Igc2l0IGFtZXQsIGNvbnNlY3RldHVyIGFkaXBpc2NpbmcgZWxpdC4gU2VkIGRvIGVpdXNtb2Q=";

#[test]
fn named_entries_lists_and_arguments() {
    let mut value = json!({
        "env": [
            {"name": "DB_PASSWORD", "value": "hunter2"},
            {"name": "LOG_LEVEL", "value": "debug"}
        ],
        "api_keys": ["k1-plain", "k2-plain"],
        "auth": {"type": "oauth", "enabled": true},
        "args": ["--password", "hunter3", "--verbose", "file.txt"],
        "session_id": "q8Xz2LmP4vN7tR1wY6bK9sD3",
        "note": "q8Xz2LmP4vN7tR1wY6bK9sD3",
        "content": BASE64_FILE
    });
    mask_json(&mut value);
    assert_eq!(value["env"][0]["value"], MASK);
    assert_eq!(value["env"][1]["value"], "debug");
    assert_eq!(value["api_keys"], json!([MASK, MASK]));
    assert_eq!(value["auth"]["type"], "oauth");
    assert_eq!(
        value["args"],
        json!(["--password", MASK, "--verbose", "file.txt"])
    );
    assert_eq!(value["session_id"], "q8Xz2LmP4vN7tR1wY6bK9sD3", "an id");
    assert_eq!(value["note"], MASK, "random under a plain key");
    assert_eq!(value["content"], BASE64_FILE, "data, not a key");
}

#[test]
fn replacements_keep_what_kind_of_value_was_there() {
    let cases = [
        (
            "export OPENAI_API_KEY=sk-abc123",
            "export OPENAI_API_KEY=[REDACTED]",
        ),
        (
            "DB_PASSWORD='p@ss word' psql",
            "DB_PASSWORD=[REDACTED] psql",
        ),
        (
            "curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.x.y' https://api",
            "curl -H 'Authorization: Bearer [REDACTED]' https://api",
        ),
        (
            "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\nrest",
            "[REDACTED]\nrest",
        ),
        (
            "psql postgres://app:pw@db/app",
            "psql postgres://app:[REDACTED]@db/app",
        ),
        (
            "curl -u admin:pw https://x",
            "curl -u admin:[REDACTED] https://x",
        ),
        (
            "mysql -u root -phunter2 app",
            "mysql -u root -p[REDACTED] app",
        ),
        (
            "max_tokens=4096 API_TOKEN=abc123",
            "max_tokens=4096 API_TOKEN=[REDACTED]",
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(mask_str(input), expected, "{input:?}");
    }
}

#[test]
fn json_values_and_secret_keys() {
    let mut value = json!({
        "tool_input": {
            "command": "TOKEN=abc123 deploy",
            "env": { "api_key": "plain-looking-value", "password": 1234 },
            "args": ["--key", "ghp_0123456789abcdefghij0123"],
            "credentials": { "user": "u", "secret": "s" },
            "content": "A=1\nSTRIPE_KEY=sk_live_51H8xYzAbCdEfGhIjKlMnOp\n"
        },
        "usage": { "input_tokens": 12, "max_tokens": 100 },
        "hook_event_name": "PreToolUse"
    });
    mask_json(&mut value);
    assert_eq!(value["tool_input"]["command"], "TOKEN=[REDACTED] deploy");
    assert_eq!(value["tool_input"]["env"]["api_key"], MASK);
    assert_eq!(value["tool_input"]["env"]["password"], MASK);
    assert_eq!(value["tool_input"]["args"][1], MASK);
    assert_eq!(value["tool_input"]["credentials"], MASK);
    assert_eq!(
        value["tool_input"]["content"],
        "A=1\nSTRIPE_KEY=[REDACTED]\n"
    );
    assert_eq!(value["usage"]["input_tokens"], 12);
    let mut mirror = json!({ "commands": json!(["PASSWORD=hunter2 ./run", "{\"pwd\": \"hunter2\"}"]).to_string() });
    mask_json(&mut mirror);
    assert!(!mirror.to_string().contains("hunter2"), "{mirror}");
    assert_eq!(value["hook_event_name"], "PreToolUse");
}

/// Not a timing assertion: how long masking a large payload takes, shown
/// in `--nocapture` runs (it runs off the hook path, in the audit worker).
#[test]
fn rough_cost_of_a_large_payload() {
    let text = "line of ordinary output with a path src/main.rs:12 and KEY=value\n".repeat(2000);
    let started = std::time::Instant::now();
    std::hint::black_box(mask_str(&text));
    let build = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    eprintln!(
        "mask: {:?} for {} KiB ({build} build)",
        started.elapsed(),
        text.len() / 1024
    );
}
