//! SIGINT / SIGTERM to a cancellation token: the one way shutdown starts.

use tokio::signal::unix::{SignalKind, signal};
use tokio_util::sync::CancellationToken;

/// Cancels `token` on the first SIGINT or SIGTERM. Must be called inside
/// the runtime; fails only if the signal handlers cannot be installed.
pub fn cancel_on_signals(token: CancellationToken) -> std::io::Result<()> {
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    tokio::spawn(async move {
        let name = tokio::select! {
            _ = interrupt.recv() => "SIGINT",
            _ = terminate.recv() => "SIGTERM",
            () = token.cancelled() => return,
        };
        tracing::info!(
            signal = name,
            "shutting down: no new connections, finishing in-flight events"
        );
        token.cancel();
    });
    Ok(())
}
