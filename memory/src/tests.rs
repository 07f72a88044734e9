//! The store through its public API on real files in a temporary
//! directory: schema, capture, compression, search, forgetting (the
//! file's bytes checked), retention and a corrupt file.

#![allow(
    clippy::disallowed_methods,
    reason = "tests read and plant files, on no runtime"
)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::*;

pub(crate) const DAY_MS: i64 = 86_400_000;
pub(crate) const NOW: i64 = 1_800_000_000_000;

pub(crate) fn temp() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memory.db");
    (dir, path)
}

fn obs(project: &str, session: &str, kind: ObservationKind, text: &str) -> Observation {
    Observation {
        project: project.into(),
        agent: "codex".into(),
        session: session.into(),
        kind,
        text: text.into(),
        at_ms: NOW,
    }
}

/// The bytes of the database and its write-ahead log.
fn file_bytes(path: &Path) -> Vec<u8> {
    let mut bytes = std::fs::read(path).unwrap();
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    bytes.extend(std::fs::read(PathBuf::from(wal)).unwrap_or_default());
    bytes
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    let needle = needle.as_bytes();
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn session_with(store: &mut Store, project: &str, session: &str, fact: &str) {
    for (kind, text) in [
        (ObservationKind::Prompt, "fix the flaky build"),
        (ObservationKind::Command, fact),
        (ObservationKind::Failure, "`cargo test` failed (exit 101)"),
        (ObservationKind::File, "src/lib.rs"),
        (ObservationKind::File, "src/main.rs"),
    ] {
        store.record(&obs(project, session, kind, text)).unwrap();
    }
    store.compress(session, NOW).unwrap();
}

#[test]
fn a_new_file_is_private_versioned_and_has_fts5() {
    let (_dir, path) = temp();
    let store = Store::open(&path).unwrap();
    let version: i64 = store
        .conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 1);
    let mode: String = store
        .conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let secure: i64 = store
        .conn
        .query_row("PRAGMA secure_delete", [], |r| r.get(0))
        .unwrap();
    assert_eq!(secure, 1);
    let fts5: i64 = store
        .conn
        .query_row(
            "SELECT count(*) FROM pragma_compile_options WHERE compile_options = 'ENABLE_FTS5'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(fts5, 1, "the bundled SQLite has FTS5");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for suffix in ["", "-wal"] {
            let mut p = path.as_os_str().to_owned();
            p.push(suffix);
            let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "{suffix}");
        }
    }
    drop(store);
    // Reopening migrates nothing and keeps the version.
    assert_eq!(Store::open(&path).unwrap().stats().unwrap().schema, 1);
}

