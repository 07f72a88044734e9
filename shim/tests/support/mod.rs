//! The harness for the shim's CLI tests: runs the real binary with a clean
//! environment, plays a fake gateway on a Unix socket, computes the
//! expected fallback replies and reads the fallback record.

// Helpers unwrap: a failure there is a test failure. Items are `pub` for cli.rs.
#![allow(clippy::unwrap_used, unreachable_pub)]
#![allow(
    dead_code,
    reason = "shared by several test binaries, each using a part"
)]

use std::fs;
use std::io::{ErrorKind, Read, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use hookgate_dialect::{
    Agent, Detected, FailMode, args_hint, detect, detect_with_event, fallback, probe_event,
    probe_payload,
};
use hookgate_wire::{
    FrameKind, HEADER_LEN, Header, Hold, MAX_REQUEST_BODY, Reply, ReplyFrame as _, Request,
};
use tempfile::TempDir;

/// The binary under test: this package's build, or the shipped static
/// build when `HOOKGATE_SHIM_UNDER_TEST` names it (`.ci/check-shim-static.sh`
/// runs these tests again against the artifact users get).
pub fn shim_bin() -> String {
    std::env::var("HOOKGATE_SHIM_UNDER_TEST")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_gateway-shim").to_owned())
}

pub const CLAUDE_PRE_TOOL_USE: &[u8] =
    include_bytes!("../../../adapters/test_data/claude-code/PreToolUse.json");
pub const CURSOR_SHELL: &[u8] =
    include_bytes!("../../../adapters/test_data/cursor/beforeShellExecution.json");
pub const CLINE_SDK_TOOL_CALL: &[u8] =
    include_bytes!("../../../adapters/test_data/cline/tool_call.json");
pub const CLINE_LEGACY_PRE_TOOL_USE: &[u8] =
    include_bytes!("../../../adapters/test_data/cline/legacy.PreToolUse.json");

// The fail-closed messages the shim gives `fallback`, one per reason.
pub const UNREACHABLE: &str = "hookgate blocked this: the hook gateway is not reachable (fail-closed); start it with `gateway serve`, check with `gateway doctor`";
pub const TIMEOUT: &str = "hookgate blocked this: the hook gateway did not answer in time (fail-closed); check with `gateway doctor`";
pub const BAD_REPLY: &str = "hookgate blocked this: the hook gateway sent an invalid reply (fail-closed); check with `gateway doctor`";
pub const OVERSIZE: &str =
    "hookgate blocked this: the hook payload is larger than 8 MiB (fail-closed)";
pub const USAGE: &str = "hookgate blocked this: gateway-shim has invalid arguments (fail-closed)";

/// What the shim did.
#[derive(Debug, PartialEq, Eq)]
pub struct Output {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub code: i32,
}

/// A private, short directory for a socket (sun_path holds 108 bytes).
pub fn socket_dir() -> (TempDir, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix("hg")
        .tempdir_in("/tmp")
        .unwrap();
    let socket = dir.path().join("gw.sock");
    (dir, socket)
}

/// Runs the shim with exactly `env` (plus `HOOKGATE_SOCKET`). `stdin: None`
/// leaves stdin open until the shim has exited.
pub fn run_shim(
    socket: &Path,
    args: &[&str],
    env: &[(&str, &str)],
    stdin: Option<&[u8]>,
) -> Output {
    let mut child = Command::new(shim_bin())
        .args(args)
        .env_clear()
        .env("HOOKGATE_SOCKET", socket)
        .envs(env.iter().copied())
        .current_dir(socket.parent().unwrap())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut held_open = None;
    let writer = match stdin {
        Some(bytes) => {
            let bytes = bytes.to_vec();
            Some(thread::spawn(move || {
                // The shim stops reading past its limit: a broken pipe is fine.
                let _ = input.write_all(&bytes);
            }))
        }
        None => {
            held_open = Some(input);
            None
        }
    };
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let err_reader = thread::spawn(move || {
        let mut bytes = Vec::new();
        stderr.read_to_end(&mut bytes).unwrap();
        bytes
    });
    let mut out = Vec::new();
    stdout.read_to_end(&mut out).unwrap();
    let status = child.wait().unwrap();
    if let Some(writer) = writer {
        writer.join().unwrap();
    }
    drop(held_open);
    Output {
        stdout: out,
        stderr: err_reader.join().unwrap(),
        code: status.code().expect("exited, not killed"),
    }
}

/// What `hookgate_dialect::fallback` answers for this payload.
pub fn expected(
    payload: &[u8],
    hint: Option<Agent>,
    env_names: &[&str],
    mode: FailMode,
    message: &str,
) -> Output {
    output_of(detect(payload, hint, env_names).ok(), mode, message)
}

/// The fallback reply for what detection found.
fn output_of(detected: Option<Detected>, mode: FailMode, message: &str) -> Output {
    let reply = fallback(
        detected.as_ref().map(|d| d.dialect),
        detected.as_ref().and_then(|d| d.native_event.as_deref()),
        mode,
        message,
    );
    Output {
        stdout: reply.stdout,
        stderr: reply.stderr,
        code: reply.exit_code,
    }
}

/// How the fake gateway behaves once it has read the request.
pub enum Gateway {
    Reply(Reply),
    Raw(Vec<u8>),
    /// Keeps the connection open and never answers.
    Hang,
    /// Answer with this reply, then expect the shim's acknowledgement.
    ReplyAwaitingAck(Reply),
    /// Send a hold frame asking for `wait_ms`; then, with a reply, wait
    /// until the shim's own deadline (the request's) is past and answer;
    /// without one, wait for the shim to hang up (at most a minute).
    Held {
        wait_ms: u32,
        reply: Option<Reply>,
    },
}

/// Accepts one connection, reads one request and acts. Returns the request
/// and, for `Hang`, the still-open connection.
pub fn fake_gateway(
    socket: &Path,
    behaviour: Gateway,
) -> JoinHandle<(Request, Option<UnixStream>)> {
    let listener = UnixListener::bind(socket).unwrap();
    thread::spawn(move || {
        let mut stream =
            accept_within(&listener, Duration::from_secs(30)).expect("the shim connects");
        let request = read_request(&mut stream);
        match behaviour {
            Gateway::Reply(reply) => stream.write_all(&reply.encode()).unwrap(),
            Gateway::Raw(bytes) => stream.write_all(&bytes).unwrap(),
            Gateway::Hang => return (request, Some(stream)),
            Gateway::Held { wait_ms, reply } => {
                stream.write_all(&Hold { wait_ms }.encode()).unwrap();
                match reply {
                    Some(reply) => {
                        let deadline = unix_ms_var(&request, hookgate_wire::DEADLINE_VAR);
                        while now_unix_ms() <= deadline + 200 {
                            thread::sleep(Duration::from_millis(20));
                        }
                        stream.write_all(&reply.encode()).unwrap();
                    }
                    None => {
                        stream
                            .set_read_timeout(Some(Duration::from_secs(60)))
                            .unwrap();
                        // EOF, or a reset when the shim left unread bytes.
                        let mut rest = Vec::new();
                        match stream.read_to_end(&mut rest) {
                            Ok(_) => {}
                            Err(err) if err.kind() == ErrorKind::ConnectionReset => {}
                            Err(err) => panic!("the shim hangs up within a minute: {err}"),
                        }
                    }
                }
            }
            Gateway::ReplyAwaitingAck(reply) => {
                stream.write_all(&reply.encode()).unwrap();
                stream
                    .set_read_timeout(Some(Duration::from_secs(10)))
                    .unwrap();
                let mut header = [0u8; HEADER_LEN];
                stream
                    .read_exact(&mut header)
                    .expect("the shim acknowledges");
                let ack = Header::decode(&header, 0).unwrap();
                assert_eq!(ack.kind, FrameKind::Ack);
            }
        }
        (request, None)
    })
}

/// A forwarded `*_UNIX_MS` variable of `request`.
pub fn unix_ms_var(request: &Request, name: &str) -> u128 {
    let (_, value) = request
        .env
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("{name} forwarded"));
    value.parse().unwrap()
}

