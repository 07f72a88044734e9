//! Test support: the agents' sample payloads, which live with the
//! adapters (`adapters/test_data/<agent>/`) so one set drives both crates.

#![allow(clippy::disallowed_methods, reason = "test support reads sample files")]
use std::path::{Path, PathBuf};

/// `adapters/test_data/<rel>`.
fn test_data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../adapters/test_data")
        .join(rel)
}

/// Reads a sample payload.
pub(crate) fn fixture(rel: &str) -> Vec<u8> {
    let path = test_data(rel);
    std::fs::read(&path).unwrap_or_else(|err| panic!("reading {}: {err}", path.display()))
}

/// Every `*.json` payload directly in `test_data/<agent>/` (sorted), as
/// (file stem, bytes).
pub(crate) fn fixtures(agent: &str) -> Vec<(String, Vec<u8>)> {
    let dir = test_data(agent);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("reading {}: {err}", dir.display()))
        .map(|entry| entry.expect("dir entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("utf-8 file name")
                .to_owned();
            (stem, fixture_at(&path))
        })
        .collect()
}

fn fixture_at(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|err| panic!("reading {}: {err}", path.display()))
}
