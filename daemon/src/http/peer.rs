//! Who owns a TCP socket on this machine (Linux): the client on the other
//! end of a loopback connection, or whoever listens on a port.
//!
//! A TCP socket carries no `SO_PEERCRED`, but on loopback the client's
//! socket is this machine's: the kernel names its owner when asked by its
//! addresses (`sock_diag`, exact), and `/proc/net/tcp` (or `tcp6`) lists it
//! with its owner's uid, as the row whose local address is our peer's and
//! whose remote address is our own (the fallback where sock_diag is
//! missing). A listening socket is a row in state
//! LISTEN with the port as its local address ([`listener_owner`]: who
//! holds the HTTP hook port, for `gateway serve`'s bind error and `gateway
//! doctor`). Other systems have no such table for an unprivileged reader;
//! there the token is the only check.

use std::io::{self, BufRead as _};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// The kernel's TCP tables, IPv4 and IPv6.
const TABLES: [&str; 2] = ["/proc/net/tcp", "/proc/net/tcp6"];
/// A listening socket's state in the tables (`TCP_LISTEN`).
const LISTEN: u8 = 0x0A;
/// A closed socket's lingering state (`TCP_TIME_WAIT`): its row shows uid
/// 0, whoever had it, so it names no owner.
const TIME_WAIT: u8 = 0x06;

/// The uid owning the client socket of the connection `peer` → `local`,
/// or `None` when no row matches (the client is gone, or in another
/// network namespace).
pub fn owner(peer: SocketAddr, local: SocketAddr) -> io::Result<Option<u32>> {
    match super::sock_diag::owner(peer, local) {
        Ok(asked) => asked,
        Err(unavailable) => {
            tracing::debug!(error = %unavailable.0, "sock_diag unavailable; reading the TCP table");
            table_owner(peer, local)
        }
    }
}

/// [`owner`] from the kernel's table, where sock_diag is not available.
fn table_owner(peer: SocketAddr, local: SocketAddr) -> io::Result<Option<u32>> {
    let table = match peer {
        SocketAddr::V4(_) => TABLES[0],
        SocketAddr::V6(_) => TABLES[1],
    };
    find(table, |row| {
        (row.local == peer && row.remote == local && row.state != TIME_WAIT).then_some(row.uid)
    })
}

/// The uid of the socket listening where connections to `addr` go: bound
/// to `addr` itself, to its family's any-address, or (for IPv4) to the
/// IPv6 any-address or `addr` mapped into IPv6. `None`: nothing listens.
pub fn listener_owner(addr: SocketAddr) -> io::Result<Option<u32>> {
    let catches = |local: SocketAddr| {
        let ip = match local.ip() {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
            v4 => v4,
        };
        local.port() == addr.port() && (ip == addr.ip() || ip.is_unspecified())
    };
    for table in TABLES {
        let found = find(table, |row| {
            (row.state == LISTEN && catches(row.local)).then_some(row.uid)
        });
        match found {
            Ok(Some(uid)) => return Ok(Some(uid)),
            // No IPv6 on this kernel: no tcp6 table.
            Err(err) if table == TABLES[1] && err.kind() == io::ErrorKind::NotFound => {}
            Err(err) => return Err(err),
            Ok(None) => {}
        }
    }
    Ok(None)
}

/// `uid` with its user name from `/etc/passwd`, when it has one: `uid
/// 65534 (nobody)`.
#[expect(
    clippy::disallowed_methods,
    reason = "for messages at startup and in `gateway doctor`, never on the hook path"
)]
pub fn describe_uid(uid: u32) -> String {
    use std::io::Read as _;
    let mut passwd = String::new();
    let read = std::fs::File::open("/etc/passwd")
        .and_then(|file| file.take(4 << 20).read_to_string(&mut passwd));
    let name = read.ok().and_then(|_| {
        passwd.lines().find_map(|line| {
            let mut fields = line.split(':');
            let name = fields.next()?;
            let found: u32 = fields.nth(1)?.parse().ok()?;
            (found == uid).then_some(name)
        })
    });
    match name {
        Some(name) => format!("uid {uid} ({name})"),
        None => format!("uid {uid}"),
    }
}

/// The first `Some` that `pick` makes of a row of `table`.
#[expect(
    clippy::disallowed_methods,
    reason = "run on the blocking pool (http/mod.rs), at startup or by `gateway doctor`"
)]
fn find(table: &str, mut pick: impl FnMut(&Row) -> Option<u32>) -> io::Result<Option<u32>> {
    let file = std::fs::File::open(table)?;
    let reader = io::BufReader::new(file);
    for line in reader.lines().skip(1) {
        if let Some(found) = parse_row(&line?).as_ref().and_then(&mut pick) {
            return Ok(Some(found));
        }
    }
    Ok(None)
}

/// One row of a table: what the checks need of it.
#[derive(Debug, PartialEq, Eq)]
struct Row {
    local: SocketAddr,
    remote: SocketAddr,
    state: u8,
    uid: u32,
}

/// `sl local remote st tx:rx tr:when retrnsmt uid …`.
fn parse_row(row: &str) -> Option<Row> {
    let mut fields = row.split_whitespace();
    let _slot = fields.next()?;
    let local = parse_addr(fields.next()?)?;
    let remote = parse_addr(fields.next()?)?;
    let state = u8::from_str_radix(fields.next()?, 16).ok()?;
    // tx:rx queues, timer, retransmits, then the uid.
    let uid = fields.nth(3)?.parse().ok()?;
    Some(Row {
        local,
        remote,
        state,
        uid,
    })
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
        let row_owner = |row: &str, peer, local| {
            parse_row(row).and_then(|r| (r.local == peer && r.remote == local).then_some(r.uid))
        };
        for (row, expected) in rows {
            assert_eq!(row_owner(row, peer, local), expected, "{row}");
        }
        assert_eq!(parse_row(rows[0].0).map(|r| r.state), Some(LISTEN));
        let peer6: SocketAddr = "[::1]:40000".parse().unwrap();
        let local6: SocketAddr = "[::1]:8080".parse().unwrap();
        let row6 = "   0: 00000000000000000000000001000000:9C40 00000000000000000000000001000000:1F90 01 00000000:00000000 00:00000000 00000000  1002        0 4 1";
        assert_eq!(row_owner(row6, peer6, local6), Some(1002));
    }

    /// Our own client socket belongs to us, asked and in the table.
    #[cfg(target_os = "linux")]
    #[test]
    fn own_connection_is_ours() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let client = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, peer) = listener.accept().unwrap();
        let local = server.local_addr().unwrap();
        let uid = Some(hookgate_wire::socket::current_uid());
        assert_eq!(owner(peer, local).unwrap(), uid);
        assert_eq!(table_owner(peer, local).unwrap(), uid, "the fallback");
        drop(client);
    }

    /// The real table: a port we listen on is ours, on its address and
    /// through the any-address; a closed one is nobody's.
    #[test]
    fn the_listener_of_a_port_is_found() {
        let uid = hookgate_wire::socket::current_uid();
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        assert_eq!(listener_owner(addr).unwrap(), Some(uid));
        let any = std::net::TcpListener::bind("0.0.0.0:0").unwrap();
        let port = any.local_addr().unwrap().port();
        let on_loopback = SocketAddr::from(([127, 0, 0, 1], port));
        assert_eq!(listener_owner(on_loopback).unwrap(), Some(uid));
        drop((listener, any));
        assert_eq!(listener_owner(addr).unwrap(), None);
        assert_eq!(describe_uid(0), "uid 0 (root)");
    }
}
