//! SIGINT / SIGTERM to a cancellation token: the one way shutdown starts.
//! A second signal means "now": the process exits at once instead of
//! waiting out the grace period.

use tokio::signal::unix::{SignalKind, signal};
use tokio_util::sync::CancellationToken;

/// Exit code after a second signal (128 + SIGINT, as shells report ^C).
pub const EXIT_FORCED: i32 = 130;

/// Cancels `token` on the first SIGINT or SIGTERM and exits the process
/// with [`EXIT_FORCED`] on the next one. Must be called inside the runtime;
/// fails only if the signal handlers cannot be installed.
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
            "shutting down: no new connections, finishing in-flight events (signal again to exit now)"
        );
        token.cancel();
        let name = tokio::select! {
            _ = interrupt.recv() => "SIGINT",
            _ = terminate.recv() => "SIGTERM",
        };
        tracing::warn!(
            signal = name,
            "second signal: exiting now, abandoning in-flight events"
        );
        std::process::exit(EXIT_FORCED);
    });
    Ok(())
}
