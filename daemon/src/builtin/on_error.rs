//! What a failed subscriber's `on_error` answers, one place for remote
//! subscribers and the `rego` built-in: no opinion, or a deny naming the
//! subscriber and only the kind of failure (the details go to the log).

use hookgate_adapters::{Decision, Permission};
use hookgate_config::OnError;

use crate::warnings::{self, Warning};

/// The decision `on_error` gives for a failed subscriber, logged: no
/// opinion (allow) or a deny naming the subscriber (deny). `logged` (the
/// class and detail) goes to the gateway's log, `class` alone to the
/// agent. A shadow's failures say so: nothing is denied for real.
pub(crate) fn decision(
    name: &str,
    on_error: OnError,
    logged: &str,
    class: &str,
    shadow: bool,
) -> Decision {
    let shadow = if shadow {
        "shadow, not merged: would be "
    } else {
        ""
    };
    match on_error {
        OnError::Allow => {
            warnings::warn(
                Warning::Subscriber,
                format_args!(
                    "subscriber `{name}` failed ({logged}); {shadow}no opinion (on_error = allow)"
                ),
            );
            Decision::default()
        }
        OnError::Deny => {
            warnings::warn(
                Warning::Subscriber,
                format_args!(
                    "subscriber `{name}` failed ({logged}); {shadow}denying (on_error = deny)"
                ),
            );
            // The agent gets the kind of failure only; the details are in
            // the gateway's log.
            let reason = format!(
                "hookgate: subscriber `{name}` failed ({class}); blocked by its on_error = \"deny\" policy"
            );
            Decision {
                permission: Permission::Deny,
                agent_message: Some(reason.clone()),
                reason: Some(reason),
                ..Decision::default()
            }
        }
    }
}
