//! A subscriber's bearer token, sent as `authorization: Bearer …` gRPC
//! metadata with every call and health check.
//!
//! It never comes from the config text: `token_env` names an environment
//! variable (read when the subscriber is built), `token_file` a file. The
//! file is polled: every [`POLL`] its size, modification time (and, on
//! Unix, inode) are compared with the last read, and it is read again when
//! they differ, so a rotated token (rewritten in place or renamed over) is
//! used from the next call on, without a reload. A file that cannot be read
//! any more keeps the last good token (and warns): rotation must not turn
//! into an outage. The token is never logged; the header is marked
//! sensitive, so HPACK never indexes it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Weak};
use std::time::{Duration, SystemTime};

use arc_swap::ArcSwap;
use http::HeaderValue;

use hookgate_config::TokenSource;

/// How often a token file is checked for a change.
pub(crate) const POLL: Duration = Duration::from_secs(1);
/// A token is a line; this stops a runaway file.
const MAX_TOKEN_BYTES: u64 = 16 * 1024;

/// Why a token cannot be had.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TokenError {
    #[error("token_env `{0}` is not set (or not UTF-8)")]
    Unset(String),
    #[error("cannot read token_file `{path}`: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the token from {0} is empty")]
    Empty(String),
    #[error("the token from {0} holds characters a header cannot carry")]
    Invalid(String),
}

/// The current `authorization` header value; cloning shares it (and the
/// file's poller, which ends once the last clone is dropped).
#[derive(Debug, Clone)]
pub(crate) struct Token {
    current: Arc<ArcSwap<HeaderValue>>,
}

impl Token {
    /// Reads the token now. For a file, also starts its poller, which
    /// needs a tokio runtime.
    pub(crate) fn load(source: &TokenSource) -> Result<Token, TokenError> {
        match source {
            TokenSource::Env(name) => {
                let value = std::env::var(name).map_err(|_| TokenError::Unset(name.clone()))?;
                let header = header(&value, &format!("token_env `{name}`"))?;
                Ok(Token {
                    current: Arc::new(ArcSwap::from_pointee(header)),
                })
            }
            TokenSource::File(path) => {
                let (header, stamp) = read_file(path)?;
                let current = Arc::new(ArcSwap::from_pointee(header));
                tokio::spawn(poll(path.clone(), stamp, Arc::downgrade(&current)));
                Ok(Token { current })
            }
        }
    }

    /// The header value to send now.
    pub(crate) fn header(&self) -> HeaderValue {
        HeaderValue::clone(&self.current.load())
    }
}

/// What tells one version of the file from the next.
type Stamp = (u64, Option<SystemTime>, u64);

fn stamp(path: &Path) -> std::io::Result<Stamp> {
    let meta = std::fs::symlink_metadata(path)?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&meta);
    #[cfg(not(unix))]
    let inode = 0;
    Ok((meta.len(), meta.modified().ok(), inode))
}

fn read_file(path: &Path) -> Result<(HeaderValue, Stamp), TokenError> {
    let read_err = |source| TokenError::Read {
        path: path.to_owned(),
        source,
    };
    let stamp = stamp(path).map_err(read_err)?;
    let text =
        hookgate_transport::files::read_to_string(path, MAX_TOKEN_BYTES).map_err(read_err)?;
    let header = header(&text, &format!("token_file `{}`", path.display()))?;
    Ok((header, stamp))
}

/// `Bearer <token>`, the token trimmed of surrounding whitespace (a file
/// usually ends in a newline).
fn header(token: &str, from: &str) -> Result<HeaderValue, TokenError> {
    let token = token.trim();
    if token.is_empty() {
        return Err(TokenError::Empty(from.to_owned()));
    }
    let mut value = HeaderValue::try_from(format!("Bearer {token}"))
        .map_err(|_| TokenError::Invalid(from.to_owned()))?;
    value.set_sensitive(true);
    Ok(value)
}

/// Re-reads `path` whenever its stamp changes, until the token is dropped.
async fn poll(path: PathBuf, mut last: Stamp, current: Weak<ArcSwap<HeaderValue>>) {
    let mut ticks = tokio::time::interval(POLL);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut warned = false;
    loop {
        ticks.tick().await;
        if current.strong_count() == 0 {
            return;
        }
        let path2 = path.clone();
        let checked = tokio::task::spawn_blocking(move || {
            let now = stamp(&path2).map_err(|source| TokenError::Read {
                path: path2.clone(),
                source,
            })?;
            if now == last {
                return Ok(None);
            }
            read_file(&path2).map(Some)
        })
        .await;
        let Some(current) = current.upgrade() else {
            return;
        };
        match checked {
            Ok(Ok(None)) => {}
            Ok(Ok(Some((header, stamp)))) => {
                current.store(Arc::new(header));
                last = stamp;
                warned = false;
                tracing::info!(path = %path.display(), "subscriber token file changed; using the new token");
            }
            Ok(Err(err)) if !warned => {
                warned = true;
                tracing::warn!(error = %err, "keeping the last token read");
            }
            Ok(Err(_)) => {}
            Err(err) => tracing::warn!(error = %err, "token file check failed"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_become_sensitive_bearer_headers() {
        let cases = [
            ("abc", Some("Bearer abc")),
            ("  abc\n", Some("Bearer abc")),
            ("\n", None),
            ("a\u{7}b", None),
        ];
        for (token, want) in cases {
            let got = header(token, "test").ok();
            assert_eq!(
                got.as_ref().and_then(|h| h.to_str().ok()),
                want,
                "{token:?}"
            );
            assert!(got.is_none_or(|h| h.is_sensitive()));
        }
    }

    #[tokio::test]
    async fn a_rewritten_token_file_is_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("token");
        std::fs::write(&path, "first\n").unwrap();
        let token = Token::load(&TokenSource::File(path.clone())).unwrap();
        assert_eq!(token.header(), "Bearer first");
        // A rename over the old file, as rotation tools do.
        let next = dir.path().join("token.new");
        std::fs::write(&next, "second-token\n").unwrap();
        std::fs::rename(&next, &path).unwrap();
        let changed = async {
            while token.header() != "Bearer second-token" {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        };
        // Only turns a hang into a failure; not a speed check.
        tokio::time::timeout(Duration::from_secs(30), changed)
            .await
            .expect("the new token was never read");
        // Gone: the last good token stays.
        std::fs::remove_file(&path).unwrap();
        tokio::time::sleep(POLL * 2).await;
        assert_eq!(token.header(), "Bearer second-token");
    }

    #[test]
    fn an_unset_variable_is_an_error_naming_it() {
        let err =
            Token::load(&TokenSource::Env("HOOKGATE_TEST_SURELY_UNSET_TOKEN".into())).unwrap_err();
        assert!(
            err.to_string().contains("HOOKGATE_TEST_SURELY_UNSET_TOKEN"),
            "{err}"
        );
    }
}
