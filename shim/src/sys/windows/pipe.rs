//! The named pipe to the gateway.
//!
//! Connecting: opening a pipe client never blocks: it connects to a free
//! server instance, fails with `ERROR_PIPE_BUSY` when every instance is
//! taken (the gateway has not yet created the next one), or fails outright
//! (no gateway). On busy, `WaitNamedPipeW` waits for a free instance with a
//! timeout, and the open is tried again, until the connect deadline. Then
//! the server must prove to run as this user (`trust`).
//!
//! Sending and receiving block, so each runs on a worker thread bounded by
//! the deadline (`io::within`); the worker shares the pipe through an `Arc`.

use std::fs::OpenOptions;
use std::io::{self, Read, Write};
use std::os::windows::fs::OpenOptionsExt;
use std::os::windows::io::OwnedHandle;
use std::sync::Arc;
use std::time::Duration;

use interprocess::os::windows::named_pipe::{DuplexPipeStream, pipe_mode};
use windows_sys::Win32::Foundation::{ERROR_PIPE_BUSY, ERROR_SEM_TIMEOUT};
use windows_sys::Win32::Storage::FileSystem::{FILE_FLAG_OVERLAPPED, SECURITY_IDENTIFICATION};
use windows_sys::Win32::System::Pipes::WaitNamedPipeW;

use super::io::within;
use super::{now, trust};
use crate::sys::{ConnectError, IoError};

type Pipe = DuplexPipeStream<pipe_mode::Bytes>;

/// A connected pipe to a gateway run by this user.
#[derive(Debug)]
pub(crate) struct Stream {
    pipe: Arc<Pipe>,
}

impl Stream {
    /// Connects to the gateway's pipe `name` before `deadline` (on the
    /// [`now`] clock), if its server runs as this user.
    pub(crate) fn open(name: &str, deadline: Duration) -> Result<Stream, ConnectError> {
        // A `Stream` at once, so an untrusted pipe is dropped as one is.
        let stream = Stream {
            pipe: Arc::new(connect(name, deadline)?),
        };
        let server = stream
            .pipe
            .server_process_id()
            .map_err(|err| ConnectError::Untrusted(format!("the pipe's server process: {err}")))?;
        trust::check_server(server).map_err(ConnectError::Untrusted)?;
        Ok(stream)
    }

    /// Sends all of `bytes` before `deadline`.
    pub(crate) fn send_all(&self, bytes: Vec<u8>, deadline: Duration) -> Result<(), IoError> {
        let pipe = Arc::clone(&self.pipe);
        within(deadline, move || (&*pipe).write_all(&bytes))
    }

    /// Receives exactly `len` bytes before `deadline`.
    pub(crate) fn recv_exact(&self, len: usize, deadline: Duration) -> Result<Vec<u8>, IoError> {
        let pipe = Arc::clone(&self.pipe);
        within(deadline, move || {
            let mut buf = vec![0u8; len];
            (&*pipe).read_exact(&mut buf)?;
            Ok(buf)
        })
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        // `interprocess` hands a pipe that may hold unflushed writes (which
        // includes one just made from a handle) to a "limbo" thread that
        // waits for the server to read them before closing it. The shim
        // never needs that: once the reply has come the gateway has read the
        // request, and when the shim gives up it no longer cares.
        self.pipe.assume_flushed();
    }
}

/// Opens the pipe `name`, waiting for a free instance until `deadline`.
///
/// Opened with std rather than `interprocess`'s `connect_by_path` for one
/// flag: `SECURITY_IDENTIFICATION` (with `SECURITY_SQOS_PRESENT`, which
/// `security_qos_flags` adds), so a process serving the pipe can learn who
/// the shim is but never act as the shim's user (impersonate it) before
/// `trust` has looked at it. Overlapped, as `interprocess` requires of the
/// handles it wraps.
fn connect(name: &str, deadline: Duration) -> Result<Pipe, ConnectError> {
    loop {
        let opened = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(FILE_FLAG_OVERLAPPED)
            .security_qos_flags(SECURITY_IDENTIFICATION)
            .open(name);
        match opened {
            Ok(file) => {
                return Pipe::try_from(OwnedHandle::from(file))
                    .map_err(|err| ConnectError::Os(io::Error::from(err)));
            }
            Err(err) if err.raw_os_error() == Some(win32(ERROR_PIPE_BUSY)) => {}
            Err(err) => return Err(ConnectError::Os(err)),
        }
        let left = deadline.saturating_sub(now());
        if left.is_zero() {
            return Err(ConnectError::Timeout);
        }
        match wait_for_instance(name, left) {
            Ok(()) => {}
            Err(err) if err.raw_os_error() == Some(win32(ERROR_SEM_TIMEOUT)) => {
                return Err(ConnectError::Timeout);
            }
            // The gateway went away while we waited: try the open again,
            // which reports it.
            Err(_) => {}
        }
    }
}

