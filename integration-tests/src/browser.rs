//! A real headless Chromium for the console's tests (`tests/it/console.rs`),
//! driven over the W3C WebDriver JSON protocol by `chromedriver`: no
//! WebDriver crate, a few requests over plain HTTP/1.1. Debian's
//! `chromium` and `chromium-driver` are installed with apt-get when
//! missing (one install at a time; a failed install is an error, never a
//! skip). Also a raw HTTP/1.1 request ([`raw_request`]) for what a browser
//! will not send (no cookie, no CSRF header, a foreign `Host`).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;
use tokio::process::{Child, Command};

/// One apt-get at a time in this process.
static INSTALL: Mutex<()> = Mutex::new(());
/// How long chromedriver may take to answer its first request.
const DRIVER_START: Duration = Duration::from_secs(30);
/// The longest a WebDriver or console response may take.
const RESPONSE_DEADLINE: Duration = Duration::from_secs(60);
/// A response larger than this is a bug.
const MAX_RESPONSE: usize = 32 << 20;

/// The absolute path of `program` on PATH.
fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// `chromium` and `chromedriver`, installed with apt-get when missing.
fn ensure_installed() -> (PathBuf, PathBuf) {
    let _one = INSTALL.lock().unwrap_or_else(|p| p.into_inner());
    if let (Some(chromium), Some(driver)) = (which("chromium"), which("chromedriver")) {
        return (chromium, driver);
    }
    eprintln!("installing chromium and chromium-driver (apt-get install -y)");
    let status = std::process::Command::new("apt-get")
        .args(["install", "-y", "chromium", "chromium-driver"])
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()
        .unwrap_or_else(|err| panic!("running apt-get for chromium: {err}"));
    assert!(
        status.success(),
        "apt-get install -y chromium chromium-driver failed ({status}); install them and rerun"
    );
    match (which("chromium"), which("chromedriver")) {
        (Some(chromium), Some(driver)) => (chromium, driver),
        _ => panic!("apt-get installed chromium, but chromium or chromedriver is not on PATH"),
    }
}

/// A free loopback port (bound then released).
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    listener.local_addr().expect("its address").port()
}

/// A headless Chromium session.
#[derive(Debug)]
pub struct Browser {
    driver: Child,
    addr: SocketAddr,
    session: String,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Starts chromedriver and a headless Chromium session.
    pub async fn start() -> Browser {
        let (chromium, driver_bin) = tokio::task::spawn_blocking(ensure_installed)
            .await
            .expect("install chromium");
        let port = free_port();
        let addr: SocketAddr = ([127, 0, 0, 1], port).into();
        let driver = Command::new(driver_bin)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("start chromedriver");
        let started = Instant::now();
        loop {
            if let Ok((200, _, _)) = raw_request(addr, "GET", "/status", &[], b"").await {
                break;
            }
            assert!(
                started.elapsed() < DRIVER_START,
                "chromedriver never answered"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let profile = tempfile::tempdir().expect("a Chromium profile directory");
        let capabilities = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu",
                    "--disable-dev-shm-usage", "--window-size=1280,900",
                    format!("--user-data-dir={}", profile.path().display()),
                ],
            },
        }}});
        let mut browser = Browser {
            driver,
            addr,
            session: String::new(),
            _profile: profile,
        };
        let created = browser.call("POST", "/session", Some(capabilities)).await;
        browser.session = created["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {created}"))
            .to_owned();
        browser
    }

    /// One WebDriver command; its `value`.
    async fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let headers = [("content-type", "application/json")];
        let (status, _, bytes) = raw_request(self.addr, method, path, &headers, body.as_bytes())
            .await
            .unwrap_or_else(|err| panic!("WebDriver {method} {path}: {err}"));
        let value: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        assert_eq!(status, 200, "WebDriver {method} {path}: {value}");
        value["value"].clone()
    }

    fn at(&self, rest: &str) -> String {
        format!("/session/{}{rest}", self.session)
    }

    pub async fn goto(&self, url: &str) {
        self.call("POST", &self.at("/url"), Some(json!({ "url": url })))
            .await;
    }

    pub async fn current_url(&self) -> String {
        self.call("GET", &self.at("/url"), None)
            .await
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// The browser's cookies for the current page.
    pub async fn cookies(&self) -> Vec<Value> {
        match self.call("GET", &self.at("/cookie"), None).await {
            Value::Array(cookies) => cookies,
            _ => Vec::new(),
        }
    }

    /// Runs `script` (a function body) with `args`; what it returns.
    pub async fn execute(&self, script: &str, args: Vec<Value>) -> Value {
        let body = json!({ "script": script, "args": args });
        self.call("POST", &self.at("/execute/sync"), Some(body))
            .await
    }

    /// The first element matching `css`, if any.
    pub async fn find(&self, css: &str) -> Option<String> {
        let body = json!({ "using": "css selector", "value": css });
        let found = self.call("POST", &self.at("/elements"), Some(body)).await;
        found
            .as_array()?
            .first()?
            .as_object()?
            .values()
            .next()?
            .as_str()
            .map(str::to_owned)
    }

    /// Waits (up to `within`) for an element matching `css`.
    pub async fn wait_for(&self, css: &str, within: Duration) -> String {
        let started = Instant::now();
        loop {
            if let Some(element) = self.find(css).await {
                return element;
            }
            assert!(
                started.elapsed() < within,
                "no `{css}` on the page within {within:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub async fn click(&self, element: &str) {
        self.call(
            "POST",
            &self.at(&format!("/element/{element}/click")),
            Some(json!({})),
        )
        .await;
    }

    pub async fn type_into(&self, element: &str, text: &str) {
        let body = json!({ "text": text });
        self.call(
            "POST",
            &self.at(&format!("/element/{element}/value")),
            Some(body),
        )
        .await;
    }

    /// The text of the element matching `css` (empty when none).
    pub async fn text_of(&self, css: &str) -> String {
        self.execute(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent : '';",
            vec![json!(css)],
        )
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
    }

    /// Saves a PNG of the viewport to `path`.
    pub async fn screenshot(&self, path: &Path) {
        let png = self.call("GET", &self.at("/screenshot"), None).await;
        let bytes = base64_decode(png.as_str().unwrap_or_default());
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("screenshot directory");
        }
        std::fs::write(path, bytes).expect("write the screenshot");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Ending the session quits Chromium; killing the driver alone
        // would leave Chromium running, orphaned.
        let _ = quit(self.addr, &self.session);
        let _ = self.driver.start_kill();
    }
}

/// `DELETE /session/{id}`, blocking and bounded (a drop cannot await).
fn quit(addr: SocketAddr, session: &str) -> std::io::Result<()> {
    use std::io::{Read as _, Write as _};
    let wait = std::time::Duration::from_secs(5);
    let mut stream = std::net::TcpStream::connect_timeout(&addr, wait)?;
    stream.set_read_timeout(Some(wait))?;
    stream.set_write_timeout(Some(wait))?;
    write!(
        stream,
        "DELETE /session/{session} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )?;
    let mut reply = Vec::new();
    stream.take(64 * 1024).read_to_end(&mut reply)?;
    Ok(())
}

/// Standard base64 (the screenshot), without a dependency.
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, d)| n | (u32::from(*d) << (18 - 6 * i)));
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len().saturating_sub(1)]);
    }
    out
}

