//! Test support shared by the dialect tests: golden files and fixtures,
//! and (in submodules) the checks every dialect runs the same way.
//!
//! Golden files live next to the payloads in `test_data/<agent>/`. A test
//! compares its output with the file; `UPDATE_GOLDEN=1 cargo test` rewrites
//! them instead (review the diff before committing).

#![allow(clippy::disallowed_methods, reason = "test support reads sample files")]
pub(crate) mod claude_protocol;
mod malformed;
mod parsed;
mod replies;

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

pub(crate) use malformed::{never_panics_on_truncated_or_retyped_fields, wrong};
pub(crate) use parsed::{Case, check_parsed_fixtures};
pub(crate) use replies::{
    ScenarioText, check_json_replies, check_replies, every_answer, scenarios, stdout_json,
};

/// `adapters/test_data/<rel>`.
pub(crate) fn test_data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("test_data")
        .join(rel)
}

/// Reads a fixture payload.
pub(crate) fn fixture(rel: &str) -> Vec<u8> {
    let path = test_data(rel);
    std::fs::read(&path).unwrap_or_else(|err| panic!("reading {}: {err}", path.display()))
}

/// A fixture payload (`test_data/<rel>`, a JSON object) after `edit`.
pub(crate) fn edited_fixture(rel: &str, edit: impl FnOnce(&mut Map<String, Value>)) -> Vec<u8> {
    let mut value: Value = serde_json::from_slice(&fixture(rel)).expect("fixture is JSON");
    edit(value.as_object_mut().expect("fixture is a JSON object"));
    serde_json::to_vec(&value).expect("edited fixture serializes")
}

/// Every `*.json` payload directly in `test_data/<agent>/` (sorted), as
/// (file stem, bytes).
pub(crate) fn fixtures(agent: &str) -> Vec<(String, Vec<u8>)> {
    let dir = test_data(agent);
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("reading {}: {err}", dir.display()))
        .map(|entry| entry.expect("dir entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    entries.sort();
    entries
        .into_iter()
        .map(|path| {
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("utf-8 file name")
                .to_owned();
            let bytes = std::fs::read(&path).expect("fixture readable");
            (stem, bytes)
        })
        .collect()
}

/// Compares `actual` with the golden file `test_data/<rel>`, or rewrites it
/// when `UPDATE_GOLDEN=1`.
pub(crate) fn check_golden(rel: &str, actual: &str) {
    let path = test_data(rel);
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create golden dir");
        }
        std::fs::write(&path, actual).expect("write golden file");
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
