//! Who may use the console: the browser that logged in with this start's
//! token, from a page of this console.
//!
//! Three secrets, made at each start: the login token (written 0600 in the
//! gateway's private directory for `gateway ui`, carried once in the login
//! URL), the session cookie's value (`HttpOnly; SameSite=Strict`, never in
//! a URL) and the CSRF value (in the page's meta tag; every POST must
//! carry it in `X-Hookgate-CSRF`). Every comparison is in constant time.
//! `Host` and `Origin` must name the listen address (DNS rebinding).

use std::net::SocketAddr;
use std::path::Path;

use axum::http::{HeaderMap, Method, header};

use crate::http::token::{Token, write_new};

/// The login token's file, in the socket's (private) directory.
pub use crate::http::token::UI_TOKEN_FILE as TOKEN_FILE;
/// The session cookie's name.
pub const COOKIE: &str = "hookgate_console";
/// The header every POST must carry.
pub const CSRF_HEADER: &str = "x-hookgate-csrf";

/// Why the secrets could not be made or written.
#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    #[error("no random bytes for the console: {0}")]
    Random(getrandom::Error),
    #[error("{path}: {source}")]
    Io {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

/// This start's secrets, each made as the HTTP hook token is (and
/// compared, in constant time). `Debug` shows none.
pub struct Secrets {
    login: Token,
    session: Token,
    csrf: Token,
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secrets(..)")
    }
}

fn secret() -> Result<Token, SecretError> {
    Token::random().map_err(SecretError::Random)
}

impl Secrets {
    /// New secrets; the login token written to `token_path` (replaced,
    /// 0600).
    pub fn create(token_path: &Path) -> Result<Secrets, SecretError> {
        let secrets = Secrets {
            login: secret()?,
            session: secret()?,
            csrf: secret()?,
        };
        write_token(token_path, secrets.login.expose())?;
        Ok(secrets)
    }

    pub(super) fn login_matches(&self, candidate: &str) -> bool {
        self.login.matches(candidate.as_bytes())
    }

    /// The `Set-Cookie` value that logs a browser in.
    pub(super) fn cookie(&self) -> String {
        format!(
            "{COOKIE}={}; HttpOnly; SameSite=Strict; Path=/",
            self.session.expose()
        )
    }

    /// Whether the request carries the session cookie.
    pub(super) fn logged_in(&self, headers: &HeaderMap) -> bool {
        headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .any(|(name, value)| name == COOKIE && self.session.matches(value.as_bytes()))
    }

    /// Whether a POST carries the CSRF header.
    pub(super) fn csrf_ok(&self, headers: &HeaderMap) -> bool {
        headers
            .get(CSRF_HEADER)
            .is_some_and(|v| self.csrf.matches(v.as_bytes()))
    }

    /// The CSRF value, for the page's meta tag.
    pub(super) fn csrf(&self) -> &str {
        self.csrf.expose()
    }
}

/// Replaces the token file with `token`, 0600, never following a link.
fn write_token(path: &Path, token: &str) -> Result<(), SecretError> {
    match std::fs::remove_file(path) {
        Err(err) if err.kind() != std::io::ErrorKind::NotFound => Err(err),
        _ => write_new(path, token),
    }
    .map_err(|source| SecretError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Why a request is refused before anything else is looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refused {
    /// `Host` is not the listen address: maybe DNS rebinding.
    Host,
    /// `Origin` is another site's.
    Origin,
    /// Only GET, HEAD and POST are served.
    Method,
}

/// Checks `Host`, `Origin` and the method against `listen`.
pub(super) fn check_request(
    listen: SocketAddr,
    method: &Method,
    headers: &HeaderMap,
) -> Result<(), Refused> {
    if !matches!(*method, Method::GET | Method::HEAD | Method::POST) {
        return Err(Refused::Method);
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .ok_or(Refused::Host)?;
    if !hosts(listen).iter().any(|h| h == host) {
        return Err(Refused::Host);
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().map_err(|_| Refused::Origin)?;
        if origin != format!("http://{host}") {
            return Err(Refused::Origin);
        }
    }
    Ok(())
}

/// The `Host` values that name this console.
fn hosts(listen: SocketAddr) -> Vec<String> {
    let port = listen.port();
    let mut names = vec![listen.to_string()];
    names.push(format!("localhost:{port}"));
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn host_and_origin_must_name_the_console() {
        let listen: SocketAddr = "127.0.0.1:8788".parse().unwrap();
        let ok =
            |pairs: &[(&'static str, &str)]| check_request(listen, &Method::GET, &headers(pairs));
        assert_eq!(ok(&[("host", "127.0.0.1:8788")]), Ok(()));
        assert_eq!(ok(&[("host", "localhost:8788")]), Ok(()));
        assert_eq!(ok(&[("host", "evil.example:8788")]), Err(Refused::Host));
        assert_eq!(ok(&[]), Err(Refused::Host));
        assert_eq!(
            ok(&[
                ("host", "127.0.0.1:8788"),
                ("origin", "http://127.0.0.1:8788")
            ]),
            Ok(())
        );
        assert_eq!(
            ok(&[
                ("host", "127.0.0.1:8788"),
                ("origin", "http://evil.example")
            ]),
            Err(Refused::Origin)
        );
        let put = check_request(
            listen,
            &Method::PUT,
            &headers(&[("host", "127.0.0.1:8788")]),
        );
        assert_eq!(put, Err(Refused::Method));
    }

    #[test]
    fn cookie_and_csrf_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(TOKEN_FILE);
        let secrets = Secrets::create(&path).unwrap();
        let written = std::fs::read_to_string(&path).unwrap();
        assert!(secrets.login_matches(written.trim()));
        assert!(!secrets.login_matches(""));
        let cookie = secrets.cookie();
        let value = cookie.split(';').next().unwrap();
        assert!(secrets.logged_in(&headers(&[("cookie", &format!("a=b; {value}"))])));
        assert!(!secrets.logged_in(&headers(&[("cookie", "hookgate_console=00")])));
        assert!(!secrets.logged_in(&headers(&[])));
        assert!(secrets.csrf_ok(&headers(&[("x-hookgate-csrf", secrets.csrf())])));
        assert!(!secrets.csrf_ok(&headers(&[("x-hookgate-csrf", "nope")])));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        let again = Secrets::create(&path).unwrap();
        assert!(
            !again.login_matches(written.trim()),
            "a new token per start"
        );
    }
}