/// The wall clock, in milliseconds since the Unix epoch.
pub fn now_unix_ms() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis()
}

pub fn accept_within(listener: &UnixListener, limit: Duration) -> Option<UnixStream> {
    listener.set_nonblocking(true).unwrap();
    let start = Instant::now();
    while start.elapsed() < limit {
        match listener.accept() {
            Ok((stream, _)) => {
                stream.set_nonblocking(false).unwrap();
                return Some(stream);
            }
            Err(err) if err.kind() == ErrorKind::WouldBlock => {
                thread::sleep(Duration::from_millis(5))
            }
            Err(err) => panic!("accept: {err}"),
        }
    }
    None
}

pub fn read_request(stream: &mut UnixStream) -> Request {
    let mut header = [0u8; HEADER_LEN];
    stream.read_exact(&mut header).unwrap();
    let header = Header::decode(&header, MAX_REQUEST_BODY)
        .unwrap()
        .expect(FrameKind::Request)
        .unwrap();
    let mut body = vec![0u8; header.body_len];
    stream.read_exact(&mut body).unwrap();
    Request::decode(&body).unwrap()
}

/// The fallback record's lines, each checked to be `<unix_secs> <reason>`.
pub fn recorded_reasons(socket: &Path) -> Vec<String> {
    recorded(socket)
        .into_iter()
        .map(|(reason, _)| reason)
        .collect()
}