/// `WaitNamedPipeW`: waits up to `limit` for an instance of the pipe `name`
/// to be free. Fails with `ERROR_SEM_TIMEOUT` when none became free.
fn wait_for_instance(name: &str, limit: Duration) -> io::Result<()> {
    let wide: Vec<u16> = name.encode_utf16().chain(Some(0)).collect();
    // 0 would mean "the server's default wait" and u32::MAX "forever": the
    // limit is rounded up to at least 1 ms and capped below that.
    let millis = u32::try_from(limit.as_nanos().div_ceil(1_000_000))
        .unwrap_or(u32::MAX - 1)
        .clamp(1, u32::MAX - 1);
    // SAFETY: `wide` is a NUL-terminated UTF-16 string that outlives the
    // call (a NUL inside it only shortens the name; the open before this
    // call already refused such a name).
    if unsafe { WaitNamedPipeW(wide.as_ptr(), millis) } == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A Win32 error code as `io::Error::raw_os_error` reports it.
fn win32(code: u32) -> i32 {
    i32::try_from(code).unwrap_or(i32::MAX)
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroU8;
    use std::thread;

    use interprocess::os::windows::named_pipe::{PipeListener, PipeListenerOptions};

    use super::*;

    /// A pipe name no other test (or test run) uses.
    fn unique_name(test: &str) -> String {
        format!(r"\\.\pipe\gateway-shim-test-{}-{test}", std::process::id())
    }

    fn listener(name: &str, instances: u8) -> PipeListener<pipe_mode::Bytes, pipe_mode::Bytes> {
        PipeListenerOptions::new()
            .path(name)
            .instance_limit(NonZeroU8::new(instances))
            .create_duplex::<pipe_mode::Bytes>()
            .unwrap()
    }

    #[test]
    fn exchanges_bytes_with_a_server_of_this_user() {
        let name = unique_name("exchange");
        let listener = listener(&name, 4);
        let server = thread::spawn(move || {
            let peer = listener.accept().unwrap();
            let mut buf = [0u8; 4];
            (&peer).read_exact(&mut buf).unwrap();
            assert_eq!(&buf, b"ping");
            (&peer).write_all(b"pong").unwrap();
            peer.flush().unwrap();
        });
        let later = now() + Duration::from_secs(10);
        let stream = Stream::open(&name, later).unwrap();
        stream.send_all(b"ping".to_vec(), later).unwrap();
        assert_eq!(stream.recv_exact(4, later).unwrap(), b"pong");
        server.join().unwrap();
        assert!(matches!(stream.recv_exact(1, later), Err(IoError::Closed)));
    }

    #[test]
    fn a_silent_server_is_a_timeout_at_the_deadline() {
        let name = unique_name("silent");
        let _listener = listener(&name, 4);
        let stream = Stream::open(&name, now() + Duration::from_secs(10)).unwrap();
        let deadline = now() + Duration::from_millis(50);
        assert!(matches!(
            stream.recv_exact(1, deadline),
            Err(IoError::Timeout)
        ));
        assert!(now() >= deadline);
    }

    #[test]
    fn no_gateway_is_an_os_error() {
        let name = unique_name("absent");
        let result = Stream::open(&name, now() + Duration::from_secs(10));
        assert!(matches!(result, Err(ConnectError::Os(_))), "{result:?}");
    }

    /// One instance, taken and never accepted: the next client waits for a
    /// free instance until the deadline.
    #[test]
    fn a_busy_pipe_is_a_timeout_at_the_deadline() {
        let name = unique_name("busy");
        let _listener = listener(&name, 1);
        let _first = Stream::open(&name, now() + Duration::from_secs(10)).unwrap();
        let deadline = now() + Duration::from_millis(200);
        let second = Stream::open(&name, deadline);
        assert!(matches!(second, Err(ConnectError::Timeout)), "{second:?}");
        // No upper bound on the wall clock (it would flake on a busy
        // machine): a wait that ignored the deadline would never end (the
        // one instance is never freed), which the test runner's limit shows.
        let late = now();
        assert!(late >= deadline, "{late:?} < {deadline:?}");
    }
}
