//! The gateway's HTTP hook endpoint from the client side: where it listens
//! and its token ([`TestGateway::http_endpoint`]), and a plain HTTP/1.1
//! client over one keep-alive connection ([`HttpClient`]), enough to
//! speak to it as an agent's HTTP hook does (tests and hookbench).

use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt as _, AsyncReadExt as _, AsyncWriteExt as _, BufReader};
use tokio::net::TcpStream;

use crate::TestGateway;

/// The variable the agents' HTTP hook headers read the token from.
pub const TOKEN_VAR: &str = "HOOKGATE_HTTP_TOKEN";
/// The most a test waits for one response.
const RESPONSE_DEADLINE: Duration = Duration::from_secs(20);
/// A response larger than this is a bug, not a reply.
const MAX_RESPONSE: usize = 16 << 20;

/// `[http]` with an OS-chosen loopback port, for a test gateway's config.
pub const HTTP_SECTION: &str = "[http]\nlisten = \"127.0.0.1:0\"\n";

/// Where a gateway serves HTTP hooks, and the token it wants.
#[derive(Debug, Clone)]
pub struct HttpEndpoint {
    pub addr: SocketAddr,
    pub token: String,
}

impl HttpEndpoint {
    /// `http://<addr>/hook/<agent>`.
    pub fn url(&self, agent: &str) -> String {
        format!("http://{}/hook/{agent}", self.addr)
    }
}

impl TestGateway {
    /// The HTTP endpoint of a gateway started with [`HTTP_SECTION`]: its
    /// address from `gateway status`, its token from the private directory.
    pub async fn http_endpoint(&self) -> HttpEndpoint {
        let doc = self.status_json().await;
        let addr = doc["http_addr"]
            .as_str()
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("no http_addr in the status: {doc:#}"));
        let path = self.dir().join("http.token");
        let token = std::fs::read_to_string(&path)
            .unwrap_or_else(|err| panic!("reading {}: {err}", path.display()))
            .trim()
            .to_owned();
        HttpEndpoint { addr, token }
    }
}

/// One response.
#[derive(Debug, Clone)]
pub struct HttpResponse {
    pub status: u16,
    pub body: Vec<u8>,
}

impl HttpResponse {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON; panics with the body otherwise.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|err| panic!("not JSON ({err}): {}", self.text()))
    }
}

/// One keep-alive HTTP/1.1 connection.
#[derive(Debug)]
pub struct HttpClient {
    stream: BufReader<TcpStream>,
}

impl HttpClient {
    pub async fn connect(addr: SocketAddr) -> io::Result<HttpClient> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        Ok(HttpClient {
            stream: BufReader::new(stream),
        })
    }

    /// POSTs `body` to `path` with `headers` and reads the response.
    pub async fn post(
        &mut self,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> io::Result<HttpResponse> {
        let mut request = format!(
            "POST {path} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: {}\r\n",
            body.len()
        );
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        let mut bytes = request.into_bytes();
        bytes.extend_from_slice(body);
        tokio::time::timeout(RESPONSE_DEADLINE, async {
            self.stream.get_mut().write_all(&bytes).await?;
            self.read_response().await
        })
        .await
        .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "no HTTP response in time"))?
    }

    /// POSTs `body` with the endpoint's token.
    pub async fn post_hook(
        &mut self,
        endpoint: &HttpEndpoint,
        path: &str,
        body: &[u8],
    ) -> io::Result<HttpResponse> {
        let auth = format!("Bearer {}", endpoint.token);
        self.post(path, &[("authorization", &auth)], body).await
    }

    /// Ends the connection and waits (up to the response deadline) for
    /// the gateway to end its side: by then the connection's place is free
    /// again, which a test with few places counts on.
    pub async fn close(mut self) -> io::Result<()> {
        tokio::time::timeout(RESPONSE_DEADLINE, async {
            self.stream.get_mut().shutdown().await?;
            let mut rest = Vec::new();
            (&mut self.stream)
                .take(MAX_RESPONSE as u64)
                .read_to_end(&mut rest)
                .await
                .map(|_| ())
        })
        .await
        .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "the gateway kept the connection"))?
    }

    async fn read_response(&mut self) -> io::Result<HttpResponse> {
        let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_owned());
        let mut line = String::new();
        if self.stream.read_line(&mut line).await? == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "connection closed before a response",
            ));
        }
        let status = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad("no status line"))?;
        let mut length = 0usize;
        loop {
            line.clear();
            if self.stream.read_line(&mut line).await? == 0 {
                return Err(bad("headers cut short"));
            }
            if !header_line(&line, &mut length)? {
                break;
            }
        }
        if length > MAX_RESPONSE {
            return Err(bad("response too large"));
        }
        let mut body = vec![0u8; length];
        self.stream.read_exact(&mut body).await?;
        Ok(HttpResponse { status, body })
    }
}

/// Reads one header line of an HTTP/1.1 message into `length` (its
/// `Content-Length`, if it is that header); false at the blank line that
/// ends the headers. Shared with hookbench's blocking client.
pub fn header_line(line: &str, length: &mut usize) -> io::Result<bool> {
    let header = line.trim_end();
    if header.is_empty() {
        return Ok(false);
    }
    if let Some((name, value)) = header.split_once(':')
        && name.eq_ignore_ascii_case("content-length")
    {
        *length = value.trim().parse().map_err(|_| {
            io::Error::new(io::ErrorKind::InvalidData, "bad content-length".to_owned())
        })?;
    }
    Ok(true)
}
