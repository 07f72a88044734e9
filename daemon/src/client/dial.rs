//! Opening a byte stream to one subscriber endpoint: TCP (plain, or TLS
//! for `https://`) or a Unix socket. The one dialer serves both the event
//! calls (`unary`, h2 directly) and the health checks (a tonic `Channel`
//! given this dialer as its connector), so both go through the same TLS.
//!
//! A Unix socket's server is checked before a byte is sent: the process
//! listening must run as this user or as root (`SO_PEERCRED` on Linux,
//! `getpeereid` elsewhere). A socket path is only a name: when the policy
//! service is down, another local user may listen there, and would
//! otherwise be sent the token and every event and have its answers
//! obeyed. Root is trusted because it can read or change anything of this
//! user's anyway (a policy service run by the system, for instance).

#[cfg(unix)]
use std::path::PathBuf;
use std::time::Duration;

use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};
use tonic::transport::{Channel, Endpoint};

use super::error::{BadEndpoint, CallError};
use super::tls::{Tls, TlsError};
use hookgate_config::TlsFiles;

/// A stream to a subscriber, whatever carries it.
pub(crate) trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// Where a subscriber listens.
#[derive(Debug, Clone)]
enum Target {
    /// `host:port`, resolved at each connect (every address the name
    /// resolves to is tried in turn).
    Tcp(String),
    #[cfg(unix)]
    Unix(PathBuf),
}

/// Dials one endpoint. Cloning shares the TLS client.
#[derive(Debug, Clone)]
pub(crate) struct Dialer {
    /// The endpoint as configured, for messages.
    endpoint: String,
    target: Target,
    tls: Option<Tls>,
    /// `scheme://authority` of every request: `https` over TLS, and the
    /// server name override as the authority.
    origin: String,
    /// Each connect attempt's own bound (the call's deadline bounds it
    /// too): with several endpoints, a black-holed one must leave time to
    /// fail over.
    connect_timeout: Option<Duration>,
}

