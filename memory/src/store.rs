//! Opening the one database file: created private to its user (0600 on
//! Unix), never through a symlink, then SQLite in WAL mode with
//! `secure_delete` and the schema brought up to date.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::{Connection, ErrorCode, OpenFlags};

use crate::MemoryError;

/// How long a statement waits for a lock another connection holds before
/// it fails, unless the caller says otherwise ([`Store::open_with`]).
pub const DEFAULT_BUSY: Duration = Duration::from_millis(2000);

/// An open memory database.
#[derive(Debug)]
pub struct Store {
    pub(crate) conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens (creating if missing) the database at `path`.
    pub fn open(path: &Path) -> Result<Store, MemoryError> {
        Store::open_with(path, DEFAULT_BUSY)
    }

    /// Opens with `busy` as the longest wait for another connection's lock:
    /// the hook path's reader passes a short one, so a locked file answers
    /// nothing rather than late.
    pub fn open_with(path: &Path, busy: Duration) -> Result<Store, MemoryError> {
        create_private(path)?;
        // SQLite opens the file itself: told not to follow a link swapped
        // in since `create_private` looked.
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::default() | OpenFlags::SQLITE_OPEN_NOFOLLOW,
        )?;
        conn.busy_timeout(busy)?;
        // Before any table exists (a new file): freed pages can be given
        // back to the file system after forgetting.
        conn.pragma_update(None, "auto_vacuum", "INCREMENTAL")?;
        // Deleted content is overwritten with zeros, in the file and in
        // the write-ahead log.
        conn.pragma_update(None, "secure_delete", "ON")?;
        let mode = wal(&conn, busy)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(MemoryError::Invalid {
                what: "journal_mode",
                why: "the file system does not allow WAL",
            });
        }
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "cell_size_check", "ON")?;
        let mut store = Store {
            conn,
            path: path.to_owned(),
        };
        crate::schema::migrate(&mut store.conn)?;
        Ok(store)
    }

    /// The database file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Moves the write-ahead log into the file and empties it; false when
    /// another connection's read kept part of it (it is emptied at a later
    /// checkpoint).
    pub fn checkpoint(&self) -> Result<bool, MemoryError> {
        let busy: i64 = self
            .conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get(0))?;
        Ok(busy == 0)
    }
}

/// Puts the file in WAL mode, its journal mode as it is then. Switching
/// takes an exclusive lock for which SQLite calls no busy handler: another
/// connection opening the same new file at that moment is answered
/// "database is locked" at once. Retried here until `busy` has passed,
/// as any other statement would wait.
fn wal(conn: &Connection, busy: Duration) -> Result<String, MemoryError> {
    let until = Instant::now() + busy;
    loop {
        match conn.pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0)) {
            Err(rusqlite::Error::SqliteFailure(err, _))
                if err.code == ErrorCode::DatabaseBusy && Instant::now() < until =>
            {
                #[expect(
                    clippy::disallowed_methods,
                    reason = "the store is opened by the CLI and on the daemon's own threads and blocking pool, never on the runtime"
                )]
                std::thread::sleep(Duration::from_millis(5));
            }
            done => return Ok(done?),
        }
    }
}

/// Creates the file 0600 if it is missing (SQLite gives its `-wal` and
/// `-shm` files the database file's mode), refusing a symlink or anything
/// but a regular file; an existing file open to others is made 0600.
///
/// An existing file is never opened here: closing any descriptor of a file
/// drops every POSIX lock this process holds on it, the locks of SQLite's
/// other connections in this process included (the writer's, the
/// injection readers'), and another process would then take the
/// write-ahead log for abandoned and lose what they committed.
fn create_private(path: &Path) -> Result<(), MemoryError> {
    let open_error = |source| MemoryError::Open {
        path: path.to_owned(),
        source,
    };
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            let mut options = OpenOptions::new();
            options.read(true).write(true).create_new(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                options
                    .mode(0o600)
                    .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
            }
            #[expect(
                clippy::disallowed_methods,
                reason = "the store is used from the CLI and the daemon's own threads, never on the runtime"
            )]
            match options.open(path) {
                // New and empty: no connection holds a lock on it yet.
                Ok(_) => return Ok(()),
                // Made by another thread or process meanwhile.
                Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {
                    std::fs::symlink_metadata(path).map_err(open_error)?
                }
                Err(err) => return Err(open_error(err)),
            }
        }
        Err(err) => return Err(open_error(err)),
    };
    if !meta.is_file() {
        return Err(MemoryError::NotAFile {
            path: path.to_owned(),
        });
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        if meta.uid() != hookgate_wire::socket::current_uid() {
            return Err(MemoryError::NotOurs {
                path: path.to_owned(),
                owner: meta.uid(),
            });
        }
        if meta.permissions().mode() & 0o077 != 0 {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
                .map_err(open_error)?;
        }
    }
    Ok(())
}
