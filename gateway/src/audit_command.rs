//! `gateway audit`: the last events of the audit log, filtered, as a
//! table or as stored; `gateway audit verify`: its hash chain.

#![allow(
    clippy::disallowed_methods,
    reason = "a CLI command with one user waiting: no hook is answered on its runtime"
)]

use std::collections::VecDeque;
use std::io::BufRead as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hookgate_gateway::builtin::auditlog;
use hookgate_gateway::config::{Config, Env, SubscriberKind};
use serde_json::Value;

use crate::cli::{AuditAction, AuditArgs};

/// Bad arguments (as for an invalid config).
const EXIT_USAGE: u8 = 2;

pub(crate) fn run(args: &AuditArgs) -> ExitCode {
    let Some(path) = args.path.clone().or_else(default_path) else {
        eprintln!("gateway: error: no audit log path (no HOME); pass --path");
        return ExitCode::from(EXIT_USAGE);
    };
    match args.action {
        Some(AuditAction::Verify) => match auditlog::verify(&path) {
            Ok(lines) => {
                outln!("{}: intact, {lines} lines", path.display());
                ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("gateway: audit log NOT intact: {err}");
                ExitCode::FAILURE
            }
        },
        None => show(args, &path),
    }
}

/// The config's audit path, else the default one.
fn default_path() -> Option<PathBuf> {
    let configured = Config::load(None).ok().and_then(|config| {
        config.subscribers.into_iter().find_map(|s| match s.kind {
            SubscriberKind::Audit { path, .. } => Some(path),
            _ => None,
        })
    });
    configured.or_else(|| Env::from_process().default_audit_path())
}

fn show(args: &AuditArgs, path: &std::path::Path) -> ExitCode {
    let since_ms = match args.since.as_deref().map(age) {
        None => None,
        Some(Some(age)) => Some(now_ms().saturating_sub(age.as_millis() as u64)),
        Some(None) => {
            eprintln!("gateway: error: --since wants an age like 90s, 10m, 2h or 1d");
            return ExitCode::from(EXIT_USAGE);
        }
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
            let keep = args.agent.as_deref().is_none_or(|a| record["agent"] == a)
                && args
                    .decision
                    .as_deref()
                    .is_none_or(|d| record["decision"]["permission"] == d)
                && since_ms.is_none_or(|s| record["ts_ms"].as_u64().is_some_and(|t| t >= s));
            if keep && args.lines > 0 {
                if last.len() == args.lines {
                    last.pop_front();
                }
                last.push_back((line, record));
            }
        }
    }
    let mut out = String::new();
    for (line, record) in &last {
        if args.json {
            out.push_str(line);
        } else {
            out.push_str(&row(record));
        }
        out.push('\n');
    }
    let _ = std::io::Write::write_all(&mut std::io::stdout(), out.as_bytes());
    ExitCode::SUCCESS
}

/// One event in one line: time, agent, event kind, tool, decision, reason.
fn row(r: &Value) -> String {
    let text = |v: &Value| v.as_str().unwrap_or("-").to_owned();
    let mut out = format!(
        "{}  {:<12} {:<16} {:<12} {:<5}",
        utc(r["ts_ms"].as_u64().unwrap_or(0)),
        text(&r["agent"]),
        text(&r["kind"]),
        text(&r["tool"]["name"]),
        text(&r["decision"]["permission"]),
    );
    if let Some(reason) = r["decision"]["reason"].as_str() {
        out.push_str("  ");
        out.push_str(reason);
    }
    if let Some(error) = r["error"].as_str() {
        out.push_str("  not understood: ");
        out.push_str(error);
    }
    out
}

/// `90s`, `10m`, `2h`, `1d`.
fn age(text: &str) -> Option<Duration> {
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

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Unix milliseconds as `YYYY-MM-DDTHH:MM:SS.mmmZ` (proleptic Gregorian).
fn utc(ms: u64) -> String {
    let secs = ms / 1000;
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60,
        ms % 1000
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn ages_and_times_read_as_written() {
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
        let times = [
            (0, "1970-01-01T00:00:00.000Z"),
            (1_700_000_000_123, "2023-11-14T22:13:20.123Z"),
            (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        ];
        for (ms, text) in times {
            assert_eq!(super::utc(ms), text);
        }
    }
}
