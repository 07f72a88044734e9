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
//!    cargo; it refuses a binary older than any file cargo's dep-info says
//!    it was built from, so a `cargo test -p hookgate-integration-tests`
//!    after an edit says "run `cargo build --workspace`" instead of testing
//!    stale code.

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

/// Refuses a binary older than any file it was built from: testing it would
/// test code that is no longer there. What it was built from is exactly
/// what cargo lists in the dep-info file beside it (`<binary>.d`).
fn fresh(binaries: &Binaries) -> Result<(), String> {
    for binary in [&binaries.gateway, &binaries.shim] {
        let built = modified(binary).ok_or_else(|| format!("{}: no mtime", binary.display()))?;
        let dep_info = binary.with_extension("d");
        let text = std::fs::read_to_string(&dep_info)
            .map_err(|err| format!("{}: {err}", dep_info.display()))?;
        if let Some(source) =
            sources(&text).find(|source| modified(source).is_some_and(|t| t > built))
        {
            return Err(format!(
                "{} is older than {}: run `cargo build --workspace` first",
                binary.display(),
                source.display()
            ));
        }
    }
    Ok(())
}

/// The prerequisites of a Makefile-style dep-info file's first rule
/// (`target: dep dep\ with\ space ...`).
fn sources(dep_info: &str) -> impl Iterator<Item = PathBuf> + '_ {
    let line = dep_info.lines().next().unwrap_or_default();
    let deps = line.split_once(": ").map_or("", |(_, deps)| deps);
    let mut paths = Vec::new();
    let mut current = String::new();
    let mut chars = deps.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => current.extend(chars.next()),
            ' ' => paths.push(std::mem::take(&mut current)),
            c => current.push(c),
        }
    }
    paths.push(current);
    paths
        .into_iter()
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}
