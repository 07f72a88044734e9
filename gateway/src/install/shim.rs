//! Placing the shim at a stable path hooks can name: `gateway-shim` next
//! to this gateway (or `--shim`), copied into `~/.local/bin` (or
//! `--shim-dir`), so a `cargo install`, a rebuild or a `cargo clean` never
//! leaves the agents' hooks pointing at nothing.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

use super::InstallArgs;
use super::command::SHIM_NAME;

/// The shim's path hooks will run; copied there unless `--dry-run`.
pub(crate) fn place(args: &InstallArgs, home: &Path) -> anyhow::Result<PathBuf> {
    let source = match &args.shim {
        Some(path) => path.clone(),
        None => std::env::current_exe()
            .context("finding this gateway binary")?
            .with_file_name(SHIM_NAME),
    };
    let source = source.canonicalize().with_context(|| {
        format!(
            "no shim at {}: build it (see the README's quick start) or name it with --shim",
            source.display()
        )
    })?;
    if !is_executable(&source) {
        bail!("the shim {} is not an executable file", source.display());
    }
    let dir = args
        .shim_dir
        .clone()
        .unwrap_or_else(|| home.join(".local/bin"));
    if !dir.is_absolute() {
        bail!("--shim-dir {} is not absolute", dir.display());
    }
    let target = dir.join(SHIM_NAME);
    if args.target.dry_run || target.canonicalize().is_ok_and(|t| t == source) {
        return Ok(target);
    }
    let bytes = fs::read(&source).with_context(|| format!("reading {}", source.display()))?;
    if fs::read(&target).is_ok_and(|old| old == bytes) {
        return Ok(target);
    }
    fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    // A new file renamed into place: a running shim keeps its old inode.
    let tmp = tempfile::NamedTempFile::new_in(&dir)
        .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    fs::write(tmp.path(), &bytes).with_context(|| format!("writing {}", tmp.path().display()))?;
    make_executable(tmp.path())?;
    tmp.persist(&target)
        .with_context(|| format!("installing {}", target.display()))?;
    outln!("installed {}", target.display());
    Ok(target)
}

/// Whether `path` is a regular file someone may execute.
pub(crate) fn is_executable(path: &Path) -> bool {
    let Ok(meta) = fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

#[cfg(unix)]
fn make_executable(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755))
        .with_context(|| format!("chmod 0755 {}", path.display()))
}

#[cfg(not(unix))]
fn make_executable(_path: &Path) -> anyhow::Result<()> {
    Ok(())
}
