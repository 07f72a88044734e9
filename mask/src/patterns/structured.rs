//! Secrets known by where they stand: key blocks, headers, cookies, URL
//! credentials and signed URLs, webhooks, and the lines of credential
//! files (`.netrc`, `.pgpass`, PuTTY keys, password hashes). The
//! replacement keeps the part that says what the value was.

use regex::Captures;

use super::super::names;
use super::super::rule::{Rule, always, checked};

/// A name/value pair (`- name: DB_PASSWORD` then `value: ...`) whose name
/// (group 2) says secret.
fn secret_pair_name(caps: &Captures<'_>) -> bool {
    caps.get(2).is_some_and(|n| names::secret_name(n.as_str()))
}

/// A query parameter (group 2) that signs a URL or whose name says
/// secret.
fn secret_query_parameter(caps: &Captures<'_>) -> bool {
    caps.get(2).is_some_and(|name| {
        let name = name.as_str();
        [
            "sig",
            "signature",
            "x-amz-signature",
            "x-amz-security-token",
            "x-amz-credential",
            "x-goog-signature",
            "x-goog-credential",
            "key",
        ]
        .iter()
        .any(|n| name.eq_ignore_ascii_case(n))
            || names::secret_name(name)
    })
}

/// The value (group 3) has more than letters: a token, not prose.
fn not_a_word(caps: &Captures<'_>) -> bool {
    caps.get(3)
        .is_some_and(|v| !v.as_str().bytes().all(|b| b.is_ascii_alphabetic()))
}

