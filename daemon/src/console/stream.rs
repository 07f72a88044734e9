//! `/api/stream`: the console's server-sent events. `event` for each new
//! event (its summary), `approvals` with the held calls whenever they
//! change (and once on connect), `lagged` with how many events this
//! stream lost by falling behind. At most `max_clients` streams at once
//! (past it: 503); each ends when the gateway stops.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::Stream;
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{OwnedSemaphorePermit, broadcast, watch};

use super::Console;
use crate::feed::Entry;

/// A comment line this often keeps proxies and the browser from timing out.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

pub(super) async fn stream(State(console): State<Arc<Console>>) -> Response {
    let Ok(place) = Arc::clone(&console.streams).try_acquire_owned() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "too many console streams open ([ui] max_clients)",
        )
            .into_response();
    };
    let live = Live {
        events: console.feed.subscribe(),
        held: console.approvals.watch(),
        first: true,
        console,
        _place: place,
    };
    Sse::new(events(live))
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response()
}

/// One open stream.
struct Live {
    events: broadcast::Receiver<Arc<Entry>>,
    held: watch::Receiver<u64>,
    /// The held calls are sent once on connect.
    first: bool,
    console: Arc<Console>,
    _place: OwnedSemaphorePermit,
}

fn events(live: Live) -> impl Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold(live, |mut live| async move {
        let event = next(&mut live).await?;
        Some((Ok(event), live))
    })
}

/// The next event to send; `None` ends the stream.
async fn next(live: &mut Live) -> Option<Event> {
    if std::mem::take(&mut live.first) {
        live.held.mark_unchanged();
        return Some(held(&live.console));
    }
    tokio::select! {
        () = live.console.stop.cancelled() => None,
        received = live.events.recv() => match received {
            Ok(entry) => Some(Event::default().event("event").data(entry.summary.to_string())),
            Err(RecvError::Lagged(lost)) => {
                live.console.feed.lagged.fetch_add(lost, Ordering::Relaxed);
                Some(Event::default().event("lagged").data(json!({ "lost": lost }).to_string()))
            }
            Err(RecvError::Closed) => None,
        },
        changed = live.held.changed() => match changed {
            Ok(()) => {
                live.held.mark_unchanged();
                Some(held(&live.console))
            }
            Err(_) => None,
        },
    }
}

fn held(console: &Console) -> Event {
    Event::default()
        .event("approvals")
        .data(json!(console.approvals.list()).to_string())
}
