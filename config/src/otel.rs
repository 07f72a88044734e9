//! `[otel]`: where traces and metrics go, checked like every other section.
//! Header values are never written in the config: they name an environment
//! variable or a file, read when the exporter starts.

use std::path::PathBuf;
use std::time::Duration;

use toml::Spanned;

use super::error::{ConfigError, Locator};
use super::layers::{Layer, only_in_system};
use super::numbers::{int_or, millis};
use super::raw::RawOtel;

const DEFAULT_QUEUE: usize = 2048;
const DEFAULT_EXPORT_TIMEOUT: Duration = Duration::from_millis(5000);
const DEFAULT_METRICS_INTERVAL: Duration = Duration::from_millis(30_000);

/// A validated `[otel]` with `enabled` not `false`.
#[derive(Debug, Clone, PartialEq)]
pub struct OtelConfig {
    /// OTLP/gRPC, `http://host:port`.
    pub endpoint: String,
    pub service_name: String,
    /// The fraction of events traced when no `traceparent` came in.
    pub sample_ratio: f64,
    /// Header name → environment variable holding its value.
    pub headers_env: Vec<(String, String)>,
    /// A file of `name: value` lines.
    pub headers_file: Option<PathBuf>,
    /// Finished spans waiting for export, at most.
    pub queue_size: usize,
    pub export_timeout: Duration,
    pub metrics_interval: Duration,
    /// Attach the masked payload to each event's span.
    pub payloads: bool,
    /// The user said to send the headers in plaintext to a collector off
    /// this machine (`headers_over_plaintext`); otherwise a config with
    /// headers and such an endpoint is refused.
    pub headers_over_plaintext: bool,
    /// System layer: the user's `[otel]` is ignored.
    pub locked: bool,
}

pub(super) fn otel_section(
    at: &Locator<'_>,
    raw: &Spanned<RawOtel>,
    layer: Layer,
) -> Result<Option<OtelConfig>, ConfigError> {
    let otel = raw.get_ref();
    only_in_system(at, layer, otel.locked.as_ref(), "otel.locked")?;
    if otel.enabled.as_ref().is_some_and(|e| !*e.get_ref()) {
        return Ok(None);
    }
    let Some(endpoint) = &otel.endpoint else {
        return Err(at.error(
            raw.span(),
            "otel.endpoint",
            "the collector's OTLP/gRPC endpoint is required: `http://host:4317`",
        ));
    };
    let value = endpoint.get_ref();
    let rest = value.strip_prefix("http://").unwrap_or_default();
    if rest.is_empty()
        || rest.starts_with('/')
        || tonic::transport::Endpoint::from_shared(value.clone()).is_err()
    {
        return Err(at.error(
            endpoint.span(),
            "otel.endpoint",
            format!("bad endpoint `{value}`: expected `http://host:port` (OTLP over gRPC)"),
        ));
    }
    let sample_ratio = match &otel.sample_ratio {
        None => 1.0,
        Some(r) if (0.0..=1.0).contains(r.get_ref()) => *r.get_ref(),
        Some(r) => {
            return Err(at.error(r.span(), "otel.sample_ratio", "must be within 0.0..=1.0"));
        }
    };
    let mut headers_env = Vec::new();
    if let Some(table) = &otel.headers_env {
        for (header, var) in table.get_ref() {
            let valid = http::HeaderName::from_bytes(header.as_bytes()).is_ok();
            match var.as_str() {
                Some(var) if valid && !var.is_empty() => {
                    headers_env.push((header.to_ascii_lowercase(), var.to_owned()));
                }
                _ => {
                    return Err(at.error(
                        table.span(),
                        format!("otel.headers_env.{header}"),
                        "a header name mapped to the name of the environment variable holding its value",
                    ));
                }
            }
        }
    }
    let headers_file = match &otel.headers_file {
        None => None,
        Some(path) if std::path::Path::new(path.get_ref()).is_absolute() => {
            Some(PathBuf::from(path.get_ref()))
        }
        Some(path) => {
            return Err(at.error(path.span(), "otel.headers_file", "must be an absolute path"));
        }
    };
    let has_headers = !headers_env.is_empty() || headers_file.is_some();
    let opted_in = otel
        .headers_over_plaintext
        .as_ref()
        .is_some_and(|o| *o.get_ref());
    if has_headers && !opted_in && !on_loopback(value) {
        let (span, key) = match (&otel.headers_env, &otel.headers_file) {
            (Some(table), _) => (table.span(), "otel.headers_env"),
            (None, Some(file)) => (file.span(), "otel.headers_file"),
            (None, None) => (endpoint.span(), "otel.endpoint"),
        };
        return Err(at.error(
            span,
            key,
            format!(
                "headers (credentials, tenant ids) would go in plaintext to `{value}`, which is not a loopback \
                 address: anyone on the path reads them. Export to a collector on this machine \
                 (`http://127.0.0.1:4317`) that forwards over TLS, or set `headers_over_plaintext = true` \
                 to send them anyway"
            ),
        ));
    }
    let service_name = match &otel.service_name {
        None => "hookgate".to_owned(),
        Some(name) if !name.get_ref().trim().is_empty() && name.get_ref().len() <= 128 => {
            name.get_ref().clone()
        }
        Some(name) => {
            return Err(at.error(name.span(), "otel.service_name", "1-128 characters"));
        }
    };
    Ok(Some(OtelConfig {
        endpoint: value.clone(),
        service_name,
        sample_ratio,
        headers_env,
        headers_file,
        queue_size: int_or(
            at,
            otel.queue_size.as_ref(),
            "otel.queue_size",
            1..=65_536,
            DEFAULT_QUEUE,
        )?,
        export_timeout: millis(
            at,
            otel.export_timeout_ms.as_ref(),
            "otel.export_timeout_ms",
            DEFAULT_EXPORT_TIMEOUT,
        )?,
        metrics_interval: millis(
            at,
            otel.metrics_interval_ms.as_ref(),
            "otel.metrics_interval_ms",
            DEFAULT_METRICS_INTERVAL,
        )?,
        payloads: otel.payloads.as_ref().is_some_and(|p| *p.get_ref()),
        headers_over_plaintext: opted_in,
        locked: otel.locked.as_ref().is_some_and(|l| *l.get_ref()),
    }))
}

/// Whether the `http://host:port` endpoint names this machine: a loopback
/// IP address or `localhost`. A name that merely resolves to loopback
/// today is not trusted to tomorrow. (Also `[subscriber.model]`'s check.)
pub(super) fn on_loopback(endpoint: &str) -> bool {
    let Ok(uri) = endpoint.parse::<http::Uri>() else {
        return false;
    };
    let Some(host) = uri.host() else {
        return false;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::on_loopback;

    #[test]
    fn loopback_endpoints_are_recognised() {
        for (endpoint, loopback) in [
            ("http://127.0.0.1:4317", true),
            ("http://127.8.9.10:4317", true),
            ("http://localhost:4317", true),
            ("http://LOCALHOST:4317", true),
            ("http://[::1]:4317", true),
            ("http://10.0.0.5:4317", false),
            ("http://collector.example.com:4317", false),
            ("http://localhost.evil.example:4317", false),
            ("http://[::ffff:10.0.0.1]:4317", false),
            ("http://0.0.0.0:4317", false),
        ] {
            assert_eq!(on_loopback(endpoint), loopback, "{endpoint}");
        }
    }
}
