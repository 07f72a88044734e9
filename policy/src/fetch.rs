//! Downloading a bundle: one conditional GET, bounded in time and bytes.
//!
//! `If-None-Match` carries the last good bundle's `ETag`, so an unchanged
//! bundle costs a 304 and no transfer. Blocking (a small client on
//! rustls with the system's roots): the gateway runs it on a thread of its
//! own, never on the async workers. Redirects are not followed (a bundle
//! URL names the bundle); proxies come from the usual environment
//! variables.

use std::sync::Arc;
use std::time::Duration;

use crate::cache::MAX_BUNDLE_BYTES;

/// What one poll found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fetched {
    /// 304: the bundle with the ETag sent is still current.
    NotModified,
    /// 200: the archive and its ETag, if the server sent one.
    Bundle {
        bytes: Vec<u8>,
        etag: Option<String>,
    },
}

/// Why a poll failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    #[error("HTTP {0} from the bundle server")]
    Status(u16),
    #[error("the bundle is larger than {} MiB", MAX_BUNDLE_BYTES >> 20)]
    TooLarge,
    #[error("{0}")]
    Transport(String),
}

/// A reusable client (its connections and TLS roots kept across polls).
#[derive(Debug)]
pub struct Client {
    agent: ureq::Agent,
}

impl Client {
    /// A client whose every request ends within `timeout`.
    pub fn new(timeout: Duration) -> Client {
        Client {
            agent: http_agent(timeout),
        }
    }

    /// GETs `url`, conditional on `etag`.
    pub fn get(&self, url: &str, etag: Option<&str>) -> Result<Fetched, FetchError> {
        let mut request = self.agent.get(url);
        if let Some(etag) = etag {
            request = request.header("If-None-Match", etag);
        }
        let mut response = request
            .call()
            .map_err(|err| FetchError::Transport(err.to_string()))?;
        match response.status().as_u16() {
            304 => Ok(Fetched::NotModified),
            200 => {
                let etag = response
                    .headers()
                    .get("etag")
                    .and_then(|v| v.to_str().ok())
                    .filter(|v| !v.is_empty() && v.len() < 1024)
                    .map(str::to_owned);
                let bytes = response
                    .body_mut()
                    .with_config()
                    .limit(MAX_BUNDLE_BYTES)
                    .read_to_vec()
                    .map_err(|err| match err {
                        ureq::Error::BodyExceedsLimit(_) => FetchError::TooLarge,
                        other => FetchError::Transport(other.to_string()),
                    })?;
                Ok(Fetched::Bundle { bytes, etag })
            }
            status => Err(FetchError::Status(status)),
        }
    }
}

/// A blocking HTTP client on rustls (ring, the system's roots) whose
/// every request ends within `timeout`, following no redirect and
/// reporting every status as a response: for bundles, the `approval`'s
/// webhooks and the memory built-in's model endpoint.
pub fn http_agent(timeout: Duration) -> ureq::Agent {
    let roots = rustls_native_certs::load_native_certs()
        .certs
        .iter()
        .map(|der| ureq::tls::Certificate::from_der(der.as_ref()).to_owned())
        .collect();
    let tls = ureq::tls::TlsConfig::builder()
        .root_certs(ureq::tls::RootCerts::Specific(Arc::new(roots)))
        .unversioned_rustls_crypto_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .build();
    ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .max_redirects(0)
        .http_status_as_error(false)
        .tls_config(tls)
        .user_agent(concat!("hookgate/", env!("CARGO_PKG_VERSION")))
        .build()
        .new_agent()
}
