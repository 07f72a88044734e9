//! The collector's request headers (credentials, tenant ids): values come
//! from environment variables or a file, never from the config text, and
//! are never logged. The config refuses them over plaintext to a
//! collector off this machine unless `headers_over_plaintext` says so.

use std::path::Path;

use tonic::metadata::{MetadataKey, MetadataMap, MetadataValue};

use hookgate_config::OtelConfig;

/// A header file is a few lines; this only stops a runaway file.
const MAX_HEADERS_FILE: u64 = 64 << 10;

/// The headers `config` names. What cannot be read (an unset variable, an
/// unreadable file, a bad line) is skipped with a warning naming the
/// header, not its value: telemetry never stops the gateway, and a
/// collector refusing the export shows up as counted drops.
pub(super) fn metadata(config: &OtelConfig) -> MetadataMap {
    let mut map = MetadataMap::new();
    for (name, var) in &config.headers_env {
        match std::env::var(var) {
            Ok(value) => insert(&mut map, name, &value),
            Err(_) => tracing::warn!(
                header = %name,
                variable = %var,
                "[otel] header variable is not set; the header is not sent"
            ),
        }
    }
    if let Some(path) = &config.headers_file {
        for (name, value) in from_file(path) {
            insert(&mut map, &name, &value);
        }
    }
    if config.headers_over_plaintext && !map.is_empty() {
        // The config allows it only when the user said so.
        tracing::warn!(
            endpoint = %config.endpoint,
            "[otel] headers are sent in plaintext to a collector off this machine (headers_over_plaintext = true)"
        );
    }
    map
}

fn insert(map: &mut MetadataMap, name: &str, value: &str) {
    let key = MetadataKey::from_bytes(name.as_bytes());
    let value = MetadataValue::try_from(value.trim());
    match (key, value) {
        (Ok(key), Ok(value)) => {
            map.insert(key, value);
        }
        _ => tracing::warn!(header = %name, "[otel] header name or value is not valid; not sent"),
    }
}

/// `name: value` lines; blank lines and `#` comments are skipped.
fn from_file(path: &Path) -> Vec<(String, String)> {
    let text = match hookgate_transport::files::read_to_string(path, MAX_HEADERS_FILE) {
        Ok(text) => text,
        Err(err) => {
            tracing::warn!(path = %path.display(), error = %err, "[otel] cannot read headers_file; its headers are not sent");
            return Vec::new();
        }
    };
    parse(&text)
}

fn parse(text: &str) -> Vec<(String, String)> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .filter_map(|line| {
            let (name, value) = line.split_once(':')?;
            Some((name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_files_are_name_colon_value_lines() {
        let text = "# tenant\nAuthorization: Bearer abc:def\n\nx-tenant:  dev \nbroken line\n";
        assert_eq!(
            parse(text),
            vec![
                ("authorization".to_owned(), "Bearer abc:def".to_owned()),
                ("x-tenant".to_owned(), "dev".to_owned()),
            ]
        );
    }

    #[test]
    fn invalid_headers_are_skipped() {
        let mut map = MetadataMap::new();
        insert(&mut map, "bad header", "v");
        insert(&mut map, "x-ok", "v\n");
        insert(&mut map, "x-bad-value", "a\u{1}b");
        assert_eq!(map.len(), 1);
        assert!(map.get("x-ok").is_some());
    }
}
