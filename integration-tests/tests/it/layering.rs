//! A user config over the embedded default, through the real binaries: a
//! one-rule config keeps the default guard and audit (both deny and both
//! are logged), and `gateway config init`, `show` and `check` say what the
//! layers are and where a file is wrong.

use std::path::Path;
use std::process::Command;

use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::{TestGateway, payloads, private_dir};
use serde_json::Value;

use crate::support::{EVENTUALLY, assert_claude_deny};

/// What a user adds: one rule, nothing else.
const ONE_RULE: &str = r#"
[[subscriber]]
name = "guard"

[[subscriber.rules]]
id = "terraform-destroy"
command = ["terraform"]
subcommand = ["destroy"]
reason = "LAYERED: terraform destroy needs a human"
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_one_rule_user_config_keeps_guard_and_audit() {
    let gateway = TestGateway::start_over_default(ONE_RULE).await;
    let shim = || gateway.shim(Some("claude-code"));
    let out = shim()
        .run(payloads::claude_bash("terraform destroy -auto-approve"))
        .await;
    assert_claude_deny(
        &out,
        "PreToolUse",
        "LAYERED: terraform destroy needs a human",
    );
    // The default's rules are still there.
    let out = shim().run(payloads::claude_bash("rm -rf ~")).await;
    assert_claude_deny(&out, "PreToolUse", "recursive delete");
    let out = shim().run(payloads::claude_bash("cat .env")).await;
    assert_claude_deny(&out, "PreToolUse", "reading a secrets file");

    // And so is the default's audit log, with the three denies in it.
    let until = tokio::time::Instant::now() + EVENTUALLY;
    let lines = loop {
        let lines = audit_lines(&gateway.audit_log());
        if lines.len() >= 3 {
            break lines;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "no audit log at {}: {}",
            gateway.audit_log().display(),
            gateway.stderr()
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    let denied: Vec<&str> = lines
        .iter()
        .filter(|l| l["decision"]["permission"] == "deny")
        .filter_map(|l| l["payload"]["tool_input"]["command"].as_str())
        .collect();
    assert_eq!(
        denied,
        ["terraform destroy -auto-approve", "rm -rf ~", "cat .env"]
    );

    let doc = gateway.status_json().await;
    let layers: Vec<(&str, &str)> = doc["subscribers"]
        .as_array()
        .expect("subscribers")
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap_or(""),
                s["layer"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        layers,
        [
            ("audit", "default"),
            ("guard", "default"),
            ("self-protection", "default")
        ],
        "{doc:#}"
    );
}

fn audit_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// `gateway ARGS` with `$HOME` and the XDG directories in `home` and no
/// system config: exit code, stdout, stderr.
fn gateway_in(home: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(&binaries().gateway)
        .args(args)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("HOOKGATE_SYSTEM_CONFIG", home.join("no-system.toml"))
        .output()
        .expect("run the gateway binary");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn config_init_show_and_check_through_the_binary() {
    let dir = private_dir();
    let home = dir.path();
    let user_config = home.join("config/hookgate/gateway.toml");

    let (code, out, err) = gateway_in(home, &["config", "init"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let written = std::fs::read_to_string(&user_config).expect("init wrote the user config");
    assert!(written.contains("# [[subscriber.rules]]"), "{written}");
    // Never over an existing file.
    std::fs::write(&user_config, ONE_RULE).unwrap();
    let (code, _, err) = gateway_in(home, &["config", "init"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("not overwritten"), "{err}");
    assert_eq!(std::fs::read_to_string(&user_config).unwrap(), ONE_RULE);

    let (code, out, err) = gateway_in(home, &["config", "show"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("default+user"), "{out}");
    assert!(
        out.contains("(1 user)") || out.contains(", 1 user)"),
        "{out}"
    );
    let (code, out, err) = gateway_in(home, &["config", "show", "--effective"]);
    assert_eq!(code, Some(0), "{err}");
    let rule = out
        .lines()
        .skip_while(|l| !l.contains("terraform-destroy"))
        .collect::<Vec<_>>();
    assert!(!rule.is_empty(), "{out}");
    let header = out
        .lines()
        .take_while(|l| !l.contains("id = \"terraform-destroy\""))
        .last()
        .unwrap_or_default();
    assert!(header.ends_with("# user"), "{header}\n{out}");
    assert!(out.contains("id = \"env-read\""), "{out}");

    let bad = home.join("bad.toml");
    std::fs::write(
        &bad,
        "[[subscriber]]\nname = \"guard\"\n\n[[subscriber.rules]]\ncommand = [\"rm\"]\noperand = '('\nreason = \"r\"\n",
    )
    .unwrap();
    let (code, out, err) = gateway_in(home, &["config", "check", bad.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        err.contains(&format!(
            "{}:6:11: `subscriber[0].rules[0].operand`",
            bad.display()
        )),
        "{err}"
    );
    let (code, out, err) = gateway_in(home, &["config", "check", user_config.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("valid (2 subscribers: guard, audit)"), "{out}");
}
