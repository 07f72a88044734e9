//! A `rego` subscriber's bundle, kept current: the cached last good bundle
//! first (verified again: a file on disk is not trusted for being local),
//! then the URL polled with its ETag every `bundle_poll_ms`.
//!
//! A bundle is accepted only if it verifies, is newer than the one deciding
//! now (anti-rollback, `hookgate_policy::bundle::revision`) and compiles;
//! otherwise it is refused, counted and logged, and the policy deciding now
//! stays. Fetching, verifying and compiling run on the blocking pool.

use std::sync::{Arc, Weak};
use std::time::Duration;

use hookgate_policy::bundle::{self, Verification};
use hookgate_policy::cache::Cache;
use hookgate_policy::fetch::{Client, Fetched};
use hookgate_policy::{Policy, files_digest};
use sha2::Digest as _;
use tokio_util::sync::CancellationToken;

use super::Rego;
use hookgate_config::{BundleConfig, RegoConfig};

/// The longest one fetch may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(30);

/// What the poller remembers between polls.
#[derive(Debug, Default)]
struct Current {
    /// The revision of the bundle deciding now.
    revision: Option<String>,
    etag: Option<String>,
    /// The digest of the last bundle refused: served again unchanged (a
    /// server without ETags), it is not checked, counted or logged again.
    refused: Option<[u8; 32]>,
}

pub(super) async fn run(rego: Weak<Rego>, bundle: BundleConfig, shutdown: CancellationToken) {
    let client = Arc::new(Client::new(
        FETCH_TIMEOUT.min(bundle.poll.max(Duration::from_secs(1))),
    ));
    let cache = Cache::new(&bundle.cache_dir);
    let mut current = Current::default();
    {
        let cache = cache.clone();
        match tokio::task::spawn_blocking(move || cache.load()).await {
            Ok(Ok(Some(cached))) => {
                let Some(rego) = rego.upgrade() else { return };
                let applied = apply(&rego, &bundle.verification, &mut current, cached.bytes).await;
                match applied {
                    Applied::Updated(revision) => {
                        current.etag = cached.etag;
                        tracing::info!(subscriber = %rego.name, revision, "policy bundle loaded from the cache");
                    }
                    Applied::Same => {}
                    Applied::Refused(why) => {
                        tracing::warn!(subscriber = %rego.name, error = %why, "cached policy bundle refused");
                    }
                }
            }
            Ok(Ok(None)) => {}
            Ok(Err(err)) => {
                tracing::warn!(dir = %bundle.cache_dir.display(), error = %err, "policy bundle cache unreadable")
            }
            Err(_) => {}
        }
    }
    loop {
        let Some(rego) = rego.upgrade() else { return };
        poll_once(&rego, &bundle, &client, &cache, &mut current).await;
        drop(rego);
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = tokio::time::sleep(bundle.poll) => {}
        }
    }
}

async fn poll_once(
    rego: &Rego,
    bundle: &BundleConfig,
    client: &Arc<Client>,
    cache: &Cache,
    current: &mut Current,
) {
    let policy = &rego.stats.policy;
    let (url, etag, client) = (bundle.url.clone(), current.etag.clone(), Arc::clone(client));
    let fetched = tokio::task::spawn_blocking(move || client.get(&url, etag.as_deref())).await;
    match fetched {
        Ok(Ok(Fetched::NotModified)) => policy.fetched("not modified".to_owned()),
        Ok(Ok(Fetched::Bundle { bytes, etag })) => {
            let digest: [u8; 32] = sha2::Sha256::digest(&bytes).into();
            if current.refused == Some(digest) {
                return;
            }
            let stored = bytes.clone();
            match apply(rego, &bundle.verification, current, bytes).await {
                Applied::Updated(revision) => {
                    current.etag.clone_from(&etag);
                    tracing::info!(subscriber = %rego.name, revision, "policy bundle updated");
                    let cache = cache.clone();
                    let write =
                        tokio::task::spawn_blocking(move || cache.store(&stored, etag.as_deref()));
                    if let Ok(Err(err)) = write.await {
                        tracing::warn!(subscriber = %rego.name, error = %err, "policy bundle not cached");
                    }
                }
                Applied::Same => current.etag = etag,
                Applied::Refused(why) => {
                    current.refused = Some(digest);
                    tracing::warn!(subscriber = %rego.name, error = %why, "policy bundle refused; the previous policy keeps deciding");
                }
            }
        }
        Ok(Err(err)) => {
            policy
                .fetch_errors
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            policy.fetched(format!("failed: {err}"));
            tracing::warn!(subscriber = %rego.name, error = %err, "policy bundle fetch failed");
        }
        Err(_) => policy.fetched("failed: fetch task panicked".to_owned()),
    }
}

/// What one bundle did.
enum Applied {
    Updated(String),
    Same,
    Refused(String),
}

/// Verifies, checks and compiles `bytes` off the async workers, installs
/// it if good; records the result in the subscriber's status.
async fn apply(
    rego: &Rego,
    verification: &Verification,
    current: &mut Current,
    bytes: Vec<u8>,
) -> Applied {
    let (config, verification, deciding) = (
        rego.config.clone(),
        verification.clone(),
        current.revision.clone(),
    );
    let checked = tokio::task::spawn_blocking(move || {
        check(&config, &verification, deciding.as_deref(), &bytes)
    })
    .await
    .unwrap_or_else(|_| Err("the bundle check panicked".to_owned()));
    let stats = &rego.stats.policy;
    let counted = std::sync::atomic::Ordering::Relaxed;
    match checked {
        Ok(Checked::Newer(revision, policy)) => {
            rego.install(Arc::from(policy));
            current.revision = Some(revision.clone());
            stats.updates.fetch_add(1, counted);
            stats.fetched(format!("updated to revision {revision}"));
            Applied::Updated(revision)
        }
        Ok(Checked::Same(revision)) => {
            stats.fetched(format!("unchanged (revision {revision})"));
            Applied::Same
        }
        Err(why) => {
            stats.refused.fetch_add(1, counted);
            stats.fetched(format!("refused: {why}"));
            Applied::Refused(why)
        }
    }
}

enum Checked {
    Newer(String, Box<Policy>),
    Same(String),
}

/// The bundle in `bytes`, verified, newer than `deciding` and compiled
/// with the subscriber's local files.
fn check(
    config: &RegoConfig,
    verification: &Verification,
    deciding: Option<&str>,
    bytes: &[u8],
) -> Result<Checked, String> {
    let opened = bundle::open(bytes, verification).map_err(|err| err.to_string())?;
    let revision = opened.manifest.revision.clone();
    if let Some(deciding) = deciding {
        if revision == deciding {
            return Ok(Checked::Same(revision));
        }
        if !bundle::newer(&revision, deciding) {
            return Err(format!(
                "revision {revision:?} is not newer than {deciding:?}, the one deciding now (rollback)"
            ));
        }
    }
    let mut modules = opened.modules;
    modules.extend(config.modules.iter().cloned());
    let mut data = opened.data;
    data.extend(config.data.iter().cloned());
    let shown = if config.modules.is_empty() && config.data.is_empty() {
        revision.clone()
    } else {
        format!("{revision}+{}", files_digest(&config.modules, &config.data))
    };
    let policy = Policy::compile(&modules, &data, &config.query, Some(shown), config.limits)
        .map_err(|err| format!("does not compile: {err}"))?;
    Ok(Checked::Newer(revision, Box::new(policy)))
}
