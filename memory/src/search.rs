//! Finding memories: full-text rank (FTS5's bm25) over the query's words,
//! weighed by recency, the asked project's first; as many as fit a byte
//! budget. An empty query gives the most recent memories instead.

use rusqlite::{Row, params};

use crate::{MemoryError, MemoryKind, Store};

/// Candidates ranked in Rust after the index's first cut.
const CANDIDATES: i64 = 256;
/// Words of a query used (the rest are ignored).
const MAX_TERMS: usize = 32;
/// A memory's share of the budget beyond its text (its kind, a separator).
const OVERHEAD: usize = 16;
/// Words too common to say what a query is about (English, as prompts
/// mostly are): matched, they would tie every memory to every prompt.
const STOP_WORDS: &[&str] = &[
    "a", "about", "all", "an", "and", "any", "are", "as", "at", "be", "but", "by", "can", "could",
    "do", "does", "for", "from", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it",
    "its", "me", "my", "no", "not", "of", "on", "or", "our", "please", "so", "that", "the",
    "their", "them", "then", "there", "these", "this", "to", "up", "us", "was", "we", "were",
    "what", "when", "where", "which", "who", "why", "will", "with", "would", "you", "your",
];
/// A memory's recency weight halves every this many days.
const HALF_LIFE_DAYS: f64 = 14.0;

/// One stored memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Memory {
    pub id: i64,
    pub project: String,
    pub agent: String,
    pub session: String,
    pub kind: MemoryKind,
    pub text: String,
    pub at_ms: i64,
}

/// What to look for.
#[derive(Debug, Clone, Default)]
pub struct Query<'a> {
    /// Free text; its words are matched (any of them). Empty: the most
    /// recent memories; only common words: none.
    pub text: &'a str,
    /// The project asked about: its memories come first.
    pub project: Option<&'a str>,
    /// Only that project's memories.
    pub only_project: bool,
    pub agent: Option<&'a str>,
    /// The most bytes of memory text (plus a small overhead each) returned.
    pub budget: usize,
    /// Now, in milliseconds since the epoch (for recency).
    pub now_ms: i64,
}

impl Store {
    /// The memories that best answer `query`, best first, within its budget.
    pub fn search(&self, query: &Query<'_>) -> Result<Vec<Memory>, MemoryError> {
        let only = query.project.filter(|_| query.only_project);
        let terms = match_expression(query.text);
        if terms.is_empty() && !query.text.trim().is_empty() {
            // Words, but none that says anything: no match, rather than
            // the most recent memories.
            return Ok(Vec::new());
        }
        let mut ranked: Vec<(bool, f64, Memory)> = Vec::new();
        if terms.is_empty() {
            let mut stmt = self.conn.prepare_cached(
                "SELECT id, project, agent, session, kind, text, at_ms, 0.0 FROM memories
                 WHERE (?1 IS NULL OR project = ?1) AND (?2 IS NULL OR agent = ?2)
                 ORDER BY at_ms DESC, id DESC LIMIT ?3",
            )?;
            let rows = stmt.query_map(params![only, query.agent, CANDIDATES], scored)?;
            for row in rows {
                let (memory, _) = row?;
                let same = query.project == Some(memory.project.as_str());
                let recency = memory.at_ms as f64;
                ranked.push((same, recency, memory));
            }
        } else {
            let mut stmt = self.conn.prepare_cached(
                "SELECT m.id, m.project, m.agent, m.session, m.kind, m.text, m.at_ms,
                        bm25(memories_fts)
                 FROM memories_fts JOIN memories m ON m.id = memories_fts.rowid
                 WHERE memories_fts MATCH ?1
                   AND (?2 IS NULL OR m.project = ?2) AND (?3 IS NULL OR m.agent = ?3)
                 ORDER BY bm25(memories_fts) LIMIT ?4",
            )?;
            let rows = stmt.query_map(params![terms, only, query.agent, CANDIDATES], scored)?;
            for row in rows {
                let (memory, bm25) = row?;
                let same = query.project == Some(memory.project.as_str());
                let age_days = (query.now_ms - memory.at_ms).max(0) as f64 / 86_400_000.0;
                let recency = 0.5f64.powf(age_days / HALF_LIFE_DAYS);
                // bm25 is negative, lower is better.
                ranked.push((same, -bm25 * (0.5 + 0.5 * recency), memory));
            }
        }
        ranked.sort_by(|a, b| {
            (b.0.cmp(&a.0))
                .then(b.1.total_cmp(&a.1))
                .then(b.2.id.cmp(&a.2.id))
        });
        let mut left = query.budget;
        let mut out = Vec::new();
        for (_, _, memory) in ranked {
            let cost = memory.text.len() + OVERHEAD;
            if cost <= left {
                left -= cost;
                out.push(memory);
            }
        }
        Ok(out)
    }

    /// The memory `id`, if it exists.
    pub fn show(&self, id: i64) -> Result<Option<Memory>, MemoryError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, project, agent, session, kind, text, at_ms, 0.0 FROM memories WHERE id = ?1",
        )?;
        let mut rows = stmt.query_map([id], scored)?;
        Ok(rows.next().transpose()?.map(|(memory, _)| memory))
    }
}

fn scored(row: &Row<'_>) -> rusqlite::Result<(Memory, f64)> {
    let kind: String = row.get(4)?;
    Ok((
        Memory {
            id: row.get(0)?,
            project: row.get(1)?,
            agent: row.get(2)?,
            session: row.get(3)?,
            kind: MemoryKind::parse(&kind).unwrap_or(MemoryKind::Fact),
            text: row.get(5)?,
            at_ms: row.get(6)?,
        },
        row.get(7)?,
    ))
}

/// The FTS5 expression for free text: its words (letters and digits, 2+
/// characters, lowercased, not a [`STOP_WORDS`] one, at most
/// [`MAX_TERMS`]), each quoted, any of them. Nothing of the text's own syntax reaches FTS5.
pub(crate) fn match_expression(text: &str) -> String {
    let mut terms: Vec<String> = Vec::new();
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        if word.chars().count() < 2 {
            continue;
        }
        let word = word.to_lowercase();
        if STOP_WORDS.contains(&word.as_str()) {
            continue;
        }
        if !terms.contains(&word) {
            terms.push(word);
        }
        if terms.len() == MAX_TERMS {
            break;
        }
    }
    terms
        .iter()
        .map(|t| format!("\"{t}\""))
        .collect::<Vec<_>>()
        .join(" OR ")
}
