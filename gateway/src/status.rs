//! `gateway status`: ask a running gateway over its admin socket and print
//! a table, or the JSON document, once or every `--watch` seconds.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use hookgate_gateway::admin::{client, table};
use hookgate_gateway::config::Config;

use crate::cli::StatusArgs;

/// Deadline of one status call.
const TIMEOUT: Duration = Duration::from_secs(5);

/// The hook socket whose gateway to ask: `--socket`, else the config's
/// `server.socket`, else the shim's default resolution.
fn socket(args: &StatusArgs) -> PathBuf {
    args.socket
        .clone()
        .or_else(|| Config::load(None).ok().and_then(|c| c.server.socket))
        .unwrap_or_else(hookgate_wire::socket::default_path)
}

pub(crate) fn run(args: &StatusArgs) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("gateway: error: cannot start the runtime: {err}");
            return ExitCode::FAILURE;
        }
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
                Err(err) => format!("gateway: {err}\n"),
            };
            let Some(secs) = args.watch else {
                return match result {
                    Ok(_) => {
                        print!("{text}");
                        ExitCode::SUCCESS
                    }
                    Err(_) => {
                        eprint!("{text}");
                        ExitCode::FAILURE
                    }
                };
            };
            // Clear the screen, home the cursor, redraw.
            print!("\x1b[2J\x1b[H{text}");
            let _ = std::io::stdout().flush();
            tokio::select! {
                () = tokio::time::sleep(Duration::from_secs(secs)) => {}
                _ = tokio::signal::ctrl_c() => return ExitCode::SUCCESS,
            }
        }
    })
}
