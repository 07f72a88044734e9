//! The binaries under test, built the way they ship: the release `gateway`
//! and the static `gateway-shim` (dist-shim profile, crt-static glibc, its
//! own target dir, exactly as `.ci/check-shim-static.sh` builds it).
//!
//! Built by nested `cargo build`s so the one documented command measures
//! fresh binaries; the gateway lands next to this bench binary (same target
//! dir and profile), so a custom `CARGO_TARGET_DIR` still works.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, bail};

/// The target triple of the static shim build.
const SHIM_TARGET: &str = "x86_64-unknown-linux-gnu";
/// Profile of the shipped shim.
const SHIM_PROFILE: &str = "dist-shim";

/// Paths of the binaries under test.
#[derive(Debug, Clone)]
pub(crate) struct Artifacts {
    pub(crate) gateway: PathBuf,
    pub(crate) shim: PathBuf,
    /// The fake model server the real Claude Code talks to (section 1b).
    pub(crate) fake_model: PathBuf,
    /// The exact command that built the shim, for the report.
    pub(crate) shim_build_command: String,
}

/// The workspace root (this crate's parent directory).
pub(crate) fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// Builds (unless `build` is false) and locates both binaries.
pub(crate) fn prepare(build: bool) -> anyhow::Result<Artifacts> {
    let root = workspace_root();
    let exe = std::env::current_exe().context("locating the hookbench binary")?;
    let profile_dir = exe
        .parent()
        .context("hookbench binary has no parent directory")?
        .to_path_buf();
    let shim_target_dir = root.join("target").join("shim-static");
    let shim_build_command = format!(
        "RUSTFLAGS=\"-C target-feature=+crt-static\" cargo build -p gateway-shim --profile {SHIM_PROFILE} --target {SHIM_TARGET} --target-dir target/shim-static"
    );
    if build {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        eprintln!("hookbench: building the release gateway");
        run(Command::new(&cargo).current_dir(&root).args([
            "build",
            "--release",
            "-p",
            "hookgate-gateway",
            "--bin",
            "gateway",
        ]))?;
        eprintln!("hookbench: building the fake model server");
        run(Command::new(&cargo).current_dir(&root).args([
            "build",
            "--release",
            "-p",
            "hookgate-integration-tests",
            "--bin",
            "fake-model",
        ]))?;
        eprintln!("hookbench: building the static gateway-shim: {shim_build_command}");
        run(Command::new(&cargo)
            .current_dir(&root)
            .env("RUSTFLAGS", "-C target-feature=+crt-static")
            .args([
                "build",
                "-p",
                "gateway-shim",
                "--profile",
                SHIM_PROFILE,
                "--target",
                SHIM_TARGET,
            ])
            .arg("--target-dir")
            .arg(&shim_target_dir))?;
    }
    let artifacts = Artifacts {
        gateway: profile_dir.join("gateway"),
        fake_model: profile_dir.join("fake-model"),
        shim: shim_target_dir
            .join(SHIM_TARGET)
            .join(SHIM_PROFILE)
            .join("gateway-shim"),
        shim_build_command,
    };
    for path in [&artifacts.gateway, &artifacts.shim, &artifacts.fake_model] {
        if !path.is_file() {
            bail!("{} does not exist (run without --no-build)", path.display());
        }
    }
    Ok(artifacts)
}

fn run(command: &mut Command) -> anyhow::Result<()> {
    let status = command
        .status()
        .with_context(|| format!("running {command:?}"))?;
    if !status.success() {
        bail!("{command:?} failed: {status}");
    }
    Ok(())
}
