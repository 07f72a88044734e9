//! The console's listener: on Linux, a connection whose socket belongs to
//! another user is closed before it is served, as the HTTP hook door does
//! (`crate::http::peer`): the cookie alone would let any local user who
//! learnt it in. Elsewhere every loopback connection is served.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};

use crate::warnings::{self, Warning};

/// A [`TcpListener`] whose `accept` yields only this user's connections.
pub(super) struct Checked(pub(super) TcpListener);

impl axum::serve::Listener for Checked {
    type Io = TcpStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (TcpStream, SocketAddr) {
        loop {
            let (stream, peer) = match self.0.accept().await {
                Ok(accepted) => accepted,
                Err(err) => {
                    warnings::warn(
                        Warning::Connection,
                        format_args!("console accept failed: {err}"),
                    );
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            };
            if ours(&stream, peer).await {
                return (stream, peer);
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.0.local_addr()
    }
}

#[cfg(target_os = "linux")]
async fn ours(stream: &TcpStream, peer: SocketAddr) -> bool {
    let Ok(local) = stream.local_addr() else {
        return false;
    };
    let owner = tokio::task::spawn_blocking(move || crate::http::peer::owner(peer, local)).await;
    let uid = hookgate_wire::socket::current_uid();
    match owner {
        Ok(Ok(Some(owner))) if owner == uid => true,
        Ok(Ok(Some(owner))) => {
            warnings::warn(
                Warning::Connection,
                format_args!("refused a console connection from uid {owner} (this user is {uid})"),
            );
            false
        }
        _ => {
            warnings::warn(
                Warning::Connection,
                format_args!("refused a console connection from {peer}: its owner is unknown"),
            );
            false
        }
    }
}

#[cfg(not(target_os = "linux"))]
async fn ours(_stream: &TcpStream, _peer: SocketAddr) -> bool {
    true
}
