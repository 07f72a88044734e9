//! TLS to a remote subscriber (`https://` endpoints): rustls on ring, the
//! system's roots or the subscriber's own CA bundle, an optional client
//! certificate (mTLS) and an optional server name that overrides the
//! endpoint's host for SNI and certificate checks.
//!
//! Everything is read and checked when the subscriber is built (start-up
//! or reload), so a missing or malformed file refuses the config instead
//! of failing every event. No error here ever quotes a key file's content.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use tokio::io::{AsyncRead, AsyncWrite};
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls::pki_types::pem::PemObject as _;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use tokio_rustls::rustls::{self, ClientConfig, RootCertStore};

use hookgate_config::TlsFiles;

/// A certificate bundle or key file is a few KiB; this stops a runaway file.
const MAX_PEM_BYTES: u64 = 1 << 20;

/// Why a subscriber's TLS settings cannot be used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TlsError {
    #[error("cannot read {what} `{path}`: {source}")]
    Read {
        what: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{what} `{path}` holds no PEM {expected}")]
    Empty {
        what: &'static str,
        path: PathBuf,
        expected: &'static str,
    },
    #[error("{what} `{path}` is not valid PEM ({why})")]
    Pem {
        what: &'static str,
        path: PathBuf,
        why: String,
    },
    #[error("no usable CA certificate in `{0}`")]
    NoRoots(String),
    #[error("`{0}` is not a valid TLS server name")]
    ServerName(String),
    #[error("TLS client setup: {0}")]
    Setup(#[from] rustls::Error),
}

/// What a connection needs to speak TLS to one subscriber.
#[derive(Clone)]
pub(crate) struct Tls {
    connector: TlsConnector,
    server_name: ServerName<'static>,
}

impl std::fmt::Debug for Tls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tls")
            .field("server_name", &self.server_name)
            .finish_non_exhaustive()
    }
}

impl Tls {
    /// The TLS client for `host` (the endpoint's), with `files`'
    /// `server_name` instead when set.
    pub(crate) fn new(files: &TlsFiles, host: &str) -> Result<Tls, TlsError> {
        let roots = match &files.ca_file {
            Some(path) => roots_from(path)?,
            None => system_roots()?,
        };
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let builder = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()?
            .with_root_certificates(roots);
        let mut config = match (&files.cert_file, &files.key_file) {
            (Some(cert), Some(key)) => builder
                .with_client_auth_cert(certificates(cert, "client certificate")?, key_of(key)?)?,
            _ => builder.with_no_client_auth(),
        };
        config.alpn_protocols = vec![b"h2".to_vec()];
        let name = files.server_name.as_deref().unwrap_or(host);
        // An IPv6 host comes bracketed from the URI.
        let bare = name.trim_start_matches('[').trim_end_matches(']');
        let server_name = ServerName::try_from(bare.to_owned())
            .map_err(|_| TlsError::ServerName(name.to_owned()))?;
        Ok(Tls {
            connector: TlsConnector::from(Arc::new(config)),
            server_name,
        })
    }

    /// The name certificates are checked against (and sent as SNI).
    pub(crate) fn server_name(&self) -> String {
        self.server_name.to_str().into_owned()
    }

    /// The TLS handshake over `io`; a failure says what went wrong in
    /// words an operator can act on.
    pub(crate) async fn handshake<T>(&self, io: T) -> Result<TlsStream<T>, String>
    where
        T: AsyncRead + AsyncWrite + Unpin,
    {
        self.connector
            .connect(self.server_name.clone(), io)
            .await
            .map_err(|err| describe(&err, &self.server_name()))
    }
}

/// An I/O error from a TLS connection in plain words: a certificate the
/// gateway refused, or an alert the subscriber sent (with TLS 1.3 a refused
/// client certificate is only known after the handshake, at the first read).
pub(crate) fn describe(err: &io::Error, server_name: &str) -> String {
    match err
        .get_ref()
        .and_then(|e| e.downcast_ref::<rustls::Error>())
    {
        Some(rustls::Error::InvalidCertificate(why)) => {
            format!("certificate verify failed for `{server_name}`: {why:?}")
        }
        Some(rustls::Error::AlertReceived(alert)) => format!(
            "the subscriber refused the TLS connection with `{server_name}` ({alert:?}; \
             a missing or untrusted client certificate?)"
        ),
        Some(other) => format!("TLS with `{server_name}` failed: {other}"),
        None => format!("TLS with `{server_name}` failed: {err}"),
    }
}

/// The TLS failure inside an h2 error, if that is what it is.
pub(crate) fn in_h2(err: &h2::Error, server_name: &str) -> Option<String> {
    let io = err.get_io()?;
    if io.get_ref().is_some_and(|e| e.is::<rustls::Error>()) {
        return Some(describe(io, server_name));
    }
    // Streams get only the kind and text of an I/O error the connection
    // task met; rustls reports TLS failures as InvalidData.
    if io.kind() != io::ErrorKind::InvalidData {
        return None;
    }
    let text = io.to_string();
    Some(if text.contains("alert") {
        format!(
            "the subscriber refused the TLS connection with `{server_name}` ({text}; \
             a missing or untrusted client certificate?)"
        )
    } else {
        format!("TLS with `{server_name}` failed: {text}")
    })
}

