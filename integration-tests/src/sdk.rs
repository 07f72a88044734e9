//! The Python and TypeScript SDKs installed as users install them, for the
//! tests that run their suites (`tests/sdk`) and their README examples
//! under real agents (`tests/real_agents`): a venv and an npm project
//! cached under `<target>/sdk/`, filled from PyPI and npm on first use. A
//! missing `python3` or `npm`, or an install that fails, panics: a test
//! that needs an SDK fails without it, never skips.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::binaries::binaries;

/// The longest an install may take (the first one downloads).
const INSTALL: Duration = Duration::from_secs(900);

/// One install at a time per test process (the venv and the npm project
/// are shared).
static INSTALLING: Mutex<()> = Mutex::new(());

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("integration-tests has a parent")
        .to_path_buf()
}

/// `<target>/sdk/<name>`, where installs are cached between runs.
fn cache(name: &str) -> PathBuf {
    let profile = binaries()
        .gateway
        .parent()
        .expect("the gateway's directory");
    let target = profile.parent().expect("the target directory");
    target.join("sdk").join(name)
}

/// The venv's `python`, with `sdk/python` (as it is now) and its test
/// extra installed by pip.
pub fn python() -> PathBuf {
    let _one = INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
    let venv = cache("python-venv");
    let python = venv.join("bin").join("python");
    if !python.is_file() {
        std::fs::create_dir_all(&venv).expect("create the venv directory");
        run(
            "python3 -m venv",
            Command::new("python3").args(["-m", "venv"]).arg(&venv),
            INSTALL,
        );
    }
    let sdk = workspace().join("sdk").join("python");
    let pip = |args: &[&str]| {
        let mut command = Command::new(&python);
        command
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .args(args);
        command
    };
    // The dependencies (from PyPI the first time), then the SDK itself as
    // it is now, rebuilt and reinstalled (no network).
    let with_test = format!("{}[test]", sdk.display());
    run(
        "pip install sdk/python[test]",
        &mut pip(&[&with_test]),
        INSTALL,
    );
    let sdk = sdk.display().to_string();
    run(
        "pip install sdk/python",
        &mut pip(&["--no-deps", "--force-reinstall", &sdk]),
        INSTALL,
    );
    python
}

/// A copy of `sdk/typescript` (as it is now) with its dependencies
/// installed by npm from its lock file; its `node_modules` stays cached
/// there, not in the source tree.
pub fn typescript() -> PathBuf {
    let _one = INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
    let project = cache("typescript");
    std::fs::create_dir_all(&project).expect("create the npm project directory");
    for stale in ["src", "test", "proto"] {
        let _ = std::fs::remove_dir_all(project.join(stale));
    }
    sync(&workspace().join("sdk").join("typescript"), &project);
    run(
        "npm install (sdk/typescript)",
        Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(&project),
        INSTALL,
    );
    project
}

/// Copies the package's files (not `node_modules`) from `from` to `to`.
fn sync(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("read the SDK directory") {
        let entry = entry.expect("a directory entry");
        let name = entry.file_name();
        if name == "node_modules" {
            continue;
        }
        let (source, target) = (entry.path(), to.join(&name));
        if entry.file_type().expect("a file type").is_dir() {
            std::fs::create_dir_all(&target).expect("create a directory");
            sync(&source, &target);
        } else {
            std::fs::copy(&source, &target).expect("copy a file");
        }
    }
}

/// The first ```` ```lang ```` block of the README's "Write a subscriber"
/// section, as written.
pub fn readme_example(lang: &str) -> String {
    let readme = std::fs::read_to_string(workspace().join("README.md")).expect("README.md");
    let section = readme
        .split("\n## Write a subscriber\n")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("README.md has a \"Write a subscriber\" section");
    section
        .split(&format!("```{lang}\n"))
        .nth(1)
        .and_then(|block| block.split("```").next())
        .unwrap_or_else(|| panic!("no {lang} block in \"Write a subscriber\""))
        .to_owned()
}

/// The README's JavaScript example in `dir` (`policy.mjs`), with
/// `hookgate` installed there by the README's install line (`npm install
/// --install-links <sdk/typescript>`: packed and installed as a package,
/// its dependencies from npm); returns the command that runs it there.
pub fn typescript_example_in(dir: &Path) -> Command {
    let sdk = workspace().join("sdk").join("typescript");
    run(
        "npm install --install-links sdk/typescript",
        Command::new("npm")
            .args([
                "install",
                "--install-links",
                "--no-audit",
                "--no-fund",
                "--loglevel=error",
            ])
            .arg(&sdk)
            .current_dir(dir),
        INSTALL,
    );
    std::fs::write(dir.join("policy.mjs"), readme_example("js")).expect("write policy.mjs");
    let mut command = Command::new("node");
    command.arg("policy.mjs").current_dir(dir);
    command
}

/// The README's Python example in `dir` (`policy.py`); returns the command
/// that runs it there with the venv's Python.
pub fn python_example_in(dir: &Path) -> Command {
    let python = python();
    std::fs::write(dir.join("policy.py"), readme_example("python")).expect("write policy.py");
    let mut command = Command::new(python);
    command.arg("policy.py").current_dir(dir);
    command
}

/// The environment an SDK suite gets: the repository and the binaries
/// under test, for the kits.
pub fn kit_env(command: &mut Command) -> &mut Command {
    let binaries = binaries();
    command
        .env("HOOKGATE_REPO", workspace())
        .env("HOOKGATE_GATEWAY_BIN", &binaries.gateway)
        .env("HOOKGATE_SHIM_BIN", &binaries.shim)
}

/// Runs `command` for at most `limit`; panics with its output unless it
/// succeeds. Returns its output (stdout and stderr, interleaved).
pub fn run(what: &str, command: &mut Command, limit: Duration) -> String {
    let log_path = std::env::temp_dir().join(format!(
        "hg-sdk-{}-{}.log",
        std::process::id(),
        what.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    ));
    let log = std::fs::File::create(&log_path).expect("a log file");
    let mut child = command
        .stdin(Stdio::null())
        .stdout(log.try_clone().expect("the log file"))
        .stderr(log)
        .spawn()
        .unwrap_or_else(|err| panic!("{what}: cannot start {command:?}: {err}"));
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the child") {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let output = std::fs::read_to_string(&log_path).unwrap_or_default();
    let _ = std::fs::remove_file(&log_path);
    match status {
        Some(status) if status.success() => output,
        Some(status) => panic!("{what} failed ({status}):\n{output}"),
        None => panic!("{what} did not finish within {limit:?}:\n{output}"),
    }
}

/// The last `n` lines of `text` (a runner's summary).
pub fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}
