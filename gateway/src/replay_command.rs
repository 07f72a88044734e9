//! `gateway replay`: the decision log's events re-driven through a
//! candidate config's deciders in-process, compared with what was decided
//! then.
//!
//! A record is replayed from what the log keeps (docs/policies.md, "What
//! replay needs"): the agent, the native event, the working directory, the
//! payload (masked) and the merged decision. An event whose payload was
//! withheld or had anything masked is counted as `uncertain` and not
//! replayed as if its masked text were what the agent sent: a policy could
//! decide on exactly the masked part.

use std::collections::BTreeMap;
use std::io::BufRead as _;
use std::process::ExitCode;

use hookgate_config::Config;
use hookgate_daemon::builtin::auditlog;
use hookgate_daemon::clock::now_ms;
use hookgate_daemon::offline::{Offline, permission_name};
use hookgate_wire::Request;
use serde_json::{Value, json};

use crate::audit_command::{age, default_path};
use crate::cli::ReplayArgs;

/// What the audit log writes in place of a masked value.
const MASK: &str = "[REDACTED";

pub(crate) fn run(args: &ReplayArgs) -> ExitCode {
    match replay(args) {
        Ok(report) => {
            if args.json {
                outln!("{report:#}");
            } else {
                outln!("{}", human(&report));
            }
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("gateway replay: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// One record, ready to replay or counted uncertain.
enum Event {
    Replay { record: Value, request: Request },
    Uncertain,
}

fn replay(args: &ReplayArgs) -> anyhow::Result<Value> {
    let config = Config::load(Some(&args.config))?;
    let log = args
        .log
        .clone()
        .or_else(default_path)
        .ok_or_else(|| anyhow::anyhow!("no decision log path (no HOME); pass --log"))?;
    let since_ms = match args.since.as_deref() {
        None => None,
        Some(text) => Some(
            now_ms().saturating_sub(
                u64::try_from(
                    age(text)
                        .ok_or_else(|| {
                            anyhow::anyhow!("--since wants an age like 90s, 10m, 2h or 1d")
                        })?
                        .as_millis(),
                )
                .unwrap_or(u64::MAX),
            ),
        ),
    };
    let events = read(&log, since_ms)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(hookgate_adapters::STACK_SIZE)
        .build()?;
    runtime.block_on(async {
        let offline = Offline::new(&config, Some(&args.config)).await?;
        let mut report = Report::default();
        for event in events {
            match event {
                Event::Uncertain => report.uncertain += 1,
                Event::Replay { record, request } => {
                    let outcome = offline.run(request).await;
                    let before = record["decision"]["permission"]
                        .as_str()
                        .unwrap_or("none")
                        .to_owned();
                    let after = permission_name(outcome.decision.permission);
                    report.events += 1;
                    if before == after {
                        continue;
                    }
                    let change = format!("{before}->{after}");
                    let class = record["tool"]["class"]
                        .as_str()
                        .unwrap_or("none")
                        .to_owned();
                    let agent = record["agent"].as_str().unwrap_or("unknown").to_owned();
                    *report.by_change.entry(change.clone()).or_default() += 1;
                    *report.by_agent.entry(agent.clone()).or_default() += 1;
                    *report.by_tool_class.entry(class).or_default() += 1;
                    for who in changed_subscribers(&record, &outcome.subscribers) {
                        *report.by_subscriber.entry(who).or_default() += 1;
                    }
                    report.changed += 1;
                    if report.samples.len() < args.samples {
                        report.samples.push(json!({
                            "id": record["id"],
                            "agent": agent,
                            "tool": record["tool"]["name"],
                            "change": change,
                            "before": record["decision"],
                            "after": {
                                "permission": after,
                                "reason": outcome.decision.reason,
                            },
                        }));
                    }
                }
            }
        }
        anyhow::Ok(report.json())
    })
}

/// The deciders whose verdict differs from the one the log recorded (a
/// decider new in the candidate counts when it has an opinion).
fn changed_subscribers(record: &Value, now: &[hookgate_daemon::offline::Verdict]) -> Vec<String> {
    let then: BTreeMap<&str, &str> = record["subscribers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| Some((s["name"].as_str()?, s["permission"].as_str()?)))
        .collect();
    now.iter()
        .filter(|v| then.get(v.name.as_str()).copied().unwrap_or("none") != v.permission)
        .map(|v| v.name.clone())
        .collect()
}

#[derive(Default)]
struct Report {
    events: u64,
    changed: u64,
    uncertain: u64,
    by_change: BTreeMap<String, u64>,
    by_agent: BTreeMap<String, u64>,
    by_tool_class: BTreeMap<String, u64>,
    by_subscriber: BTreeMap<String, u64>,
    samples: Vec<Value>,
}

impl Report {
    fn json(self) -> Value {
        json!({
            "events": self.events,
            "changed": self.changed,
            "uncertain": self.uncertain,
            "by_change": self.by_change,
            "by_agent": self.by_agent,
            "by_tool_class": self.by_tool_class,
            "by_subscriber": self.by_subscriber,
            "samples": self.samples,
        })
    }
}

/// The log's records (rotated files oldest first) since `since_ms`.
#[expect(clippy::disallowed_methods, reason = "a CLI command, not on a runtime")]
fn read(log: &std::path::Path, since_ms: Option<u64>) -> anyhow::Result<Vec<Event>> {
    let mut events = Vec::new();
    let files = auditlog::files(log);
    if files.iter().all(|f| !f.exists()) {
        anyhow::bail!("{}: no decision log", log.display());
    }
    for file in files {
        let Ok(opened) = std::fs::File::open(&file) else {
            continue;
        };
        for line in std::io::BufReader::new(opened).lines() {
            let line = line?;
            let Ok(record) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if since_ms.is_some_and(|s| record["ts_ms"].as_u64().is_none_or(|t| t < s)) {
                continue;
            }
            // Records of payloads that were never understood have nothing
            // to decide on.
            let Some(agent) = record["agent"].as_str() else {
                continue;
            };
            let payload = &record["payload"];
            let withheld = payload.get("withheld").is_some();
            let bytes = match payload {
                Value::String(text) => text.clone().into_bytes(),
                other => other.to_string().into_bytes(),
            };
            if withheld || String::from_utf8_lossy(&bytes).contains(MASK) {
                events.push(Event::Uncertain);
                continue;
            }
            let mut args = vec![agent.to_owned()];
            args.extend(record["event"].as_str().map(str::to_owned));
            let request = Request {
                args,
                cwd: record["cwd"].as_str().unwrap_or("/").to_owned(),
                env: Vec::new(),
                stdin: bytes,
            };
            events.push(Event::Replay { record, request });
        }
    }
    Ok(events)
}

fn human(report: &Value) -> String {
    let mut text = format!(
        "events replayed: {}\nchanged: {}\nuncertain (masked or withheld, not replayed): {}\n",
        report["events"], report["changed"], report["uncertain"]
    );
    for key in ["by_change", "by_agent", "by_tool_class", "by_subscriber"] {
        if let Some(map) = report[key].as_object().filter(|m| !m.is_empty()) {
            let parts: Vec<String> = map.iter().map(|(k, v)| format!("{k} {v}")).collect();
            text.push_str(&format!(
                "{}: {}\n",
                key.replace('_', " "),
                parts.join(", ")
            ));
        }
    }
    for sample in report["samples"].as_array().into_iter().flatten() {
        text.push_str(&format!(
            "  {} {} {}: {} -> {} ({})\n",
            sample["id"].as_str().unwrap_or_default(),
            sample["agent"].as_str().unwrap_or_default(),
            sample["tool"].as_str().unwrap_or("-"),
            sample["before"]["permission"].as_str().unwrap_or_default(),
            sample["after"]["permission"].as_str().unwrap_or_default(),
            sample["after"]["reason"].as_str().unwrap_or("no reason"),
        ));
    }
    text.trim_end().to_owned()
}
