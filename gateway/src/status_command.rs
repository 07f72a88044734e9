//! `gateway status`: ask a running gateway over its admin socket and print
//! a table, or the JSON document, once or every `--watch` seconds.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use hookgate_daemon::admin::{client, table};
use hookgate_daemon::shim_records;

use crate::admin_client::{client_runtime, resolve_socket};
use crate::cli::StatusArgs;

/// Deadline of one status call.
const TIMEOUT: Duration = Duration::from_secs(5);

/// The hook socket whose gateway to ask: `--socket`, else the config's
/// `server.socket`, else the shim's default resolution.
fn socket(args: &StatusArgs) -> PathBuf {
    resolve_socket(args.socket.as_deref())
}

pub(crate) fn run(args: &StatusArgs) -> ExitCode {
    let runtime = match client_runtime() {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    let socket = socket(args);
    runtime.block_on(async {
        loop {
            let result = client::fetch(&socket, TIMEOUT).await;
            let text = match &result {
                Ok(doc) if args.json => {
                    serde_json::to_string_pretty(doc).unwrap_or_default() + "\n"
                }
                Ok(doc) => table::render(doc),
                Err(err) => format!("gateway: {err}\n{}", not_running(&socket)),
            };
            let Some(secs) = args.watch else {
                return match result {
                    Ok(doc) => {
                        crate::out::print(text.as_bytes());
                        let down = subscribers_down(&doc);
                        if args.check && !down.is_empty() {
                            eprintln!(
                                "gateway: subscribers down: {} (see `gateway doctor`)",
                                down.join(", ")
                            );
                            return ExitCode::FAILURE;
                        }
                        ExitCode::SUCCESS
                    }
                    Err(_) => {
                        let _ = std::io::stderr().write_all(text.as_bytes());
                        ExitCode::FAILURE
                    }
                };
            };
            // Clear the screen, home the cursor, redraw.
            let mut stdout = std::io::stdout();
            let drawn = write!(stdout, "\x1b[2J\x1b[H{text}").and_then(|()| stdout.flush());
            if drawn.is_err() {
                return ExitCode::SUCCESS;
            }
            tokio::select! {
                () = tokio::time::sleep(Duration::from_secs(secs)) => {}
                _ = tokio::signal::ctrl_c() => return ExitCode::SUCCESS,
            }
        }
    })
}

/// The names of the subscribers a status document says are down.
fn subscribers_down(doc: &serde_json::Value) -> Vec<String> {
    crate::doctor::subscribers(doc)
        .iter()
        .filter(|sub| sub["state"].as_str() == Some("down"))
        .map(|sub| sub["name"].as_str().unwrap_or("?").to_owned())
        .collect()
}

/// What a user needs to know when no gateway answers: what is wrong with
/// the socket's directory, why its last start failed, what the shims did
/// meanwhile (let through or blocked, by their fail mode), how to start it.
fn not_running(socket: &Path) -> String {
    let mut out = String::new();
    if let Some(problem) = directory_problem(socket) {
        out.push_str(&format!("  problem: {problem}\n"));
    }
    if let Some(failure) = hookgate_daemon::start_failure::read(socket) {
        out.push_str(&format!(
            "  last start failed {}: {}\n",
            failure.ago(),
            failure.reason
        ));
    }
    let recorded = shim_records::peek(socket);
    if !recorded.is_empty() {
        out.push_str(&format!(
            "  shims answered {} hook calls on their own meanwhile ({}): {}\n",
            recorded.total(),
            recorded.reasons(),
            recorded.effect()
        ));
    }
    out.push_str(&format!(
        "  start it with: gateway serve --socket {}\n",
        socket.display()
    ));
    out
}

/// Why the socket's directory cannot be the gateway's, if it cannot.
#[cfg(unix)]
fn directory_problem(socket: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt as _;
    let dir = socket.parent()?;
    let meta = std::fs::symlink_metadata(dir).ok()?;
    let uid = hookgate_wire::socket::current_uid();
    if !meta.is_dir() {
        Some(format!("{} is not a directory", dir.display()))
    } else if meta.uid() != uid {
        Some(format!(
            "the socket directory {} belongs to uid {}, not to you (uid {uid}): another user \
             created it; remove it or use another socket (HOOKGATE_SOCKET and --socket)",
            dir.display(),
            meta.uid()
        ))
    } else if meta.mode() & 0o077 != 0 {
        Some(format!(
            "the socket directory {} is open to other users; run `chmod 700 {}`",
            dir.display(),
            dir.display()
        ))
    } else {
        None
    }
}

#[cfg(windows)]
fn directory_problem(_socket: &Path) -> Option<String> {
    None
}
