//! The Python and TypeScript SDKs' own test suites, run from `cargo test
//! --workspace` so the README's test command covers them: each SDK is
//! installed as a user installs it (`hookgate_integration_tests::sdk`: a
//! venv and an npm project under `<target>/sdk/`, filled from PyPI and
//! npm), then its suite runs against the binaries under test. A missing
//! `python3` or `npm`, an install that fails or a suite that fails is a test
//! failure, never a skip.

use std::process::Command;
use std::time::Duration;

use hookgate_integration_tests::sdk::{self, kit_env, run, tail, workspace};

const SUITE: Duration = Duration::from_secs(900);

/// `sdk/python`: its pytest suite (the real gateway and shim included),
/// mypy's strict check of the installed package's sources, and the check
/// that its protobuf modules match the proto.
#[test]
fn python_sdk_suite() {
    let python = sdk::python();
    let tests = workspace().join("sdk/python/tests");
    let output = run(
        "pytest sdk/python",
        kit_env(
            Command::new(&python)
                .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
                .arg(&tests)
                .current_dir(std::env::temp_dir()),
        ),
        SUITE,
    );
    eprintln!("pytest sdk/python:\n{}", tail(&output, 3));
    let project = workspace().join("sdk/python");
    let mypy = run(
        "mypy (strict) sdk/python",
        Command::new(&python)
            .args(["-m", "mypy", "--cache-dir=/dev/null", "src"])
            .current_dir(&project),
        SUITE,
    );
    eprintln!("mypy: {}", tail(&mypy, 1));
}

/// `sdk/typescript`: `npm test`, i.e. `node --test` (the real gateway and
/// shim included) and `tsc` over the package's types.
#[test]
fn typescript_sdk_suite() {
    let project = sdk::typescript();
    let output = run(
        "npm test (sdk/typescript)",
        kit_env(Command::new("npm").args(["test"]).current_dir(&project)),
        SUITE,
    );
    eprintln!("npm test sdk/typescript:\n{}", tail(&output, 10));
}
