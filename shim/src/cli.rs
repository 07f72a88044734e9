//! The shim's command line, parsed by hand: clap would cost more binary size
//! than the whole shim, and the grammar is two optional words.
//!
//! ```text
//! gateway-shim [AGENT [EVENT]] [--fail-closed|--fail-open] [--hold-max-ms=MS]
//! ```
//!
//! `--hold-max-ms` is the longest this hook call may be held for a person
//! (`gateway install` writes it where an `approval` subscriber can hold);
//! it wins over `HOOKGATE_HOLD_MAX_MS`.
//!
//! `EVENT`, the agent's own name of the hook event, is for hook configs
//! whose payloads name no event (Copilot CLI's camelCase hooks:
//! `gateway-shim copilot preToolUse`); it must follow the agent.
//!
//! [`usage`] lists every agent of `Agent::ALL`, the one list of agents.
//!
//! A bad command line must never hurt the agent: it is reported on stderr and
//! answered with a fallback reply (see `run`), not with a usage exit code the
//! agent could read as "block".

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use hookgate_dialect::{Agent, FailMode};

/// Shown for `--help` and after a usage error.
pub(crate) fn usage() -> String {
    let agents: Vec<&str> = Agent::ALL.iter().map(|agent| agent.as_str()).collect();
    format!(
        "usage: gateway-shim [{} [EVENT]] [--fail-closed|--fail-open] [--hold-max-ms=MS]",
        agents.join("|")
    )
}

/// The hold maximum's flag, with its `=`.
const HOLD_FLAG: &str = "--hold-max-ms=";

/// The longest native event name accepted (Claude Code's longest is 18).
const MAX_EVENT: usize = 64;

/// More arguments than this is certainly a misconfigured hook, and bounds
/// what the request forwards.
const MAX_ARGS: usize = 8;

/// A valid hook invocation.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Invocation {
    /// The agent named on the command line: a hint for dialect detection.
    pub(crate) agent: Option<Agent>,
    /// The native event named after the agent, for payloads that name none.
    pub(crate) event: Option<String>,
    /// `--fail-closed` / `--fail-open` (the last one wins); overrides `HOOKGATE_FAIL`.
    pub(crate) fail_mode: Option<FailMode>,
    /// `--hold-max-ms=MS`: `Some(None)` for 0 (no holds); overrides
    /// `HOOKGATE_HOLD_MAX_MS`.
    pub(crate) hold_max: Option<Option<core::time::Duration>>,
    /// The arguments as given, forwarded to the gateway.
    pub(crate) args: Vec<String>,
}

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Command {
    /// Forward the hook call.
    Hook(Invocation),
    Help,
    Version,
    /// The command line is wrong. `partial` keeps what did parse, so the
    /// fallback reply can still use the agent hint and the fail mode.
    Usage {
        error: String,
        partial: Invocation,
    },
}

/// Parses the arguments after the program name.
pub(crate) fn parse(argv: &[Vec<u8>]) -> Command {
    let mut parsed = Invocation::default();
    let mut error: Option<String> = None;

    if argv.len() > MAX_ARGS {
        keep_first(&mut error, format!("too many arguments ({})", argv.len()));
    }
    for arg in argv.iter().take(MAX_ARGS) {
        let Ok(arg) = core::str::from_utf8(arg) else {
            keep_first(&mut error, "an argument is not valid UTF-8".to_owned());
            continue;
        };
        match arg {
            "-h" | "--help" => return Command::Help,
            "-V" | "--version" => return Command::Version,
            "--fail-closed" => parsed.fail_mode = Some(FailMode::Closed),
            "--fail-open" => parsed.fail_mode = Some(FailMode::Open),
            flag if flag.starts_with(HOLD_FLAG) => {
                match crate::config::parse_hold_max(&flag[HOLD_FLAG.len()..]) {
                    Some(hold_max) => parsed.hold_max = Some(hold_max),
                    None => keep_first(
                        &mut error,
                        format!(
                            "{HOLD_FLAG}MS takes milliseconds in 0..={}",
                            hookgate_wire::MAX_HOLD_MS
                        ),
                    ),
                }
            }
            flag if flag.starts_with('-') => {
                keep_first(&mut error, format!("unknown option `{}`", shorten(flag)));
            }
            name => match name.parse::<Agent>() {
                Ok(agent) if parsed.agent.is_none() => parsed.agent = Some(agent),
                Ok(_) => keep_first(&mut error, "more than one agent name".to_owned()),
                // The word right after the agent: its native event.
                Err(_) if follows_agent(&parsed) && is_event_name(name) => {
                    parsed.event = Some(name.to_owned());
                }
                Err(unknown) => keep_first(&mut error, format!("`{}`: {unknown}", shorten(name))),
            },
        }
        parsed.args.push(arg.to_owned());
    }

    match error {
        None => Command::Hook(parsed),
        Some(error) => Command::Usage {
            error,
            partial: parsed,
        },
    }
}

/// The last argument so far named the agent, and no event was given yet.
fn follows_agent(parsed: &Invocation) -> bool {
    parsed.event.is_none()
        && parsed
            .args
            .last()
            .is_some_and(|last| last.parse::<Agent>().is_ok())
}

