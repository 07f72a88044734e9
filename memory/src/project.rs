//! Which project an event belongs to: the git root above its working
//! directory (the nearest ancestor holding `.git`, a directory or a
//! worktree's file), else the directory itself. The path comes from the
//! payload, so it is checked before it is used: absolute, no `..`, no NUL,
//! bounded in length and depth; nothing is ever executed, only `stat`ed.

use std::path::{Component, Path, PathBuf};

/// Directories walked up at most looking for `.git`.
const MAX_DEPTH: usize = 64;

/// The project of an event whose working directory is `cwd`, or `None`
/// when `cwd` is not an acceptable absolute path.
pub fn project_of(cwd: &str) -> Option<String> {
    let dir = checked(cwd)?;
    let root = dir
        .ancestors()
        .take(MAX_DEPTH)
        .find(|ancestor| ancestor.join(".git").symlink_metadata().is_ok())
        .unwrap_or(&dir);
    root.to_str().map(str::to_owned)
}

/// `cwd` as a normalized absolute path (no `.`, no trailing separator), or
/// `None` if it is relative, holds `..` or a NUL, or is too long or deep.
fn checked(cwd: &str) -> Option<PathBuf> {
    if cwd.is_empty() || cwd.len() > crate::MAX_PROJECT_BYTES || cwd.contains('\0') {
        return None;
    }
    let path = Path::new(cwd);
    if !path.is_absolute() {
        return None;
    }
    let mut out = PathBuf::new();
    for (depth, component) in path.components().enumerate() {
        match component {
            Component::ParentDir => return None,
            Component::CurDir => {}
            _ if depth > 256 => return None,
            other => out.push(other),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::disallowed_methods,
        reason = "tests make directories, on no runtime"
    )]

    use super::*;

    #[test]
    fn the_git_root_is_the_project() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        let deep = root.join("src/a/b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        let got = project_of(deep.to_str().unwrap()).unwrap();
        assert_eq!(got, root.to_str().unwrap());
        // Without a repository: the directory itself, normalized.
        let plain = dir.path().join("plain");
        std::fs::create_dir_all(&plain).unwrap();
        let dotted = format!("{}/./", plain.display());
        assert_eq!(project_of(&dotted).unwrap(), plain.to_str().unwrap());
    }

    #[test]
    fn unusable_paths_have_no_project() {
        for bad in ["", "relative/dir", "/a/../etc", "/a\0b"] {
            assert_eq!(project_of(bad), None, "{bad:?}");
        }
        assert_eq!(project_of(&format!("/{}", "a".repeat(5000))), None);
    }
}
