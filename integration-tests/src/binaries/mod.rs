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
//!    cargo; it refuses a binary older than a source it was built from
//!    (`fresh.rs`), so a `cargo test -p hookgate-integration-tests` after an
//!    edit says "run `cargo build --workspace`" instead of testing stale
//!    code.

mod fresh;

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
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("integration-tests has no parent directory")?;
    for (binary, package) in [
        (&binaries.gateway, "hookgate-gateway"),
        (&binaries.shim, "gateway-shim"),
    ] {
        fresh::check(binary, &profile_dir, workspace, package)?;
    }
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

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}
