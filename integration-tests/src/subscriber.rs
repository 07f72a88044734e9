//! A real tonic `Subscriber` server with a scripted behaviour, run inside
//! the test process on `127.0.0.1:0`.
//!
//! It records every event it receives (before acting, so "has received"
//! means "the gateway's call arrived") and then answers as scripted: a
//! fixed decision, a function of the event, never, or after meeting other
//! subscribers at a barrier. [`TestSubscriber::start_secure`] serves it
//! over TLS (optionally requiring a client certificate) and checks a bearer
//! token, as a central policy service would; [`TestSubscriber::start_unix`]
//! serves it on a Unix socket the test made (a `unix://` endpoint).

use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hookgate_proto::v1::subscriber_server::{Subscriber, SubscriberServer};
use hookgate_proto::v1::{Decision, HookEvent};
use tokio::sync::{Barrier, watch};
use tokio::task::JoinHandle;
use tonic::transport::server::TcpIncoming;
use tonic::transport::{Certificate, Identity, ServerTlsConfig};
use tonic::{Request, Response, Status};

/// Most events a subscriber keeps; more are counted, not stored.
const MAX_RECORDED: usize = 10_000;

/// The future a behaviour returns.
pub type DecisionFuture = Pin<Box<dyn Future<Output = Result<Decision, Status>> + Send>>;
/// How a subscriber answers one event.
pub type Behaviour = Arc<dyn Fn(HookEvent) -> DecisionFuture + Send + Sync>;

/// Where a subscriber listens.
#[derive(Debug, Clone)]
enum Listening {
    Tcp(SocketAddr),
    Unix(PathBuf),
}

impl fmt::Display for Listening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Listening::Tcp(addr) => write!(f, "{addr}"),
            Listening::Unix(path) => write!(f, "{}", path.display()),
        }
    }
}

/// A running subscriber server; stopped on drop.
#[derive(Debug)]
pub struct TestSubscriber {
    addr: Listening,
    state: Arc<State>,
    server: JoinHandle<()>,
    /// Ends the server and closes its connections (see [`TestSubscriber::kill`]).
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    /// Served over TLS: its endpoint is `https://`.
    tls: bool,
}

/// How a [`TestSubscriber::start_secure`] server guards itself.
#[derive(Debug, Clone, Default)]
pub struct Security {
    /// Its certificate chain and key (PEM): serve TLS.
    pub identity: Option<(String, String)>,
    /// Require a client certificate issued by this CA (PEM): mTLS.
    pub client_ca: Option<String>,
    /// Accept only calls whose `authorization` is `Bearer <one of these>`
    /// (others are answered UNAUTHENTICATED, unrecorded); shared so a test
    /// can rotate them. `None`: no check.
    pub tokens: Option<Arc<Mutex<Vec<String>>>>,
}

struct State {
    behaviour: Behaviour,
    events: Mutex<Vec<HookEvent>>,
    /// How many events arrived (also those past `MAX_RECORDED`).
    count: watch::Sender<usize>,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("count", &*self.count.borrow())
            .finish_non_exhaustive()
    }
}

struct Service(Arc<State>);

#[tonic::async_trait]
impl Subscriber for Service {
    async fn on_event(&self, request: Request<HookEvent>) -> Result<Response<Decision>, Status> {
        let event = request.into_inner();
        {
            let mut events = self.0.events.lock().expect("events lock");
            if events.len() < MAX_RECORDED {
                events.push(event.clone());
            }
        }
        self.0.count.send_modify(|n| *n += 1);
        let decision = (self.0.behaviour)(event).await?;
        Ok(Response::new(decision))
    }
}

impl TestSubscriber {
    /// Starts a server answering with `behaviour`.
    pub async fn start(behaviour: Behaviour) -> TestSubscriber {
        TestSubscriber::start_at("127.0.0.1:0".parse().expect("an address"), behaviour).await
    }

