//! `gateway approvals`: the calls a running gateway holds for a person
//! (the built-in `approval`), over its admin socket: `list` (the default),
//! `approve ID`, `deny ID [--reason R]`, `watch`; `--json` for scripts.
//! Only this user's admin socket answers (its peer check); every answer
//! is recorded in the decision log with the approver and the channel.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use hookgate_daemon::admin::client::{self, ApprovalsRequest};
use serde_json::Value;

use crate::admin_client::{client_runtime, resolve_socket};

/// Deadline of one call.
const TIMEOUT: Duration = Duration::from_secs(5);
/// How often `watch` asks.
const WATCH_EVERY: Duration = Duration::from_millis(500);

#[derive(Debug, clap::Args)]
pub(crate) struct ApprovalsArgs {
    #[command(subcommand)]
    action: Option<Action>,
    /// The gateway's socket (its admin socket is this path + `.admin`).
    /// Default: resolved like `gateway serve` does.
    #[arg(long, value_name = "PATH", global = true)]
    socket: Option<PathBuf>,
    /// JSON: the held calls as an array (`list`), the call answered
    /// (`approve`, `deny`), one JSON line per change (`watch`).
    #[arg(long, global = true)]
    json: bool,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// The held calls: id, agent, session, tool, masked input, time left.
    List,
    /// Let a held call run.
    Approve {
        id: u64,
        /// `once` (this call), `session` (every call this subscriber would
        /// hold in the session) or `command` (this exact command in the
        /// session).
        #[arg(long, value_name = "SCOPE", default_value = "once",
              value_parser = ["once", "session", "command"])]
        scope: String,
        /// Who approves, for the decision log (default: $USER).
        #[arg(long = "as", value_name = "NAME")]
        approver: Option<String>,
    },
    /// Deny a held call; the agent's model reads the reason.
    Deny {
        id: u64,
        #[arg(long, value_name = "R")]
        reason: Option<String>,
        /// Who denies, for the decision log (default: $USER).
        #[arg(long = "as", value_name = "NAME")]
        approver: Option<String>,
    },
    /// Print calls as they are held and answered, until interrupted.
    Watch,
}

pub(crate) fn run(args: &ApprovalsArgs) -> ExitCode {
    let runtime = match client_runtime() {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    let socket = resolve_socket(args.socket.as_deref());
    let ask =
        |request: ApprovalsRequest| runtime.block_on(client::approvals(&socket, TIMEOUT, request));
    let list = || ApprovalsRequest {
        action: "list".to_owned(),
        ..ApprovalsRequest::default()
    };
    let result = match args.action.as_ref().unwrap_or(&Action::List) {
        Action::List => ask(list()).map(|held| print_list(&held, args.json)),
        Action::Approve {
            id,
            scope,
            approver,
        } => ask(ApprovalsRequest {
            action: "approve".to_owned(),
            id: *id,
            scope: scope.clone(),
            approver: approver_name(approver.as_deref()),
            ..ApprovalsRequest::default()
        })
        .map(|call| print_answered(&call, "approved", args.json)),
        Action::Deny {
            id,
            reason,
            approver,
        } => ask(ApprovalsRequest {
            action: "deny".to_owned(),
            id: *id,
            reason: reason.clone().unwrap_or_default(),
            approver: approver_name(approver.as_deref()),
            ..ApprovalsRequest::default()
        })
        .map(|call| print_answered(&call, "denied", args.json)),
        Action::Watch => {
            let mut seen = BTreeSet::new();
            loop {
                match ask(list()) {
                    Ok(held) => print_changes(&held, &mut seen, args.json),
                    Err(err) => break Err(err),
                }
                runtime.block_on(tokio::time::sleep(WATCH_EVERY));
            }
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("gateway: {err}");
            ExitCode::FAILURE
        }
    }
}

/// The approver's name: as given, else the login name.
fn approver_name(given: Option<&str>) -> String {
    given
        .map(str::to_owned)
        .or_else(|| std::env::var("USER").ok())
        .or_else(|| std::env::var("USERNAME").ok())
        .unwrap_or_default()
}

fn print_list(held: &Value, json: bool) {
    if json {
        outln!("{held}");
        return;
    }
    let calls = held.as_array().map_or(&[][..], Vec::as_slice);
    if calls.is_empty() {
        outln!("no call is held");
        return;
    }
    for call in calls {
        outln!("{}", line(call));
    }
}

/// One held call on one line: id, agent, session, tool, time left, input.
fn line(call: &Value) -> String {
    let text = |key: &str| call[key].as_str().unwrap_or("-").to_owned();
    format!(
        "{}  {}  session {}  {}  {} s left  {}",
        call["id"],
        text("agent"),
        text("session"),
        text("tool"),
        call["time_left_ms"].as_u64().unwrap_or(0) / 1000,
        text("input"),
    )
}

fn print_answered(call: &Value, what: &str, json: bool) {
    if json {
        outln!("{call}");
    } else {
        outln!("{what} {}", line(call));
    }
}

/// What changed since the last look: calls newly held, calls gone.
fn print_changes(held: &Value, seen: &mut BTreeSet<u64>, json: bool) {
    let calls = held.as_array().map_or(&[][..], Vec::as_slice);
    let now: BTreeSet<u64> = calls.iter().filter_map(|c| c["id"].as_u64()).collect();
    for call in calls {
        let Some(id) = call["id"].as_u64() else {
            continue;
        };
        if !seen.contains(&id) {
            if json {
                outln!("{}", serde_json::json!({ "held": call }));
            } else {
                outln!("held {}", line(call));
            }
        }
    }
    for gone in seen.difference(&now) {
        if json {
            outln!("{}", serde_json::json!({ "gone": gone }));
        } else {
            outln!("gone {gone}");
        }
    }
    *seen = now;
}
