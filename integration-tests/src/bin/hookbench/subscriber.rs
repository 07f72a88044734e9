//! The bench's gRPC subscribers: real tonic `hookgate.v1.Subscriber`
//! servers in the bench process that allow everything, optionally after a
//! fixed delay, and count what they answered.
//!
//! Subscribers without a delay share the bench's multi-thread runtime, so
//! they can answer the throughput section's many concurrent calls.
//!
//! A subscriber with a delay (the fan-out section) runs on a thread of its
//! own with a current-thread runtime, as a subscriber process of its own
//! would, and sleeps the delay with `std::thread::sleep` on that thread:
//! - hrtimer precision, where `tokio::time::sleep`'s 1 ms timer wheel would
//!   add up to a millisecond of the subscriber's own slop;
//! - the thread that slept writes the reply. On the shared runtime, the
//!   wake-up went through other threads: `spawn_blocking` handed the reply
//!   to a worker, `block_in_place` to the connection task on a worker, each
//!   a thread wake-up that the bench, not the gateway, added to every row.
//!
//! It handles one call at a time, which is what the fan-out section sends
//! it (one event at a time).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::Context as _;
use hookgate_proto::v1::subscriber_server::{Subscriber, SubscriberServer};
use hookgate_proto::v1::{Decision, HookEvent, Permission};
use tokio::sync::oneshot;
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
    server: Server,
}

/// Where a subscriber's server runs, and how it is stopped.
#[derive(Debug)]
enum Server {
    /// A task on the bench's runtime: aborted.
    Task(JoinHandle<()>),
    /// A thread of its own: told to stop, then joined (at most one delay
    /// later, if it is asleep in a call).
    Thread {
        stop: Option<oneshot::Sender<()>>,
        thread: Option<std::thread::JoinHandle<()>>,
    },
}

#[derive(Debug)]
struct Service {
    /// Slept on the calling thread, which must be the subscriber's own
    /// (a current-thread runtime's only thread).
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
            std::thread::sleep(self.delay);
        }
        self.calls.fetch_add(1, Ordering::Relaxed);
        Ok(Response::new(Decision {
            permission: Permission::Allow as i32,
            ..Decision::default()
        }))
    }
}

impl BenchSubscriber {
    /// Starts a server on 127.0.0.1 answering "allow" at once, on the
    /// bench's runtime.
    pub(crate) async fn start() -> anyhow::Result<BenchSubscriber> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .context("binding a subscriber port")?;
        let addr = listener.local_addr()?;
        let calls = Arc::new(AtomicU64::new(0));
        let service = Service {
            delay: Duration::ZERO,
            calls: Arc::clone(&calls),
        };
        let server = Server::Task(tokio::spawn(serve_tcp(listener, service)));
        Ok(BenchSubscriber {
            endpoint: format!("http://{addr}"),
            _dir: None,
            calls,
            server,
        })
    }

    /// Starts a server on 127.0.0.1 answering "allow" after `delay`, on a
    /// thread of its own (see the module comment).
    pub(crate) fn start_delayed(delay: Duration) -> anyhow::Result<BenchSubscriber> {
        let listener =
            std::net::TcpListener::bind("127.0.0.1:0").context("binding a subscriber port")?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let calls = Arc::new(AtomicU64::new(0));
        let service = Service {
            delay,
            calls: Arc::clone(&calls),
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("starting a subscriber runtime")?;
        let (stop, stopped) = oneshot::channel();
        let thread = std::thread::Builder::new()
            .name(format!("subscriber-{}", addr.port()))
            .spawn(move || {
                runtime.block_on(async move {
                    let listener = match tokio::net::TcpListener::from_std(listener) {
                        Ok(listener) => listener,
                        Err(err) => {
                            eprintln!("hookbench: subscriber on {addr} not started: {err}");
                            return;
                        }
                    };
                    tokio::select! {
                        () = serve_tcp(listener, service) => {}
                        _ = stopped => {}
                    }
                });
            })
            .context("starting a subscriber thread")?;
        Ok(BenchSubscriber {
            endpoint: format!("http://{addr}"),
            _dir: None,
            calls,
            server: Server::Thread {
                stop: Some(stop),
                thread: Some(thread),
            },
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
        let server = Server::Task(tokio::spawn(async move {
            let result = tonic::transport::Server::builder()
                .add_service(service)
                .serve_with_incoming(UnixListenerStream::new(listener))
                .await;
            if let Err(err) = result {
                eprintln!("hookbench: subscriber on {shown} stopped: {err}");
            }
        }));
        Ok(BenchSubscriber {
            endpoint: format!("unix://{}", path.display()),
            _dir: Some(dir),
            calls,
            server,
        })
    }

    /// Starts `n` servers answering at once.
    pub(crate) async fn start_many(n: usize) -> anyhow::Result<Vec<BenchSubscriber>> {
        let mut all = Vec::with_capacity(n);
        for _ in 0..n {
            all.push(BenchSubscriber::start().await?);
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

/// Serves `service` on `listener` until the server fails (reported).
async fn serve_tcp(listener: tokio::net::TcpListener, service: Service) {
    let addr = listener.local_addr().ok();
    let result = tonic::transport::Server::builder()
        .tcp_nodelay(true)
        .add_service(SubscriberServer::new(service))
        .serve_with_incoming(TcpIncoming::from(listener).with_nodelay(Some(true)))
        .await;
    if let Err(err) = result {
        eprintln!("hookbench: subscriber on {addr:?} stopped: {err}");
    }
}

impl Drop for BenchSubscriber {
    fn drop(&mut self) {
        match &mut self.server {
            Server::Task(task) => task.abort(),
            Server::Thread { stop, thread } => {
                if let Some(stop) = stop.take() {
                    // Err: the thread has already ended.
                    let _ = stop.send(());
                }
                if let Some(thread) = thread.take() {
                    let _ = thread.join();
                }
            }
        }
    }
}
