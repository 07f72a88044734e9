//! Finding memories: full-text rank (FTS5's bm25) over the query's words,
//! weighed by recency, the asked project's first; as many as fit a byte
//! budget. An empty query gives the most recent memories instead. Words
//! in many memories are ranked apart (`common.rs`).

use rusqlite::{Row, params};

use crate::{MemoryError, MemoryKind, Store};

/// Candidates ranked in Rust after the index's first cut, per pass.
pub(crate) const CANDIDATES: i64 = 256;
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

/// A ranked memory before its text is read: what ordering it and fitting
/// it to the budget need. Only the memories that fit are read whole.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Candidate {
    pub id: i64,
    /// Of the asked project.
    pub same: bool,
    /// Higher is better.
    pub score: f64,
    /// The text's length in bytes.
    pub bytes: usize,
}

impl Candidate {
    /// Reads a row of `id, at_ms, same, bytes`; `score` from its `at_ms`.
    pub(crate) fn read(
        row: &Row<'_>,
        score: impl FnOnce(i64) -> f64,
    ) -> rusqlite::Result<Candidate> {
        let bytes: i64 = row.get(3)?;
        Ok(Candidate {
            id: row.get(0)?,
            same: row.get(2)?,
            score: score(row.get(1)?),
            bytes: usize::try_from(bytes).unwrap_or(usize::MAX),
        })
    }
}

impl Store {
    /// The memories that best answer `query`, best first, within its budget.
    pub fn search(&self, query: &Query<'_>) -> Result<Vec<Memory>, MemoryError> {
        let only = query.project.filter(|_| query.only_project);
        let words = query_words(query.text);
        if words.is_empty() && !query.text.trim().is_empty() {
            // Words, but none that says anything: no match, rather than
            // the most recent memories.
            return Ok(Vec::new());
        }
        let terms = self.by_frequency(words)?;
        let mut ranked: Vec<Candidate> = Vec::new();
        if terms.rare.is_empty() && terms.common.is_empty() {
            let mut stmt = self.conn.prepare_cached(
                "SELECT id, at_ms, coalesce(project = ?4, 0), octet_length(text) FROM memories
                 WHERE (?1 IS NULL OR project = ?1) AND (?2 IS NULL OR agent = ?2)
                 ORDER BY at_ms DESC, id DESC LIMIT ?3",
            )?;
            let rows = stmt.query_map(
                params![only, query.agent, CANDIDATES, query.project],
                |row| Candidate::read(row, |at_ms| at_ms as f64),
            )?;
            for row in rows {
                ranked.push(row?);
            }
        } else {
            // Rare words over every memory; common ones over the most
            // recent only: ranking every match of a common word costs more
            // than a hook can wait.
            if !terms.rare.is_empty() {
                let expression = terms
                    .rare
                    .iter()
                    .map(|t| phrase(&t.word))
                    .collect::<Vec<_>>()
                    .join(" OR ");
                self.matches(query, &expression, &mut ranked)?;
            }
            if !terms.common.is_empty() {
                self.recent_matches(query, &terms, &mut ranked)?;
            }
            // A memory both searches found counts once, at its best.
            ranked.sort_by(|a, b| a.id.cmp(&b.id).then(b.score.total_cmp(&a.score)));
            ranked.dedup_by_key(|c| c.id);
        }
        ranked.sort_by(|a, b| {
            (b.same.cmp(&a.same))
                .then(b.score.total_cmp(&a.score))
                .then(b.id.cmp(&a.id))
        });
        let mut left = query.budget;
        let mut out = Vec::new();
        for candidate in ranked {
            let cost = candidate.bytes.saturating_add(OVERHEAD);
            if cost > left {
                continue;
            }
            // Forgotten since it was ranked: skipped, its bytes unspent.
            if let Some(memory) = self.show(candidate.id)? {
                left -= cost;
                out.push(memory);
            }
        }
        Ok(out)
    }

    /// The memory `id`, if it exists.
    pub fn show(&self, id: i64) -> Result<Option<Memory>, MemoryError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, project, agent, session, kind, text, at_ms FROM memories WHERE id = ?1",
        )?;
        let mut rows = stmt.query_map([id], memory)?;
        Ok(rows.next().transpose()?)
    }
}

fn memory(row: &Row<'_>) -> rusqlite::Result<Memory> {
    let kind: String = row.get(4)?;
    Ok(Memory {
        id: row.get(0)?,
        project: row.get(1)?,
        agent: row.get(2)?,
        session: row.get(3)?,
        kind: MemoryKind::parse(&kind).unwrap_or(MemoryKind::Fact),
        text: row.get(5)?,
        at_ms: row.get(6)?,
    })
}

impl Store {
    /// The best [`CANDIDATES`] memories matching `terms` (an FTS5
    /// expression of rare words: bm25 walks each word's every memory),
    /// scored by relevance and recency, into `ranked`.
    fn matches(
        &self,
        query: &Query<'_>,
        terms: &str,
        ranked: &mut Vec<Candidate>,
    ) -> Result<(), MemoryError> {
        let only = query.project.filter(|_| query.only_project);
        let mut stmt = self.conn.prepare_cached(
            "SELECT m.id, m.at_ms, coalesce(m.project = ?5, 0), octet_length(m.text),
                    bm25(memories_fts)
             FROM memories_fts JOIN memories m ON m.id = memories_fts.rowid
             WHERE memories_fts MATCH ?1
               AND (?2 IS NULL OR m.project = ?2) AND (?3 IS NULL OR m.agent = ?3)
             ORDER BY bm25(memories_fts) LIMIT ?4",
        )?;
        let rows = stmt.query_map(
            params![terms, only, query.agent, CANDIDATES, query.project],
            |row| {
                // bm25 is negative, lower is better.
                let bm25: f64 = row.get(4)?;
                Candidate::read(row, |at_ms| -bm25 * weight(query.now_ms, at_ms))
            },
        )?;
        for row in rows {
            ranked.push(row?);
        }
        Ok(())
    }
}

/// What a memory's relevance is multiplied by at `now_ms`: 1 new, halving
/// towards 1/2 every [`HALF_LIFE_DAYS`] (recency weighs, relevance leads).
pub(crate) fn weight(now_ms: i64, at_ms: i64) -> f64 {
    let age_days = (now_ms - at_ms).max(0) as f64 / 86_400_000.0;
    0.5 + 0.5 * 0.5f64.powf(age_days / HALF_LIFE_DAYS)
}

/// `word` as one FTS5 phrase: quoted, so nothing of it is FTS5 syntax (the
/// words hold letters and digits only).
pub(crate) fn phrase(word: &str) -> String {
    format!("\"{word}\"")
}

/// The words of `text` a search matches (letters and digits only, so
/// [`phrase`] keeps every FTS5 syntax out): lowercased, deduplicated,
/// stop words and single characters left out, at most [`MAX_TERMS`].
fn query_words(text: &str) -> Vec<String> {
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
}
