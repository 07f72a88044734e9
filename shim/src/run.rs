//! The shim's flow, from argv to exit code.
//!
//! 1. Parse argv and the `HOOKGATE_*` settings; report bad ones on stderr.
//! 2. Read stdin (bounded in size and by the total deadline, which starts
//!    at process start).
//! 3. Send one request to the gateway (with the fail mode and the deadline
//!    it answers by) and replay its reply exactly, then acknowledge it.
//! 4. On any failure (bad arguments, oversize stdin, gateway unreachable,
//!    too slow, or a malformed reply) answer with `hookgate_dialect::fallback`
//!    for the detected dialect and event: the agent's neutral reply
//!    (fail-open, the default) or its blocking one (`HOOKGATE_FAIL=closed`
//!    or `--fail-closed`; the flag wins). The shim adds nothing of its own to
//!    that reply (a diagnostic only with `HOOKGATE_DEBUG=1`) and, on Unix,
//!    appends the reason to the fallback record (see `record`). A gateway
//!    that is unreachable is first started when autostart is on
//!    (`autostart`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use hookgate_dialect::{Agent, FailMode, detect_with_event, fallback};
use hookgate_wire::Request;

use crate::autostart;
use crate::cli::{self, Command};
use crate::config::Config;
use crate::output;
use crate::record::{self, Reason};
use crate::request;
use crate::stdin::Stdin;
use crate::sys::{self, IoError};

/// Runs one hook call with the process's arguments (after the program
/// name) and environment; returns the exit code.
pub(crate) fn run(argv: Vec<Vec<u8>>, environ: Vec<(Vec<u8>, Vec<u8>)>) -> u8 {
    let start = sys::now();
    let (invocation, usage_error) = match cli::parse(&argv) {
        Command::Help => {
            output::emit(help().as_bytes(), b"");
            return 0;
        }
        Command::Version => {
            output::emit(
                concat!("gateway-shim ", env!("CARGO_PKG_VERSION"), "\n").as_bytes(),
                b"",
            );
            return 0;
        }
        Command::Hook(invocation) => (invocation, None),
        Command::Usage { error, partial } => (partial, Some(error)),
    };

    let config = Config::from_env(|name| var(&environ, name));
    let autostart = autostart::Autostart::from_env(|name| var(&environ, name));
    for note in &config.notes {
        output::note(note);
    }
    if let Some(error) = &usage_error {
        output::note(&format!("{error}; {}", cli::usage()));
    }
    let deadline = start + config.timeout;
    let mut env = request::forwarded_env(environ);
    let fallback = Fallback {
        agent: invocation.agent,
        event: invocation.event.clone(),
        agent_env_names: env
            .iter()
            .map(|(name, _)| name.clone())
            .filter(|name| request::is_agent_var(name))
            .collect(),
        mode: invocation
            .fail_mode
            .or(config.fail_mode)
            .unwrap_or_default(),
        config: &config,
    };
    // The gateway answers a payload it cannot understand in this mode.
    request::set_var(
        &mut env,
        hookgate_wire::FAIL_MODE_VAR,
        fallback.mode.as_str(),
    );
    // ... and knows when this shim stops waiting: it cuts its fan-out
    // short of that, and logs whether the reply came in time.
    let left = deadline.saturating_sub(sys::now());
    let deadline_unix_ms = (sys::since_epoch() + left).as_millis();
    request::set_var(
        &mut env,
        hookgate_wire::DEADLINE_VAR,
        &format!("{deadline_unix_ms}"),
    );

    // ... and, if it takes holds, the latest it waits for a held call.
    let hold_max = invocation.hold_max.unwrap_or(config.hold_max);
    let hold_limit = hold_max.map(|max| start + max);
    if let Some(limit) = hold_limit {
        let left = limit.saturating_sub(sys::now());
        request::set_var(
            &mut env,
            hookgate_wire::HOLD_UNTIL_VAR,
            &format!("{}", (sys::since_epoch() + left).as_millis()),
        );
    }

    let stdin = match request::read_stdin_until(deadline) {
        Err(IoError::Timeout) => {
            return fallback.answer(b"", Reason::Timeout, "stdin still open at the deadline");
        }
        Ok(stdin) => stdin,
        Err(err) => {
            // Forwarded empty: the gateway answers an unparsable payload
            // harmlessly and counts it.
            fallback.debug(&format!("reading stdin failed: {err}"));
            Stdin::Complete(Vec::new())
        }
    };
    if let Some(error) = usage_error {
        return fallback.answer(stdin.bytes(), Reason::Usage, &error);
    }
    let stdin = match stdin {
        Stdin::Complete(bytes) => bytes,
        Stdin::Oversize(prefix) => {
            let detail = format!("stdin exceeds {} bytes", hookgate_wire::MAX_STDIN);
            return fallback.answer(&prefix, Reason::Oversize, &detail);
        }
    };

    let request = Request {
        args: invocation.args,
        cwd: request::cwd(),
        env,
        stdin,
    };
    match autostart::call(
        autostart.as_ref(),
        &config.socket,
        request.encode(),
        deadline,
        hold_limit,
    ) {
        Ok(answered) => {
            let code = answered.reply.exit_code;
            // Acknowledged only once the agent's stdout took the reply:
            // an agent that gave up on the hook has closed it.
            if output::emit(&answered.reply.stdout, &answered.reply.stderr) {
                answered.acknowledge();
            }
            output::exit_code(code)
        }
        Err(failure) => fallback.answer(&request.stdin, failure.reason(), failure.detail()),
    }
}

