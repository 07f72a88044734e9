//! Where the real `gateway` and `gateway-shim` binaries are, built fresh.
//!
//! An integration test of this package cannot use `CARGO_BIN_EXE_*` (that
//! only names binaries of the package under test), and artifact
//! dependencies are unstable. So the harness finds them itself:
//!
//! 1. `HOOKGATE_GATEWAY_BIN` and `HOOKGATE_SHIM_BIN`, when both are set, are
//!    used as they are (for testing installed or release binaries).
//! 2. Otherwise the test binary's own profile directory is used
//!    (`<target>/<profile>/deps/it-*` → `<target>/<profile>/`), and the
//!    harness runs `cargo build -p gateway-shim` and `cargo build -p
//!    hookgate-gateway` into it once per test process, with the same
//!    profile, so the tests never run against stale binaries. Two builds,
//!    not one: built together, cargo would unify features and give the
//!    shim the adapters' JSON feature, which users' shims do not have. The
//!    builds are no-ops when the binaries are fresh.
//!    `HOOKGATE_TEST_NO_BUILD=1` skips them (the binaries must exist).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

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
    if std::env::var_os("HOOKGATE_TEST_NO_BUILD").is_none_or(|v| v != "1") {
        build(&profile_dir, "gateway-shim")?;
        build(&profile_dir, "hookgate-gateway")?;
    }
    existing(
        profile_dir.join("gateway"),
        profile_dir.join("gateway-shim"),
    )
}

fn existing(gateway: PathBuf, shim: PathBuf) -> Result<Binaries, String> {
    for path in [&gateway, &shim] {
        if !path.is_file() {
            return Err(format!("{} does not exist", path.display()));
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

/// Builds `package` into `profile_dir` with the matching profile.
fn build(profile_dir: &Path, package: &str) -> Result<(), String> {
    let target_dir = profile_dir
        .parent()
        .ok_or("profile directory has no parent")?;
    let profile = profile_dir
        .file_name()
        .and_then(|name| name.to_str())
        .ok_or("profile directory has no UTF-8 name")?;
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("integration-tests has no parent directory")?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .arg("build")
        .arg("--manifest-path")
        .arg(workspace.join("Cargo.toml"))
        .args(["-p", package])
        .env("CARGO_TARGET_DIR", target_dir);
    match profile {
        "debug" => {}
        "release" => {
            command.arg("--release");
        }
        other => {
            command.args(["--profile", other]);
        }
    }
    let output = command
        .output()
        .map_err(|err| format!("running cargo build: {err}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "`cargo build -p {package}` failed ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}
