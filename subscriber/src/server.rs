//! Serving a [`Subscriber`], with what the gateway needs done for the
//! author: its message limits, `grpc.health.v1`, the call's deadline
//! exposed to the handler and enforced (a late handler answers nothing
//! rather than late), TLS or mTLS and a bearer token as options, a graceful
//! stop on SIGTERM, and `unix:` sockets as well as TCP.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hookgate_proto::v1;
use hookgate_proto::v1::subscriber_server::SubscriberServer;
use subtle::ConstantTimeEq;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tonic::transport::{Certificate, Identity, ServerTlsConfig};
use tonic::{Request, Response, Status};
use tonic_health::ServingStatus;

use crate::listen::Listener;
use crate::{Error, Event, Subscriber, deadline};

/// The largest event the gateway sends (an 8 MiB payload, carried twice).
pub const MAX_RECEIVE_BYTES: usize = 32 << 20;
/// The largest reply the gateway accepts (what an agent's reply may be).
pub const MAX_SEND_BYTES: usize = (8 << 20) + (64 << 10);
const SERVICE: &str = "hookgate.v1.Subscriber";

/// TLS for a TCP listener: the server's certificate chain and key (PEM);
/// with a client CA, a client certificate it issued is required (mTLS).
#[derive(Debug, Clone)]
pub struct Tls {
    pub cert_pem: Vec<u8>,
    pub key_pem: Vec<u8>,
    pub client_ca_pem: Option<Vec<u8>>,
}

impl Tls {
    /// Reads the PEM files: a certificate chain, its key, and the CA whose
    /// client certificates to require (`None`: plain TLS).
    #[expect(
        clippy::disallowed_methods,
        reason = "read once when the server is configured, before it serves"
    )]
    pub fn from_files(
        cert: impl AsRef<std::path::Path>,
        key: impl AsRef<std::path::Path>,
        client_ca: Option<&std::path::Path>,
    ) -> std::io::Result<Tls> {
        Ok(Tls {
            cert_pem: std::fs::read(cert)?,
            key_pem: std::fs::read(key)?,
            client_ca_pem: client_ca.map(std::fs::read).transpose()?,
        })
    }
}

/// How to serve; `ServeOptions::default()` is plaintext, no token, 5 s grace.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ServeOptions {
    pub tls: Option<Tls>,
    /// Every `OnEvent` call must carry `authorization: Bearer <one of
    /// these>` (several during a rotation); health checks need none.
    pub tokens: Vec<String>,
    /// How long calls in flight get at a stop.
    pub grace: Duration,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            tls: None,
            tokens: Vec::new(),
            grace: Duration::from_secs(5),
        }
    }
}

impl ServeOptions {
    pub fn tls(mut self, tls: Tls) -> ServeOptions {
        self.tls = Some(tls);
        self
    }

    pub fn token(mut self, token: impl Into<String>) -> ServeOptions {
        self.tokens.push(token.into());
        self
    }

    pub fn grace(mut self, grace: Duration) -> ServeOptions {
        self.grace = grace;
        self
    }
}

/// What a server saw (for tests and the test kit).
#[derive(Debug, Default)]
pub struct Stats {
    pub calls: AtomicU64,
    /// Calls answered with nothing: the handler missed the deadline (or
    /// the caller gave up first).
    pub late: AtomicU64,
    pub unauthenticated: AtomicU64,
    /// (event id, what went wrong) for each handler that panicked.
    pub errors: Mutex<Vec<(String, String)>>,
}

/// A running server; [`Server::stop`] ends it gracefully.
#[derive(Debug)]
pub struct Server {
    address: String,
    endpoint: String,
    stats: Arc<Stats>,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<Result<(), tonic::transport::Error>>,
    grace: Duration,
    socket_file: Option<PathBuf>,
}

impl Subscriber {
    /// Serves on `address` (`host:port` or `unix:path`) until SIGTERM or
    /// SIGINT, then stops gracefully.
    pub async fn serve(self, address: &str) -> Result<(), Error> {
        self.serve_with(address, ServeOptions::default()).await
    }

    /// [`Subscriber::serve`] with options (TLS, tokens, grace).
    pub async fn serve_with(self, address: &str, options: ServeOptions) -> Result<(), Error> {
        let server = self.start(address, options).await?;
        eprintln!("hookgate: serving on {}", server.address());
        signal().await?;
        server.stop().await
    }

