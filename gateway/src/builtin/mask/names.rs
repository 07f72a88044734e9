//! Which names (env variables, JSON keys, option names) hold secrets.

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
];
/// Word endings that are secrets (`PGPASSWORD`, `GHTOKEN`, `csrftoken`).
const SECRET_ENDINGS: &[&str] = &["password", "passwd", "token", "secret", "apikey"];
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
        .windows(2)
        .any(|pair| pair[1] == "key" && KEY_QUALIFIERS.contains(&pair[0].as_str()))
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
        ] {
            assert!(!secret_name(name), "{name}");
        }
    }
}
