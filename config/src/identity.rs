//! `[identity]`: what every event sent to a remote subscriber says about
//! where it comes from, so one central service can tell its callers apart.
//!
//! ```toml
//! [identity]
//! hostname = true          # default: the machine's host name
//! user = true              # default: the user the gateway runs as
//! origin = "eu-laptops"    # a label of your choice
//! labels = { team = "payments" }
//! ```
//!
//! This is a label, not a proof: a caller is authenticated by its client
//! certificate or token (see `tls_cert_file`, `token_file`).

use std::collections::BTreeMap;

use super::error::{ConfigError, Locator};
use super::raw::RawIdentity;

const MAX_LABELS: usize = 16;
const MAX_VALUE: usize = 256;

/// The validated `[identity]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdentityConfig {
    pub hostname: bool,
    pub user: bool,
    pub origin: Option<String>,
    pub labels: BTreeMap<String, String>,
}

impl Default for IdentityConfig {
    fn default() -> Self {
        IdentityConfig {
            hostname: true,
            user: true,
            origin: None,
            labels: BTreeMap::new(),
        }
    }
}

pub(super) fn identity(at: &Locator<'_>, raw: RawIdentity) -> Result<IdentityConfig, ConfigError> {
    let default = IdentityConfig::default();
    let origin = match raw.origin {
        None => None,
        Some(origin) => {
            if !printable(origin.get_ref()) {
                return Err(at.error(
                    origin.span(),
                    "identity.origin",
                    format!("1-{MAX_VALUE} printable characters"),
                ));
            }
            Some(origin.into_inner())
        }
    };
    let labels = match raw.labels {
        None => BTreeMap::new(),
        Some(labels) => {
            let span = labels.span();
            let labels = labels.into_inner();
            if labels.len() > MAX_LABELS {
                return Err(at.error(
                    span,
                    "identity.labels",
                    format!("at most {MAX_LABELS} labels"),
                ));
            }
            for (name, value) in &labels {
                let name_ok = !name.is_empty()
                    && name.len() <= 64
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
                if !name_ok || !printable(value) {
                    return Err(at.error(
                        span,
                        format!("identity.labels.{name}"),
                        format!(
                            "a label is 1-64 characters of A-Z a-z 0-9 - _ . = 1-{MAX_VALUE} printable characters"
                        ),
                    ));
                }
            }
            labels
        }
    };
    Ok(IdentityConfig {
        hostname: raw.hostname.map_or(default.hostname, |h| h.into_inner()),
        user: raw.user.map_or(default.user, |u| u.into_inner()),
        origin,
        labels,
    })
}

fn printable(value: &str) -> bool {
    !value.is_empty() && value.len() <= MAX_VALUE && !value.chars().any(char::is_control)
}
