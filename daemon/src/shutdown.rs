//! Shutdown requests to a cancellation token: the one way shutdown starts.
//! On Unix SIGINT or SIGTERM; on Windows Ctrl-C, Ctrl-Break or the console
//! window closing. A second request means "now": `forced` is cancelled, on
//! which the binary exits at once instead of waiting out the grace period
//! (a library does not end the process).

use tokio_util::sync::CancellationToken;

/// Exit code after a second signal (128 + SIGINT, as shells report ^C).
pub const EXIT_FORCED: i32 = 130;

/// Cancels `token` on the first shutdown request and `forced` on the next
/// one (the binary then exits with [`EXIT_FORCED`]). Must be called inside
/// the runtime; fails only if the handlers cannot be installed.
pub fn cancel_on_signals(
    token: CancellationToken,
    forced: CancellationToken,
) -> std::io::Result<()> {
    let mut signals = Signals::install()?;
    tokio::spawn(async move {
        let name = tokio::select! {
            name = signals.next() => name,
            () = token.cancelled() => return,
        };
        tracing::info!(
            signal = name,
            "shutting down: no new connections, finishing in-flight events (signal again to exit now)"
        );
        token.cancel();
        let name = signals.next().await;
        tracing::warn!(
            signal = name,
            "second signal: exiting now, abandoning in-flight events"
        );
        forced.cancel();
    });
    Ok(())
}

/// SIGINT and SIGTERM.
#[cfg(unix)]
struct Signals {
    interrupt: tokio::signal::unix::Signal,
    terminate: tokio::signal::unix::Signal,
}

#[cfg(unix)]
impl Signals {
    fn install() -> std::io::Result<Signals> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(Signals {
            interrupt: signal(SignalKind::interrupt())?,
            terminate: signal(SignalKind::terminate())?,
        })
    }

    /// The name of the next signal received.
    async fn next(&mut self) -> &'static str {
        tokio::select! {
            _ = self.interrupt.recv() => "SIGINT",
            _ = self.terminate.recv() => "SIGTERM",
        }
    }
}

/// Ctrl-C, Ctrl-Break and the console closing. Windows ends the process
/// on its own a few seconds after a close (tokio's handler holds it until
/// then), so a close may cut the grace period short.
#[cfg(windows)]
struct Signals {
    ctrl_c: tokio::signal::windows::CtrlC,
    ctrl_break: tokio::signal::windows::CtrlBreak,
    ctrl_close: tokio::signal::windows::CtrlClose,
}

#[cfg(windows)]
impl Signals {
    fn install() -> std::io::Result<Signals> {
        use tokio::signal::windows::{ctrl_break, ctrl_c, ctrl_close};
        Ok(Signals {
            ctrl_c: ctrl_c()?,
            ctrl_break: ctrl_break()?,
            ctrl_close: ctrl_close()?,
        })
    }

    /// The name of the next event received.
    async fn next(&mut self) -> &'static str {
        tokio::select! {
            _ = self.ctrl_c.recv() => "Ctrl-C",
            _ = self.ctrl_break.recv() => "Ctrl-Break",
            _ = self.ctrl_close.recv() => "console close",
        }
    }
}
