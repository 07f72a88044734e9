//! The maintained set of secret shapes: (pattern, replacement). A
//! replacement may keep a non-secret prefix (`${1}`) so the log still says
//! what kind of value was there.

use std::sync::LazyLock;

use regex::Regex;

/// Applied in order, after the assignment pass.
pub(super) static PATTERNS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    [
        // Private key blocks of every armor type (RSA, EC, OPENSSH,
        // ENCRYPTED, PGP ... BLOCK); an unterminated block to the end.
        (
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----|$)",
            "[REDACTED]",
        ),
        // Authorization headers (Bearer, Basic, token, Digest ...).
        (
            r"(?i)\b((?:proxy-)?authorization\s*:\s*(?:bearer|basic|token|digest|negotiate|apikey)?|bearer)(\s+)[A-Za-z0-9\-._~+/]{4,}=*",
            "${1}${2}[REDACTED]",
        ),
        (
            r"(?i)\b(x-api-key|api-key|x-auth-token|private-token|x-goog-api-key)(\s*:\s*)[^\s'\x22]+",
            "${1}${2}[REDACTED]",
        ),
        // Credentials in URLs: scheme://user:password@host.
        (r"(?i)\b([a-z][a-z0-9+.\-]*://[^/\s:@'\x22]*):([^/\s@'\x22]+)@", "${1}:[REDACTED]@"),
        // Slack and Discord webhooks.
        (r"https://hooks\.slack\.com/(services|workflows|triggers)/[A-Za-z0-9/_\-]+", "https://hooks.slack.com/${1}/[REDACTED]"),
        (r"https://(?:[a-z]+\.)?discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_\-]+", "https://discord.com/api/webhooks/[REDACTED]"),
        // JWTs, bare.
        (r"\beyJ[A-Za-z0-9_\-]{4,}\.eyJ[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{4,}", "[REDACTED]"),
        // OpenAI / Anthropic style keys.
        (r"\bsk-[A-Za-z0-9_\-]{16,}", "[REDACTED]"),
        // GitHub tokens.
        (r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})", "[REDACTED]"),
        // GitLab tokens.
        (r"\bgl(?:pat|dt|rt|ptt|cbt|oas|imt|ft|soat|agent)-[A-Za-z0-9_\-]{20,}", "[REDACTED]"),
        // Stripe secret and restricted keys, webhook secrets.
        (r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}|\bwhsec_[A-Za-z0-9]{20,}", "[REDACTED]"),
        // npm, PyPI, Hugging Face, Docker Hub, DigitalOcean, SendGrid, Twilio.
        (r"\bnpm_[A-Za-z0-9]{30,}", "[REDACTED]"),
        (r"\bpypi-[A-Za-z0-9_\-]{40,}", "[REDACTED]"),
        (r"\bhf_[A-Za-z0-9]{30,}", "[REDACTED]"),
        (r"\bdckr_pat_[A-Za-z0-9_\-]{20,}", "[REDACTED]"),
        (r"\bdo[opr]_v1_[a-f0-9]{64}", "[REDACTED]"),
        (r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}", "[REDACTED]"),
        (r"\bSK[0-9a-fA-F]{32}\b", "[REDACTED]"),
        // AWS access key ids, and secret keys after their name with any
        // separator (`aws_secret_access_key X`, `= X`, `: X`).
        (r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b", "[REDACTED]"),
        (
            r#"(?i)\b((?:aws_?)?secret_?access_?key["']?\s*[=:\s]\s*["']?)[A-Za-z0-9/+=]{40}"#,
            "${1}[REDACTED]",
        ),
        // Slack tokens, Google API keys.
        (r"\bxox[abposre]-[A-Za-z0-9\-]{10,}", "[REDACTED]"),
        (r"\bAIza[0-9A-Za-z_\-]{35}", "[REDACTED]"),
        // Azure storage and service bus connection strings.
        (r"(?i)\b(AccountKey|SharedAccessKey|SharedSecret)=([^;\s'\x22]+)", "${1}=[REDACTED]"),
        // Password options: `--password X`, `--password=X`, `-p X` only
        // for database clients (elsewhere -p is a port), `-pX` for mysql.
        (
            r#"(?i)(\s--?(?:password|passwd|pass|pwd|token|secret|api-key|apikey|auth-token)(?:=|\s+))("[^"]*"|'[^']*'|[^\s'"]+)"#,
            "${1}[REDACTED]",
        ),
        (
            r#"\b((?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n|;&]*?\s-p)("[^"]*"|'[^']*'|[^\s'"-][^\s'"]*)"#,
            "${1}[REDACTED]",
        ),
        // `-u user:password` / `--user user:password` (curl and friends).
        (
            r#"(\s(?:-u|--user|--proxy-user)(?:=|\s+)['"]?[^\s:'"]+):([^\s'"]+)"#,
            "${1}:[REDACTED]",
        ),
    ]
    .into_iter()
    .map(|(pattern, replacement)| {
        (
            Regex::new(pattern).expect("constant mask regex is valid"),
            replacement,
        )
    })
    .collect()
});

/// `NAME=value`, `NAME: value`, `"name": "value"` in text. Group 1 is what
/// stays (the name and separator), group 2 the name, group 3 the value;
/// whether the value is masked is decided by the name or the value's
/// entropy (`super::assignment`).
pub(super) static ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(\b([A-Za-z_][A-Za-z0-9_.\-]*)["']?\s*[=:]\s*)("[^"\n]*"|'[^'\n]*'|[^\s"',;&|}\]]+)"#,
    )
    .expect("constant mask regex is valid")
});