    /// Starts serving on `address` in the background.
    pub async fn start(self, address: &str, options: ServeOptions) -> Result<Server, Error> {
        let listener = Listener::bind(address).await?;
        let (address, endpoint) = (listener.address(), listener.endpoint(options.tls.is_some()));
        let socket_file = listener.socket_file();
        let (reporter, health) = tonic_health::server::health_reporter();
        for name in ["", SERVICE] {
            reporter
                .set_service_status(name, ServingStatus::Serving)
                .await;
        }
        let stats = Arc::new(Stats::default());
        let service = Service {
            app: Arc::new(self),
            stats: Arc::clone(&stats),
            tokens: Arc::new(
                options
                    .tokens
                    .iter()
                    .map(|t| format!("Bearer {t}"))
                    .collect(),
            ),
        };
        let service = SubscriberServer::new(service)
            .max_decoding_message_size(MAX_RECEIVE_BYTES)
            .max_encoding_message_size(MAX_SEND_BYTES);
        let mut builder = tonic::transport::Server::builder();
        if let Some(tls) = &options.tls {
            let mut config =
                ServerTlsConfig::new().identity(Identity::from_pem(&tls.cert_pem, &tls.key_pem));
            if let Some(ca) = &tls.client_ca_pem {
                config = config.client_ca_root(Certificate::from_pem(ca));
            }
            builder = builder.tls_config(config).map_err(Error::Tls)?;
        }
        let router = builder.add_service(health).add_service(service);
        let (stop, stopped) = oneshot::channel::<()>();
        let shutdown = async move {
            let _ = stopped.await;
            for name in ["", SERVICE] {
                reporter
                    .set_service_status(name, ServingStatus::NotServing)
                    .await;
            }
        };
        let task = match listener {
            Listener::Tcp(l) => tokio::spawn(router.serve_with_incoming_shutdown(
                tokio_stream::wrappers::TcpListenerStream::new(l),
                shutdown,
            )),
            #[cfg(unix)]
            Listener::Unix(l, _) => tokio::spawn(router.serve_with_incoming_shutdown(
                tokio_stream::wrappers::UnixListenerStream::new(l),
                shutdown,
            )),
        };
        Ok(Server {
            address,
            endpoint,
            stats,
            stop: Some(stop),
            task,
            grace: options.grace,
            socket_file,
        })
    }
}

impl Server {
    /// `127.0.0.1:41234` or `unix:/abs/path`.
    pub fn address(&self) -> &str {
        &self.address
    }

    /// The gateway config's `endpoint` for this server.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Stops gracefully: health NOT_SERVING, no new calls, calls in flight
    /// finished within the grace period (then cut off).
    pub async fn stop(mut self) -> Result<(), Error> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let result = match tokio::time::timeout(self.grace, &mut self.task).await {
            Ok(Ok(served)) => served.map_err(Error::Serve),
            Ok(Err(_)) => Ok(()),
            Err(_) => {
                self.task.abort();
                Ok(())
            }
        };
        if let Some(path) = &self.socket_file {
            let _ = std::fs::remove_file(path);
        }
        result
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// SIGTERM or SIGINT.
async fn signal() -> Result<(), Error> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate()).map_err(Error::Signal)?;
        tokio::select! {
            _ = term.recv() => {}
            _ = tokio::signal::ctrl_c() => {}
        }
    }
    #[cfg(not(unix))]
    tokio::signal::ctrl_c().await.map_err(Error::Signal)?;
    Ok(())
}

struct Service {
    app: Arc<Subscriber>,
    stats: Arc<Stats>,
    tokens: Arc<Vec<String>>,
}

impl Service {
    fn authorized<T>(&self, request: &Request<T>) -> bool {
        let sent = request
            .metadata()
            .get("authorization")
            .map(|v| v.as_bytes())
            .unwrap_or_default();
        // Every token compared, in constant time.
        self.tokens
            .iter()
            .fold(false, |ok, t| ok | bool::from(t.as_bytes().ct_eq(sent)))
    }
}

#[tonic::async_trait]
impl v1::subscriber_server::Subscriber for Service {
    async fn on_event(
        &self,
        request: Request<v1::HookEvent>,
    ) -> Result<Response<v1::Decision>, Status> {
        self.stats.calls.fetch_add(1, Ordering::Relaxed);
        if !self.tokens.is_empty() && !self.authorized(&request) {
            self.stats.unauthenticated.fetch_add(1, Ordering::Relaxed);
            return Err(Status::unauthenticated("bad or missing bearer token"));
        }
        let timeout = request
            .metadata()
            .get("grpc-timeout")
            .and_then(|v| v.to_str().ok());
        let deadline = Instant::now() + deadline::budget(timeout);
        let event = Event::from_proto(request.into_inner(), Some(deadline));
        let id = event.id.clone();
        let app = Arc::clone(&self.app);
        // Its own task: a panic is caught, and a late one is cut off.
        let mut handler = tokio::spawn(async move { app.decide(event).await });
        // Unless the call is answered, this counts it as answered with
        // nothing and stops the handler: past the deadline below, or when
        // the caller gives up first (gRPC then drops this future).
        let mut unanswered = Unanswered {
            stats: &self.stats,
            id: &id,
            handler: handler.abort_handle(),
            answered: false,
        };
        let outcome = tokio::time::timeout_at(deadline, &mut handler).await;
        unanswered.answered = outcome.is_ok();
        match outcome {
            Ok(Ok(decision)) => Ok(Response::new(decision.into())),
            Ok(Err(err)) => {
                let what = if err.is_panic() {
                    "the handler panicked"
                } else {
                    "the handler was cancelled"
                };
                tracing::error!(event = %id, "hookgate: {what}");
                if let Ok(mut errors) = self.stats.errors.lock() {
                    errors.push((id.clone(), what.to_owned()));
                }
                Err(Status::internal("the subscriber's handler failed"))
            }
            Err(_) => Err(Status::deadline_exceeded(
                "the handler missed the call's deadline",
            )),
        }
    }
}

/// See its use in `on_event`.
struct Unanswered<'a> {
    stats: &'a Stats,
    id: &'a str,
    handler: tokio::task::AbortHandle,
    answered: bool,
}

impl Drop for Unanswered<'_> {
    fn drop(&mut self) {
        if !self.answered {
            self.handler.abort();
            self.stats.late.fetch_add(1, Ordering::Relaxed);
            tracing::warn!(event = %self.id, "hookgate: the handler missed the deadline: no answer sent");
        }
    }
}
