//! The owner of one TCP socket, asked of the kernel by its addresses
//! (`NETLINK_SOCK_DIAG`, as `ss` does): an exact lookup, where reading
//! `/proc/net/tcp` is a walk of the whole table that can skip rows while
//! other sockets open and close, which another user's connection flood
//! makes likely — and a skipped row would refuse this user's own call.

use std::io;
use std::net::SocketAddr;

use netlink_packet_core::{NLM_F_REQUEST, NetlinkHeader, NetlinkMessage, NetlinkPayload};
use netlink_packet_sock_diag::SockDiagMessage;
use netlink_packet_sock_diag::constants::{AF_INET, AF_INET6, IPPROTO_TCP};
use netlink_packet_sock_diag::inet::{ExtensionFlags, InetRequest, SocketId, StateFlags};
use netlink_sys::protocols::NETLINK_SOCK_DIAG;
use netlink_sys::{Socket, SocketAddr as NetlinkAddr};

/// A closed socket's lingering state (`TCP_TIME_WAIT`): it names no owner.
const TIME_WAIT: u8 = 0x06;
/// `INET_DIAG_NOCOOKIE`: match the socket by its addresses alone.
const NO_COOKIE: [u8; 8] = [0xff; 8];
/// One reply: a header and an `inet_diag_msg`, far below this.
const REPLY_BYTES: usize = 8192;
/// The kernel's answer for "no such socket".
const ENOENT: i32 = 2;

/// Why the kernel could not be asked (no sock_diag support, say): the
/// caller falls back to the table.
#[derive(Debug)]
pub(super) struct Unavailable(pub(super) io::Error);

/// The uid owning the socket whose local address is `source` and whose
/// peer is `destination`; `Ok(None)` when there is no such socket (the
/// client is gone, or in another network namespace).
pub(super) fn owner(
    source: SocketAddr,
    destination: SocketAddr,
) -> Result<io::Result<Option<u32>>, Unavailable> {
    let socket = connect().map_err(Unavailable)?;
    Ok(ask(&socket, source, destination))
}

fn connect() -> io::Result<Socket> {
    let mut socket = Socket::new(NETLINK_SOCK_DIAG)?;
    socket.bind_auto()?;
    socket.connect(&NetlinkAddr::new(0, 0))?;
    Ok(socket)
}

fn ask(socket: &Socket, source: SocketAddr, destination: SocketAddr) -> io::Result<Option<u32>> {
    let mut id = match source {
        SocketAddr::V4(_) => SocketId::new_v4(),
        SocketAddr::V6(_) => SocketId::new_v6(),
    };
    id.source_port = source.port();
    id.destination_port = destination.port();
    id.source_address = source.ip();
    id.destination_address = destination.ip();
    id.cookie = NO_COOKIE;
    let request = InetRequest {
        family: if source.is_ipv4() { AF_INET } else { AF_INET6 },
        protocol: IPPROTO_TCP,
        extensions: ExtensionFlags::empty(),
        states: StateFlags::all(),
        socket_id: id,
    };
    let mut header = NetlinkHeader::default();
    header.flags = NLM_F_REQUEST;
    let mut packet = NetlinkMessage::new(header, SockDiagMessage::InetRequest(request).into());
    packet.finalize();
    let mut bytes = vec![0; packet.buffer_len()];
    packet.serialize(&mut bytes);
    socket.send(&bytes, 0)?;

    let mut reply = vec![0; REPLY_BYTES];
    let received = socket.recv(&mut &mut reply[..], 0)?;
    let message = <NetlinkMessage<SockDiagMessage>>::deserialize(&reply[..received])
        .map_err(|err| io::Error::new(io::ErrorKind::InvalidData, err.to_string()))?;
    match message.payload {
        NetlinkPayload::InnerMessage(SockDiagMessage::InetResponse(response)) => {
            Ok((response.header.state != TIME_WAIT).then_some(response.header.uid))
        }
        NetlinkPayload::Error(error) => match error.code {
            Some(code) if code.get() == -ENOENT => Ok(None),
            Some(code) => Err(io::Error::from_raw_os_error(-code.get())),
            None => Err(io::Error::other("sock_diag acknowledged without an answer")),
        },
        _ => Err(io::Error::other("unexpected sock_diag reply")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Our own client socket is ours; an address nothing uses is nobody's.
    #[test]
    fn finds_exactly_the_socket_asked_for() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let client = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, peer) = listener.accept().unwrap();
        let local = server.local_addr().unwrap();
        let uid = hookgate_wire::socket::current_uid();
        assert_eq!(owner(peer, local).unwrap().unwrap(), Some(uid));
        let unused: SocketAddr = "127.0.0.1:1".parse().unwrap();
        assert_eq!(owner(unused, local).unwrap().unwrap(), None);
        drop(client);
    }
}
