//! What the shim forwards: the hook's stdin (bounded), its working directory
//! (the event's when the payload names none), the names of the agent's
//! variables (detection reads them; their values stay here) and hookgate's
//! own settings with their values (the fail mode). Never the rest: a user's
//! environment holds secrets the gateway has no business seeing.
//!
//! stdin is read under the total deadline (how is `sys`'s business), so an
//! agent that never closes it cannot keep the hook past its deadline.

use alloc::string::String;
use alloc::vec::Vec;
use core::time::Duration;

use hookgate_wire::MAX_STDIN;

use crate::stdin::Stdin;
use crate::sys::{self, IoError};

/// Name prefixes of the variables the agents set for hooks
/// (`CLAUDE_PROJECT_DIR`, `CURSOR_VERSION`, `CLINE_HOOKS_DIR`,
/// `GEMINI_SESSION_ID`, `QWEN_PROJECT_DIR`, `FACTORY_PROJECT_DIR`,
/// `HERMES_SESSION_ID`, ...). Their names also help dialect detection.
pub(crate) const AGENT_PREFIXES: [&str; 10] = [
    "CLAUDE_", "CURSOR_", "CLINE_", "GEMINI_", "CODEX_", "QWEN_", "FACTORY_", "DROID_", "COPILOT_",
    "HERMES_",
];
/// Never forwarded, whatever the prefix: agents pass their whole
/// environment to hooks (Qwen Code its model's API key), and names such as
/// `GEMINI_API_KEY`, `FACTORY_API_KEY` or `COPILOT_GITHUB_TOKEN` carry
/// credentials the gateway has no business seeing.
pub(crate) const SECRET_NAME_PARTS: [&str; 6] =
    ["KEY", "TOKEN", "SECRET", "PASSW", "CREDENTIAL", "AUTH"];
/// hookgate's own settings (`HOOKGATE_FAIL`, `HOOKGATE_TIMEOUT_MS`, ...) are
/// forwarded too, so the gateway knows this hook's fail mode and deadline.
/// They are not agent variables and are not given to dialect detection.
pub(crate) const OWN_PREFIX: &str = "HOOKGATE_";

/// At most this many variables are forwarded (the lowest names first).
pub(crate) const MAX_ENV_VARS: usize = 64;
/// Longer names are skipped.
pub(crate) const MAX_ENV_NAME: usize = 128;
/// Longer values are skipped whole: a truncated path is worse than none.
pub(crate) const MAX_ENV_VALUE: usize = 4096;
/// Names and values together stay under this, well inside the request
/// body's allowance beyond stdin.
pub(crate) const MAX_ENV_TOTAL: usize = 64 * 1024;

/// The forwarded environment: agent and hookgate variables, UTF-8 only,
/// sorted by name, bounded by the limits above.
pub(crate) fn forwarded_env(
    vars: impl IntoIterator<Item = (Vec<u8>, Vec<u8>)>,
) -> Vec<(String, String)> {
    let mut selected: Vec<(String, String)> = vars
        .into_iter()
        .filter_map(|(name, value)| {
            let name = String::from_utf8(name).ok()?;
            if name.len() > MAX_ENV_NAME {
                return None;
            }
            if name.starts_with(OWN_PREFIX) {
                // hookgate's own settings keep their values (the fail mode).
                let value = String::from_utf8(value).ok()?;
                return (value.len() <= MAX_ENV_VALUE).then_some((name, value));
            }
            // The gateway reads agent variables' names (detection), never
            // their values: those stay here.
            is_agent_var(&name).then_some((name, String::new()))
        })
        .collect();
    selected.sort();
    let mut total = 0;
    selected.retain(|(name, value)| {
        total += name.len() + value.len();
        total <= MAX_ENV_TOTAL
    });
    selected.truncate(MAX_ENV_VARS);
    selected
}

/// Sets `name` to `value` in the forwarded (sorted) environment, replacing
/// what the agent's environment had.
pub(crate) fn set_var(env: &mut Vec<(String, String)>, name: &str, value: &str) {
    env.retain(|(n, _)| n != name);
    let at = env.partition_point(|(n, _)| n.as_str() < name);
    env.insert(at, (name.into(), value.into()));
}

/// Whether `name` is one the agents set (as opposed to hookgate's own),
/// and not one that may hold a credential.
pub(crate) fn is_agent_var(name: &str) -> bool {
    AGENT_PREFIXES.iter().any(|prefix| name.starts_with(prefix))
        && !SECRET_NAME_PARTS
            .iter()
            .any(|part| contains_ignore_case(name, part))
}

