//! The HTTP hook port (`[http]` on): who listens on it. Loopback is
//! shared by every local user, so a port another user holds receives the
//! HTTP hooks' token and every payload, and the agents obey its answers;
//! a port nobody holds is free for anyone to take.

use hookgate_config::Config;
use hookgate_daemon::http::port::{self, Holder};

use super::Report;

/// Checks who holds the `[http]` port of the config a gateway here would
/// load; nothing to check without `[http]` (or with port 0).
pub(crate) fn check(report: &mut Report) {
    let Some(http) = Config::load(None).ok().and_then(|config| config.http) else {
        return;
    };
    let addr = http.listen;
    if addr.port() == 0 {
        return;
    }
    let held = "`gateway install --transport http --service` has the service manager hold the port from login";
    match port::holder(addr) {
        Holder::ThisUser => report.ok(&format!(
            "HTTP hook port {addr}: held by this user (the gateway, or the service manager for it)"
        )),
        Holder::Other { who, .. } => report.problem(
            &format!(
                "the HTTP hook port {addr} is held by another user ({who}), not by your gateway: \
                 it receives the HTTP hooks' token and every payload, and the agents obey its answers"
            ),
            &format!(
                "switch the agents back to the shim now (`gateway install --agent claude-code`); have \
                 root stop that process (`ss -ltnp 'sport = :{port}'`); then {held}",
                port = addr.port()
            ),
        ),
        Holder::Free => report.problem(
            &format!(
                "nothing listens on the HTTP hook port {addr}: HTTP hooks fail, and any local user \
                 may take the port and receive their token and payloads"
            ),
            &format!("start the gateway; {held}"),
        ),
        Holder::Unknown(why) => report.note(&format!(
            "cannot tell who holds the HTTP hook port {addr} ({why}): HTTP hooks are safe only on a \
             single-user machine, or with the port held by the service manager"
        )),
    }
}
