//! The repository's files, as git would list them: its root from this
//! package's manifest, every directory but the ones that hold build
//! output, dependencies or VCS data.

use std::path::{Path, PathBuf};

/// Directories never walked: build output, installed dependencies, VCS.
const SKIPPED: [&str; 5] = ["target", "node_modules", ".git", ".venv", "__pycache__"];

/// The workspace root (this package's parent directory).
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("integration-tests has a parent directory")
        .to_path_buf()
}

/// Every file under `dir` whose name ends with `suffix`, sorted.
pub(crate) fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|err| panic!("reading {}: {err}", dir.display()));
        for entry in entries {
            let entry = entry.unwrap_or_else(|err| panic!("reading {}: {err}", dir.display()));
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let kind = entry
                .file_type()
                .unwrap_or_else(|err| panic!("{}: {err}", path.display()));
            if kind.is_dir() {
                if !SKIPPED.contains(&name.as_ref()) {
                    pending.push(path);
                }
            } else if kind.is_file() && name.ends_with(suffix) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// `path` relative to the root, for messages.
pub(crate) fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}
