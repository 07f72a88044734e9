//! The HTTP hook port: binding it, and who holds it when that fails.
//!
//! Loopback is shared by every local user, and any of them may listen on a
//! port nobody holds. Whoever holds the `[http]` port while the gateway is
//! not running receives the token and every payload of the agents' HTTP
//! hooks, and the agents obey its answers. So a port that is taken is
//! never a bare "address in use": the error says who holds it (Linux: the
//! kernel's TCP table, [`super::peer::listener_owner`]) and what to do.
//! `gateway doctor` asks the same question of a running system, and
//! `serve` goes on without HTTP when another user holds the port (the
//! shims' socket still served).

use std::io;
use std::net::SocketAddr;

use tokio::net::TcpListener;

/// Who listens on a port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Holder {
    /// Nothing listens there.
    Free,
    /// A process of this user (a gateway, or the service manager holding
    /// the port for one).
    ThisUser,
    /// Another user: `uid`, described with its name when it has one.
    Other { uid: u32, who: String },
    /// This system cannot tell (no readable TCP table).
    Unknown(String),
}

/// Why the port could not be bound.
#[derive(Debug, thiserror::Error)]
pub enum PortError {
    #[error(
        "cannot serve HTTP hooks on {addr}: another user ({who}) is listening there. Whoever holds the \
         port receives the HTTP hooks' token and every payload, and the agents obey its answers: do not \
         use HTTP hooks until it is freed. Switch the agents back to the shim (`gateway install --agent \
         claude-code`, the safe default), have root stop that process (`ss -ltnp 'sport = :{port}'`), or \
         move `[http] listen` to another port and run `gateway install --transport http --service`, so \
         that the service manager holds the port from login",
        port = addr.port()
    )]
    TakenByOther { addr: SocketAddr, who: String },
    #[error(
        "cannot serve HTTP hooks on {addr}: a process of this user already listens there (another \
         gateway, or the service manager's hookgate-http.socket, which starts the gateway itself: \
         `systemctl --user start hookgate.service`); see `ss -ltnp 'sport = :{port}'`",
        port = addr.port()
    )]
    TakenByThisUser { addr: SocketAddr },
    #[error(
        "cannot serve HTTP hooks on {addr}: {source} (who holds it is unknown here: {why}). If it is not \
         your gateway, do not use HTTP hooks until it is freed: whoever holds the port receives their \
         token and payloads (`lsof -nP -iTCP:{port} -sTCP:LISTEN` names it)",
        port = addr.port()
    )]
    Taken {
        addr: SocketAddr,
        source: io::Error,
        why: String,
    },
    #[error("cannot serve HTTP hooks on {addr}: {source}")]
    Io { addr: SocketAddr, source: io::Error },
}

/// Binds the endpoint's listener (the address was checked to be loopback
/// when the config was validated); a port in use says who holds it.
pub async fn bind(addr: SocketAddr) -> Result<TcpListener, PortError> {
    match TcpListener::bind(addr).await {
        Ok(listener) => Ok(listener),
        Err(source) if source.kind() == io::ErrorKind::AddrInUse => {
            let holder = tokio::task::spawn_blocking(move || holder(addr))
                .await
                .unwrap_or_else(|err| Holder::Unknown(err.to_string()));
            Err(match holder {
                Holder::Other { who, .. } => PortError::TakenByOther { addr, who },
                Holder::ThisUser => PortError::TakenByThisUser { addr },
                Holder::Free => PortError::Taken {
                    addr,
                    source,
                    why: "no listener found; it may be gone already".to_owned(),
                },
                Holder::Unknown(why) => PortError::Taken { addr, source, why },
            })
        }
        Err(source) => Err(PortError::Io { addr, source }),
    }
}

/// Who listens where connections to `addr` go (blocking: reads the
/// kernel's table).
#[cfg(target_os = "linux")]
pub fn holder(addr: SocketAddr) -> Holder {
    match super::peer::listener_owner(addr) {
        Ok(None) => Holder::Free,
        Ok(Some(uid)) if uid == hookgate_wire::socket::current_uid() => Holder::ThisUser,
        Ok(Some(uid)) => Holder::Other {
            uid,
            who: super::peer::describe_uid(uid),
        },
        Err(err) => Holder::Unknown(format!("the TCP table is unreadable: {err}")),
    }
}

/// Who listens where connections to `addr` go: not known off Linux.
#[cfg(not(target_os = "linux"))]
pub fn holder(_addr: SocketAddr) -> Holder {
    Holder::Unknown("this system has no TCP table hookgate can read".to_owned())
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// A port this user holds is named as such, not as an address in use;
    /// a free one binds.
    #[tokio::test]
    async fn a_taken_port_names_its_holder() {
        let held = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = held.local_addr().unwrap();
        assert_eq!(holder(addr), Holder::ThisUser);
        let err = bind(addr).await.unwrap_err();
        assert!(matches!(err, PortError::TakenByThisUser { .. }), "{err}");
        assert!(err.to_string().contains("a process of this user"), "{err}");
        drop(held);
        assert_eq!(holder(addr), Holder::Free);
        bind(addr).await.unwrap();
    }
}
