//! The release tarball's `install.sh`, end to end on the binaries under
//! test: `.ci/package.sh` (the script `.ci/release` packs the release build
//! with) packs them in the shipped layout, and `install.sh` runs under
//! `env -i` with a minimal PATH into a temporary prefix, as a user with
//! nothing set up would. The release build itself is not run here (about
//! ten minutes on two cores): what this tests is the packing and the
//! installer, which do not depend on the profile.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::sdk::workspace;

/// The PATH install.sh and the installed binaries get: the base system.
const MINIMAL_PATH: &str = "/usr/bin:/bin";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `.ci/package.sh` on the binaries under test; returns the tarball.
fn package(out: &Path) -> PathBuf {
    let packed = Command::new("bash")
        .arg(workspace().join(".ci/package.sh"))
        .arg(&binaries().gateway)
        .arg(&binaries().shim)
        .arg(out)
        .output()
        .expect("run .ci/package.sh");
    assert!(packed.status.success(), "{}", text(&packed.stderr));
    let tarball = PathBuf::from(text(&packed.stdout).trim());
    let name = tarball.file_name().and_then(|n| n.to_str()).unwrap_or("");
    assert!(
        name.starts_with("hookgate-") && name.ends_with("-x86_64-linux.tar.gz"),
        "{name}"
    );
    let sums = std::fs::read_to_string(out.join("SHA256SUMS")).expect("SHA256SUMS beside");
    assert!(sums.contains(name), "{sums}");
    tarball
}

/// Unpacks `tarball` into `into`; returns the package's top directory.
fn unpack(tarball: &Path, into: &Path) -> PathBuf {
    std::fs::create_dir_all(into).expect("create the unpack dir");
    let status = Command::new("tar")
        .arg("-C")
        .arg(into)
        .arg("-xzf")
        .arg(tarball)
        .status()
        .expect("run tar");
    assert!(status.success());
    let mut entries = std::fs::read_dir(into).expect("read the unpack dir");
    let top = entries
        .next()
        .expect("one top directory")
        .expect("entry")
        .path();
    assert!(entries.next().is_none(), "one top directory only");
    top
}

/// `sh install.sh --prefix PREFIX` under `env -i` (HOME set, a minimal PATH).
fn install(package: &Path, home: &Path, prefix: &Path) -> Output {
    Command::new("/usr/bin/env")
        .arg("-i")
        .arg(format!("HOME={}", home.display()))
        .arg(format!("PATH={MINIMAL_PATH}"))
        .arg("sh")
        .arg(package.join("install.sh"))
        .arg("--prefix")
        .arg(prefix)
        .stdin(Stdio::null())
        .output()
        .expect("run install.sh")
}

/// An installed binary under `env -i`.
fn run_installed(bin: &Path, args: &[&str], home: &Path, stdin: &str) -> Output {
    let mut child = Command::new(bin)
        .args(args)
        .env_clear()
        .env("HOME", home)
        .env("PATH", MINIMAL_PATH)
        .env("HOOKGATE_SOCKET", home.join("no-gateway.sock"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run an installed binary");
    if let Some(mut input) = child.stdin.take() {
        std::io::Write::write_all(&mut input, stdin.as_bytes()).expect("write stdin");
    }
    child.wait_with_output().expect("wait for it")
}

#[test]
fn the_tarball_installs_into_a_prefix_and_its_binaries_work() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tarball = package(&dir.path().join("out"));
    let package = unpack(&tarball, &dir.path().join("unpacked"));
    for file in [
        "bin/gateway",
        "bin/gateway-shim",
        "share/man/man1/gateway.1",
        "share/man/man1/gateway-serve.1",
        "share/man/man1/gateway-shim.1",
        "share/completions/gateway.bash",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "README.md",
        "install.sh",
        "SHA256SUMS",
    ] {
        assert!(package.join(file).is_file(), "the tarball lacks {file}");
    }

    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).expect("create HOME");
    let prefix = dir.path().join("prefix");
    let out = install(&package, &home, &prefix);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("verified every file"), "{stdout}");
    assert!(stdout.contains("gateway install"), "no next step: {stdout}");

    let gateway = prefix.join("bin/gateway");
    let version = run_installed(&gateway, &["--version"], &home, "");
    assert!(version.status.success());
    assert!(
        text(&version.stdout).starts_with("gateway "),
        "{}",
        text(&version.stdout)
    );
    let man = run_installed(&gateway, &["man"], &home, "");
    assert!(man.status.success() && text(&man.stdout).contains(".TH gateway 1"));
    assert!(prefix.join("share/man/man1/gateway-shim.1").is_file());

    // The installed shim answers a hook with no gateway: fail-open, exit 0.
    let shim = prefix.join("bin/gateway-shim");
    let version = run_installed(&shim, &["--version"], &home, "");
    assert!(text(&version.stdout).starts_with("gateway-shim "));
    let hook = run_installed(
        &shim,
        &["claude-code"],
        &home,
        r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#,
    );
    assert_eq!(hook.status.code(), Some(0), "{}", text(&hook.stderr));
}

#[test]
fn a_tampered_tarball_is_refused_naming_the_file_and_installs_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tarball = package(&dir.path().join("out"));
    let package = unpack(&tarball, &dir.path().join("unpacked"));

    // One byte of bin/gateway changed, as a corrupted download or an
    // attacker's edit would.
    let target = package.join("bin/gateway");
    let mut bytes = std::fs::read(&target).expect("read bin/gateway");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x01;
    std::fs::write(&target, bytes).expect("write bin/gateway");

    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).expect("create HOME");
    let prefix = dir.path().join("prefix");
    let out = install(&package, &home, &prefix);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}{stderr}", text(&out.stdout));
    assert!(
        stderr.contains("CHECKSUM MISMATCH: bin/gateway"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing installed"), "{stderr}");
    assert!(!prefix.exists(), "install.sh wrote into the prefix");
}