/// One HTTP/1.1 request on a fresh connection (`Connection: close`):
/// status, headers (names lowercase) and body. `Host` is the address
/// unless `headers` names one.
pub async fn raw_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> std::io::Result<(u16, Vec<(String, String)>, Vec<u8>)> {
    tokio::time::timeout(RESPONSE_DEADLINE, async {
        let mut stream = TcpStream::connect(addr).await?;
        let mut request = format!("{method} {path} HTTP/1.1\r\nconnection: close\r\n");
        if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
            request.push_str(&format!("host: {addr}\r\n"));
        }
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str(&format!("content-length: {}\r\n\r\n", body.len()));
        stream.write_all(request.as_bytes()).await?;
        stream.write_all(body).await?;
        let response = read_response(&mut stream).await?;
        Ok(parse(&response))
    })
    .await
    .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "no HTTP response in time"))?
}

/// Reads one response: its head, then `Content-Length` bytes, or chunks
/// to the last one, or to the end (some servers keep the connection open
/// after the response, `Connection: close` or not).
async fn read_response(stream: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut response = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        let n = stream.read(&mut buf).await?;
        response.extend_from_slice(&buf[..n]);
        if n == 0 || response.len() > MAX_RESPONSE {
            return Ok(response);
        }
        let Some(split) = response.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&response[..split]).to_ascii_lowercase();
        let body = response.len() - split - 4;
        let length = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse::<usize>().ok());
        let done = match length {
            Some(length) => body >= length,
            None if head.contains("transfer-encoding: chunked") => {
                response.ends_with(b"\r\n0\r\n\r\n")
                    || response.ends_with(b"0\r\n\r\n") && body >= 5
            }
            None => false,
        };
        if done {
            return Ok(response);
        }
    }
}

fn parse(response: &[u8]) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let split = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(response.len());
    let head = String::from_utf8_lossy(&response[..split]);
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let body = response.get(split + 4..).unwrap_or_default().to_vec();
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    (status, headers, dechunk(chunked, body))
}

/// The body of a chunked response, else `body` as is.
fn dechunk(chunked: bool, body: Vec<u8>) -> Vec<u8> {
    if !chunked {
        return body;
    }
    let mut out = Vec::new();
    let mut rest = &body[..];
    while let Some(end) = rest.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&rest[..end]).trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = end + 2;
        let Some(chunk) = rest.get(start..start + size) else {
            break;
        };
        out.extend_from_slice(chunk);
        rest = rest.get(start + size + 2..).unwrap_or_default();
    }
    out
}
