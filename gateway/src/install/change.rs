//! One file install or uninstall changes, and how it is written: the
//! original kept once as `<file>.hookgate-backup`, the new text written to
//! a temporary file and renamed over the old one (an agent reading its
//! config meanwhile sees the old or the new file, never half of one).

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

/// Suffix of the copy of a config as it was before the first install.
pub(crate) const BACKUP_SUFFIX: &str = ".hookgate-backup";
/// Agents' configs are small; anything bigger is not one.
const MAX_CONFIG: u64 = 4 * 1024 * 1024;

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
    match hookgate_gateway::files::read_to_string(path, MAX_CONFIG) {
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
            write_atomic(&backup, before, false)?;
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
        Some(text) => write_atomic(&change.path, text, change.executable),
        None => fs::remove_file(&change.path)
            .with_context(|| format!("removing {}", change.path.display())),
    }
}

/// Writes `text` to a sibling temporary file and renames it over `path`,
/// keeping the old file's permissions (new files: 0644, or 0755).
fn write_atomic(path: &Path, text: &str, executable: bool) -> anyhow::Result<()> {
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
