//! `gateway audit`: the last events of the audit log, filtered, as a
//! table (`row`; a decision whose reply never reached the agent is marked
//! `NOT DELIVERED`) or as stored, then with `--follow` each new one as it
//! is logged (`follow`); `gateway audit verify`: its hash chain. Nothing
//! the model wrote reaches the terminal raw (`crate::terminal`).

#![allow(
    clippy::disallowed_methods,
    reason = "a CLI command with one user waiting: no hook is answered on its runtime"
)]

mod follow;
mod row;

use std::collections::VecDeque;
use std::io::BufRead as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use hookgate_config::{Config, Env, SubscriberKind};
use hookgate_daemon::builtin::auditlog;
use serde_json::Value;

use crate::cli::{AuditAction, AuditArgs};
use row::Clock;

/// Bad arguments (as for an invalid config).
const EXIT_USAGE: u8 = 2;

pub(crate) fn run(args: &AuditArgs) -> ExitCode {
    let Some(path) = args.path.clone().or_else(default_path) else {
        eprintln!("gateway: error: no audit log path (no HOME); pass --path");
        return ExitCode::from(EXIT_USAGE);
    };
    match &args.action {
        Some(AuditAction::Verify { anchor }) => verify(&path, anchor.as_deref()),
        None => show(args, &path),
    }
}

/// `gateway audit verify`: the chain, then the anchor if given; on success
/// what that proves and what it cannot, so "intact" is not read as more.
fn verify(path: &Path, anchor: Option<&Path>) -> ExitCode {
    let checked = auditlog::verify(path).and_then(|verified| {
        anchor.map_or(Ok(()), |a| auditlog::check_anchor(&verified, a))?;
        Ok(verified)
    });
    let verified = match checked {
        Ok(verified) => verified,
        Err(err) => {
            eprintln!("gateway: audit log NOT intact: {err}");
            return ExitCode::FAILURE;
        }
    };
    outln!(
        "{}: intact, {} lines in {} file(s)",
        path.display(),
        verified.lines,
        verified.files
    );
    outln!(
        "  proves: no line edited, removed or inserted, the end not cut, no rotated file missing \
         between the oldest and the newest (tamper-evident, not tamper-proof)"
    );
    if verified.starts_mid_chain {
        outln!(
            "  not checked: the files before the oldest one here (rotated away past `keep`, \
             or a log moved away while the gateway ran)"
        );
    }
    match anchor {
        Some(anchor) => outln!(
            "  anchor {}: matches the chain's head; a rewrite of the whole chain would not, \
             as long as the anchor is out of reach of whoever can write the log",
            anchor.display()
        ),
        None => outln!(
            "  not proved: that the whole chain was not rewritten (hashes and head recomputed) \
             by someone who can write these files; an anchor can (`--anchor`, docs/decision-log.md)"
        ),
    }
    ExitCode::SUCCESS
}

/// The config's audit path, else the default one.
pub(crate) fn default_path() -> Option<PathBuf> {
    let configured = Config::load(None).ok().and_then(|config| {
        config.subscribers.into_iter().find_map(|s| match s.kind {
            SubscriberKind::Audit { path, .. } => Some(path),
            _ => None,
        })
    });
    configured.or_else(|| Env::from_process().default_audit_path())
}

/// Which records to show, and how.
struct View<'a> {
    args: &'a AuditArgs,
    since_ms: Option<u64>,
    clock: Clock,
}

impl View<'_> {
    fn keeps(&self, record: &Value) -> bool {
        let args = self.args;
        let tool = &record["tool"];
        let tool_is = |wanted: &str| {
            [&tool["name"], &tool["class"]]
                .iter()
                .any(|v| v.as_str().is_some_and(|t| t.eq_ignore_ascii_case(wanted)))
        };
        args.agent.as_deref().is_none_or(|a| record["agent"] == a)
            && args
                .decision
                .as_deref()
                .is_none_or(|d| record["decision"]["permission"] == d)
            && args
                .session
                .as_deref()
                .is_none_or(|s| record["session_id"] == s)
            && args.tool.as_deref().is_none_or(tool_is)
            && (args.probes || record["probe"] != true)
            && (!args.delivered || row::undelivered(record).is_none())
            && self
                .since_ms
                .is_none_or(|s| record["ts_ms"].as_u64().is_some_and(|t| t >= s))
    }

    /// `line` as printed: as stored, or one table row.
    fn render(&self, line: &str, record: &Value) -> String {
        let mut out = if self.args.json {
            crate::terminal::json_line(line).into_owned()
        } else {
            row::row(record, &self.clock)
        };
        out.push('\n');
        out
    }
}

fn show(args: &AuditArgs, path: &Path) -> ExitCode {
    let since_ms = match args.since.as_deref().map(age) {
        None => None,
        Some(Some(age)) => {
            Some(hookgate_daemon::clock::now_ms().saturating_sub(age.as_millis() as u64))
        }
        Some(None) => {
            eprintln!("gateway: error: --since wants an age like 90s, 10m, 2h or 1d");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let view = View {
        args,
        since_ms,
        clock: if args.utc { Clock::Utc } else { Clock::local() },
    };
    let mut last: VecDeque<(String, Value)> = VecDeque::with_capacity(args.lines.min(4096));
    for file in auditlog::files(path) {
        let Ok(opened) = std::fs::File::open(&file) else {
            continue;
        };
        for line in std::io::BufReader::new(opened).lines() {
            let Ok(line) = line else { break };
            let Ok(record) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if view.keeps(&record) && args.lines > 0 {
                if last.len() == args.lines {
                    last.pop_front();
                }
                last.push_back((line, record));
            }
        }
    }
    let out: String = last
        .iter()
        .map(|(line, record)| view.render(line, record))
        .collect();
    if !crate::out::try_print(out.as_bytes()) {
        return ExitCode::SUCCESS;
    }
    if args.follow {
        follow::follow(path, &view);
    }
    ExitCode::SUCCESS
}

/// `90s`, `10m`, `2h`, `1d`.
pub(crate) fn age(text: &str) -> Option<Duration> {
    let split = text.find(|c: char| !c.is_ascii_digit())?;
    let (n, unit) = text.split_at(split);
    let n: u64 = n.parse().ok()?;
    let secs = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3_600,
        "d" => 86_400,
        _ => return None,
    };
    Some(Duration::from_secs(n.checked_mul(secs)?))
}

#[cfg(test)]
mod tests {
    #[test]
    fn ages_read_as_written() {
        let ages = [
            ("90s", Some(90)),
            ("10m", Some(600)),
            ("2h", Some(7200)),
            ("1d", Some(86_400)),
            ("5", None),
            ("m", None),
            ("3w", None),
        ];
        for (text, secs) in ages {
            assert_eq!(super::age(text).map(|d| d.as_secs()), secs, "{text}");
        }
    }
}
