//! The README's Rust subscriber (`examples/policy.rs`), as a user runs it:
//! started from an empty directory, asked through the real gateway and shim
//! with Claude Code, Cline and Codex payloads, then stopped with SIGTERM.

#![cfg(unix)]
#![allow(clippy::disallowed_methods, reason = "a test reads the README")]

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use hookgate_subscriber::testing::Kit;

/// `examples/policy`, which `cargo test` builds beside this test.
fn example() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    let profile = exe
        .ancestors()
        .nth(2)
        .expect("target/<profile>/deps/<test>");
    let path = profile.join("examples").join("policy");
    assert!(
        path.is_file(),
        "{} is missing: run `cargo test -p hookgate-subscriber`",
        path.display()
    );
    path
}

/// The README's rust block in "Write a subscriber" is this example, as
/// written (without the example's `//!` header).
#[test]
fn the_readme_shows_this_example() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("../README.md")).unwrap();
    let section = readme.split("\n## Write a subscriber\n").nth(1).unwrap();
    let section = section.split("\n## ").next().unwrap();
    let block = section
        .split("```rust\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    assert!(block.lines().count() <= 15, "at most 15 lines");
    let example = std::fs::read_to_string(root.join("examples/policy.rs")).unwrap();
    let code: Vec<&str> = example
        .lines()
        .skip_while(|l| l.starts_with("//!") || l.is_empty())
        .collect();
    assert_eq!(block.trim_end(), code.join("\n"));
}

#[tokio::test]
async fn the_readme_example_denies_destroy_and_greets() {
    let dir = tempfile::Builder::new()
        .prefix("hg-rs-")
        .tempdir_in("/tmp")
        .unwrap();
    let mut child = Command::new(example())
        .current_dir(dir.path())
        .spawn()
        .unwrap();
    let socket = dir.path().join("policy.sock");
    let until = Instant::now() + Duration::from_secs(20);
    while std::os::unix::net::UnixStream::connect(&socket).is_err() {
        assert!(child.try_wait().unwrap().is_none(), "the example exited");
        assert!(Instant::now() < until, "the example did not listen");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let kit = Kit::front(&format!("unix://{}", socket.display()), None)
        .await
        .unwrap();
    for agent in ["claude-code", "codex"] {
        let reply = kit
            .shell(agent, "terraform destroy -auto-approve")
            .await
            .unwrap();
        let specific = &reply.json().unwrap()["hookSpecificOutput"];
        assert_eq!(specific["permissionDecision"], "deny", "{agent}: {reply:?}");
        assert_eq!(specific["permissionDecisionReason"], "no terraform destroy");
        let start = kit
            .sample(&format!("{agent}/SessionStart"))
            .await
            .unwrap()
            .json()
            .unwrap();
        assert_eq!(
            start["hookSpecificOutput"]["additionalContext"],
            "hello from rust"
        );
        let plan = kit.shell(agent, "terraform plan").await.unwrap();
        assert_eq!(plan.stdout, "", "{agent}: no opinion");
    }
    let cline = kit
        .shell("cline", "terraform destroy")
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(
        cline,
        serde_json::json!({"context": "no terraform destroy", "overrideInput": {}})
    );
    kit.stop().await;

    let killed = Command::new("kill")
        .arg("-TERM")
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(killed.success());
    assert!(child.wait().unwrap().success(), "a clean exit on SIGTERM");
    assert!(!socket.exists(), "its socket removed");
}