#[test]
fn a_newer_schema_is_refused() {
    let (_dir, path) = temp();
    let store = Store::open(&path).unwrap();
    store.conn.pragma_update(None, "user_version", 9).unwrap();
    drop(store);
    let err = Store::open(&path).unwrap_err();
    assert!(
        matches!(err, MemoryError::NewerSchema { found: 9, known: 1 }),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn a_symlink_is_not_followed() {
    let (dir, path) = temp();
    let target = dir.path().join("elsewhere.db");
    std::fs::write(&target, b"").unwrap();
    std::os::unix::fs::symlink(&target, &path).unwrap();
    assert!(matches!(
        Store::open(&path),
        Err(MemoryError::NotAFile { .. })
    ));
}

/// Needs root to give the file away, as CI runs.
#[cfg(unix)]
#[test]
fn a_file_of_another_user_is_refused() {
    let (_dir, path) = temp();
    drop(Store::open(&path).unwrap());
    std::os::unix::fs::chown(&path, Some(65534), None)
        .expect("chown to nobody (the memory tests run as root in CI)");
    let err = Store::open(&path).err();
    assert!(
        matches!(err, Some(MemoryError::NotOurs { owner: 65534, .. })),
        "{err:?}"
    );
}

#[test]
fn compression_summarizes_a_session_and_deletes_its_observations() {
    let (_dir, path) = temp();
    let mut store = Store::open(&path).unwrap();
    session_with(
        &mut store,
        "/p/a",
        "s1",
        "`ls` ok: the answer is zanzibar42",
    );
    assert_eq!(store.pending("s1").unwrap(), 0);
    let all = store
        .search(&Query {
            budget: 1 << 20,
            now_ms: NOW,
            ..Query::default()
        })
        .unwrap();
    let texts: Vec<(MemoryKind, &str)> = all.iter().map(|m| (m.kind, m.text.as_str())).collect();
    assert!(texts.contains(&(MemoryKind::Decision, "Asked: fix the flaky build")));
    assert!(texts.contains(&(MemoryKind::Fact, "`ls` ok: the answer is zanzibar42")));
    assert!(texts.contains(&(
        MemoryKind::Problem,
        "Failed: `cargo test` failed (exit 101)"
    )));
    assert!(texts.contains(&(MemoryKind::File, "Files touched: src/lib.rs, src/main.rs")));
    assert!(all.iter().all(|m| m.project == "/p/a" && m.session == "s1"));
}

#[test]
fn summaries_are_bounded_and_deterministic() {
    let many: Vec<Observation> = (0..5000)
        .map(|i| {
            let kind = ObservationKind::ALL[i % ObservationKind::ALL.len()];
            obs("/p", "s", kind, &format!("{i} {}", "x".repeat(i % 900)))
        })
        .collect();
    let summary = summarize(&many);
    assert_eq!(summary, summarize(&many));
    let total: usize = summary.iter().map(|(_, t)| t.len()).sum();
    assert!(total <= MAX_SUMMARY_BYTES, "{total}");
    assert!(
        summary
            .iter()
            .all(|(k, t)| t.len() <= if *k == MemoryKind::File { 1024 } else { 512 })
    );
    assert!(summary.iter().any(|(k, _)| *k == MemoryKind::File));
}

#[test]
fn oversized_text_is_cut_and_empty_keys_refused() {
    let (_dir, path) = temp();
    let mut store = Store::open(&path).unwrap();
    let long = "é".repeat(MAX_OBSERVATION_BYTES);
    store
        .record(&obs("/p", "s", ObservationKind::Tool, &long))
        .unwrap();
    let stored: String = store
        .conn
        .query_row("SELECT text FROM observations", [], |r| r.get(0))
        .unwrap();
    assert!(stored.len() <= MAX_OBSERVATION_BYTES && stored.starts_with('é'));
    let err = store.record(&obs("/p", "", ObservationKind::Tool, "x"));
    assert!(matches!(
        err,
        Err(MemoryError::Invalid {
            what: "session",
            ..
        })
    ));
}

#[test]
fn search_ranks_matches_puts_the_project_first_and_keeps_the_budget() {
    let (_dir, path) = temp();
    let mut store = Store::open(&path).unwrap();
    session_with(
        &mut store,
        "/p/other",
        "s0",
        "`make` ok: postgres port is 5433",
    );
    session_with(
        &mut store,
        "/p/a",
        "s1",
        "`cat .env.example` ok: postgres port is 5432",
    );
    let query = |text, only_project, budget| Query {
        text,
        project: Some("/p/a"),
        only_project,
        agent: None,
        budget,
        now_ms: NOW,
    };
    let found = store
        .search(&query("which postgres port?", false, 4096))
        .unwrap();
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].project, "/p/a");
    let only = store.search(&query("postgres", true, 4096)).unwrap();
    assert!(only.iter().all(|m| m.project == "/p/a") && only.len() == 1);
    // Nothing fits a tiny budget; FTS5 syntax in the query is only words.
    assert!(
        store
            .search(&query("postgres", false, 10))
            .unwrap()
            .is_empty()
    );
    let syntax = store.search(&query("\"postgres\" OR NEAR( * ^", false, 4096));
    assert_eq!(syntax.unwrap().len(), 2);
    assert!(
        store
            .search(&query("nomatchanywhere", false, 4096))
            .unwrap()
            .is_empty()
    );
    // Common words alone match nothing (every memory has some).
    let common = store.search(&query("what is the", false, 4096)).unwrap();
    assert!(common.is_empty(), "{common:?}");
    // No words: the project's most recent memories.
    let recent = store.search(&query("", true, 4096)).unwrap();
    assert_eq!(recent.len(), 4);
    let one = store.show(recent[0].id).unwrap().unwrap();
    assert_eq!(one, recent[0]);
}

