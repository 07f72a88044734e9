//! The status document: everything `gateway status` shows, built from the
//! metrics plus who and where this gateway is.
//!
//! The JSON shape is a stable, versioned contract for scripts
//! (`gateway status --json`, documented in docs/status.md): fields are only
//! added; a change that is not an addition bumps [`SCHEMA`].

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use serde::Serialize;

use crate::metrics::keeper::CountsInfo;
use crate::metrics::{Metrics, Snapshot};
use crate::reload::{ReloadSnapshot, ReloadStatus};
use crate::shim_records;

/// Version of the JSON document's schema.
pub const SCHEMA: u32 = 1;

/// Everything a report needs; shared by the admin service and the
/// Prometheus endpoint.
#[derive(Debug)]
pub struct StatusSource {
    pub metrics: Arc<Metrics>,
    pub started: Instant,
    /// The hook socket.
    pub socket: PathBuf,
    pub admin_socket: PathBuf,
    /// The config file, or the embedded default's name.
    pub config: String,
    /// The system config merged under it, if any.
    pub system_config: Option<String>,
    /// Where Prometheus metrics are served, once bound.
    pub metrics_addr: OnceLock<SocketAddr>,
    /// Where HTTP hooks are served, once bound (`[http]`).
    pub http_addr: OnceLock<SocketAddr>,
    /// Where the console is served, once bound (`[ui]`).
    pub ui_addr: OnceLock<SocketAddr>,
    /// Config generation and reload attempts.
    pub reload: Arc<ReloadStatus>,
    /// Where the counts are kept across restarts, and since when.
    pub counts: Option<CountsInfo>,
}

/// The JSON document.
#[derive(Debug, Clone, Serialize)]
pub struct StatusDoc {
    pub schema: u32,
    pub version: &'static str,
    pub pid: u32,
    pub uptime_secs: u64,
    pub socket: String,
    pub admin_socket: String,
    pub config: String,
    pub system_config: Option<String>,
    pub metrics_addr: Option<String>,
    /// The HTTP hook endpoint's address, when `[http]` is on.
    pub http_addr: Option<String>,
    /// The console's address, when `[ui]` is on.
    pub ui_addr: Option<String>,
    /// The config generation in effect and the last reload attempt.
    pub reload: ReloadSnapshot,
    /// Where the counts are kept across restarts, since when and across
    /// how many starts; `null` when they are not kept.
    pub counts: Option<CountsInfo>,
    #[serde(flatten)]
    pub metrics: Snapshot,
}

impl StatusSource {
    pub fn new(metrics: Arc<Metrics>, socket: PathBuf, config: String) -> StatusSource {
        StatusSource {
            metrics,
            started: Instant::now(),
            admin_socket: super::admin_path(&socket),
            socket,
            config,
            system_config: None,
            metrics_addr: OnceLock::new(),
            http_addr: OnceLock::new(),
            ui_addr: OnceLock::new(),
            reload: Arc::default(),
            counts: None,
        }
    }

    pub fn uptime_secs(&self) -> u64 {
        self.started.elapsed().as_secs()
    }

    /// Adds the shims' fallback record to the metrics. File I/O, so it
    /// runs on the blocking pool, off the runtime's workers.
    pub async fn collect_fallbacks(&self) {
        let (socket, metrics) = (self.socket.clone(), Arc::clone(&self.metrics));
        let collected =
            tokio::task::spawn_blocking(move || shim_records::collect(&socket, &metrics)).await;
        if let Err(err) = collected {
            tracing::warn!(error = %err, "collecting the shims' fallback record failed");
        }
    }

    /// The metrics, after collecting the shims' fallback record.
    pub async fn snapshot(&self) -> Snapshot {
        self.collect_fallbacks().await;
        self.metrics.snapshot()
    }

    pub async fn document(&self) -> StatusDoc {
        let (config, system_config) = match self.reload.origins() {
            Some(origins) => (origins.config, origins.system_config),
            None => (self.config.clone(), self.system_config.clone()),
        };
        StatusDoc {
            schema: SCHEMA,
            version: env!("CARGO_PKG_VERSION"),
            pid: std::process::id(),
            uptime_secs: self.uptime_secs(),
            socket: self.socket.display().to_string(),
            admin_socket: self.admin_socket.display().to_string(),
            config,
            system_config,
            metrics_addr: self.metrics_addr.get().map(ToString::to_string),
            http_addr: self.http_addr.get().map(ToString::to_string),
            ui_addr: self.ui_addr.get().map(ToString::to_string),
            reload: self.reload.snapshot(),
            counts: self.counts.clone(),
            metrics: self.snapshot().await,
        }
    }
}