    /// Starts a server on `addr` (a port a killed subscriber had, to bring
    /// it back) answering with `behaviour`.
    pub async fn start_at(addr: SocketAddr, behaviour: Behaviour) -> TestSubscriber {
        TestSubscriber::start_secure_at(addr, behaviour, Security::default()).await
    }

    /// Starts a server answering with `behaviour`, guarded by `security`.
    pub async fn start_secure(behaviour: Behaviour, security: Security) -> TestSubscriber {
        let addr = "127.0.0.1:0".parse().expect("an address");
        TestSubscriber::start_secure_at(addr, behaviour, security).await
    }

    async fn start_secure_at(
        addr: SocketAddr,
        behaviour: Behaviour,
        security: Security,
    ) -> TestSubscriber {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .expect("bind a subscriber port");
        let addr = listener.local_addr().expect("subscriber local addr");
        let (count, _) = watch::channel(0);
        let state = Arc::new(State {
            behaviour,
            events: Mutex::new(Vec::new()),
            count,
        });
        let tokens = security.tokens.clone();
        let service = SubscriberServer::with_interceptor(Service(state.clone()), move |request| {
            check_token(tokens.as_deref(), request)
        });
        let mut builder = tonic::transport::Server::builder();
        let tls = security.identity.is_some();
        if let Some((cert, key)) = &security.identity {
            let mut config = ServerTlsConfig::new().identity(Identity::from_pem(cert, key));
            if let Some(ca) = &security.client_ca {
                config = config.client_ca_root(Certificate::from_pem(ca));
            }
            builder = builder.tls_config(config).expect("a TLS server config");
        }
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(async move {
            let result = builder
                .add_service(service)
                .serve_with_incoming_shutdown(TcpIncoming::from(listener), async {
                    let _ = stopped.await;
                })
                .await;
            if let Err(err) = result {
                eprintln!("test subscriber on {addr} stopped: {err}");
            }
        });
        TestSubscriber {
            addr: Listening::Tcp(addr),
            state,
            server,
            stop: Some(stop),
            tls,
        }
    }

    /// Starts a server on `listener`, a Unix socket bound to a path (its
    /// endpoint is `unix://<path>`), answering with `behaviour`. The test
    /// makes the listener, so it can make it as another user.
    pub fn start_unix(
        listener: std::os::unix::net::UnixListener,
        behaviour: Behaviour,
    ) -> TestSubscriber {
        let path = listener
            .local_addr()
            .ok()
            .and_then(|addr| addr.as_pathname().map(PathBuf::from))
            .expect("a Unix socket bound to a path");
        listener
            .set_nonblocking(true)
            .expect("a non-blocking listener");
        let listener = tokio::net::UnixListener::from_std(listener).expect("a tokio listener");
        let (count, _) = watch::channel(0);
        let state = Arc::new(State {
            behaviour,
            events: Mutex::new(Vec::new()),
            count,
        });
        let service = SubscriberServer::new(Service(state.clone()));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let shown = path.display().to_string();
        let server = tokio::spawn(async move {
            let result = tonic::transport::Server::builder()
                .add_service(service)
                .serve_with_incoming_shutdown(
                    tokio_stream::wrappers::UnixListenerStream::new(listener),
                    async {
                        let _ = stopped.await;
                    },
                )
                .await;
            if let Err(err) = result {
                eprintln!("test subscriber on {shown} stopped: {err}");
            }
        });
        TestSubscriber {
            addr: Listening::Unix(path),
            state,
            server,
            stop: Some(stop),
            tls: false,
        }
    }

    /// Stops the server as a crash would look to the gateway: the port
    /// refuses connections and open connections are closed. Returns its
    /// address, for [`TestSubscriber::start_at`].
    pub async fn kill(mut self) -> SocketAddr {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let server = std::mem::replace(&mut self.server, tokio::spawn(async {}));
        // Only in-flight calls keep it; the harness bound turns a hang
        // into a failure.
        tokio::time::timeout(Duration::from_secs(10), server)
            .await
            .expect("the subscriber stops")
            .expect("the subscriber task");
        match &self.addr {
            Listening::Tcp(addr) => *addr,
            Listening::Unix(path) => panic!(
                "{} is a Unix socket: no TCP address to restart at",
                path.display()
            ),
        }
    }

