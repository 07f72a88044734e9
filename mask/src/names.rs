//! Which names (env variables, JSON keys, option names) hold secrets.
//! Words, not substrings: `DB_PASSWORD`, `dbPassword` and `db-password`
//! are the same name, `passenger` and `monkey` are not secrets.

/// The name's words: `DB_PASSWORD`, `db-password`, `dbPassword` are all
/// `["db", "password"]`.
fn words(name: &str) -> Vec<String> {
    let mut words = vec![String::new()];
    let mut previous_lower = false;
    for c in name.chars() {
        if matches!(c, '_' | '-' | '.' | ' ') {
            words.push(String::new());
            previous_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && previous_lower {
            words.push(String::new());
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        if let Some(last) = words.last_mut() {
            last.push(c.to_ascii_lowercase());
        }
    }
    words.retain(|w| !w.is_empty());
    words
}

/// Words that are secrets on their own.
const SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "pass",
    "pwd",
    "secret",
    "secrets",
    "token",
    "auth",
    "credential",
    "credentials",
    "creds",
    "apikey",
    "passcode",
    "privatekey",
    "privkey",
    "mnemonic",
];
/// Word endings that are secrets (`PGPASSWORD`, `GHTOKEN`, `csrftoken`).
const SECRET_ENDINGS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "token",
    "secret",
    "apikey",
    "secretkey",
    "privatekey",
    "authkey",
];
/// Words that are secrets only at the end of a name (`GITHUB_PAT`,
/// `DB_PW`, `session_cookie`), not as a qualifier (`pat_count`).
const SECRET_LAST_WORDS: &[&str] = &["pat", "pw", "cookie", "cookies"];
/// `<word> key` pairs that are secrets (`api_key`, `ACCESS_KEY`).
const KEY_QUALIFIERS: &[&str] = &[
    "api",
    "access",
    "private",
    "secret",
    "account",
    "signing",
    "encryption",
    "master",
    "client",
    "license",
    "service",
    "storage",
    "shared",
    "app",
    "application",
    "admin",
    "consumer",
    "crypto",
    "decryption",
    "deploy",
    "hmac",
    "ingest",
    "jwt",
    "pgp",
    "gpg",
    "root",
    "server",
    "session",
    "ssh",
    "subscription",
    "functions",
    "webhook",
    "write",
    "sas",
    "aes",
    "cipher",
    "recovery",
    "wallet",
];
/// `<word> KEY` pairs of an env-style name that are not secrets: every
/// other `SOMETHING_KEY` variable is (`OPENAI_KEY`, `STRIPE_KEY`).
const PLAIN_KEY_QUALIFIERS: &[&str] = &[
    "sort",
    "primary",
    "foreign",
    "partition",
    "cache",
    "public",
    "publishable",
    "pub",
    "site",
    "hot",
    "idempotency",
    "row",
    "hash",
    "range",
    "lookup",
    "group",
    "map",
    "index",
    "unique",
    "routing",
    "shard",
    "dedup",
    "object",
    "translation",
    "i18n",
];

/// Does `name` say its value is secret? Token counts (`max_tokens`,
/// `INPUT_TOKENS`) do not.
pub fn secret_name(name: &str) -> bool {
    let words = words(name);
    if words.last().is_some_and(|w| w == "tokens") {
        return false;
    }
    words.iter().any(|w| {
        SECRET_WORDS.contains(&w.as_str())
            || SECRET_ENDINGS
                .iter()
                .any(|e| w.ends_with(e) && w != "tokens")
    }) || words
        .last()
        .is_some_and(|w| SECRET_LAST_WORDS.contains(&w.as_str()))
        || words
            .windows(2)
            .any(|pair| key_word(&pair[1]) && KEY_QUALIFIERS.contains(&pair[0].as_str()))
        || env_key(name, &words)
}

/// `key` and its plural (`api_keys`).
fn key_word(word: &str) -> bool {
    word == "key" || word == "keys"
}

/// An env-style `SOMETHING_KEY` (upper case, underscores) is a secret
/// unless its qualifier says it is public or structural (`SORT_KEY`,
/// `NEXT_PUBLIC_..._KEY`). Lower-case `sort_key`, `cache_key` in code are
/// left to the qualifier list.
fn env_key(name: &str, words: &[String]) -> bool {
    let env_style = name.contains('_')
        && name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
    env_style
        && words.len() >= 2
        && words.last().is_some_and(|w| key_word(w))
        && !words[..words.len() - 1]
            .iter()
            .any(|w| PLAIN_KEY_QUALIFIERS.contains(&w.as_str()))
}

