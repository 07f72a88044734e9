//! The file paths a tool call names, found generically in its input.
//!
//! A policy about files ("never read `.env`") must see every path a call
//! touches, whatever the tool: a read, an edit, a search, an MCP server's
//! `read_file`, the second file of a multi-file read. Agents and MCP
//! servers spell the keys differently, so keys are recognised by shape
//! (`path`, `file_path`, `files`, `*_path`, ...) rather than per tool.

use serde_json::Value;

/// Most paths taken from one input, and how deep the input is searched:
/// a hostile payload cannot make this slow or large. An input that names
/// more, or names a path deeper, is [`Named::overflow`]: the guard denies
/// what it cannot check rather than check part of it.
pub const MAX_PATHS: usize = 256;
pub const MAX_DEPTH: usize = 12;
/// Values looked at in one input, path or not.
const MAX_NODES: usize = 100_000;
/// Longer strings are not paths anyone would act on (past the kernel's
/// `PATH_MAX`); skipped.
const MAX_PATH_LEN: usize = 4096;

/// What [`find`] found in a tool's input.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Named {
    /// Every path-like string, in input order, without duplicates.
    pub paths: Vec<String>,
    /// The input names more paths than [`MAX_PATHS`], a path deeper than
    /// [`MAX_DEPTH`], or is too large to look through: `paths` is not all.
    pub overflow: bool,
}

impl Named {
    /// Adds `path` found `depth` levels down, or marks the overflow.
    fn add(&mut self, path: &str, depth: usize) {
        let full = self.paths.len() >= MAX_PATHS && !self.paths.iter().any(|p| p == path);
        if depth > MAX_DEPTH || full {
            self.overflow = true;
        } else {
            push(&mut self.paths, path);
        }
    }
}

/// Every path-like string in `input`, in input order, without duplicates.
pub fn named_in(input: &Value) -> Vec<String> {
    find(input).paths
}

/// The paths `input` names (under path-like keys, and the files of any
/// `apply_patch`-style patch text anywhere in it), and whether that is
/// all of them.
pub fn find(input: &Value) -> Named {
    let mut named = Named::default();
    let mut nodes = 0;
    collect(input, false, 0, &mut named, &mut nodes);
    named
}

/// Adds `path` to `paths` unless it is empty, too long, already there, or
/// the list is full; `false` when it was not added.
pub(crate) fn push(paths: &mut Vec<String>, path: &str) -> bool {
    let fits = !path.is_empty()
        && path.len() <= MAX_PATH_LEN
        && paths.len() < MAX_PATHS
        && !paths.iter().any(|p| p == path);
    if fits {
        paths.push(path.to_owned());
    }
    fits
}

/// `value` found under a path-like key (`keyed`) or anywhere below one,
/// `depth` levels down. Depth-first with an explicit stack: the decoder
/// accepts inputs far deeper than a thread's stack would walk.
fn collect(value: &Value, keyed: bool, depth: usize, named: &mut Named, nodes: &mut usize) {
    let mut stack = vec![(value, keyed, depth)];
    while let Some((value, keyed, depth)) = stack.pop() {
        *nodes += 1;
        if *nodes > MAX_NODES {
            named.overflow = true;
            return;
        }
        match value {
            Value::String(text) if is_patch(text) => {
                for path in patch_files(text) {
                    named.add(path, depth);
                }
            }
            // A list sent as a JSON string (Cline's stringified mirror).
            Value::String(text) if keyed && text.starts_with(['[', '{']) => {
                match serde_json::from_str::<Value>(text) {
                    Ok(decoded) if depth < MAX_DEPTH => {
                        collect(&decoded, true, depth + 1, named, nodes);
                    }
                    Ok(_) => named.overflow = true,
                    Err(_) => named.add(text, depth),
                }
            }
            Value::String(text) if keyed => named.add(file_uri(text), depth),
            Value::Array(items) => {
                stack.extend(items.iter().rev().map(|item| (item, keyed, depth + 1)));
            }
            Value::Object(map) => {
                let entries = map.iter().rev();
                stack.extend(entries.map(|(key, item)| (item, path_key(key), depth + 1)));
            }
            _ => {}
        }
    }
}

/// `file:///etc/passwd` names `/etc/passwd`; anything else is itself.
fn file_uri(text: &str) -> &str {
    text.strip_prefix("file://").unwrap_or(text)
}

const PATCH_HEADERS: [&str; 4] = [
    "*** Add File: ",
    "*** Update File: ",
    "*** Delete File: ",
    "*** Move to: ",
];

/// Text in the `apply_patch` format (Codex, Droid, Cline).
fn is_patch(text: &str) -> bool {
    text.contains("*** Begin Patch") || patch_files(text).next().is_some()
}

/// The files of an `apply_patch` patch (`*** Update File: PATH`, ...).
pub fn patch_files(patch: &str) -> impl Iterator<Item = &str> {
    patch.lines().filter_map(|line| {
        PATCH_HEADERS
            .iter()
            .find_map(|header| line.trim_start().strip_prefix(header))
            .map(str::trim)
    })
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
            | "include"
            | "includes"
            | "include_pattern"
            | "include_patterns"
            | "uri"
            | "uris"
    ) || [
        "_path",
        "_paths",
        "_file",
        "_files",
        "_dir",
        "_filename",
        "_uri",
    ]
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
    fn bounded_in_count_and_depth_and_says_so() {
        let many: Vec<String> = (0..500).map(|i| format!("f{i}")).collect();
        let named = find(&json!({ "files": many }));
        assert_eq!(named.paths.len(), MAX_PATHS);
        assert!(named.overflow);
        let exactly: Vec<String> = (0..MAX_PATHS).map(|i| format!("f{i}")).collect();
        assert!(!find(&json!({ "files": exactly })).overflow);

        let mut deep = json!({"path": "deep"});
        for _ in 0..20 {
            deep = json!({ "a": deep });
        }
        let named = find(&deep);
        assert!(named.paths.is_empty() && named.overflow, "{named:?}");
        // Deep structure without a path in it is no overflow.
        let mut deep = json!({"count": 3});
        for _ in 0..20 {
            deep = json!({ "a": [deep] });
        }
        assert_eq!(find(&deep), Named::default());

        assert!(named_in(&json!({"path": "x".repeat(MAX_PATH_LEN + 1)})).is_empty());
        let huge: Vec<u32> = (0..200_000).collect();
        assert!(find(&json!({ "rows": huge })).overflow);
    }

    #[test]
    fn includes_uris_and_patch_headers_are_paths() {
        let cases = [
            (
                json!({"include": ["**/.env", "src/*.rs"]}),
                vec!["**/.env", "src/*.rs"],
            ),
            (
                json!({"pattern": "k", "include_pattern": "*.pem"}),
                vec!["*.pem"],
            ),
            (
                json!({"uri": "file:///home/dev/.env"}),
                vec!["/home/dev/.env"],
            ),
            (json!({"resource_uri": "notes://x"}), vec!["notes://x"]),
            (
                json!({"input": "*** Begin Patch\n*** Update File: a.rs\n@@\n*** Add File: .env\n+X=1\n*** End Patch"}),
                vec!["a.rs", ".env"],
            ),
            (
                json!({"command": ["apply_patch", "*** Begin Patch\n*** Delete File: ~/.bashrc\n*** End Patch"]}),
                vec!["~/.bashrc"],
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(named_in(&input), expected, "{input}");
        }
    }
}