#[test]
fn recency_breaks_equal_relevance() {
    let (_dir, path) = temp();
    let mut store = Store::open(&path).unwrap();
    for (session, at) in [("old", NOW - 60 * DAY_MS), ("new", NOW)] {
        store
            .record(&obs(
                "/p",
                session,
                ObservationKind::Command,
                "deploy target is blue",
            ))
            .unwrap();
        store.compress(session, at).unwrap();
    }
    let found = store
        .search(&Query {
            text: "deploy",
            budget: 4096,
            now_ms: NOW,
            ..Query::default()
        })
        .unwrap();
    assert_eq!(found[0].session, "new");
}

/// Forgetting by each selector leaves no byte of the forgotten text in the
/// database or its write-ahead log; what was not forgotten stays.
#[test]
fn forget_leaves_no_trace_in_the_file() {
    for name in ["id", "session", "project", "all"] {
        let (_dir, path) = temp();
        let mut store = Store::open(&path).unwrap();
        session_with(
            &mut store,
            "/p/keep",
            "keep",
            "`ls` ok: the mascot is wombat",
        );
        session_with(
            &mut store,
            "/p/secret",
            "secret-session",
            "`ls` ok: xyzzyquokkaplugh",
        );
        // A row still waiting in the raw table too.
        store
            .record(&obs(
                "/p/secret",
                "secret-session",
                ObservationKind::Tool,
                "rawquokkaplugh",
            ))
            .unwrap();
        store.checkpoint().unwrap();
        let before = file_bytes(&path);
        assert!(contains(&before, "xyzzyquokkaplugh") && contains(&before, "rawquokkaplugh"));
        let fact = store
            .search(&Query {
                text: "xyzzyquokkaplugh",
                budget: 4096,
                ..Query::default()
            })
            .unwrap()[0]
            .id;
        let (what, gone): (Forget<'_>, &[&str]) = match name {
            "id" => (Forget::Id(fact), &["xyzzyquokkaplugh"]),
            "session" => (
                Forget::Session("secret-session"),
                &["xyzzyquokkaplugh", "rawquokkaplugh"],
            ),
            "project" => (
                Forget::Project("/p/secret"),
                &["xyzzyquokkaplugh", "rawquokkaplugh"],
            ),
            _ => (
                Forget::All,
                &["xyzzyquokkaplugh", "rawquokkaplugh", "wombat"],
            ),
        };
        let forgotten = store.forget(what).unwrap();
        assert!(
            forgotten.memories >= 1 && forgotten.checkpointed,
            "{name}: {forgotten:?}"
        );
        let after = file_bytes(&path);
        for needle in gone {
            assert!(
                !contains(&after, needle),
                "{name}: {needle} left in the file"
            );
        }
        assert_eq!(
            contains(&after, "wombat"),
            name != "all",
            "{name}: the rest kept"
        );
        assert!(store.show(fact).unwrap().is_none());
    }
}

