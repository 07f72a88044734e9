//! `gateway memory`: search, show and forget what the built-in `memory`
//! subscriber kept, and its numbers, straight from its SQLite file (WAL
//! lets this read while a gateway writes; no running gateway is needed).
//! Memory text came from agents' tool output: it reaches the terminal only
//! through `crate::terminal`.

#![allow(
    clippy::disallowed_methods,
    reason = "a CLI command with one user waiting: no hook is answered on its runtime"
)]

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, anyhow};
use hookgate_config::{Config, Env, SubscriberKind};
use hookgate_memory::{Forget, Memory, Query, Store, project_of};
use serde_json::{Value, json};

use crate::cli::{MemoryAction, MemoryArgs};
use crate::terminal::printable;

/// Bad arguments or no database path.
const EXIT_USAGE: u8 = 2;

pub(crate) fn run(args: &MemoryArgs) -> ExitCode {
    let Some(path) = args.path.clone().or_else(default_path) else {
        eprintln!("gateway: error: no memory database path (no HOME); pass --path");
        return ExitCode::from(EXIT_USAGE);
    };
    match act(args, &path) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("gateway: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn act(args: &MemoryArgs, path: &Path) -> anyhow::Result<ExitCode> {
    if !path.exists() {
        return Err(anyhow!(
            "{}: no memory database (is a `memory` subscriber configured? docs/memory.md)",
            path.display()
        ));
    }
    let mut store = Store::open(path).with_context(|| format!("opening {}", path.display()))?;
    match &args.action {
        MemoryAction::Search {
            query,
            project,
            agent,
            budget,
        } => {
            let only = project.as_deref().map(project_dir).transpose()?;
            let here = std::env::current_dir()
                .ok()
                .and_then(|dir| project_of(&dir.to_string_lossy()));
            let found = store.search(&Query {
                text: query,
                project: only.as_deref().or(here.as_deref()),
                only_project: only.is_some(),
                agent: agent.as_deref(),
                budget: *budget,
                now_ms: hookgate_daemon::clock::now_ms_i64(),
            })?;
            for memory in &found {
                print_memory(memory, args.json);
            }
            if found.is_empty() && !args.json {
                eprintln!("no memory matches");
            }
        }
        MemoryAction::Show { id } => match store.show(*id)? {
            Some(memory) => print_memory(&memory, args.json),
            None => {
                eprintln!("gateway: no memory {id}");
                return Ok(ExitCode::FAILURE);
            }
        },
        MemoryAction::Forget {
            id,
            session,
            project,
            all,
        } => {
            let project = project.as_deref().map(project_dir).transpose()?;
            let what = match (id, session, &project, all) {
                (Some(id), ..) => Forget::Id(*id),
                (_, Some(session), ..) => Forget::Session(session),
                (_, _, Some(project), _) => Forget::Project(project),
                (.., true) => Forget::All,
                _ => return Ok(ExitCode::from(EXIT_USAGE)),
            };
            let done = store.forget(what)?;
            if args.json {
                outln!(
                    "{}",
                    json!({ "memories": done.memories, "observations": done.observations, "checkpointed": done.checkpointed })
                );
            } else {
                outln!(
                    "forgot {} memories and {} raw observations",
                    done.memories,
                    done.observations
                );
                if !done.checkpointed {
                    outln!(
                        "a reader held the write-ahead log: the text leaves it at the next checkpoint (run this again to force one)"
                    );
                }
            }
        }
        MemoryAction::Stats => stats(&store, args.json)?,
    }
    Ok(ExitCode::SUCCESS)
}

fn stats(store: &Store, json: bool) -> anyhow::Result<()> {
    let s = store.stats()?;
    let kinds: serde_json::Map<String, Value> = (s.by_kind.iter())
        .map(|(kind, n)| (kind.as_str().to_owned(), json!(n)))
        .collect();
    if json {
        outln!(
            "{}",
            json!({
                "path": store.path().display().to_string(),
                "schema": s.schema,
                "memories": s.memories,
                "by_kind": kinds,
                "projects": s.projects,
                "observations": s.observations,
                "pending_sessions": s.pending_sessions,
                "oldest_ms": s.oldest_ms,
                "newest_ms": s.newest_ms,
                "used_bytes": s.used_bytes,
                "file_bytes": s.file_bytes,
                "wal_bytes": s.wal_bytes,
            })
        );
        return Ok(());
    }
    outln!(
        "database     {} (schema {})",
        store.path().display(),
        s.schema
    );
    let per_kind: Vec<String> = (s.by_kind.iter())
        .map(|(kind, n)| format!("{n} {}", kind.as_str()))
        .collect();
    outln!("memories     {} ({})", s.memories, per_kind.join(", "));
    outln!("projects     {}", s.projects);
    outln!(
        "raw          {} observations in {} sessions not yet compressed",
        s.observations,
        s.pending_sessions
    );
    outln!(
        "size         {} bytes in use; file {} bytes, write-ahead log {} bytes",
        s.used_bytes,
        s.file_bytes,
        s.wal_bytes
    );
    Ok(())
}

fn print_memory(memory: &Memory, json: bool) {
    if json {
        outln!(
            "{}",
            json!({
                "id": memory.id,
                "project": memory.project,
                "agent": memory.agent,
                "session": memory.session,
                "kind": memory.kind.as_str(),
                "text": memory.text,
                "at_ms": memory.at_ms,
            })
        );
    } else {
        outln!(
            "#{} {} from {} in {} (session {})\n    {}",
            memory.id,
            memory.kind.as_str(),
            printable(&memory.agent),
            printable(&memory.project),
            printable(&memory.session),
            printable(&memory.text)
        );
    }
}

/// The project a `--project DIR` names: its git root, else itself.
fn project_dir(dir: &Path) -> anyhow::Result<String> {
    let absolute = std::path::absolute(dir).with_context(|| format!("{}", dir.display()))?;
    project_of(&absolute.to_string_lossy())
        .ok_or_else(|| anyhow!("{}: not a usable directory path", dir.display()))
}

/// The config's memory path, else the default one.
fn default_path() -> Option<PathBuf> {
    let configured = Config::load(None).ok().and_then(|config| {
        config.subscribers.into_iter().find_map(|s| match s.kind {
            SubscriberKind::Memory(memory) => Some(memory.path),
            _ => None,
        })
    });
    configured.or_else(|| {
        let audit = Env::from_process().default_audit_path()?;
        Some(audit.parent()?.join("memory.db"))
    })
}
