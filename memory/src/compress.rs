//! A session's raw observations into a few memories, by a deterministic
//! extractive summary (no model): the files it touched, the commands and
//! tools it ran with their outcomes, what failed, and the prompts, each
//! memory and the whole summary bounded in size. The observations
//! summarized are deleted in the same transaction.

use std::collections::{BTreeSet, HashSet};

use rusqlite::{TransactionBehavior, params};

use crate::entry::{Entry, Table};
use crate::record::cut;
use crate::{MemoryError, MemoryKind, Observation, ObservationKind, Store};

/// One memory's text is at most this many bytes.
pub const MAX_MEMORY_BYTES: usize = 512;
/// One compression writes at most this many bytes of memories.
pub const MAX_SUMMARY_BYTES: usize = 8 * 1024;
/// Observations read per compression step.
pub(crate) const BATCH: usize = 2000;
/// Steps per [`Store::compress`] call: sessions larger than this many
/// batches leave the rest for the next call.
const MAX_STEPS: usize = 16;
/// Each kind's share of [`MAX_SUMMARY_BYTES`] (count, bytes), so a
/// long session's commands cannot crowd out its prompts or files.
const FACTS: (usize, usize) = (24, 4 * 1024);
const PROBLEMS: (usize, usize) = (8, 1536);
const PROMPTS: (usize, usize) = (8, 1536);
const MAX_FILES: usize = 64;
const MAX_FILES_BYTES: usize = 1024;

/// What a compression did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Compressed {
    /// Raw observations summarized and deleted.
    pub observations: usize,
    /// Memories written.
    pub memories: usize,
}

/// The memories a batch of one session's observations (oldest first) comes
/// to: pure and deterministic.
pub fn summarize(observations: &[Observation]) -> Vec<(MemoryKind, String)> {
    let mut files = BTreeSet::new();
    let (mut facts, mut problems, mut prompts) = (Vec::new(), Vec::new(), Vec::new());
    for obs in observations {
        let text = obs.text.trim();
        if text.is_empty() {
            continue;
        }
        match obs.kind {
            ObservationKind::File => {
                files.insert(cut(text, MAX_MEMORY_BYTES));
            }
            ObservationKind::Command | ObservationKind::Tool => facts.push(text),
            ObservationKind::Failure => problems.push(text),
            ObservationKind::Prompt => prompts.push(text),
            ObservationKind::SessionStart | ObservationKind::SessionEnd => {}
        }
    }
    let mut out = Vec::new();
    if !files.is_empty() {
        let mut list = String::from("Files touched:");
        for (index, file) in files.iter().take(MAX_FILES).enumerate() {
            if list.len() + file.len() + 2 > MAX_FILES_BYTES {
                break;
            }
            list.push_str(if index == 0 { " " } else { ", " });
            list.push_str(file);
        }
        out.push((MemoryKind::File, list));
    }
    let mut seen = HashSet::new();
    // The first prompts say what the session was for; the last commands
    // and failures what it came to.
    for (kind, texts, keep_last, (max, bytes), prefix) in [
        (MemoryKind::Decision, &prompts, false, PROMPTS, "Asked: "),
        (MemoryKind::Problem, &problems, true, PROBLEMS, "Failed: "),
        (MemoryKind::Fact, &facts, true, FACTS, ""),
    ] {
        let mut distinct: Vec<&str> = Vec::new();
        for text in texts.iter() {
            if seen.insert((kind, *text)) {
                distinct.push(text);
            }
        }
        let start = if keep_last {
            distinct.len().saturating_sub(max)
        } else {
            0
        };
        let mut left = bytes;
        for text in distinct.iter().skip(start).take(max) {
            let memory = format!("{prefix}{text}");
            let memory = cut(&memory, MAX_MEMORY_BYTES.min(left));
            if memory.len() <= prefix.len() {
                break;
            }
            left -= memory.len();
            out.push((kind, memory.to_owned()));
        }
    }
    out
}

impl Store {
    /// Compresses `session`'s raw observations into memories (deleting
    /// them), a batch at a time, up to a bounded number of batches.
    pub fn compress(&mut self, session: &str, now_ms: i64) -> Result<Compressed, MemoryError> {
        let mut done = Compressed::default();
        for _ in 0..MAX_STEPS {
            let step = self.compress_step(session, now_ms)?;
            done.observations += step.observations;
            done.memories += step.memories;
            if step.observations < BATCH {
                break;
            }
        }
        Ok(done)
    }

    /// Sessions with raw observations, oldest first (at most `limit`).
    pub fn sessions_pending(&self, limit: usize) -> Result<Vec<String>, MemoryError> {
        let mut stmt = self.conn.prepare(
            "SELECT session FROM observations GROUP BY session ORDER BY min(id) LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit as i64], |row| row.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn compress_step(&mut self, session: &str, now_ms: i64) -> Result<Compressed, MemoryError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let rows = read_pending(&tx, session, BATCH)?;
        let Some(last) = rows.last().map(|(id, _)| *id) else {
            return Ok(Compressed::default());
        };
        // A session normally stays in one project and agent; summarized
        // per (project, agent) all the same, so no memory crosses projects.
        let mut groups: Vec<((String, String), Vec<Observation>)> = Vec::new();
        for (_, obs) in rows.iter() {
            let key = (obs.project.clone(), obs.agent.clone());
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, list)) => list.push(obs.clone()),
                None => groups.push((key, vec![obs.clone()])),
            }
        }
        let mut memories = 0;
        for ((project, agent), list) in &groups {
            for (kind, text) in summarize(list) {
                let entry = Entry {
                    project,
                    agent,
                    session,
                    kind: kind.as_str(),
                    text: &text,
                    at_ms: now_ms,
                };
                entry.insert(&tx, Table::Memories)?;
                memories += 1;
            }
        }
        tx.execute(
            "DELETE FROM observations WHERE session = ?1 AND id <= ?2",
            params![session, last],
        )?;
        tx.commit()?;
        Ok(Compressed {
            observations: rows.len(),
            memories,
        })
    }
}

/// `session`'s oldest `limit` raw observations with their row ids.
pub(crate) fn read_pending(
    conn: &rusqlite::Connection,
    session: &str,
    limit: usize,
) -> Result<Vec<(i64, Observation)>, MemoryError> {
    let mut stmt = conn.prepare(
        "SELECT id, project, agent, session, kind, text, at_ms FROM observations
         WHERE session = ?1 ORDER BY id LIMIT ?2",
    )?;
    let mapped = stmt.query_map(params![session, limit as i64], |row| {
        let kind: String = row.get(4)?;
        Ok((
            row.get(0)?,
            Observation {
                project: row.get(1)?,
                agent: row.get(2)?,
                session: row.get(3)?,
                kind: ObservationKind::parse(&kind).unwrap_or(ObservationKind::Tool),
                text: row.get(5)?,
                at_ms: row.get(6)?,
            },
        ))
    })?;
    Ok(mapped.collect::<Result<_, _>>()?)
}