    /// Always answers `decision`.
    pub async fn fixed(decision: Decision) -> TestSubscriber {
        TestSubscriber::start(Arc::new(move |_| {
            let decision = decision.clone();
            Box::pin(async move { Ok(decision) })
        }))
        .await
    }

    /// Answers `decide(&event)`.
    pub async fn respond(
        decide: impl Fn(&HookEvent) -> Decision + Send + Sync + 'static,
    ) -> TestSubscriber {
        TestSubscriber::start(Arc::new(move |event| {
            let decision = decide(&event);
            Box::pin(async move { Ok(decision) })
        }))
        .await
    }

    /// Never answers.
    pub async fn hanging() -> TestSubscriber {
        TestSubscriber::start(Arc::new(|_| Box::pin(std::future::pending()))).await
    }

    /// Waits at `barrier` (with the other subscribers sharing it) for at
    /// most `patience`, then answers `decision`; if the others never come it
    /// answers `on_timeout` instead, so the test sees it.
    pub async fn rendezvous(
        barrier: Arc<Barrier>,
        patience: Duration,
        decision: Decision,
        on_timeout: Decision,
    ) -> TestSubscriber {
        TestSubscriber::start(Arc::new(move |_| {
            let barrier = barrier.clone();
            let decision = decision.clone();
            let on_timeout = on_timeout.clone();
            Box::pin(async move {
                match tokio::time::timeout(patience, barrier.wait()).await {
                    Ok(_) => Ok(decision),
                    Err(_) => Ok(on_timeout),
                }
            })
        }))
        .await
    }

    /// `http://127.0.0.1:<port>` (`https://` over TLS, `unix://<path>` on
    /// a Unix socket), for the gateway config.
    pub fn endpoint(&self) -> String {
        match (&self.addr, self.tls) {
            (Listening::Unix(path), _) => format!("unix://{}", path.display()),
            (Listening::Tcp(addr), true) => format!("https://{addr}"),
            (Listening::Tcp(addr), false) => format!("http://{addr}"),
        }
    }

    /// The events received so far (up to the recording bound).
    pub fn events(&self) -> Vec<HookEvent> {
        self.state.events.lock().expect("events lock").clone()
    }

    /// How many events arrived so far.
    pub fn count(&self) -> usize {
        *self.state.count.borrow()
    }

    /// Waits until at least `n` events arrived, up to `deadline`; panics if
    /// they do not. Returns the recorded events.
    pub async fn wait_for(&self, n: usize, deadline: Duration) -> Vec<HookEvent> {
        let mut count = self.state.count.subscribe();
        let reached = tokio::time::timeout(deadline, count.wait_for(|c| *c >= n)).await;
        match reached {
            Ok(Ok(_)) => self.events(),
            _ => panic!(
                "subscriber on {} received {} events within {deadline:?}, expected at least {n}",
                self.addr,
                self.count()
            ),
        }
    }
}

/// The interceptor of [`Security::tokens`].
fn check_token(
    tokens: Option<&Mutex<Vec<String>>>,
    request: Request<()>,
) -> Result<Request<()>, Status> {
    let Some(tokens) = tokens else {
        return Ok(request);
    };
    let sent = request
        .metadata()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    let accepted = tokens.lock().expect("tokens lock");
    match sent {
        Some(token) if accepted.iter().any(|t| t == token) => Ok(request),
        _ => Err(Status::unauthenticated("bad or missing bearer token")),
    }
}

impl Drop for TestSubscriber {
    fn drop(&mut self) {
        self.server.abort();
    }
}
