//! The file paths a tool call names, found generically in its input.
//!
//! A policy about files ("never read `.env`") must see every path a call
//! touches, whatever the tool: a read, an edit, a search, an MCP server's
//! `read_file`, the second file of a multi-file read. Agents and MCP
//! servers spell the keys differently, so keys are recognised by shape
//! (`path`, `file_path`, `files`, `*_path`, ...) rather than per tool.

use serde_json::Value;

/// Most paths taken from one input, and how deep the input is searched:
/// a hostile payload cannot make this slow or large.
const MAX_PATHS: usize = 64;
const MAX_DEPTH: usize = 6;
/// Longer strings are not paths anyone would act on; skipped.
const MAX_PATH_LEN: usize = 4096;

/// Every path-like string in `input`, in input order, without duplicates.
pub fn named_in(input: &Value) -> Vec<String> {
    let mut paths = Vec::new();
    collect(input, false, 0, &mut paths);
    paths
}

/// Adds `path` to `paths` unless it is empty, too long, already there, or
/// the list is full.
pub(crate) fn push(paths: &mut Vec<String>, path: &str) {
    if !path.is_empty()
        && path.len() <= MAX_PATH_LEN
        && paths.len() < MAX_PATHS
        && !paths.iter().any(|p| p == path)
    {
        paths.push(path.to_owned());
    }
}

/// `value` found under a path-like key (`keyed`) or anywhere below one.
fn collect(value: &Value, keyed: bool, depth: usize, paths: &mut Vec<String>) {
    if depth > MAX_DEPTH {
        return;
    }
    match value {
        // A list sent as a JSON string (Cline's stringified mirror).
        Value::String(text) if keyed && text.starts_with(['[', '{']) => {
            match serde_json::from_str::<Value>(text) {
                Ok(decoded) => collect(&decoded, true, depth + 1, paths),
                Err(_) => push(paths, text),
            }
        }
        Value::String(text) if keyed => push(paths, text),
        Value::Array(items) => {
            for item in items {
                collect(item, keyed, depth + 1, paths);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                collect(item, path_key(key), depth + 1, paths);
            }
        }
        _ => {}
    }
}

/// Does `key` name a file path (or a list of them)?
fn path_key(key: &str) -> bool {
    // camelCase and kebab-case to snake_case: `filePath`, `target-file`.
    let mut snake = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() && !snake.is_empty() && !snake.ends_with('_') {
            snake.push('_');
        }
        snake.push(if c == '-' {
            '_'
        } else {
            c.to_ascii_lowercase()
        });
    }
    let key = snake.as_str();
    matches!(
        key,
        "path"
            | "paths"
            | "file"
            | "files"
            | "filepath"
            | "filename"
            | "filenames"
            | "file_name"
            | "source"
            | "destination"
            | "target"
            | "glob"
            | "glob_pattern"
            | "file_pattern"
            | "directory"
            | "dir"
    ) || ["_path", "_paths", "_file", "_files", "_dir", "_filename"]
        .iter()
        .any(|suffix| key.ends_with(suffix))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn path_like_keys_anywhere_in_the_input() {
        let cases = [
            (
                json!({"file_path": "/a/.env", "content": "X=1"}),
                vec!["/a/.env"],
            ),
            (json!({"notebook_path": "n.ipynb"}), vec!["n.ipynb"]),
            (
                json!({"pattern": "TODO", "path": "src", "glob": "*.rs"}),
                vec!["*.rs", "src"],
            ),
            (
                json!({"files": [{"path": "a.rs"}, {"path": ".env"}, "b.rs"]}),
                vec!["a.rs", ".env", "b.rs"],
            ),
            (json!({"paths": ["x", "x", "y"]}), vec!["x", "y"]),
            (json!({"files": "[{\"path\":\"a\"},\"b\"]"}), vec!["a", "b"]),
            (json!({"path": "[not json"}), vec!["[not json"]),
            (
                json!({"sourcePath": "s", "targetFile": "t", "dir": "d"}),
                vec!["d", "s", "t"],
            ),
            (json!({"args": {"filePath": ".env"}}), vec![".env"]),
            (
                json!({"command": "cat .env", "cwd": "/x", "max_results": 3}),
                vec![],
            ),
            (json!({"path": 3, "files": [1, null]}), vec![]),
        ];
        for (input, expected) in cases {
            assert_eq!(named_in(&input), expected, "{input}");
        }
    }

    #[test]
    fn bounded_in_count_and_depth() {
        let many: Vec<String> = (0..500).map(|i| format!("f{i}")).collect();
        assert_eq!(named_in(&json!({ "files": many })).len(), MAX_PATHS);
        let mut deep = json!({"path": "deep"});
        for _ in 0..20 {
            deep = json!({ "a": deep });
        }
        assert!(named_in(&deep).is_empty());
        assert!(named_in(&json!({"path": "x".repeat(MAX_PATH_LEN + 1)})).is_empty());
    }
}
