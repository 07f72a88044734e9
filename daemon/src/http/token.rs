//! The per-user secret every HTTP hook request must carry.
//!
//! Loopback is reachable by every local user (and by any web page's
//! `fetch` the browser lets through), so the endpoint answers only requests
//! that carry this token. It lives in the gateway's private directory
//! (0700, checked when the socket is bound), next to the socket, created
//! 0600 on the first serve with `[http]` on and kept across restarts so
//! the agents' configs stay valid. Compared in constant time.

use std::fmt;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use subtle::ConstantTimeEq as _;

/// The token file's name, in the socket's directory.
pub const TOKEN_FILE: &str = "http.token";
/// The console's login token (`crate::console::auth`), made anew at each
/// start in the socket's directory; named here, beside its sibling, for
/// self-protection to keep agents from reading either.
pub const UI_TOKEN_FILE: &str = "ui.token";
/// Random bytes in a token (hex-encoded in the file and the header).
const TOKEN_BYTES: usize = 32;

/// Why the token could not be had.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("the socket path {0} has no parent directory for the HTTP token")]
    NoDirectory(PathBuf),
    /// A named pipe has no directory to keep the token in.
    #[error(
        "the HTTP hook endpoint is not supported on Windows yet (no private directory next to the pipe for its token)"
    )]
    Unsupported,
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error(
        "{path} is readable by other users (mode {mode:o}); run `chmod 600` on it, or delete it to get a new token"
    )]
    Exposed { path: PathBuf, mode: u32 },
    #[error("{path} does not hold a hookgate token (64 hex digits); delete it to get a new one")]
    Malformed { path: PathBuf },
    #[error("no random bytes for the HTTP token: {0}")]
    Random(getrandom::Error),
}

/// The secret. `Debug` never shows it.
#[derive(Clone)]
pub struct Token(String);

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(..)")
    }
}