/// An option whose next argument is a secret: `--password`, `--api-key`,
/// `-token` (one or two dashes, no `=value` attached).
pub(super) fn secret_option(arg: &str) -> bool {
    let Some(name) = arg.strip_prefix('-') else {
        return false;
    };
    let name = name.strip_prefix('-').unwrap_or(name);
    !name.is_empty() && !name.contains('=') && !name.starts_with("no-") && secret_name(name)
}

/// The field that names an entry (`{"name": "DB_PASSWORD", "value": ...}`
/// in Kubernetes, ECS, Actions env lists).
pub(super) fn name_key(key: &str) -> bool {
    matches!(
        key,
        "name" | "Name" | "key" | "Key" | "variable" | "envName"
    )
}

/// The field that holds a named entry's value.
pub(super) fn value_key(key: &str) -> bool {
    matches!(key, "value" | "Value")
}

/// A JSON key whose value is masked whole: a secret name, or a header
/// that carries credentials.
pub(super) fn secret_key(key: &str) -> bool {
    secret_name(key) || {
        let key = key.to_ascii_lowercase();
        matches!(
            key.as_str(),
            "authorization" | "proxy-authorization" | "cookie" | "set-cookie" | "x-api-key"
        )
    }
}

/// A key whose whole object or list is secret (`"credentials": {...}`);
/// narrower than [`secret_key`] so `"auth": {"type": ...}` config blocks
/// are still walked and masked field by field.
pub(super) fn secret_container(key: &str) -> bool {
    let words = words(key);
    words.iter().any(|w| {
        matches!(
            w.as_str(),
            "credential" | "credentials" | "secrets" | "password" | "passwords"
        )
    })
}

/// Names whose random-looking values are not secrets: ids, hashes,
/// digests, paths, versions.
pub(super) fn plain_name(name: &str) -> bool {
    let words = words(name);
    words.last().is_some_and(|w| {
        matches!(
            w.as_str(),
            "id" | "ids"
                | "sha"
                | "hash"
                | "digest"
                | "checksum"
                | "commit"
                | "rev"
                | "path"
                | "dir"
                | "file"
                | "url"
                | "uri"
                | "version"
                | "name"
                | "ref"
                | "uuid"
                | "etag"
                | "integrity"
                | "h1"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for name in [
            "PASSWORD",
            "DB_PASSWORD",
            "PGPASSWORD",
            "MYSQL_PWD",
            "dbPass",
            "api_key",
            "apiKey",
            "ACCESS_KEY",
            "GITHUB_TOKEN",
            "auth",
            "authToken",
            "credential",
            "client_secret",
            "csrftoken",
            "x-auth-token",
            "OPENAI_KEY",
            "STRIPE_KEY",
            "GITHUB_PAT",
            "DB_PW",
            "session_cookie",
            "SSH_KEY",
            "Ocp-Apim-Subscription-Key",
            "wallet_mnemonic",
            "AWS_SECRETKEY",
            "api_keys",
        ] {
            assert!(secret_name(name), "{name}");
        }
        for name in [
            "max_tokens",
            "INPUT_TOKENS",
            "author",
            "GIT_AUTHOR_NAME",
            "key",
            "keyboard",
            "monkey",
            "path",
            "passenger",
            "TOKENIZERS_PARALLELISM",
            "compass",
            "sort_key",
            "cache_key",
            "SORT_KEY",
            "NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY",
            "RECAPTCHA_SITE_KEY",
            "pat_count",
            "KEY",
            "keyboard_layout",
        ] {
            assert!(!secret_name(name), "{name}");
        }
    }
}

#[cfg(test)]
mod option_tests {
    use super::*;

    #[test]
    fn options_that_take_secrets() {
        for arg in ["--password", "-token", "--api-key", "--client-secret"] {
            assert!(secret_option(arg), "{arg}");
        }
        for arg in [
            "--no-password",
            "--password=x",
            "password",
            "-",
            "--max-tokens",
            "--key",
        ] {
            assert!(!secret_option(arg), "{arg}");
        }
    }
}