/// The value of the first variable called `name`, if it is UTF-8 (as
/// `std::env::var(name).ok()`).
fn var(environ: &[(Vec<u8>, Vec<u8>)], name: &str) -> Option<String> {
    let (_, value) = environ.iter().find(|(n, _)| n == name.as_bytes())?;
    String::from_utf8(value.clone()).ok()
}

/// What the shim needs to answer on its own.
struct Fallback<'a> {
    agent: Option<Agent>,
    /// The native event named after the agent (`gateway-shim copilot
    /// preToolUse`), for payloads that name none.
    event: Option<String>,
    /// Names of the agent variables, for dialect detection.
    agent_env_names: Vec<String>,
    mode: FailMode,
    config: &'a Config,
}

impl Fallback<'_> {
    /// Writes the agent's fallback reply for `payload`, records `reason`
    /// and returns the exit code.
    fn answer(&self, payload: &[u8], reason: Reason, detail: &str) -> u8 {
        let names: Vec<&str> = self.agent_env_names.iter().map(String::as_str).collect();
        let detected = detect_with_event(payload, self.agent, self.event.as_deref(), &names).ok();
        let reply = fallback(
            detected.as_ref().map(|d| d.dialect),
            detected.as_ref().and_then(|d| d.native_event.as_deref()),
            self.mode,
            &record::message(reason, detail),
        );
        output::emit(&reply.stdout, &reply.stderr);
        let mode = match self.mode {
            FailMode::Open => record::Mode::Open,
            FailMode::Closed => record::Mode::Closed,
        };
        let recorded = record::append(
            &self.config.socket,
            self.config.state_record.as_deref(),
            reason,
            mode,
        );
        self.debug(&format!(
            "answered on its own ({reason}, {:?}, dialect {:?}): {detail}; recorded: {recorded}",
            self.mode,
            detected.as_ref().map(|d| d.dialect),
        ));
        output::exit_code(reply.exit_code)
    }

    fn debug(&self, line: &str) {
        if self.config.debug {
            output::note(line);
        }
    }
}

/// `--help`'s text (the default socket differs per platform).
fn help() -> String {
    let usage = cli::usage();
    format!(
        "\
gateway-shim: the hook command agents run; forwards each hook call to the hookgate gateway.

{usage}

Reads the hook payload on stdin and answers on stdout/stderr/exit code.
Without an agent name the agent is detected from the payload. EVENT (the
agent's own event name, after the agent) is for payloads that name none:
`gateway-shim copilot preToolUse` in Copilot CLI's camelCase hooks. Cursor is
supported from its documentation (its CLI is not run in hookgate's tests);
the other agents are tested through their real CLIs. OpenCode runs the shim
from the plugin `gateway install --agent opencode` writes.

If the gateway cannot answer, it fails open (the agent's neutral reply) unless
fail-closed is asked for (then it blocks what the event lets a hook block).

environment:
  HOOKGATE_SOCKET      gateway socket (default {})
  HOOKGATE_TIMEOUT_MS  total deadline in milliseconds (default {})
  HOOKGATE_FAIL        open (default) or closed; --fail-closed/--fail-open win
  HOOKGATE_HOLD_MAX_MS the longest a call held for a person is waited for,
                       from the start (default 0: no holds); --hold-max-ms wins
  HOOKGATE_DEBUG       1: one diagnostic line on stderr per fallback
  HOOKGATE_AUTOSTART   1: start the gateway ($HOOKGATE_GATEWAY, an absolute
                       path) when none answers, then answer through it
",
        sys::SOCKET_DEFAULT,
        crate::config::DEFAULT_TIMEOUT.as_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_are_looked_up_like_std() {
        let environ = vec![
            (b"A".to_vec(), b"first".to_vec()),
            (b"A".to_vec(), b"second".to_vec()),
            (b"B".to_vec(), vec![0xff]),
        ];
        assert_eq!(var(&environ, "A").as_deref(), Some("first"));
        assert_eq!(var(&environ, "B"), None, "not UTF-8");
        assert_eq!(var(&environ, "C"), None);
    }
}
