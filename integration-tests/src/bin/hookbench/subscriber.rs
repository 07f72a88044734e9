//! The bench's gRPC subscribers: real tonic `hookgate.v1.Subscriber`
//! servers in the bench process that allow everything, optionally after a
//! fixed delay, and count what they answered.
//!
//! The delay is slept with `std::thread::sleep` (hrtimer precision) rather
//! than with `tokio::time::sleep`, whose 1 ms timer wheel would add up to a
//! millisecond of the subscriber's own slop to the gateway's fan-out
//! figures. It is slept in `block_in_place`, so the thread that slept goes
//! on to send the reply: `spawn_blocking` added a hand-off to a worker
//! (and that worker's wake-up) after every sleep.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::Context as _;
use hookgate_proto::v1::subscriber_server::{Subscriber, SubscriberServer};
use hookgate_proto::v1::{Decision, HookEvent, Permission};
use tokio::task::JoinHandle;
use tokio_stream::wrappers::UnixListenerStream;
use tonic::transport::server::TcpIncoming;
use tonic::{Request, Response, Status};

/// A running subscriber server; stopped on drop.
#[derive(Debug)]
pub(crate) struct BenchSubscriber {
    /// `http://127.0.0.1:PORT` or `unix:///path`, as the gateway config
    /// names it.
    endpoint: String,
    // Holds the Unix socket's directory until the server is gone.
    _dir: Option<tempfile::TempDir>,
    calls: Arc<AtomicU64>,
    server: JoinHandle<()>,
}

#[derive(Debug)]
struct Service {
    delay: Duration,
    calls: Arc<AtomicU64>,
}

#[tonic::async_trait]
impl Subscriber for Service {
    async fn on_event(&self, request: Request<HookEvent>) -> Result<Response<Decision>, Status> {
        // Touch the event so the decode is not optimized into nothing.
        let event = request.into_inner();
        if event.id.is_empty() {
            return Err(Status::invalid_argument("event without an id"));
        }
        if !self.delay.is_zero() {
            tokio::task::block_in_place(|| std::thread::sleep(self.delay));
        }
        self.calls.fetch_add(1, Ordering::Relaxed);
        Ok(Response::new(Decision {
            permission: Permission::Allow as i32,
            ..Decision::default()
        }))
    }
}

impl BenchSubscriber {
    /// Starts a server on 127.0.0.1 answering "allow" after `delay`.
    pub(crate) async fn start(delay: Duration) -> anyhow::Result<BenchSubscriber> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .context("binding a subscriber port")?;
        let addr = listener.local_addr()?;
        let calls = Arc::new(AtomicU64::new(0));
        let service = SubscriberServer::new(Service {
            delay,
            calls: Arc::clone(&calls),
        });
        let server = tokio::spawn(async move {
            let result = tonic::transport::Server::builder()
                .tcp_nodelay(true)
                .add_service(service)
                .serve_with_incoming(TcpIncoming::from(listener).with_nodelay(Some(true)))
                .await;
            if let Err(err) = result {
                eprintln!("hookbench: subscriber on {addr} stopped: {err}");
            }
        });
        Ok(BenchSubscriber {
            endpoint: format!("http://{addr}"),
            _dir: None,
            calls,
            server,
        })
    }

    /// Starts a server on a Unix socket (a `unix://` endpoint) answering
    /// "allow" at once: the local transport without TCP's loopback stack.
    pub(crate) async fn start_unix() -> anyhow::Result<BenchSubscriber> {
        let dir = crate::gateway::private_dir("hookbench-sub-")?;
        let path = dir.path().join("subscriber.sock");
        let listener = tokio::net::UnixListener::bind(&path)
            .with_context(|| format!("binding {}", path.display()))?;
        let calls = Arc::new(AtomicU64::new(0));
        let service = SubscriberServer::new(Service {
            delay: Duration::ZERO,
            calls: Arc::clone(&calls),
        });
        let shown = path.display().to_string();
        let server = tokio::spawn(async move {
            let result = tonic::transport::Server::builder()
                .add_service(service)
                .serve_with_incoming(UnixListenerStream::new(listener))
                .await;
            if let Err(err) = result {
                eprintln!("hookbench: subscriber on {shown} stopped: {err}");
            }
        });
        Ok(BenchSubscriber {
            endpoint: format!("unix://{}", path.display()),
            _dir: Some(dir),
            calls,
            server,
        })
    }

    /// Starts `n` servers with the same delay.
    pub(crate) async fn start_many(
        n: usize,
        delay: Duration,
    ) -> anyhow::Result<Vec<BenchSubscriber>> {
        let mut all = Vec::with_capacity(n);
        for _ in 0..n {
            all.push(BenchSubscriber::start(delay).await?);
        }
        Ok(all)
    }

    pub(crate) fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Events answered so far.
    pub(crate) fn calls(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }
}

impl Drop for BenchSubscriber {
    fn drop(&mut self) {
        self.server.abort();
    }
}