/// The fail modes of the fallbacks recorded for `socket`, in order.
pub fn recorded_modes(socket: &Path) -> Vec<String> {
    recorded(socket).into_iter().map(|(_, mode)| mode).collect()
}

/// Each line of the record: (reason, mode), its time checked.
fn recorded(socket: &Path) -> Vec<(String, String)> {
    let mut path = socket.as_os_str().to_owned();
    path.push(".fallbacks");
    let text = fs::read_to_string(PathBuf::from(path)).unwrap_or_default();
    text.lines()
        .map(|line| {
            let fields: Vec<&str> = line.split(' ').collect();
            let [secs, reason, mode] = fields[..] else {
                panic!("three fields: {line:?}")
            };
            assert!(secs.parse::<u64>().unwrap() > 1_600_000_000, "{line}");
            assert!(["open", "closed"].contains(&mode), "{line}");
            (reason.to_owned(), mode.to_owned())
        })
        .collect()
}

/// A payload of one dialect, with the arguments and agent environment an
/// agent would give.
pub struct Case {
    pub name: String,
    pub payload: &'static [u8],
    /// The shim's arguments: the agent, and for some its event.
    pub args: Vec<&'static str>,
    pub env: Vec<(&'static str, &'static str)>,
}

impl Case {
    /// The variables' names, as the shim passes them to detection.
    pub fn env_names(&self) -> Vec<&str> {
        self.env.iter().map(|(name, _)| *name).collect()
    }

    /// The reply the shim must give for this case when it gives up for
    /// `message` in `mode`: detection and fallback as the shim does them.
    pub fn expected(&self, mode: FailMode, message: &str) -> Output {
        let (hint, event) = args_hint(&self.args);
        let detected = detect_with_event(self.payload, hint, event, &self.env_names()).ok();
        output_of(detected, mode, message)
    }
}

/// Every agent's doctor probe (a pre-tool call of its shell tool) with
/// the agent's name as argument, and the probe's event after it where the
/// payload names none (Copilot's camelCase hooks), plus payloads whose
/// agent only detection can tell (no argument): Cursor beside Claude
/// Code's variable, and Cline's extension hooks.
pub fn agents() -> Vec<Case> {
    let mut cases: Vec<Case> = Agent::ALL
        .into_iter()
        .filter_map(|agent| {
            let payload = probe_payload(agent)?.as_bytes();
            let mut args = vec![agent.as_str()];
            // Only a payload that names no event needs it on the command line.
            if detect(payload, Some(agent), &[]).is_ok_and(|d| d.native_event.is_none()) {
                args.push(probe_event(agent));
            }
            Some(Case {
                name: agent.as_str().to_owned(),
                payload,
                args,
                env: vec![],
            })
        })
        .collect();
    cases.extend([
        Case {
            name: "claude-code, detected".to_owned(),
            payload: CLAUDE_PRE_TOOL_USE,
            args: vec![],
            env: vec![("CLAUDE_PROJECT_DIR", "/home/dev/acme")],
        },
        Case {
            name: "cursor, detected".to_owned(),
            payload: CURSOR_SHELL,
            args: vec![],
            env: vec![
                ("CURSOR_VERSION", "1.7.2"),
                ("CLAUDE_PROJECT_DIR", "/home/dev/acme"),
            ],
        },
        Case {
            name: "cline sdk".to_owned(),
            payload: CLINE_SDK_TOOL_CALL,
            args: vec!["cline"],
            env: vec![],
        },
        Case {
            name: "cline legacy, detected".to_owned(),
            payload: CLINE_LEGACY_PRE_TOOL_USE,
            args: vec![],
            env: vec![],
        },
    ]);
    cases
}
