//! The floors of section "Floor": the cheapest servers that exchange the
//! same bytes as the gateway's two doors, each on a blocking thread of its
//! own (no runtime, nothing between the read and the reply). An AF_UNIX
//! echo reads one request frame per connection and answers the gateway's
//! own reply frame; a loopback HTTP echo reads keep-alive requests and
//! answers the gateway's own response. Also the one HTTP/1.1 message
//! reader the floor's blocking client and the HTTP echo share.

use std::io::{self, BufRead as _, BufReader, Read as _, Write as _};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::Context as _;
use hookgate_integration_tests::http_hook::header_line;
use hookgate_wire::{HEADER_LEN, Header, MAX_REQUEST_BODY};

/// How long an echo waits on a silent client before it drops it.
const ECHO_READ_DEADLINE: Duration = Duration::from_secs(10);
/// The largest HTTP message either side reads.
const MAX_HTTP_MESSAGE: usize = 1 << 20;

/// A server thread, stopped and joined when dropped.
#[derive(Debug)]
struct Echo {
    stop: Arc<AtomicBool>,
    /// Where to connect to wake the blocked `accept`, so it sees `stop`.
    wake: Wake,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Echo {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        match &self.wake {
            Wake::Unix(path) => drop(UnixStream::connect(path)),
            Wake::Tcp(addr) => drop(TcpStream::connect(addr)),
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[derive(Debug)]
enum Wake {
    Unix(PathBuf),
    Tcp(SocketAddr),
}

/// The bare AF_UNIX exchange: one request frame read per connection (the
/// header, then the body it announces), `reply` written, the connection
/// closed; as the gateway does, minus everything else.
#[derive(Debug)]
pub(crate) struct UnixEcho {
    path: PathBuf,
    _echo: Echo,
    _dir: tempfile::TempDir,
}

impl UnixEcho {
    pub(crate) fn start(reply: Vec<u8>) -> anyhow::Result<UnixEcho> {
        let dir = crate::gateway::private_dir("hookbench-echo-")?;
        let path = dir.path().join("echo.sock");
        let listener = UnixListener::bind(&path).context("binding the AF_UNIX echo")?;
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopped.load(Ordering::Relaxed) {
                    return;
                }
                if let Ok(stream) = stream {
                    let _ = echo_frame(stream, &reply);
                }
            }
        });
        Ok(UnixEcho {
            _echo: Echo {
                stop,
                wake: Wake::Unix(path.clone()),
                thread: Some(thread),
            },
            path,
            _dir: dir,
        })
    }

    pub(crate) fn socket(&self) -> &Path {
        &self.path
    }
}

fn echo_frame(mut stream: UnixStream, reply: &[u8]) -> anyhow::Result<()> {
    stream.set_read_timeout(Some(ECHO_READ_DEADLINE))?;
    let mut header = [0u8; HEADER_LEN];
    stream.read_exact(&mut header)?;
    let header = Header::decode(&header, MAX_REQUEST_BODY)?;
    let mut body = vec![0u8; header.body_len];
    stream.read_exact(&mut body)?;
    stream.write_all(reply)?;
    stream.shutdown(std::net::Shutdown::Write)?;
    Ok(())
}

/// The bare loopback HTTP exchange: keep-alive connections, each on a
/// thread of its own, every request read whole and answered `response`.
#[derive(Debug)]
pub(crate) struct HttpEcho {
    addr: SocketAddr,
    _echo: Echo,
}

impl HttpEcho {
    pub(crate) fn start(response: Vec<u8>) -> anyhow::Result<HttpEcho> {
        let listener = TcpListener::bind("127.0.0.1:0").context("binding the HTTP echo")?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let response = Arc::new(response);
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopped.load(Ordering::Relaxed) {
                    return;
                }
                let Ok(stream) = stream else { continue };
                let response = Arc::clone(&response);
                std::thread::spawn(move || {
                    let _ = serve_http(stream, &response);
                });
            }
        });
        Ok(HttpEcho {
            addr,
            _echo: Echo {
                stop,
                wake: Wake::Tcp(addr),
                thread: Some(thread),
            },
        })
    }

    pub(crate) fn addr(&self) -> SocketAddr {
        self.addr
    }
}

fn serve_http(stream: TcpStream, response: &[u8]) -> io::Result<()> {
    stream.set_nodelay(true)?;
    stream.set_read_timeout(Some(ECHO_READ_DEADLINE))?;
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    while read_message(&mut reader)?.is_some() {
        writer.write_all(response)?;
    }
    Ok(())
}

/// One HTTP/1.1 message (request or response): its first line and its
/// body (by `Content-Length`); `None` at a clean end of the stream.
pub(crate) fn read_message(
    reader: &mut BufReader<TcpStream>,
) -> io::Result<Option<(String, Vec<u8>)>> {
    let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_owned());
    let mut first = String::new();
    if reader.read_line(&mut first)? == 0 {
        return Ok(None);
    }
    let mut length = 0usize;
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Err(bad("headers cut short"));
        }
        if !header_line(&line, &mut length)? {
            break;
        }
    }
    if length > MAX_HTTP_MESSAGE {
        return Err(bad("message too large"));
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body)?;
    Ok(Some((first.trim_end().to_owned(), body)))
}

/// A blocking keep-alive HTTP client: `request` (whole, headers and
/// body) written, the response read; the same code for the gateway and
/// its floor, and no runtime between the socket and the clock.
#[derive(Debug)]
pub(crate) struct BlockingHttp {
    reader: BufReader<TcpStream>,
}

impl BlockingHttp {
    pub(crate) fn connect(addr: SocketAddr) -> anyhow::Result<BlockingHttp> {
        let stream = TcpStream::connect(addr).with_context(|| format!("connecting to {addr}"))?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(ECHO_READ_DEADLINE))?;
        Ok(BlockingHttp {
            reader: BufReader::new(stream),
        })
    }

    /// One exchange; fails unless the answer is a 200 with a JSON body.
    pub(crate) fn call(&mut self, request: &[u8]) -> anyhow::Result<Vec<u8>> {
        self.reader.get_mut().write_all(request)?;
        let (status, body) = read_message(&mut self.reader)?.context("connection closed")?;
        anyhow::ensure!(
            status.split_whitespace().nth(1) == Some("200") && body.first() == Some(&b'{'),
            "unexpected answer {status}: {}",
            String::from_utf8_lossy(&body)
        );
        Ok(body)
    }
}

/// `body` as the whole HTTP response the echo answers.
pub(crate) fn http_response(body: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body);
    out
}
