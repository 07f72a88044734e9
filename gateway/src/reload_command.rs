//! `gateway reload`: ask a running gateway over its admin socket to read
//! its config again, and say how it went.

use std::process::ExitCode;
use std::time::Duration;

use hookgate_daemon::admin::client;

use crate::admin_client::{client_runtime, resolve_socket};
use crate::cli::ReloadArgs;

/// Deadline of the call: reading, validating and building the config.
const TIMEOUT: Duration = Duration::from_secs(10);

/// Exit code when the gateway refused the new config (as `serve` exits
/// on an invalid one).
const EXIT_REFUSED: u8 = 2;

pub(crate) fn run(args: &ReloadArgs) -> ExitCode {
    let runtime = match client_runtime() {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    let socket = resolve_socket(args.socket.as_deref());
    match runtime.block_on(client::reload(&socket, TIMEOUT, args.allow_weaker)) {
        Ok(reply) if reply.result == "invalid" => {
            eprintln!(
                "gateway: config refused, generation {} stays: {}",
                reply.generation, reply.error
            );
            ExitCode::from(EXIT_REFUSED)
        }
        Ok(reply) if reply.result == "weaker" => {
            eprintln!(
                "gateway: config refused, generation {} stays: it weakens hookgate ({}). \
                 If you mean it, run `gateway reload --allow-weaker` yourself.",
                reply.generation, reply.error
            );
            ExitCode::from(EXIT_REFUSED)
        }
        Ok(reply) => {
            outln!("config {}: generation {}", reply.result, reply.generation);
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("gateway: {err}");
            ExitCode::FAILURE
        }
    }
}
