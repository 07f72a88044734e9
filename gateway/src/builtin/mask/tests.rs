//! The secret corpus (every family) must not survive; benign text must.

use serde_json::json;

use super::*;

const SECRETS: &str = include_str!("corpus/secrets.tsv");
const BENIGN: &str = include_str!("corpus/benign.txt");

/// `(secret, text)` rows of the secret corpus.
pub(crate) fn secrets() -> Vec<(String, String)> {
    SECRETS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .map(|(s, t)| (s.to_owned(), t.replace("\\n", "\n")))
        .collect()
}

#[test]
fn no_secret_of_the_corpus_survives() {
    let leaks: Vec<String> = secrets()
        .into_iter()
        .filter_map(|(secret, text)| {
            let masked = mask_str(&text);
            let mut as_json: serde_json::Value =
                serde_json::from_str(&text).unwrap_or(json!({ "text": text }));
            mask_json(&mut as_json);
            (masked.contains(&secret) || as_json.to_string().contains(&secret))
                .then(|| format!("{text:?} -> {masked:?} / {as_json}"))
        })
        .collect();
    assert!(
        leaks.is_empty(),
        "{} leaks:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
    assert!(secrets().len() >= 40);
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
    println!(
        "mask: {:?} for {} KiB ({build} build)",
        started.elapsed(),
        text.len() / 1024
    );
}
