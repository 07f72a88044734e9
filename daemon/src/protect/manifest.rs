//! The install record: what `gateway install` wrote where (the shim it
//! placed, each agent config it added hooks to), kept in hookgate's state
//! directory (`installed`), so self-protection holds exactly those files
//! too, wherever they are (`--shim-dir`, a project's config).
//!
//! One entry a line, `shim<TAB>/path` or `config<TAB>/path`; unknown or
//! malformed lines are skipped (an older gateway reads a newer record).
//! Read bounded, like every file the gateway opens (`files`).

use std::io;
use std::path::{Path, PathBuf};

/// The record's file name in the state directory.
pub const FILE: &str = "installed";

/// A record is a few lines; this only stops a runaway file.
const MAX_BYTES: u64 = 256 << 10;

/// What an entry names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Shim,
    Config,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Shim => "shim",
            Kind::Config => "config",
        }
    }
}

/// One recorded path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub kind: Kind,
    pub path: PathBuf,
}

/// The entries of the record at `path`; none when it is absent or cannot
/// be read (the built-in patterns still cover the default places).
pub fn read(path: &Path) -> Vec<Entry> {
    match hookgate_transport::files::read_to_string(path, MAX_BYTES) {
        Ok(text) => parse(&text),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(err) => {
            tracing::warn!(path = %path.display(), error = %err, "the install record cannot be read; self-protection covers the default places only");
            Vec::new()
        }
    }
}

fn parse(text: &str) -> Vec<Entry> {
    text.lines()
        .filter_map(|line| {
            let (kind, path) = line.split_once('\t')?;
            let kind = match kind {
                "shim" => Kind::Shim,
                "config" => Kind::Config,
                _ => return None,
            };
            let path = PathBuf::from(path);
            path.is_absolute().then_some(Entry { kind, path })
        })
        .collect()
}

/// Adds `entries` to the record at `path` (created 0600 with its
/// directory 0700 if absent), each once. For `gateway install`: a CLI
/// command, never the gateway's runtime.
#[expect(
    clippy::disallowed_methods,
    reason = "gateway install writes the record from the CLI, not the gateway's runtime"
)]
pub fn record(path: &Path, entries: &[Entry]) -> io::Result<()> {
    let mut current = read(path);
    let before = current.len();
    for entry in entries {
        if !current.contains(entry) {
            current.push(entry.clone());
        }
    }
    if current.len() == before && path.exists() {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(dir)?.permissions().mode();
            if mode & 0o077 != 0 && dir.file_name().is_some_and(|n| n == "hookgate") {
                std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
            }
        }
    }
    let mut text = String::from(
        "# Written by `gateway install`: what it installed, for hookgate's self-protection.\n",
    );
    for entry in &current {
        text.push_str(entry.kind.as_str());
        text.push('\t');
        text.push_str(&entry.path.display().to_string());
        text.push('\n');
    }
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o600))?;
    }
    std::fs::rename(&tmp, path)
}

/// Where the record lives for this environment: the state directory
/// (`$XDG_STATE_HOME/hookgate`, else `~/.local/state/hookgate`).
pub fn path(env: &hookgate_config::Env) -> Option<PathBuf> {
    super::state_dir(env).map(|dir| dir.join(FILE))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_record_keeps_each_entry_once_and_skips_what_it_cannot_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("hookgate").join(FILE);
        // Absolute on the platform (a drive on Windows).
        let abs = |p: &str| {
            if cfg!(windows) {
                format!("C:{p}")
            } else {
                p.to_owned()
            }
        };
        let shim = Entry {
            kind: Kind::Shim,
            path: abs("/opt/bin/gateway-shim").into(),
        };
        let config = Entry {
            kind: Kind::Config,
            path: abs("/work/acme/.claude/settings.json").into(),
        };
        record(&path, std::slice::from_ref(&shim)).unwrap();
        record(&path, &[shim.clone(), config.clone()]).unwrap();
        assert_eq!(read(&path), [shim.clone(), config]);
        let text = std::fs::read_to_string(&path).unwrap() + "junk\nshim\trelative/path\n";
        assert_eq!(parse(&text).len(), 2);
        assert!(read(&dir.path().join("absent")).is_empty());
    }
}