/// An event name: ASCII letters, digits and `_`, starting with a letter.
fn is_event_name(word: &str) -> bool {
    word.len() <= MAX_EVENT
        && word.starts_with(|c: char| c.is_ascii_alphabetic())
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Reports the first problem only: one line on stderr.
fn keep_first(error: &mut Option<String>, message: String) {
    error.get_or_insert(message);
}

/// Keeps error lines to one short line whatever the argument.
fn shorten(arg: &str) -> &str {
    const MAX: usize = 40;
    match arg.char_indices().nth(MAX) {
        Some((end, _)) => &arg[..end],
        None => arg,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(args: &[&str]) -> Vec<Vec<u8>> {
        args.iter().map(|arg| arg.as_bytes().to_vec()).collect()
    }

    fn hook(agent: Option<Agent>, fail_mode: Option<FailMode>, args: &[&str]) -> Command {
        Command::Hook(Invocation {
            agent,
            event: None,
            fail_mode,
            hold_max: None,
            args: args.iter().map(|a| (*a).to_owned()).collect(),
        })
    }

    #[test]
    fn an_event_may_follow_the_agent() {
        let Command::Hook(hook) = parse(&argv(&["copilot", "preToolUse", "--fail-closed"])) else {
            panic!("a hook invocation");
        };
        assert_eq!(hook.agent, Some(Agent::Copilot));
        assert_eq!(hook.event.as_deref(), Some("preToolUse"));
        assert_eq!(hook.fail_mode, Some(FailMode::Closed));
        assert_eq!(hook.args, ["copilot", "preToolUse", "--fail-closed"]);
        // Not without an agent before it, not twice, not an odd word.
        for args in [
            &["preToolUse"][..],
            &["copilot", "preToolUse", "postToolUse"],
            &["copilot", "--fail-open", "preToolUse"],
            &["copilot", "pre/../x"],
        ] {
            assert!(
                matches!(parse(&argv(args)), Command::Usage { .. }),
                "{args:?}"
            );
        }
        let long = "e".repeat(MAX_EVENT + 1);
        assert!(matches!(
            parse(&argv(&["copilot", &long])),
            Command::Usage { .. }
        ));
    }

    #[test]
    fn valid_command_lines() {
        let cases: &[(&[&str], Command)] = &[
            (&[], hook(None, None, &[])),
            (
                &["claude-code"],
                hook(Some(Agent::ClaudeCode), None, &["claude-code"]),
            ),
            (
                &["cline", "--fail-closed"],
                hook(
                    Some(Agent::Cline),
                    Some(FailMode::Closed),
                    &["cline", "--fail-closed"],
                ),
            ),
            (
                &["--fail-closed", "codex"],
                hook(
                    Some(Agent::Codex),
                    Some(FailMode::Closed),
                    &["--fail-closed", "codex"],
                ),
            ),
            (
                &["--fail-closed", "--fail-open"],
                hook(
                    None,
                    Some(FailMode::Open),
                    &["--fail-closed", "--fail-open"],
                ),
            ),
            (&["cursor", "--help"], Command::Help),
            (&["--version"], Command::Version),
        ];
        for (args, expected) in cases {
            assert_eq!(&parse(&argv(args)), expected, "{args:?}");
        }
    }

    /// argv, start of the error, the agent and fail mode that still parsed.
    type UsageCase<'a> = (&'a [&'a str], &'a str, Option<Agent>, Option<FailMode>);

    #[test]
    fn usage_errors_keep_what_parsed() {
        let cases: &[UsageCase<'_>] = &[
            (&["claude"], "`claude`: unknown agent", None, None),
            (
                &["cursor", "--fail-shut"],
                "unknown option `--fail-shut`",
                Some(Agent::Cursor),
                None,
            ),
            (
                &["--fail-closed", "cursor", "cline"],
                "more than one agent name",
                Some(Agent::Cursor),
                Some(FailMode::Closed),
            ),
        ];
        for (args, error_start, agent, fail_mode) in cases {
            let Command::Usage { error, partial } = parse(&argv(args)) else {
                panic!("{args:?} should be a usage error");
            };
            assert!(error.starts_with(error_start), "{args:?}: {error}");
            assert_eq!(partial.agent, *agent, "{args:?}");
            assert_eq!(partial.fail_mode, *fail_mode, "{args:?}");
        }
    }

    #[test]
    fn a_hold_maximum_on_the_command_line() {
        let Command::Hook(hook) = parse(&argv(&["claude-code", "--hold-max-ms=90000"])) else {
            panic!("a hook invocation");
        };
        assert_eq!(
            hook.hold_max,
            Some(Some(core::time::Duration::from_millis(90_000)))
        );
        let Command::Hook(hook) = parse(&argv(&["--hold-max-ms=0"])) else {
            panic!("a hook invocation");
        };
        assert_eq!(hook.hold_max, Some(None));
        for bad in [
            "--hold-max-ms=",
            "--hold-max-ms=-1",
            "--hold-max-ms=3600001",
        ] {
            assert!(
                matches!(parse(&argv(&[bad])), Command::Usage { .. }),
                "{bad}"
            );
        }
    }

    #[test]
    fn hostile_arguments_are_bounded() {
        let many = vec![b"cursor".to_vec(); 100];
        assert!(matches!(parse(&many), Command::Usage { .. }));

        let long = "x".repeat(10_000);
        let Command::Usage { error, .. } = parse(&argv(&[&long])) else {
            panic!("a long unknown name is a usage error");
        };
        assert!(error.len() < 200, "{}", error.len());

        let bad = vec![0xff, 0xfe];
        assert!(matches!(parse(&[bad]), Command::Usage { .. }));
    }
}
