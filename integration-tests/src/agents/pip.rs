//! The pinned agent CLIs that come from PyPI rather than npm (Hermes
//! Agent), each in a venv of its own under the same cache as the npm ones
//! (`<cargo target dir>/agent-clis/<dir>-<version>/venv`, or under
//! `$HOOKGATE_AGENT_CLIS_DIR`), installed once by the test setup itself.
//!
//! Same discipline as [`super::install`]: a marker naming the exact
//! package is written after a successful install and checked on every
//! later run; installs are serialized by a `Mutex` within the process and
//! `flock(1)` on the shared lock file across processes; every wait is
//! bounded; a missing `python3` or a failing `pip install` fails every test
//! that needs the CLI with the reason — never a skip.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;

use super::install::{INSTALL_SECS, LOCK_WAIT_SECS, cache_root, check_version, tail};

/// One agent CLI from PyPI, installed into a venv of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PipCli {
    pub package: &'static str,
    pub version: &'static str,
    /// The cache directory's name (the version is appended).
    pub dir: &'static str,
    /// The executable, relative to the venv.
    pub bin: &'static str,
}

/// Hermes Agent (NousResearch; the `hermes` entry point).
pub const HERMES: PipCli = PipCli {
    package: "hermes-agent",
    version: "0.19.0",
    dir: "hermes-agent",
    bin: "bin/hermes",
};

static PIP_CLIS: Mutex<BTreeMap<&'static str, Result<PathBuf, String>>> =
    Mutex::new(BTreeMap::new());

/// `cli`'s executable, installed on first use. Panics with the reason
/// when it cannot be had.
pub fn pip_cli(cli: &PipCli) -> PathBuf {
    let mut installed = PIP_CLIS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let result = installed
        .entry(cli.package)
        .or_insert_with(|| install_pip_cli(cli));
    match result {
        Ok(path) => path.clone(),
        Err(reason) => panic!(
            "the real agent CLI {}=={} (PyPI) is unavailable: {reason}",
            cli.package, cli.version
        ),
    }
}

fn install_pip_cli(cli: &PipCli) -> Result<PathBuf, String> {
    let root = cache_root()?;
    let dir = root.join(format!("{}-{}", cli.dir, cli.version));
    let venv = dir.join("venv");
    let marker = dir.join(".hookgate-installed");
    let spec = format!("{}=={}", cli.package, cli.version);
    let is_installed = || std::fs::read_to_string(&marker).is_ok_and(|text| text.trim() == spec);
    if !is_installed() {
        std::fs::create_dir_all(&dir)
            .map_err(|err| format!("creating {}: {err}", dir.display()))?;
        let found = Command::new("python3")
            .arg("--version")
            .output()
            .is_ok_and(|out| out.status.success());
        if !found {
            return Err(
                "`python3` is not on PATH, but the real-agent tests install this CLI with \
                 its venv and pip (install Python 3.11+ with venv)"
                    .to_owned(),
            );
        }
        eprintln!(
            "real agents: installing {spec} into {} (one time, about a minute)",
            venv.display()
        );
        // Under the lock: re-check the marker (another process may have
        // installed it meanwhile), then a fresh venv and the pinned package.
        const SCRIPT: &str = r#"marker=$1 spec=$2 venv=$3 limit=$4
[ "$(cat "$marker" 2>/dev/null)" = "$spec" ] && exit 0
rm -f "$marker"; rm -rf "$venv"
python3 -m venv "$venv" \
  && timeout "$limit" "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$spec" \
  && printf '%s\n' "$spec" > "$marker""#;
        let output = Command::new("flock")
            .args(["--exclusive", "--timeout", LOCK_WAIT_SECS])
            .arg(root.join("install.lock"))
            .args(["sh", "-c", SCRIPT, "sh"])
            .arg(&marker)
            .arg(&spec)
            .arg(&venv)
            .arg(INSTALL_SECS)
            .output()
            .map_err(|err| format!("running flock/python3: {err}"))?;
        if !output.status.success() || !is_installed() {
            return Err(format!(
                "`pip install {spec}` into {} failed ({}); does this machine reach PyPI?\n\
                 --- stdout ---\n{}\n--- stderr ---\n{}",
                venv.display(),
                output.status,
                tail(&output.stdout),
                tail(&output.stderr)
            ));
        }
    }
    let bin = venv.join(cli.bin);
    check_version(cli.dir, &bin, cli.version)?;
    Ok(bin)
}