pub(super) const RULES: &[Rule] = &[
    // Private key blocks of every armor type (RSA, EC, OPENSSH, DSA,
    // ENCRYPTED, PGP ... BLOCK, SSH2's `---- BEGIN ... ----`); an
    // unterminated block to the end.
    always(
        r"-{4,5} ?BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z ]*? ?-{4,5}[\s\S]*?(?:-{4,5} ?END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*? ?-{4,5}|$)",
        "[REDACTED]",
    ),
    // PuTTY keys: everything from the private lines through the MAC.
    always(
        r"(Private-Lines:[ \t]*[0-9]+)[\s\S]*?(?:Private-(?:MAC|Hash):[ \t]*[0-9A-Fa-f]+|$)",
        "${1} [REDACTED]",
    ),
    // Authorization headers (Bearer, Basic, token, Bot, Digest ...).
    always(
        r"(?i)\b((?:proxy-)?authorization\s*:\s*(?:bearer|basic|token|bot|digest|negotiate|apikey|sso-key)?)(\s+)[A-Za-z0-9\-._~+/:]{4,}=*",
        "${1}${2}[REDACTED]",
    ),
    // A bare `Bearer X`, when X is not a word ("a bearer token").
    checked(
        r"(?i)\b(bearer)(\s+)([A-Za-z0-9\-._~+/]{4,}=*)",
        "${1}${2}[REDACTED]",
        not_a_word,
    ),
    // Credential headers by name, however their value is spelled.
    always(
        r#"(?i)\b((?:x-)?(?:api-key|apikey|auth-token|auth-key|access-token|private-token|goog-api-key|vault-token|consul-token|nomad-token|figma-token|gitlab-token|rapidapi-key|functions-key|shopify-access-token|postmark-server-token|amz-security-token|ocp-apim-subscription-key|dd-api-key|dd-application-key|circle-token))(\s*:\s*)[^\s'"]+"#,
        "${1}${2}[REDACTED]",
    ),
    // Cookies: request and response headers, whole.
    always(
        r#"(?i)\b((?:set-)?cookie\s*:[ \t]*)[^\r\n'"]+"#,
        "${1}[REDACTED]",
    ),
    // Credentials in URLs: scheme://user:password@host.
    always(
        r#"(?i)\b([a-z][a-z0-9+.\-]*://[^/\s:@'"]*):([^/\s@'"]+)@"#,
        "${1}:[REDACTED]@",
    ),
    // URL query parameters: signatures of signed URLs (Azure SAS `sig=`,
    // S3 and GCS presigned), `key=`, and any parameter whose name says
    // secret (`access_token=`, `client_secret=`).
    checked(
        r##"([?&;]([A-Za-z0-9_.\-]+)=)([^&\s'"#<>]+)"##,
        "${1}[REDACTED]",
        secret_query_parameter,
    ),
    // Webhooks: Slack, Discord, Microsoft Teams.
    always(
        r"https://hooks\.slack\.com/(services|workflows|triggers)/[A-Za-z0-9/_\-]+",
        "https://hooks.slack.com/${1}/[REDACTED]",
    ),
    always(
        r"https://(?:[a-z]+\.)?discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_\-]+",
        "https://discord.com/api/webhooks/[REDACTED]",
    ),
    always(
        r#"(https://[a-z0-9\-]+\.webhook\.office\.com/webhookb2/)[^\s'"]+"#,
        "${1}[REDACTED]",
    ),
    // Telegram bot tokens (`/bot123456:AA.../sendMessage`, bare).
    always(r"([0-9]{5,16}):A[A-Za-z0-9_\-]{30,}", "${1}:[REDACTED]"),
    // AWS secret keys after their name with any separator
    // (`aws_secret_access_key X`, `= X`, `: X`).
    always(
        r#"(?i)\b((?:aws_?)?secret_?access_?key["']?\s*[=:\s]\s*["']?)[A-Za-z0-9/+=]{40}"#,
        "${1}[REDACTED]",
    ),
    // Twilio: an auth token right after its account SID.
    always(
        r#"\b(AC[a-f0-9]{32})(["']?\s*[,:]\s*["']?)[a-f0-9]{32}\b"#,
        "${1}${2}[REDACTED]",
    ),
    // Azure storage and service bus connection strings.
    always(
        r#"(?i)\b(AccountKey|SharedAccessKey|SharedSecret|SharedAccessSignature)=([^;\s'"]+)"#,
        "${1}=[REDACTED]",
    ),
    // `.netrc`: `machine h login u password p`, on one line or several
    // (a login first, so prose about a machine's password is left alone).
    always(
        r"\b((?:machine\s+\S+|default)(?:\s+(?:account|port|protocol)\s+\S+)*\s+login\s+\S+(?:\s+(?:account|port|protocol)\s+\S+)*\s+password\s+)\S+",
        "${1}[REDACTED]",
    ),
    // `.pgpass`: `host:port:database:user:password`.
    always(
        r#"(?m)((?:^|[\s'"=])[A-Za-z0-9.\-_*\[\]]+:(?:[0-9]{1,5}|\*):[^:\s'"]+:[^:\s'"]+:)[^\s'"]+"#,
        "${1}[REDACTED]",
    ),
    // An env list entry `- name: DB_PASSWORD` / `value: ...` (Kubernetes,
    // ECS, Actions), when the name says secret.
    checked(
        r#"(?i)(\bname:[ \t]*["']?([A-Za-z0-9_.\-]+)["']?[ \t]*\r?\n[ \t]*-?[ \t]*value:[ \t]*)("[^"\n]*"|'[^'\n]*'|[^\s]+)"#,
        "${1}[REDACTED]",
        secret_pair_name,
    ),
    // Password hashes (crypt, bcrypt, argon2, yescrypt): crackable.
    always(
        r"\$(?:1|5|6|apr1)\$(?:rounds=[0-9]+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{20,}",
        "[REDACTED]",
    ),
    always(r"\$2[abxy]?\$[0-9]{2}\$[./A-Za-z0-9]{53}", "[REDACTED]"),
    always(
        r"\$argon2(?:id|i|d)\$v=[0-9]+\$m=[0-9]+,t=[0-9]+,p=[0-9]+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+",
        "[REDACTED]",
    ),
    always(
        r"\$(?:y|gy|7)\$[./A-Za-z0-9]+\$[./A-Za-z0-9]+\$[./A-Za-z0-9]{20,}",
        "[REDACTED]",
    ),
    // GitLab's session cookie, wherever it is assigned.
    always(r"(_gitlab_session=)[0-9a-z]{32}", "${1}[REDACTED]"),
    // A GitHub Actions mask command names the secret it masks.
    always(r"(::add-mask::)\S+", "${1}[REDACTED]"),
];
