//! One file install or uninstall changes, and how it is written: the
//! original kept once as `<file>.hookgate-backup`, the new text written to
//! a temporary file and renamed over the old one (an agent reading its
//! config meanwhile sees the old or the new file, never half of one).
//!
//! An edit someone else makes meanwhile (the agent saving a setting, the
//! user's editor) is not lost: just before the rename the file is read
//! again, and if it is no longer what the change was computed from, the
//! write is abandoned with [`Changed`] and the caller computes the change
//! again from the new text. What is left is the microseconds between
//! that read and the rename.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

/// Suffix of the copy of a config as it was before the first install.
pub(crate) const BACKUP_SUFFIX: &str = ".hookgate-backup";
/// Agents' configs are small; anything bigger is not one.
const MAX_CONFIG: u64 = 4 * 1024 * 1024;

/// The file changed after the change was computed from it: compute it
/// again.
#[derive(Debug, thiserror::Error)]
#[error("{} changed while it was being edited", .0.display())]
pub(crate) struct Changed(pub(crate) PathBuf);

/// A file's text before and after (`None`: no file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Change {
    pub(crate) path: PathBuf,
    pub(crate) before: Option<String>,
    pub(crate) after: Option<String>,
    /// Written with mode 0755 (a Cline hook script).
    pub(crate) executable: bool,
}

impl Change {
    pub(crate) fn is_noop(&self) -> bool {
        self.before == self.after
    }
}

/// `path` + [`BACKUP_SUFFIX`].
pub(crate) fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(BACKUP_SUFFIX);
    PathBuf::from(name)
}

/// The file `path` names: the target of a symlink (dotfiles managers link
/// configs into place; writing through the link keeps it a link), else
/// `path` itself.
pub(crate) fn resolve(path: &Path) -> PathBuf {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

/// The text of `path`, `None` when it does not exist.
pub(crate) fn read(path: &Path) -> anyhow::Result<Option<String>> {
    match hookgate_transport::files::read_to_string(path, MAX_CONFIG) {
        Ok(text) => Ok(Some(text)),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err).with_context(|| format!("reading {}", path.display())),
    }
}

/// Writes an install's change, backing the original up first (once: a
/// later install keeps the first backup, the user's own file).
pub(crate) fn apply_install(change: &Change) -> anyhow::Result<()> {
    if change.is_noop() {
        return Ok(());
    }
    if let Some(before) = &change.before {
        let backup = backup_path(&change.path);
        if !backup.exists() {
            // The backup is the file as the change found it, or nothing.
            unchanged_since(&change.path, &change.before)?;
            write_atomic(&backup, before, false, &None)?;
        }
    }
    write_or_remove(change)
}

/// Writes an uninstall's change and drops the backup, which has done its
/// job (restored, or superseded by the user's later edits).
pub(crate) fn apply_uninstall(change: &Change) -> anyhow::Result<()> {
    write_or_remove(change)?;
    let backup = backup_path(&change.path);
    match fs::remove_file(&backup) {
        Ok(()) => Ok(()),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(err) => Err(err).with_context(|| format!("removing {}", backup.display())),
    }
}

/// Writes (or removes) a file hookgate owns outright, such as a service
/// unit: no backup.
pub(crate) fn apply_plain(change: &Change) -> anyhow::Result<()> {
    write_or_remove(change)
}

fn write_or_remove(change: &Change) -> anyhow::Result<()> {
    if change.is_noop() {
        return Ok(());
    }
    match &change.after {
        Some(text) => write_atomic(&change.path, text, change.executable, &change.before),
        None => {
            unchanged_since(&change.path, &change.before)?;
            fs::remove_file(&change.path)
                .with_context(|| format!("removing {}", change.path.display()))
        }
    }
}

/// [`Changed`] unless `path` still holds `expected`.
fn unchanged_since(path: &Path, expected: &Option<String>) -> anyhow::Result<()> {
    if read(path)? != *expected {
        return Err(Changed(path.to_path_buf()).into());
    }
    Ok(())
}

/// Writes `text` to a sibling temporary file and renames it over `path`
/// if it still holds `expected`, keeping the old file's permissions (new
/// files: 0644, or 0755).
fn write_atomic(
    path: &Path,
    text: &str,
    executable: bool,
    expected: &Option<String>,
) -> anyhow::Result<()> {
    let dir = path
        .parent()
        .with_context(|| format!("{} has no directory", path.display()))?;
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    tmp.write_all(text.as_bytes())
        .and_then(|()| tmp.as_file().sync_all())
        .with_context(|| format!("writing {}", tmp.path().display()))?;
    set_mode(tmp.path(), path, executable)?;
    unchanged_since(path, expected)?;
    tmp.persist(path)
        .with_context(|| format!("replacing {}", path.display()))?;
    Ok(())
}

#[cfg(unix)]
fn set_mode(tmp: &Path, old: &Path, executable: bool) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let mode = match fs::metadata(old) {
        Ok(meta) => meta.permissions().mode() & 0o7777,
        Err(_) if executable => 0o755,
        Err(_) => 0o644,
    };
    fs::set_permissions(tmp, fs::Permissions::from_mode(mode))
        .with_context(|| format!("setting the mode of {}", tmp.display()))
}

#[cfg(not(unix))]
fn set_mode(_tmp: &Path, _old: &Path, _executable: bool) -> anyhow::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_made_meanwhile_is_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        fs::write(&path, "{\"a\": 1}").unwrap();
        let change = Change {
            path: path.clone(),
            before: Some("{\"a\": 1}".to_owned()),
            after: Some("{\"a\": 1, \"hooks\": {}}".to_owned()),
            executable: false,
        };
        // The agent saves a setting after the change was computed.
        fs::write(&path, "{\"a\": 2}").unwrap();
        let err = apply_install(&change).unwrap_err();
        assert!(err.downcast_ref::<Changed>().is_some(), "{err:#}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "{\"a\": 2}");
        // Computed again from what is there now, it goes through.
        let again = Change {
            before: Some("{\"a\": 2}".to_owned()),
            ..change
        };
        apply_install(&again).unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "{\"a\": 1, \"hooks\": {}}"
        );
    }
}
