//! Masking of obvious secrets before anything reaches the audit log.
//!
//! Hook payloads carry shell commands, file contents and environment
//! dumps; an audit log that stores API keys verbatim is a leak waiting to
//! happen. This is a best-effort net for well-known shapes (provider key
//! prefixes, bearer tokens, `*PASSWORD=`/`*TOKEN=`-style assignments), not
//! a guarantee: the log file is also created 0600.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

/// What a masked secret is replaced with.
pub const MASK: &str = "[REDACTED]";

/// (pattern, replacement). Replacements may keep a non-secret prefix
/// (`$1`) so the log still says what kind of value was there.
static PATTERNS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    [
        // Authorization headers.
        (
            r"(?i)\b(authorization\s*:\s*(?:bearer|basic|token)|bearer)(\s+)[A-Za-z0-9\-._~+/]{8,}=*",
            "${1}${2}[REDACTED]",
        ),
        // OpenAI / Anthropic style keys.
        (r"\bsk-[A-Za-z0-9_\-]{16,}", "[REDACTED]"),
        // GitHub tokens.
        (r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})", "[REDACTED]"),
        // AWS access key ids.
        (r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b", "[REDACTED]"),
        // Slack tokens.
        (r"\bxox[abposr]-[A-Za-z0-9\-]{10,}", "[REDACTED]"),
        // Google API keys.
        (r"\bAIza[0-9A-Za-z_\-]{35}", "[REDACTED]"),
        // Private key blocks.
        (
            r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)",
            "[REDACTED]",
        ),
    ]
    .into_iter()
    .map(|(pattern, replacement)| (Regex::new(pattern).expect("constant mask regex is valid"), replacement))
    .collect()
});

/// `NAME=value` / `NAME: value` where NAME says it is secret. Group 1 is
/// what stays (the name and the separator), group 2 the name alone.
static ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)\b(([A-Z0-9_]*(?:PASSWORD|PASSWD|PASSPHRASE|TOKEN|SECRET|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY)[A-Z0-9_]*)["']?\s*[=:]\s*)("[^"\n]*"|'[^'\n]*'|[^\s"',;&|}]+)"#,
    )
    .expect("constant mask regex is valid")
});

/// `text` with every recognized secret replaced by [`MASK`].
pub fn mask_str(text: &str) -> String {
    // The regex crate has no look-around: token *counts* (`max_tokens=`,
    // `INPUT_TOKENS:`) are told apart from tokens here.
    let mut out = ASSIGNMENT.replace_all(text, |caps: &regex::Captures<'_>| {
        if token_count(&caps[2]) {
            caps[0].to_owned()
        } else {
            format!("{}{MASK}", &caps[1])
        }
    });
    for (pattern, replacement) in PATTERNS.iter() {
        if let std::borrow::Cow::Owned(replaced) = pattern.replace_all(&out, *replacement) {
            out = std::borrow::Cow::Owned(replaced);
        }
    }
    out.into_owned()
}

/// Masks every string in a JSON value, in place; a value under a key that
/// names a secret (`"api_key": "..."`) is masked whole.
pub fn mask_json(value: &mut Value) {
    match value {
        Value::String(s) => {
            let masked = mask_str(s);
            if masked != *s {
                *s = masked;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(mask_json),
        Value::Object(map) => {
            for (key, item) in map.iter_mut() {
                if secret_key(key) && matches!(item, Value::String(_) | Value::Number(_)) {
                    *item = Value::String(MASK.to_owned());
                } else {
                    mask_json(item);
                }
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

fn secret_key(key: &str) -> bool {
    let key = key.to_ascii_lowercase().replace('-', "_");
    [
        "password",
        "passwd",
        "secret",
        "token",
        "api_key",
        "apikey",
        "private_key",
        "authorization",
    ]
    .iter()
    .any(|word| key.contains(word))
        && !token_count(&key)
}

/// A name for a number of tokens (`max_tokens`, `INPUT_TOKENS`), not a
/// secret.
fn token_count(name: &str) -> bool {
    let name = name.to_ascii_lowercase().replace('-', "_");
    name == "tokens" || name.ends_with("_tokens")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_table() {
        let cases: &[(&str, &str)] = &[
            (
                "export OPENAI_API_KEY=sk-abc123",
                "export OPENAI_API_KEY=[REDACTED]",
            ),
            ("PASSWORD=hunter2 ./run", "PASSWORD=[REDACTED] ./run"),
            (
                "DB_PASSWORD='p@ss word' psql",
                "DB_PASSWORD=[REDACTED] psql",
            ),
            (
                "GITHUB_TOKEN=\"abc\" gh pr list",
                "GITHUB_TOKEN=[REDACTED] gh pr list",
            ),
            ("MY_SECRET: xyz", "MY_SECRET: [REDACTED]"),
            ("api_key=abcdef", "api_key=[REDACTED]"),
            (
                "curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.x.y' https://api",
                "curl -H 'Authorization: Bearer [REDACTED]' https://api",
            ),
            (
                "key sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAA end",
                "key [REDACTED] end",
            ),
            ("ghp_0123456789abcdefghij0123 pushed", "[REDACTED] pushed"),
            (
                "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
                "[REDACTED]",
            ),
            ("aws AKIAIOSFODNN7EXAMPLE ok", "aws [REDACTED] ok"),
            ("slack xoxb-123456789012-abcdefghij", "slack [REDACTED]"),
            (
                "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\nrest",
                "[REDACTED]\nrest",
            ),
            (
                "Authorization: token ghx0123456789",
                "Authorization: token [REDACTED]",
            ),
            // Nothing secret: untouched.
            ("cargo test --all", "cargo test --all"),
            ("ask the user a question", "ask the user a question"),
            ("max_tokens=4096", "max_tokens=4096"),
            ("MAX_TOKENS: 4096", "MAX_TOKENS: 4096"),
            (
                "max_tokens=4096 API_TOKEN=abc123",
                "max_tokens=4096 API_TOKEN=[REDACTED]",
            ),
            (
                "the token configuration is fine",
                "the token configuration is fine",
            ),
            ("basic understanding", "basic understanding"),
            ("sk-short", "sk-short"),
        ];
        for (input, expected) in cases {
            assert_eq!(mask_str(input), *expected, "input {input:?}");
        }
    }

    #[test]
    fn json_values_and_secret_keys() {
        let mut value = serde_json::json!({
            "tool_input": {
                "command": "TOKEN=abc123 deploy",
                "env": { "api_key": "plain-looking-value", "password": 1234 },
                "args": ["--key", "ghp_0123456789abcdefghij0123"]
            },
            "usage": { "input_tokens": 12, "max_tokens": 100 },
            "hook_event_name": "PreToolUse"
        });
        mask_json(&mut value);
        assert_eq!(value["tool_input"]["command"], "TOKEN=[REDACTED] deploy");
        assert_eq!(value["tool_input"]["env"]["api_key"], MASK);
        assert_eq!(value["tool_input"]["env"]["password"], MASK);
        assert_eq!(value["tool_input"]["args"][1], MASK);
        assert_eq!(value["usage"]["input_tokens"], 12);
        assert_eq!(value["usage"]["max_tokens"], 100);
        assert_eq!(value["hook_event_name"], "PreToolUse");
    }
}