/// `haystack` contains `needle` (ASCII upper case), ignoring ASCII case.
fn contains_ignore_case(haystack: &str, needle: &str) -> bool {
    haystack
        .as_bytes()
        .windows(needle.len())
        .any(|window| window.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Reads the process's stdin, bounded by `MAX_STDIN` and by `deadline`
/// (on the `sys::now` clock).
pub(crate) fn read_stdin_until(deadline: Duration) -> Result<Stdin, IoError> {
    sys::read_stdin(MAX_STDIN, deadline)
}

/// The working directory as UTF-8, or empty when it is unknown or not
/// UTF-8 (a lossy path would name a different directory; the payloads carry
/// their own `cwd` anyway).
pub(crate) fn cwd() -> String {
    sys::cwd()
        .and_then(|dir| String::from_utf8(dir).ok())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use alloc::borrow::ToOwned;

    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> Vec<(Vec<u8>, Vec<u8>)> {
        pairs
            .iter()
            .map(|(k, v)| (k.as_bytes().to_vec(), v.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn only_agent_and_hookgate_variables_are_forwarded() {
        let env = forwarded_env(vars(&[
            ("PATH", "/usr/bin"),
            ("AWS_SECRET_ACCESS_KEY", "secret"),
            ("CURSOR_VERSION", "1.7.2"),
            ("CLAUDE_PROJECT_DIR", "/home/dev/acme"),
            ("HOOKGATE_FAIL", "closed"),
            ("CLAUDE", "no underscore, not a prefix match"),
            ("GEMINI_SESSION_ID", "s1"),
            ("CODEX_HOME", "/home/dev/.codex"),
            ("CLINE_HOOKS_DIR", "/h"),
        ]));
        let names: Vec<&str> = env.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "CLAUDE_PROJECT_DIR",
                "CLINE_HOOKS_DIR",
                "CODEX_HOME",
                "CURSOR_VERSION",
                "GEMINI_SESSION_ID",
                "HOOKGATE_FAIL"
            ]
        );
        assert!(!is_agent_var("HOOKGATE_FAIL"));
        assert!(is_agent_var("CLAUDE_PROJECT_DIR"));
    }

    #[test]
    fn set_var_replaces_and_keeps_the_order() {
        let mut env = forwarded_env(vars(&[("HOOKGATE_FAIL", "closed"), ("CLAUDE_X", "1")]));
        set_var(&mut env, "HOOKGATE_FAIL", "open");
        set_var(&mut env, "HOOKGATE_A", "a");
        let names: Vec<&str> = env.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["CLAUDE_X", "HOOKGATE_A", "HOOKGATE_FAIL"]);
        assert_eq!(env[2].1, "open");
    }

    #[test]
    fn new_agents_variables_are_forwarded_but_never_credentials() {
        let env = forwarded_env(vars(&[
            ("QWEN_PROJECT_DIR", "/p"),
            ("QWEN_CODE_SESSION_ID", "s"),
            ("OPENAI_API_KEY", "sk-qwen-passes-this-to-hooks"),
            ("FACTORY_PROJECT_DIR", "/p"),
            ("FACTORY_API_KEY", "fk-secret"),
            ("DROID_PROJECT_DIR", "/p"),
            ("GEMINI_API_KEY", "g-secret"),
            ("COPILOT_CLI", "1"),
            ("COPILOT_GITHUB_TOKEN", "ghp-secret"),
            ("CLAUDE_CODE_OAUTH_TOKEN", "oauth-secret"),
            ("CODEX_Auth_File", "/x"),
        ]));
        let names: Vec<&str> = env.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "COPILOT_CLI",
                "DROID_PROJECT_DIR",
                "FACTORY_PROJECT_DIR",
                "QWEN_CODE_SESSION_ID",
                "QWEN_PROJECT_DIR"
            ]
        );
        assert!(env.iter().all(|(_, value)| !value.contains("secret")));
    }

    #[test]
    fn environment_is_bounded() {
        let long_value = "v".repeat(MAX_ENV_VALUE + 1);
        let long_name = format!("CLAUDE_{}", "N".repeat(MAX_ENV_NAME));
        let env = forwarded_env(vars(&[
            ("HOOKGATE_LONG", &long_value),
            (&long_name, "x"),
            ("CLAUDE_LONG", &long_value),
            ("HOOKGATE_OK", "ok"),
        ]));
        assert_eq!(
            env,
            [
                ("CLAUDE_LONG".to_owned(), String::new()),
                ("HOOKGATE_OK".to_owned(), "ok".to_owned())
            ]
        );

        let many: Vec<(Vec<u8>, Vec<u8>)> = (0..500)
            .map(|i| {
                (
                    format!("HOOKGATE_{i:03}").into_bytes(),
                    "x".repeat(MAX_ENV_VALUE).into_bytes(),
                )
            })
            .collect();
        let env = forwarded_env(many);
        assert!(env.len() <= MAX_ENV_VARS);
        let total: usize = env.iter().map(|(n, v)| n.len() + v.len()).sum();
        assert!(total <= MAX_ENV_TOTAL, "{total}");
        assert_eq!(env[0].0, "HOOKGATE_000", "lowest names are kept");
    }

    #[test]
    fn non_utf8_variables_are_skipped() {
        let env = forwarded_env([
            (b"HOOKGATE_A".to_vec(), vec![0xff]),
            (b"CLAUDE_\xff".to_vec(), b"x".to_vec()),
            (b"CLAUDE_B".to_vec(), vec![0xff]),
        ]);
        // A value that is not forwarded need not be UTF-8.
        assert_eq!(env, [("CLAUDE_B".to_owned(), String::new())]);
    }
}