#[test]
fn retention_removes_old_rows_and_keeps_the_size_cap() {
    let (_dir, path) = temp();
    let mut store = Store::open(&path).unwrap();
    store
        .record(&obs("/p", "old", ObservationKind::Command, "ancient fact"))
        .unwrap();
    store.compress("old", NOW - 100 * DAY_MS).unwrap();
    session_with(&mut store, "/p", "new", "fresh fact");
    let age = Retention {
        max_age: Some(Duration::from_secs(30 * 86_400)),
        max_bytes: u64::MAX,
    };
    assert_eq!(store.retain(age, NOW).unwrap(), 1);
    assert_eq!(store.stats().unwrap().memories, 4);
    for i in 0..3000 {
        let session = format!("bulk{i}");
        let text = format!("`cmd {i}` ok: {}", "filler ".repeat(60));
        store
            .record(&obs("/p", &session, ObservationKind::Command, &text))
            .unwrap();
        store.compress(&session, NOW + i).unwrap();
    }
    let cap = 256 * 1024;
    assert!(store.stats().unwrap().used_bytes > cap);
    let removed = store
        .retain(
            Retention {
                max_age: None,
                max_bytes: cap,
            },
            NOW,
        )
        .unwrap();
    let stats = store.stats().unwrap();
    assert!(removed > 0 && stats.used_bytes <= cap, "{stats:?}");
    // The newest stay.
    assert!(
        store
            .search(&Query {
                text: "cmd 2999",
                budget: 4096,
                ..Query::default()
            })
            .unwrap()
            .iter()
            .any(|m| m.session == "bulk2999")
    );
}

#[test]
fn a_corrupt_file_is_an_error_not_a_panic() {
    let (_dir, path) = temp();
    std::fs::write(&path, vec![0x5a; 8192]).unwrap();
    let err = Store::open(&path).unwrap_err();
    assert!(matches!(err, MemoryError::Sqlite(_)), "{err}");
}

#[test]
fn stats_count_what_is_held() {
    let (_dir, path) = temp();
    let mut store = Store::open(&path).unwrap();
    session_with(&mut store, "/p/a", "s1", "one");
    store
        .record(&obs("/p/a", "s2", ObservationKind::Prompt, "waiting"))
        .unwrap();
    let stats = store.stats().unwrap();
    assert_eq!(
        (stats.memories, stats.observations, stats.pending_sessions),
        (4, 1, 1)
    );
    assert_eq!(stats.projects, 1);
    assert!(stats.by_kind.contains(&(MemoryKind::File, 1)));
    assert_eq!(store.sessions_pending(10).unwrap(), vec!["s2".to_owned()]);
}

/// A word in more memories than the search ranks everywhere is matched
/// among the newest only; a rare word still finds the oldest memory.
#[test]
fn common_words_match_among_the_newest_rare_ones_everywhere() {
    let (_dir, path) = temp();
    let store = Store::open(&path).unwrap();
    let insert = |text: &str, at_ms: i64| {
        store
            .conn
            .execute(
                "INSERT INTO memories (project, agent, session, kind, text, at_ms)
                 VALUES ('/p', 'codex', 's', 'fact', ?1, ?2)",
                rusqlite::params![text, at_ms],
            )
            .unwrap();
    };
    store.conn.execute_batch("BEGIN").unwrap();
    // The oldest memory holds the rare word.
    insert("widespread zanzibar", NOW - 10_000);
    for n in 0..5_000 {
        insert(&format!("widespread note {n}"), NOW - 5_000 + n);
    }
    store.conn.execute_batch("COMMIT").unwrap();
    let query = |text| Query {
        text,
        project: Some("/p"),
        only_project: false,
        agent: None,
        budget: 1 << 20,
        now_ms: NOW,
    };
    let rare = store.search(&query("zanzibar widespread")).unwrap();
    assert_eq!(rare[0].text, "widespread zanzibar", "{:?}", &rare[..3]);
    let common = store.search(&query("widespread")).unwrap();
    assert!(!common.is_empty());
    // Ids 1..=5001: the window is the newest 2,000.
    assert!(
        common.iter().all(|m| m.id > 5_001 - 2_000),
        "{:?}",
        common.last()
    );
}
