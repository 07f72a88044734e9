//! Search over many memories: common words counted without walking their
//! whole lists, ranked on bm25's scale beside rare ones, and a rare word
//! still found in the oldest of a large store.

use super::*;
use crate::search::CANDIDATES;
use crate::tests::{DAY_MS, NOW, temp};

/// Inserts memories of project `/p` (texts and times) in one transaction.
fn insert(store: &Store, memories: impl IntoIterator<Item = (String, i64)>) {
    let tx = store.conn.unchecked_transaction().unwrap();
    {
        let mut stmt = tx
            .prepare(
                "INSERT INTO memories (project, agent, session, kind, text, at_ms)
                 VALUES ('/p', 'codex', 's', 'fact', ?1, ?2)",
            )
            .unwrap();
        for (text, at_ms) in memories {
            stmt.execute(rusqlite::params![text, at_ms]).unwrap();
        }
    }
    tx.commit().unwrap();
}

fn query(text: &str) -> Query<'_> {
    Query {
        text,
        project: Some("/p"),
        only_project: true,
        agent: None,
        budget: 1 << 20,
        now_ms: NOW,
    }
}

/// A rare word is counted exactly; a common one is estimated from how
/// densely its newest memories lie, close to its real count.
#[test]
fn word_counts_are_exact_when_rare_and_estimated_when_common() {
    let (_dir, path) = temp();
    let store = Store::open(&path).unwrap();
    // "often" in every 3rd of 12,000 memories (4,000), "seldom" in 50.
    insert(
        &store,
        (0..12_000).map(|n| {
            let often = if n % 3 == 0 { "often" } else { "plain" };
            let seldom = if n % 240 == 0 { "seldom" } else { "" };
            (format!("{often} {seldom} note {n}"), NOW)
        }),
    );
    let terms = store
        .by_frequency(vec!["often".into(), "seldom".into(), "absent".into()])
        .unwrap();
    assert_eq!(terms.newest, 12_000);
    let rare: Vec<(&str, f64)> = terms
        .rare
        .iter()
        .map(|t| (t.word.as_str(), t.docs))
        .collect();
    assert_eq!(rare, vec![("seldom", 50.0), ("absent", 0.0)]);
    assert_eq!(terms.common.len(), 1);
    let often = &terms.common[0];
    assert!((3_900.0..=4_100.0).contains(&often.docs), "{often:?}");
    // Its matches among the newest 2,000 memories, and only those.
    let newest_often = (10_000..12_000).filter(|n| n % 3 == 0).count();
    assert_eq!(
        often.recent.len(),
        newest_often,
        "{:?}",
        often.recent.last()
    );
    assert!(
        often
            .recent
            .iter()
            .all(|id| *id > 10_000 && (id - 1) % 3 == 0)
    );
}

/// Among the newest memories, one holding more of a query's common words
/// ranks first, then a recent one over an old one with the same words; a
/// rare word's match ranks above a common word's.
#[test]
fn mixed_words_rank_by_relevance_then_recency() {
    let (_dir, path) = temp();
    let store = Store::open(&path).unwrap();
    // Each of "deploy" and "rollback" in a quarter of 10,000 older ones.
    insert(
        &store,
        (0..10_000).map(|n| {
            let word = ["deploy", "rollback", "filler", "filler"][n % 4];
            (format!("{word} note {n}"), NOW - 90 * DAY_MS)
        }),
    );
    insert(
        &store,
        [
            ("deploy rollback both".to_owned(), NOW - 30 * DAY_MS),
            ("deploy alone fresh".to_owned(), NOW),
            ("deploy alone stale".to_owned(), NOW - 60 * DAY_MS),
            ("canary rollout".to_owned(), NOW - 60 * DAY_MS),
        ],
    );
    let found = store.search(&query("canary deploy rollback")).unwrap();
    let texts: Vec<&str> = found.iter().take(4).map(|m| m.text.as_str()).collect();
    assert_eq!(
        texts,
        vec![
            "canary rollout",
            "deploy rollback both",
            "deploy alone fresh",
            "deploy alone stale"
        ],
        "{:?}",
        &found[..6]
    );
    // At most the candidates of each pass, whatever the budget.
    assert!(found.len() <= 2 * CANDIDATES as usize, "{}", found.len());
}

/// 100,000 memories, half holding a common word: a rare word in the
/// oldest one is still found, first, beside the common word's newest
/// matches; the common word alone matches among the newest only.
#[test]
fn a_rare_word_is_found_among_100_000_memories_beside_a_common_one() {
    let (_dir, path) = temp();
    let store = Store::open(&path).unwrap();
    insert(&store, [("orders zanzibar".to_owned(), NOW - 90 * DAY_MS)]);
    insert(
        &store,
        (1..100_000).map(|n| {
            let word = if n % 2 == 0 { "orders" } else { "invoice" };
            (format!("{word} endpoint {n}"), NOW - 1_000_000 + n)
        }),
    );
    let found = store.search(&query("zanzibar orders")).unwrap();
    assert_eq!(found[0].id, 1, "{:?}", &found[..3]);
    assert!(
        found[1..]
            .iter()
            .all(|m| m.id > 98_000 && m.text.starts_with("orders"))
    );
    let common = store.search(&query("orders")).unwrap();
    assert!(!common.is_empty() && common.iter().all(|m| m.id > 98_000));
}
