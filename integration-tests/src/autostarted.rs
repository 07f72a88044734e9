//! Gateways a test did not start itself: the one a shim's autostart (or
//! `gateway doctor`, through an installed hook) started on a test's
//! socket. Nothing else stops them: their socket's directory goes with
//! the test, and the gateway would outlive it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Stops, on drop, every gateway serving a socket (see [`serving`]), so
/// a failing test leaves none behind either.
#[derive(Debug)]
pub struct Autostarted {
    socket: PathBuf,
}

impl Autostarted {
    pub fn on(socket: &Path) -> Autostarted {
        Autostarted {
            socket: socket.to_owned(),
        }
    }
}

impl Drop for Autostarted {
    fn drop(&mut self) {
        for pid in serving(&self.socket) {
            let _ = Command::new("kill").arg(pid).status();
        }
    }
}

/// The pids of the `gateway serve --socket <socket>` processes (the
/// command line autostart uses).
pub fn serving(socket: &Path) -> Vec<String> {
    let out = Command::new("pgrep")
        .arg("-f")
        .arg(format!("serve --socket {}", socket.display()))
        .output()
        .expect("run pgrep");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}
