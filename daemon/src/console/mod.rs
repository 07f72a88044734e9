//! The local web console (`[ui]`, issue #30): a live stream of events, the
//! approvals inbox, one event's detail and the subscribers' charts, served
//! by the gateway on a loopback port as plain HTML, CSS and JS embedded in
//! the binary (no build step, nothing fetched from elsewhere), with
//! server-sent events for what changes.
//!
//! Guarded like the HTTP hook door: loopback only (config validation),
//! another user's connections closed on Linux, open connections and
//! request heads bounded in number, size and time (`peer`),
//! `Host`/`Origin` checked, a login token per start, a session cookie,
//! a CSRF header on every POST and no state change on GET (`auth`).
//! Everything shown is masked by the decision log's own masking (`crate::feed`,
//! and the approvals registry masks what it lists); the page sets text
//! only through `textContent`. Bounded: request bodies, open streams
//! (`max_clients`), each stream's queue (`crate::feed::STREAM_QUEUE`, a lagging
//! stream loses the oldest, counted).

mod api;
pub mod auth;
mod peer;

mod stream;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use anyhow::Context as _;
use hookgate_config::UiConfig;

use crate::admin::document::StatusSource;
use crate::approvals::Approvals;
pub use crate::feed::Feed;
pub use auth::{Secrets, TOKEN_FILE};

/// The largest request body (an approval's reason and scope).
const MAX_BODY: usize = 16 * 1024;

/// What every request shares.
#[derive(Debug)]
pub struct Console {
    pub feed: Arc<Feed>,
    pub approvals: Arc<Approvals>,
    pub source: Arc<StatusSource>,
    pub secrets: Secrets,
    /// The bound address (`Host` must name it).
    pub listen: SocketAddr,
    /// Places for open live streams.
    pub streams: Arc<Semaphore>,
    /// Ends the live streams (and the server) when the gateway stops.
    pub stop: CancellationToken,
}

/// The console (`[ui]`): this start's secrets (the login token written
/// next to `socket` for `gateway ui`), its port bound, served on `tasks`
/// until `stop`; gives back the feed the pipeline hands every event to.
pub(crate) async fn start(
    ui: &UiConfig,
    socket: &std::path::Path,
    source: &Arc<StatusSource>,
    approvals: &Arc<Approvals>,
    (tasks, stop): (&TaskTracker, CancellationToken),
) -> anyhow::Result<Arc<Feed>> {
    let dir = socket
        .parent()
        .context("the socket path has no directory for the console's token")?;
    let secrets = Secrets::create(&dir.join(TOKEN_FILE)).context("the console's login token")?;
    let bound = TcpListener::bind(ui.listen)
        .await
        .with_context(|| format!("cannot serve the console on {} ([ui] listen)", ui.listen))?;
    let listen = bound.local_addr()?;
    let _ = source.ui_addr.set(listen);
    let feed = Feed::start(tasks, stop.clone());
    let console = Arc::new(Console {
        feed: Arc::clone(&feed),
        approvals: Arc::clone(approvals),
        source: Arc::clone(source),
        secrets,
        listen,
        streams: Arc::new(Semaphore::new(ui.max_clients)),
        stop,
    });
    tasks.spawn(serve(bound, console));
    Ok(feed)
}

/// Serves the console on `listener` until its `stop` (`peer`: each
/// connection checked and bounded).
pub async fn serve(listener: TcpListener, console: Arc<Console>) {
    let stop = console.stop.clone();
    peer::serve(listener, router(console), stop).await;
}

fn router(console: Arc<Console>) -> Router {
    Router::new()
        .route("/login", get(api::login))
        .route("/", get(api::page))
        .route("/app.js", get(api::script))
        .route("/app.css", get(api::style))
        .route("/api/events", get(api::events))
        .route("/api/events/{id}", get(api::event))
        .route("/api/approvals", get(api::approvals))
        .route("/api/approvals/{id}/{action}", post(api::answer))
        .route("/api/metrics", get(api::metrics))
        .route("/api/stream", get(stream::stream))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(Arc::clone(&console), guard))
        .with_state(console)
}

/// Before any handler: the request's `Host`, `Origin` and method; then,
/// but for `/login`, the session cookie; for a POST, the CSRF header.
/// Every response gets headers that keep it in this origin and uncached.
async fn guard(State(console): State<Arc<Console>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let refused = if auth::check_request(console.listen, request.method(), headers).is_err() {
        Some((
            StatusCode::FORBIDDEN,
            "refused: not this console's address or method",
        ))
    } else if request.uri().path() != "/login" && !console.secrets.logged_in(headers) {
        Some((
            StatusCode::UNAUTHORIZED,
            "not logged in: open the URL `gateway ui` prints",
        ))
    } else if request.method() == Method::POST && !console.secrets.csrf_ok(headers) {
        Some((
            StatusCode::FORBIDDEN,
            "refused: no valid X-Hookgate-CSRF header",
        ))
    } else {
        None
    };
    let mut response = match refused {
        Some((status, text)) => (status, text).into_response(),
        None => next.run(request).await,
    };
    let headers = response.headers_mut();
    for (name, value) in [
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
             connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        ),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::CACHE_CONTROL, "no-store"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// A response of `content_type` with `body`.
fn typed(content_type: &'static str, body: impl Into<Body>) -> Response {
    let mut response = Response::new(body.into());
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// The login URL for a console at `addr` with `token`.
pub fn login_url(addr: &str, token: &str) -> String {
    format!("http://{addr}/login?token={token}")
}
