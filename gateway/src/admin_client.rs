//! What the commands that talk to a running gateway (`status`, `reload`,
//! `approvals`) share: which socket they ask, and the small runtime they
//! ask it on.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use hookgate_config::Config;

/// `explicit`, else the config's `server.socket`, else the shim's default.
pub(crate) fn resolve_socket(explicit: Option<&Path>) -> PathBuf {
    explicit
        .map(Path::to_path_buf)
        .or_else(|| Config::load(None).ok().and_then(|c| c.server.socket))
        .unwrap_or_else(hookgate_transport::default_path)
}

/// The small runtime of a client command; `Err` after saying why not.
pub(crate) fn client_runtime() -> Result<tokio::runtime::Runtime, ExitCode> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|err| {
            eprintln!("gateway: error: cannot start the runtime: {err}");
            ExitCode::FAILURE
        })
}
