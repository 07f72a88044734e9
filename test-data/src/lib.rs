//! The one reader of the agents' sample payloads and golden files, so the
//! dialect and adapters tests (unit and integration) agree on where they
//! live and how they are listed.
//!
//! The files live in `adapters/test_data/<agent>/`: one `<Event>.json` (or
//! `<Event>.<variant>.json`) per payload, goldens below it in `parsed/` and
//! `replies/`. A test compares its output with a golden file;
//! `UPDATE_GOLDEN=1 cargo test` rewrites them instead (review the diff
//! before committing). Test support: it panics with the path on any I/O
//! error, which is the test's failure.

#![allow(clippy::disallowed_methods, reason = "test support reads sample files")]

use std::path::{Path, PathBuf};

pub mod guard_corpus;

/// `adapters/test_data/<rel>`.
pub fn path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../adapters/test_data")
        .join(rel)
}

/// The bytes of `adapters/test_data/<rel>`.
pub fn fixture(rel: &str) -> Vec<u8> {
    read(&path(rel))
}

/// Every `*.json` payload directly in `test_data/<agent>/` (sorted), as
/// (file stem, bytes).
pub fn fixtures(agent: &str) -> Vec<(String, Vec<u8>)> {
    json_files(&path(agent))
        .into_iter()
        .map(|path| {
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_else(|| panic!("{}: not a UTF-8 file name", path.display()))
                .to_owned();
            (stem, read(&path))
        })
        .collect()
}

/// Every payload of every agent (sorted by path), as (path, bytes).
pub fn all_fixtures() -> Vec<(String, Vec<u8>)> {
    let mut all = Vec::new();
    for agent in entries(&path("")) {
        if agent.is_dir() {
            for file in json_files(&agent) {
                all.push((file.display().to_string(), read(&file)));
            }
        }
    }
    all.sort();
    all
}

/// Compares `actual` with the golden file `test_data/<rel>`, or rewrites it
/// when `UPDATE_GOLDEN=1`.
pub fn check_golden(rel: &str, actual: &str) {
    let path = path(rel);
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .unwrap_or_else(|err| panic!("creating {}: {err}", parent.display()));
        }
        std::fs::write(&path, actual)
            .unwrap_or_else(|err| panic!("writing {}: {err}", path.display()));
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|err| {
        panic!(
            "golden file {} unreadable ({err}); run with UPDATE_GOLDEN=1 to create it",
            path.display()
        )
    });
    assert!(
        expected == actual,
        "golden file {} differs (UPDATE_GOLDEN=1 rewrites it)\n--- expected\n{expected}\n--- actual\n{actual}",
        path.display()
    );
}

/// The `*.json` files directly in `dir`, sorted.
fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = entries(dir)
        .into_iter()
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap_or_else(|err| panic!("reading {}: {err}", dir.display()))
        .map(|entry| {
            entry
                .unwrap_or_else(|err| panic!("reading {}: {err}", dir.display()))
                .path()
        })
        .collect()
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|err| panic!("reading {}: {err}", path.display()))
}