impl Token {
    /// A new token: [`TOKEN_BYTES`] random bytes, hex-encoded (the
    /// console's secrets are made alike).
    pub(crate) fn random() -> Result<Token, getrandom::Error> {
        let mut bytes = [0u8; TOKEN_BYTES];
        getrandom::fill(&mut bytes)?;
        Ok(Token(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// Whether `candidate` is this token, in time independent of where
    /// they differ.
    pub fn matches(&self, candidate: &[u8]) -> bool {
        bool::from(self.0.as_bytes().ct_eq(candidate))
    }

    /// The token text, for `gateway install` to hand to an agent.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

/// Where the token lives: next to the socket (its directory is private),
/// except when that directory is under `$XDG_RUNTIME_DIR`, which is emptied
/// at logout and on reboot: a token made there anew would no longer be the
/// one the agents' configs carry, and their hooks would be refused (an HTTP
/// hook's failure lets the call go ahead unless `onFailure` blocks). Then
/// it is `$XDG_STATE_HOME/hookgate/http.token` (else `~/.local/state/…`).
pub fn token_path(socket: &Path) -> Result<PathBuf, TokenError> {
    if cfg!(windows) {
        return Err(TokenError::Unsupported);
    }
    let (runtime, state) = hookgate_config::runtime_and_state_dirs();
    token_path_in(socket, runtime.as_deref(), state)
}

/// [`token_path`] for a given runtime directory and state directory.
fn token_path_in(
    socket: &Path,
    runtime: Option<&Path>,
    state: Option<PathBuf>,
) -> Result<PathBuf, TokenError> {
    hookgate_transport::files::kept_dir_in(socket, runtime, state)
        .map(|dir| dir.join(TOKEN_FILE))
        .ok_or_else(|| TokenError::NoDirectory(socket.to_path_buf()))
}

/// Reads the token at `path`, creating it (0600, exclusively) if absent.
pub fn load_or_create(path: &Path) -> Result<Token, TokenError> {
    if let Some(dir) = path.parent()
        && !dir.exists()
    {
        private_dir(dir).map_err(|source| TokenError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    match read(path) {
        Err(TokenError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
            match create(path) {
                // Another gateway created it meanwhile: use that one.
                Err(TokenError::Io { source, .. })
                    if source.kind() == io::ErrorKind::AlreadyExists =>
                {
                    read(path)
                }
                created => created,
            }
        }
        read => read,
    }
}

/// Reads an existing token, refusing a file others could read.
pub fn read(path: &Path) -> Result<Token, TokenError> {
    let io_err = |source| TokenError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = hookgate_transport::files::open(path, hookgate_transport::files::Access::Read)
        .map_err(io_err)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let mode = file.metadata().map_err(io_err)?.mode() & 0o777;
        if mode & 0o077 != 0 {
            return Err(TokenError::Exposed {
                path: path.to_path_buf(),
                mode,
            });
        }
    }
    drop(file);
    let text = hookgate_transport::files::read_to_string(path, 1024).map_err(io_err)?;
    let text = text.trim();
    let well_formed = text.len() == TOKEN_BYTES * 2 && text.bytes().all(|b| b.is_ascii_hexdigit());
    if !well_formed {
        return Err(TokenError::Malformed {
            path: path.to_path_buf(),
        });
    }
    Ok(Token(text.to_owned()))
}

/// Creates `dir` (and its parents) 0700.
fn private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt as _;
        builder.mode(0o700);
    }
    builder.create(dir)
}

fn create(path: &Path) -> Result<Token, TokenError> {
    let token = Token::random().map_err(TokenError::Random)?;
    write_new(path, token.expose()).map_err(|source| TokenError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(token)
}

/// Writes `text` and a newline to a new file at `path`: 0600, never
/// following a link, an error if anything is there (the console's login
/// token is written with it too).
#[expect(
    clippy::disallowed_methods,
    reason = "once, when the gateway starts, before it answers any hook"
)]
pub(crate) fn write_new(path: &Path, text: &str) -> io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600).custom_flags(libc::O_NOFOLLOW);
    }
    let mut file = options.open(path)?;
    file.write_all(format!("{text}\n").as_bytes())?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn created_once_then_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(TOKEN_FILE);
        let first = load_or_create(&path).unwrap();
        assert_eq!(first.expose().len(), 64);
        let again = load_or_create(&path).unwrap();
        assert_eq!(first.expose(), again.expose());
        assert!(again.matches(first.expose().as_bytes()));
        assert!(!again.matches(b""));
        assert!(!again.matches(&first.expose().as_bytes()[..63]));
        let mut wrong = first.expose().as_bytes().to_vec();
        wrong[10] ^= 1;
        assert!(!again.matches(&wrong));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        assert_eq!(format!("{first:?}"), "Token(..)");
    }

    #[test]
    fn kept_out_of_the_runtime_directory() {
        let state = Some(PathBuf::from("/home/u/.local/state/hookgate"));
        let cases = [
            (
                "/run/user/1/hookgate/gateway.sock",
                Some("/run/user/1"),
                "/home/u/.local/state/hookgate/http.token",
            ),
            (
                "/tmp/hg-x/gateway.sock",
                Some("/run/user/1"),
                "/tmp/hg-x/http.token",
            ),
            (
                "/run/user/1/hookgate/gateway.sock",
                None,
                "/run/user/1/hookgate/http.token",
            ),
        ];
        for (socket, runtime, expected) in cases {
            let path =
                token_path_in(Path::new(socket), runtime.map(Path::new), state.clone()).unwrap();
            assert_eq!(path, Path::new(expected), "{socket} {runtime:?}");
        }
    }

    #[test]
    fn its_directory_is_created_private() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state/hookgate").join(TOKEN_FILE);
        load_or_create(&path).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let parent = path.parent().unwrap();
            let mode = std::fs::metadata(parent).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o700);
        }
    }

    #[cfg(unix)]
    #[test]
    fn refuses_an_exposed_or_malformed_file() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(TOKEN_FILE);
        std::fs::write(&path, "zz\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert!(matches!(read(&path), Err(TokenError::Malformed { .. })));
        std::fs::write(&path, format!("{}\n", "a".repeat(64))).unwrap();
        assert!(read(&path).is_ok());
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(matches!(read(&path), Err(TokenError::Exposed { .. })));
    }
}
