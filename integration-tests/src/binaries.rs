//! Where the real `gateway` and `gateway-shim` binaries are.
//!
//! An integration test of this package cannot use `CARGO_BIN_EXE_*` (that
//! only names binaries of the package under test), and artifact
//! dependencies are unstable. So the harness finds them itself:
//!
//! 1. `HOOKGATE_GATEWAY_BIN` and `HOOKGATE_SHIM_BIN`, when both are set, are
//!    used as they are (for testing installed or release binaries).
//! 2. Otherwise the test binary's own profile directory
//!    (`<target>/<profile>/deps/it-*` → `<target>/<profile>/`), where
//!    `cargo test --workspace` (the README's test command) has just built
//!    both: their packages have integration tests of their own, so cargo
//!    builds their binaries before it runs any test. The harness never runs
//!    cargo; it refuses binaries older than the sources they are built
//!    from, so a `cargo test -p hookgate-integration-tests` after an edit
//!    says "run `cargo build --workspace`" instead of testing stale code.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

/// Paths of the two binaries under test.
#[derive(Debug, Clone)]
pub struct Binaries {
    pub gateway: PathBuf,
    pub shim: PathBuf,
}

static BINARIES: OnceLock<Result<Binaries, String>> = OnceLock::new();

/// The binaries, located (and built) on first use. Panics with the reason
/// when they cannot be had: every end-to-end test needs them.
pub fn binaries() -> &'static Binaries {
    match BINARIES.get_or_init(locate) {
        Ok(binaries) => binaries,
        Err(reason) => panic!("the binaries under test are unavailable: {reason}"),
    }
}

fn locate() -> Result<Binaries, String> {
    if let (Some(gateway), Some(shim)) = (
        std::env::var_os("HOOKGATE_GATEWAY_BIN"),
        std::env::var_os("HOOKGATE_SHIM_BIN"),
    ) {
        return existing(PathBuf::from(gateway), PathBuf::from(shim));
    }
    let profile_dir = profile_dir()?;
    let binaries = existing(
        profile_dir.join("gateway"),
        profile_dir.join("gateway-shim"),
    )?;
    fresh(&binaries)?;
    Ok(binaries)
}

fn existing(gateway: PathBuf, shim: PathBuf) -> Result<Binaries, String> {
    for path in [&gateway, &shim] {
        if !path.is_file() {
            return Err(format!(
                "{} does not exist: run `cargo build --workspace` (or the README's \
                 `cargo test --workspace`, which builds it)",
                path.display()
            ));
        }
    }
    Ok(Binaries { gateway, shim })
}

/// `<target>/<profile>` of the running test binary.
fn profile_dir() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|err| format!("current_exe: {err}"))?;
    let deps = exe.parent().ok_or("test binary has no parent directory")?;
    let dir = if deps.file_name().is_some_and(|name| name == "deps") {
        deps.parent().ok_or("deps directory has no parent")?
    } else {
        deps
    };
    Ok(dir.to_path_buf())
}

/// The crates the two binaries are built from, relative to the workspace.
const SOURCES: [&str; 6] = ["adapters", "dialect", "gateway", "proto", "shim", "wire"];

/// Directories no binary is built from.
const SKIPPED: [&str; 4] = ["target", "tests", "test_data", "benches"];
/// What a binary is built from.
const SOURCE_EXTENSIONS: [&str; 3] = [".rs", ".toml", ".proto"];

/// Refuses binaries older than any source file of the crates they are
/// built from: testing them would test code that is no longer there.
fn fresh(binaries: &Binaries) -> Result<(), String> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("integration-tests has no parent directory")?;
    let mut newest = None;
    for krate in SOURCES {
        newest_in(&workspace.join(krate), &mut newest);
    }
    let Some((source_time, source)) = newest else {
        return Ok(());
    };
    for binary in [&binaries.gateway, &binaries.shim] {
        let built = modified(binary).ok_or_else(|| format!("{}: no mtime", binary.display()))?;
        if built < source_time {
            return Err(format!(
                "{} is older than {}: run `cargo build --workspace` first",
                binary.display(),
                source.display()
            ));
        }
    }
    Ok(())
}

/// The newest source file (`.rs`, `.toml`, `.proto`) under `dir`, skipping
/// what the binaries are not built from (tests, sample data, hidden and
/// generated directories): tests may write there while other tests run.
fn newest_in(dir: &Path, newest: &mut Option<(SystemTime, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || SKIPPED.contains(&&*name) {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            newest_in(&path, newest);
        } else if SOURCE_EXTENSIONS.iter().any(|ext| name.ends_with(ext))
            && let Some(time) = modified(&path)
            && newest.as_ref().is_none_or(|(t, _)| time > *t)
        {
            *newest = Some((time, path));
        }
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}