/// Why an endpoint cannot be dialed at all.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DialSetupError {
    #[error(transparent)]
    Endpoint(#[from] BadEndpoint),
    #[error(transparent)]
    Tls(#[from] TlsError),
}

impl Dialer {
    /// The dialer of `endpoint`: `http://host[:port]`, `https://host[:port]`
    /// (with `tls`) or `unix:///path` (Unix only).
    pub(crate) fn new(endpoint: &str, tls: Option<&TlsFiles>) -> Result<Dialer, DialSetupError> {
        let bad = |why| BadEndpoint::new(endpoint, why);
        if let Some(path) = endpoint.strip_prefix("unix://") {
            #[cfg(unix)]
            return Ok(Dialer {
                endpoint: endpoint.to_owned(),
                target: Target::Unix(path.into()),
                tls: None,
                origin: "http://localhost".to_owned(),
                connect_timeout: None,
            });
            #[cfg(not(unix))]
            {
                let _ = path;
                return Err(bad("unix:// endpoints are Unix-only").into());
            }
        }
        let uri: http::Uri = endpoint.parse().map_err(|_| bad("not a URI"))?;
        let secure = match uri.scheme_str() {
            Some("http") => false,
            Some("https") => true,
            _ => return Err(bad("expected http://, https:// or unix://").into()),
        };
        let authority = uri.authority().ok_or_else(|| bad("no host"))?;
        let port = authority
            .port_u16()
            .unwrap_or(if secure { 443 } else { 80 });
        // Host and port only: any `user@` is not part of the address.
        let host_port = format!("{}:{port}", authority.host());
        let (tls, origin) = match (secure, tls) {
            (false, _) => (None, format!("http://{host_port}")),
            (true, files) => {
                let tls = Tls::new(&files.cloned().unwrap_or_default(), authority.host())?;
                let name = tls.server_name();
                let name = if name.contains(':') {
                    format!("[{name}]")
                } else {
                    name
                };
                (Some(tls), format!("https://{name}:{port}"))
            }
        };
        Ok(Dialer {
            endpoint: endpoint.to_owned(),
            target: Target::Tcp(host_port),
            tls,
            origin,
            connect_timeout: None,
        })
    }

    /// Bounds each connect attempt (TCP and TLS handshakes) by `timeout`.
    pub(crate) fn with_connect_timeout(mut self, timeout: Duration) -> Dialer {
        self.connect_timeout = Some(timeout);
        self
    }

    /// `scheme://authority` for requests.
    pub(crate) fn origin(&self) -> &str {
        &self.origin
    }

    /// The endpoint as configured.
    pub(crate) fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// The TLS server name, for messages about TLS failures.
    pub(crate) fn server_name(&self) -> Option<String> {
        self.tls.as_ref().map(Tls::server_name)
    }

    /// A new connection, TLS handshake done.
    pub(crate) async fn dial(&self) -> Result<Box<dyn Io>, CallError> {
        match self.connect_timeout {
            None => self.dial_now().await,
            Some(limit) => tokio::time::timeout(limit, self.dial_now())
                .await
                .unwrap_or_else(|_| {
                    Err(CallError::Connect(format!(
                        "{}: no connection within {limit:?}",
                        self.endpoint
                    )))
                }),
        }
    }

    async fn dial_now(&self) -> Result<Box<dyn Io>, CallError> {
        let connect_err =
            |err: std::io::Error| CallError::Connect(format!("{}: {err}", self.endpoint));
        match &self.target {
            Target::Tcp(host_port) => {
                let tcp = tokio::net::TcpStream::connect(host_port.as_str())
                    .await
                    .map_err(connect_err)?;
                tcp.set_nodelay(true).map_err(connect_err)?;
                match &self.tls {
                    None => Ok(Box::new(tcp)),
                    Some(tls) => {
                        let stream = tls
                            .handshake(tcp)
                            .await
                            .map_err(|why| CallError::Tls(format!("{}: {why}", self.endpoint)))?;
                        Ok(Box::new(stream))
                    }
                }
            }
            #[cfg(unix)]
            Target::Unix(path) => {
                let unix = tokio::net::UnixStream::connect(path)
                    .await
                    .map_err(connect_err)?;
                check_server(&unix, hookgate_wire::socket::current_uid())
                    .map_err(|why| CallError::ForeignPeer(format!("{}: {why}", self.endpoint)))?;
                Ok(Box::new(unix))
            }
        }
    }

    /// A lazily connecting tonic channel over this dialer (for health
    /// checks): the same TCP or Unix target and the same TLS.
    pub(crate) fn channel(&self, connect_timeout: Duration) -> Result<Channel, BadEndpoint> {
        let bad = |_| BadEndpoint::new(&self.endpoint, "not usable for a gRPC channel");
        // The URI only names the connection to the connector below, which
        // does TLS itself; requests carry `origin`.
        let endpoint = Endpoint::from_static("http://subscriber")
            .origin(self.origin.parse().map_err(bad)?)
            .connect_timeout(connect_timeout);
        let dialer = self.clone();
        let connector = tower::service_fn(move |_: http::Uri| {
            let dialer = dialer.clone();
            async move { dialer.dial().await.map(TokioIo::new) }
        });
        Ok(endpoint.connect_with_connector_lazy(connector))
    }
}

/// Why the server at the other end of `stream` is not to be trusted, if it
/// is not: it must run as `uid` (this user) or as root.
#[cfg(unix)]
fn check_server(stream: &tokio::net::UnixStream, uid: u32) -> Result<(), String> {
    let cred = stream
        .peer_cred()
        .map_err(|err| format!("cannot tell who serves this socket ({err}); nothing was sent"))?;
    judge(cred.uid(), cred.pid(), uid)
}

/// The rule of [`check_server`] for a server running as `server` (process
/// `pid`), seen by user `uid`.
#[cfg(unix)]
fn judge(server: u32, pid: Option<i32>, uid: u32) -> Result<(), String> {
    if server == uid || server == 0 {
        return Ok(());
    }
    let pid = pid.map_or_else(String::new, |pid| format!(", pid {pid}"));
    Err(format!(
        "the process serving this socket runs as uid {server}{pid}, not as this user (uid {uid}) or root: \
         another user may have taken the path while the subscriber was down; nothing was sent"
    ))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn only_this_user_or_root_may_serve() {
        assert_eq!(judge(1000, Some(7), 1000), Ok(()));
        assert_eq!(judge(0, None, 1000), Ok(()));
        assert_eq!(judge(0, None, 0), Ok(()));
        for (server, uid) in [(1001, 1000), (65534, 0), (1000, 1001)] {
            let why = judge(server, Some(42), uid).unwrap_err();
            assert!(
                why.contains(&format!("uid {server}, pid 42"))
                    && why.contains(&format!("(uid {uid})"))
                    && why.contains("nothing was sent"),
                "{why}"
            );
        }
    }

    /// The real credentials of a real socket: our own server passes.
    #[tokio::test]
    async fn our_own_server_passes() {
        let tmp = crate::testing::private_tempdir();
        let path = tmp.path().join("sub.sock");
        let listener = tokio::net::UnixListener::bind(&path).unwrap();
        let (client, accepted) =
            tokio::join!(tokio::net::UnixStream::connect(&path), listener.accept());
        let (client, _server) = (client.unwrap(), accepted.unwrap());
        let uid = hookgate_wire::socket::current_uid();
        assert_eq!(check_server(&client, uid), Ok(()));
    }
}
