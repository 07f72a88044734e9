//! `[identity]` → the `Caller` every proto event carries.

use hookgate_proto::v1;

use hookgate_config::IdentityConfig;

/// The caller as configured, looked up now (at start-up and on each
/// reload): the host name from the system, the user from the environment
/// (`USER`, or `USERNAME` on Windows), else, on Unix, the numeric uid.
pub(crate) fn caller(identity: &IdentityConfig) -> v1::Caller {
    v1::Caller {
        hostname: identity
            .hostname
            .then(|| gethostname::gethostname().into_string().ok())
            .flatten()
            .filter(|h| !h.is_empty()),
        user: identity.user.then(user).flatten(),
        origin: identity.origin.clone(),
        labels: identity.labels.clone().into_iter().collect(),
        gateway_version: env!("CARGO_PKG_VERSION").to_owned(),
    }
}

/// `caller` as the JSON a Rego policy reads (`input.caller`): only the
/// fields set, the proto's names.
pub(crate) fn caller_json(caller: &v1::Caller) -> serde_json::Value {
    let mut out = serde_json::json!({ "gateway_version": caller.gateway_version });
    for (key, value) in [
        ("hostname", &caller.hostname),
        ("user", &caller.user),
        ("origin", &caller.origin),
    ] {
        if let Some(value) = value {
            out[key] = serde_json::json!(value);
        }
    }
    if !caller.labels.is_empty() {
        out["labels"] = serde_json::json!(caller.labels);
    }
    out
}

fn user() -> Option<String> {
    let var = if cfg!(windows) { "USERNAME" } else { "USER" };
    let named = std::env::var(var).ok().filter(|u| !u.is_empty());
    #[cfg(unix)]
    let named = named.or_else(|| Some(format!("uid {}", hookgate_wire::socket::current_uid())));
    named
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_configured_fields_are_sent() {
        let quiet = IdentityConfig {
            hostname: false,
            user: false,
            origin: Some("eu-laptops".into()),
            labels: [("team".to_owned(), "payments".to_owned())].into(),
        };
        let caller = caller(&quiet);
        assert_eq!(caller.hostname, None);
        assert_eq!(caller.user, None);
        assert_eq!(caller.origin.as_deref(), Some("eu-laptops"));
        assert_eq!(caller.labels["team"], "payments");
        assert_eq!(caller.gateway_version, env!("CARGO_PKG_VERSION"));

        let full = super::caller(&IdentityConfig::default());
        assert!(full.hostname.is_some_and(|h| !h.is_empty()));
        assert!(full.user.is_some_and(|u| !u.is_empty()));
    }
}