fn read(path: &Path, what: &'static str) -> Result<Vec<u8>, TlsError> {
    hookgate_transport::files::read_to_string(path, MAX_PEM_BYTES)
        .map(String::into_bytes)
        .map_err(|source| TlsError::Read {
            what,
            path: path.to_owned(),
            source,
        })
}

fn certificates(path: &Path, what: &'static str) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let pem = read(path, what)?;
    let certs = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|err| TlsError::Pem {
            what,
            path: path.to_owned(),
            why: err.to_string(),
        })?;
    if certs.is_empty() {
        return Err(TlsError::Empty {
            what,
            path: path.to_owned(),
            expected: "CERTIFICATE",
        });
    }
    Ok(certs)
}

fn key_of(path: &Path) -> Result<PrivateKeyDer<'static>, TlsError> {
    let what = "client key";
    let pem = read(path, what)?;
    // The parser's error names a section, never the key's bytes.
    PrivateKeyDer::from_pem_slice(&pem).map_err(|err| match err {
        rustls::pki_types::pem::Error::NoItemsFound => TlsError::Empty {
            what,
            path: path.to_owned(),
            expected: "PRIVATE KEY",
        },
        other => TlsError::Pem {
            what,
            path: path.to_owned(),
            why: other.to_string(),
        },
    })
}

fn roots_from(path: &Path) -> Result<RootCertStore, TlsError> {
    let mut roots = RootCertStore::empty();
    let (added, _ignored) = roots.add_parsable_certificates(certificates(path, "CA bundle")?);
    if added == 0 {
        return Err(TlsError::NoRoots(path.display().to_string()));
    }
    Ok(roots)
}

/// The system's trust store, read once per process (it is many files).
fn system_roots() -> Result<RootCertStore, TlsError> {
    static ROOTS: OnceLock<Vec<CertificateDer<'static>>> = OnceLock::new();
    let certs = ROOTS.get_or_init(|| {
        let found = rustls_native_certs::load_native_certs();
        for err in &found.errors {
            tracing::warn!(error = %err, "reading the system's CA certificates");
        }
        found.certs
    });
    let mut roots = RootCertStore::empty();
    let (added, _ignored) = roots.add_parsable_certificates(certs.iter().cloned());
    if added == 0 {
        return Err(TlsError::NoRoots(
            "the system's trust store (set `tls_ca_file`)".to_owned(),
        ));
    }
    Ok(roots)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Files with these contents, in a directory of their own under `dir`.
    fn files(dir: &Path, ca: Option<&str>, key: Option<&str>) -> TlsFiles {
        let dir = tempfile::tempdir_in(dir).unwrap().keep();
        let write = |name: &str, text: &str| {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        TlsFiles {
            ca_file: ca.map(|text| write("ca.pem", text)),
            cert_file: key.map(|_| write("cert.pem", "")),
            key_file: key.map(|text| write("key.pem", text)),
            server_name: None,
        }
    }

    #[test]
    fn unusable_files_are_named_and_never_quoted() {
        let dir = tempfile::tempdir().unwrap();
        let secret = "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleS1ieXRlcw==\n";
        let missing = TlsFiles {
            ca_file: Some(dir.path().join("absent.pem")),
            ..TlsFiles::default()
        };
        let cases = [
            (missing, "cannot read CA bundle"),
            (
                files(dir.path(), Some("not pem"), None),
                "holds no PEM CERTIFICATE",
            ),
            // A good CA, then an empty client certificate file.
            (
                files(dir.path(), Some(&ca_pem()), Some(secret)),
                "client certificate",
            ),
        ];
        for (files, want) in cases {
            let Err(err) = Tls::new(&files, "policy.corp") else {
                panic!("accepted: {files:?}");
            };
            let shown = err.to_string();
            assert!(shown.contains(want), "{shown}");
            assert!(!shown.contains("c2VjcmV0"), "key bytes quoted: {shown}");
        }
    }

    /// A CA certificate's PEM.
    fn ca_pem() -> String {
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        let key = rcgen::KeyPair::generate().unwrap();
        params.self_signed(&key).unwrap().pem()
    }

    #[test]
    fn the_server_name_defaults_to_the_host_and_can_be_overridden() {
        let dir = tempfile::tempdir().unwrap();
        let mut files = files(dir.path(), Some(&ca_pem()), None);
        assert_eq!(
            Tls::new(&files, "policy.corp").unwrap().server_name(),
            "policy.corp"
        );
        assert_eq!(Tls::new(&files, "[::1]").unwrap().server_name(), "::1");
        files.server_name = Some("lb.corp".into());
        assert_eq!(
            Tls::new(&files, "10.0.0.7").unwrap().server_name(),
            "lb.corp"
        );
        files.server_name = Some("not a name".into());
        assert!(matches!(
            Tls::new(&files, "h"),
            Err(TlsError::ServerName(_))
        ));
    }
}
