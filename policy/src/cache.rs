//! The last good bundle on disk, so a restart without network still
//! enforces it.
//!
//! One directory per subscriber (the gateway picks it, private to the
//! user): `bundle.tar.gz` (the archive exactly as fetched, so it is
//! verified again when read back, never trusted because it is local) and
//! `etag` (for `If-None-Match`). Written to a temporary file and renamed,
//! so a crash leaves the old bundle or the new one, never half of one.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use hookgate_identity::files::{self, Access};

const BUNDLE: &str = "bundle.tar.gz";
const ETAG: &str = "etag";
/// A cached archive larger than this is not read (fetches are bounded the same).
pub const MAX_BUNDLE_BYTES: u64 = 32 << 20;

/// A subscriber's cache directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cache {
    dir: PathBuf,
}

/// What the cache holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cached {
    pub bytes: Vec<u8>,
    pub etag: Option<String>,
}

impl Cache {
    pub fn new(dir: impl Into<PathBuf>) -> Cache {
        Cache { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The cached bundle, if there is one (a missing cache is `Ok(None)`).
    /// Blocking: the gateway calls it on its policy thread.
    pub fn load(&self) -> std::io::Result<Option<Cached>> {
        let path = self.dir.join(BUNDLE);
        let bytes = match read_ours(&path, MAX_BUNDLE_BYTES) {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(err),
        };
        let etag = read_ours(&self.dir.join(ETAG), 1024)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty() && s.len() < 1024);
        Ok(Some(Cached { bytes, etag }))
    }

    /// Replaces the cached bundle with `bytes` (and its `etag`).
    pub fn store(&self, bytes: &[u8], etag: Option<&str>) -> std::io::Result<()> {
        create_private_dir(&self.dir)?;
        write_atomic(&self.dir.join(BUNDLE), bytes)?;
        match etag {
            Some(etag) => write_atomic(&self.dir.join(ETAG), etag.as_bytes()),
            None => match fs::remove_file(self.dir.join(ETAG)) {
                Err(err) if err.kind() != std::io::ErrorKind::NotFound => Err(err),
                _ => Ok(()),
            },
        }
    }
}

/// All of `path`, at most `max` bytes: a regular file of this user's (or
/// root's), opened without following a link or waiting on a FIFO.
fn read_ours(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read as _;
    let file = files::open(path, Access::Read)?;
    if file.metadata()?.len() > max {
        return Err(std::io::Error::other(format!(
            "{}: larger than {max} bytes",
            path.display()
        )));
    }
    let mut bytes = Vec::new();
    file.take(max).read_to_end(&mut bytes)?;
    Ok(bytes)
}

fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    // Not through a link planted at the temporary name; emptied only once
    // it is known to be ours.
    let mut file = files::open(&tmp, Access::Write)?;
    file.set_len(0)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    fs::rename(&tmp, path)
}
