//! Who is on the other end of a loopback TCP connection (Linux).
//!
//! A TCP socket carries no `SO_PEERCRED`, but on loopback the client's
//! socket is in this machine's table: `/proc/net/tcp` (or `tcp6`) lists it
//! with its owner's uid, as the row whose local address is our peer's and
//! whose remote address is our own. Other systems have no such table for
//! an unprivileged reader; there the token is the only check.

use std::io::{self, BufRead as _};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// The uid owning the client socket of the connection `peer` → `local`,
/// or `None` when no row matches (the client is gone, or in another
/// network namespace).
pub fn owner(peer: SocketAddr, local: SocketAddr) -> io::Result<Option<u32>> {
    let table = match peer {
        SocketAddr::V4(_) => "/proc/net/tcp",
        SocketAddr::V6(_) => "/proc/net/tcp6",
    };
    let file = std::fs::File::open(table)?;
    let reader = io::BufReader::new(file);
    for line in reader.lines().skip(1) {
        if let Some(uid) = row_owner(&line?, peer, local) {
            return Ok(Some(uid));
        }
    }
    Ok(None)
}

/// The uid of one table row if it is the socket `peer` → `local`.
fn row_owner(row: &str, peer: SocketAddr, local: SocketAddr) -> Option<u32> {
    let mut fields = row.split_whitespace();
    let _slot = fields.next()?;
    let row_local = parse_addr(fields.next()?)?;
    let row_remote = parse_addr(fields.next()?)?;
    if row_local != peer || row_remote != local {
        return None;
    }
    // state, tx:rx queues, timer, retransmits, then the uid.
    fields.nth(4)?.parse().ok()
}

/// `0100007F:1F90` (IPv4) or 32 hex digits and a port (IPv6): each 32-bit
/// word of the address is printed as the host reads its network-order
/// bytes, the port as a plain number.
fn parse_addr(text: &str) -> Option<SocketAddr> {
    let (addr, port) = text.split_once(':')?;
    let port = u16::from_str_radix(port, 16).ok()?;
    let word = |i: usize| -> Option<[u8; 4]> {
        let hex = addr.get(i * 8..i * 8 + 8)?;
        Some(u32::from_str_radix(hex, 16).ok()?.to_ne_bytes())
    };
    let ip = match addr.len() {
        8 => IpAddr::V4(Ipv4Addr::from(word(0)?)),
        32 => {
            let mut bytes = [0u8; 16];
            for i in 0..4 {
                bytes[i * 4..i * 4 + 4].copy_from_slice(&word(i)?);
            }
            IpAddr::V6(Ipv6Addr::from(bytes))
        }
        _ => return None,
    };
    Some(SocketAddr::new(ip, port))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows as the kernel prints them on a little-endian machine (the
    /// parse uses the host's byte order, as the kernel does).
    #[cfg(target_endian = "little")]
    #[test]
    fn finds_the_client_row() {
        let peer: SocketAddr = "127.0.0.1:40000".parse().unwrap();
        let local: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let rows = [
            // The listener, the server's side, then the client's side.
            (
                "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1 1",
                None,
            ),
            (
                "   1: 0100007F:1F90 0100007F:9C40 01 00000000:00000000 00:00000000 00000000  1000        0 2 1",
                None,
            ),
            (
                "   2: 0100007F:9C40 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  1001        0 3 1",
                Some(1001),
            ),
            ("   3: garbage", None),
        ];
        for (row, expected) in rows {
            assert_eq!(row_owner(row, peer, local), expected, "{row}");
        }
        let peer6: SocketAddr = "[::1]:40000".parse().unwrap();
        let local6: SocketAddr = "[::1]:8080".parse().unwrap();
        let row6 = "   0: 00000000000000000000000001000000:9C40 00000000000000000000000001000000:1F90 01 00000000:00000000 00:00000000 00000000  1002        0 4 1";
        assert_eq!(row_owner(row6, peer6, local6), Some(1002));
    }

    /// The real table: our own client socket belongs to us.
    #[cfg(target_os = "linux")]
    #[test]
    fn own_connection_is_ours() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let client = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, peer) = listener.accept().unwrap();
        let owner = owner(peer, server.local_addr().unwrap()).unwrap();
        assert_eq!(owner, Some(hookgate_wire::socket::current_uid()));
        drop(client);
    }
}
