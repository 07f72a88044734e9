//! Query words by how many memories hold them, and the ranking of the
//! common ones. FTS5 can count a word's memories (an `fts5vocab` table) or
//! rank by `bm25()`, but both walk the word's whole list of memories: tens
//! of thousands of entries for a word in a fair share of 100,000 memories,
//! more than a hook can wait. Here each word's list is read newest first and only to just past
//! [`MAX_TERM_DOCS`]: that is its count if it is rare; if it is common,
//! how densely its newest memories lie estimates its share of all, and the
//! ones among the newest [`RECENT_WINDOW`] memories are its matches,
//! scored in Rust on bm25's scale so they rank beside the rare words' ones.

use rusqlite::params;

use crate::search::{CANDIDATES, Candidate, Query, phrase, weight};
use crate::{MemoryError, Store};

/// A word found in more memories than this is common: ranking every
/// memory it matches costs more than a hook can wait (100 ms at 54,000
/// matches, BENCHMARKS.md), so it is matched among the newest only.
pub(crate) const MAX_TERM_DOCS: i64 = 2_000;
/// How many of the newest memories a common word is matched among.
pub(crate) const RECENT_WINDOW: i64 = 2_000;

/// A query word and how many memories hold it: exact for a rare word, an
/// estimate for a common one.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Term {
    pub word: String,
    pub docs: f64,
    /// A common word's memories among the newest [`RECENT_WINDOW`] (ids).
    pub recent: Vec<i64>,
}

/// The query's words, split by frequency, and what the ranking needs.
#[derive(Debug, Default)]
pub(crate) struct Terms {
    /// In at most [`MAX_TERM_DOCS`] memories.
    pub rare: Vec<Term>,
    /// In more.
    pub common: Vec<Term>,
    /// The newest memory's id (ids only grow): the memories' count as
    /// bm25 would use it, deleted ones included, and the window's top.
    pub newest: i64,
}

impl Store {
    /// `words` split into rare and common ones. Each word's memories are
    /// read newest first and at most [`MAX_TERM_DOCS`] + 1 of them: fewer
    /// is the exact count; that many spread over the ids from the oldest
    /// read to the newest memory give the word's density, times all ids
    /// the estimate.
    pub(crate) fn by_frequency(&self, words: Vec<String>) -> Result<Terms, MemoryError> {
        let mut terms = Terms::default();
        if words.is_empty() {
            return Ok(terms);
        }
        terms.newest = self
            .conn
            .prepare_cached("SELECT coalesce(max(id), 0) FROM memories")?
            .query_row([], |row| row.get(0))?;
        let floor = terms.newest - RECENT_WINDOW;
        let mut stmt = self.conn.prepare_cached(
            "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?1
             ORDER BY rowid DESC LIMIT ?2",
        )?;
        for word in words {
            let (mut count, mut oldest, mut recent) = (0i64, terms.newest, Vec::new());
            let mut rows = stmt.query(params![phrase(&word), MAX_TERM_DOCS + 1])?;
            while let Some(row) = rows.next()? {
                let id: i64 = row.get(0)?;
                count += 1;
                oldest = id;
                if id > floor {
                    recent.push(id);
                }
            }
            if count <= MAX_TERM_DOCS {
                terms.rare.push(Term {
                    word,
                    docs: count as f64,
                    recent: Vec::new(),
                });
            } else {
                let span = (terms.newest - oldest + 1).max(count) as f64;
                let docs = count as f64 * terms.newest.max(count) as f64 / span;
                terms.common.push(Term { word, docs, recent });
            }
        }
        Ok(terms)
    }

    /// The best [`CANDIDATES`] memories among the newest [`RECENT_WINDOW`]
    /// holding any of `terms.common`, into `ranked`. Each is scored as
    /// bm25 scores a word found once in a memory of average length (the
    /// word's inverse document frequency), summed over the words it holds,
    /// weighed by recency as the rare words' matches are. The window is
    /// read in id order (no index lookup per match).
    pub(crate) fn recent_matches(
        &self,
        query: &Query<'_>,
        terms: &Terms,
        ranked: &mut Vec<Candidate>,
    ) -> Result<(), MemoryError> {
        let only = query.project.filter(|_| query.only_project);
        let floor = (terms.newest - RECENT_WINDOW).max(0);
        let slot = |id: i64| usize::try_from(id - floor - 1).ok();
        let mut relevance = vec![0.0f64; usize::try_from(terms.newest - floor).unwrap_or(0)];
        for term in &terms.common {
            let weight = idf(terms.newest as f64, term.docs);
            for id in &term.recent {
                if let Some(score) = slot(*id).and_then(|i| relevance.get_mut(i)) {
                    *score += weight;
                }
            }
        }
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, at_ms, coalesce(project = ?4, 0), octet_length(text) FROM memories
             WHERE id > ?1 AND (?2 IS NULL OR project = ?2) AND (?3 IS NULL OR agent = ?3)
             ORDER BY id DESC",
        )?;
        let mut rows = stmt.query(params![floor, only, query.agent, query.project])?;
        let mut found = Vec::new();
        while let Some(row) = rows.next()? {
            let id: i64 = row.get(0)?;
            let score = slot(id).and_then(|i| relevance.get(i)).copied();
            let Some(score) = score.filter(|s| *s > 0.0) else {
                continue;
            };
            found.push(Candidate::read(row, |at_ms| {
                score * weight(query.now_ms, at_ms)
            })?);
        }
        found.sort_by(|a, b| b.same.cmp(&a.same).then(b.score.total_cmp(&a.score)));
        found.truncate(usize::try_from(CANDIDATES).unwrap_or(usize::MAX));
        ranked.extend(found);
        Ok(())
    }
}

/// A word's inverse document frequency as FTS5's bm25 computes it: among
/// `rows` memories, `docs` of which hold it; never quite zero.
fn idf(rows: f64, docs: f64) -> f64 {
    ((rows - docs + 0.5) / (docs + 0.5)).ln().max(1e-6)
}
