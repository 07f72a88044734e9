//! The built-in `rego` subscriber through the real shim and gateway: a
//! policy file denying `terraform destroy` on every agent's shell tool,
//! with its revision in the decision log; a policy the managed layer
//! locks; a policy on the commands as the guard parses them; and an OPA bundle served by a plain HTTP server (Python's
//! `http.server`, spawned here): fetched, verified, enforced, updated
//! without a restart, a tampered, unsigned or rolled-back bundle refused
//! and counted while the last good one keeps deciding, and an offline
//! restart enforcing the cached bundle.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use hookgate_integration_tests::{TestGateway, private_dir};
use hookgate_policy::bundle::{Algorithm, archive, sign::sign};
use serde_json::Value;

use crate::guard_corpus::blocked;
use crate::support::{Dialect, EVENTUALLY, UnderTest};

const POLICY: &str = r#"package hookgate

decision := {"permission": "deny", "reason": "no terraform destroy (policy)"} if {
    input.tool.class == "shell"
    regex.match(`(^|[\s;&|(])terraform\s+destroy\b`, input.tool.command)
}
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_policy_file_denies_terraform_destroy_on_every_agents_shell_tool() {
    let dir = private_dir();
    std::fs::write(dir.path().join("terraform.rego"), POLICY).expect("rego test setup");
    let audit = dir.path().join("audit.jsonl");
    let config = format!(
        "[[subscriber]]\nname = \"policy\"\nbuiltin = \"rego\"\npolicy = [\"*.rego\"]\n\n\
         [[subscriber]]\nname = \"audit\"\nbuiltin = \"audit\"\npath = {audit:?}\n"
    );
    let gateway = TestGateway::start_in(dir, &config, &[]).await;
    for dialect in Dialect::ALL {
        let out = gateway
            .shim(Some(dialect.arg()))
            .run(&dialect.shell_payload("cd infra && terraform destroy -auto-approve"))
            .await;
        let reason =
            blocked(dialect, &out).unwrap_or_else(|| panic!("{dialect:?} not blocked: {out}"));
        assert!(
            reason.contains("no terraform destroy (policy)"),
            "{dialect:?}: {reason}"
        );
        let out = gateway
            .shim(Some(dialect.arg()))
            .run(&dialect.shell_payload("terraform plan"))
            .await;
        assert_eq!(blocked(dialect, &out), None, "{dialect:?}: {out}");
    }
    // Each decision names the policy revision that made it.
    let lines = eventually_lines(&audit, 2 * Dialect::ALL.len()).await;
    let revisions: Vec<&str> = lines
        .iter()
        .filter_map(|l| {
            let subs = l["subscribers"].as_array()?;
            let policy = subs.iter().find(|s| s["name"] == "policy")?;
            policy["revision"].as_str()
        })
        .collect();
    assert_eq!(revisions.len(), lines.len(), "{lines:?}");
    assert!(
        revisions
            .iter()
            .all(|r| r.starts_with("sha256:") && *r == revisions[0])
    );
    let status = gateway.status_json().await;
    assert_eq!(policy_of(&status)["revision"], revisions[0]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_system_policy_stays_whatever_the_user_config_says() {
    let dir = private_dir();
    let policy = dir.path().join("org.rego");
    std::fs::write(&policy, POLICY).expect("rego test setup");
    let system = format!(
        "[[subscriber]]\nname = \"policy\"\nbuiltin = \"rego\"\npolicy = [{policy:?}]\nlocked = true\n"
    );
    let user = "[[subscriber]]\nname = \"policy\"\nenabled = false\n";
    std::fs::write(TestGateway::system_config_in(dir.path()), system).expect("rego test setup");
    let gateway = TestGateway::start_in(dir, user, &[]).await;
    let dialect = Dialect::ClaudeCode;
    let out = gateway
        .shim(Some(dialect.arg()))
        .run(&dialect.shell_payload("terraform destroy"))
        .await;
    assert!(
        blocked(dialect, &out).is_some_and(|r| r.contains("(policy)")),
        "{out}"
    );
}

/// A policy on `input.tool.commands` (the guard's parse of the line) sees
/// through wrappers and quoting that matching the text misses, and not a
/// command that only mentions the words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_policy_reads_the_commands_as_the_guard_parses_them() {
    let policy = r#"package hookgate

decision := {"permission": "deny", "reason": sprintf("no terraform destroy in %s", [c.cwd])} if {
    input.tool.commands_resolved
    some c in input.tool.commands
    c.name == "terraform"
    c.operands[0] == "destroy"
    "-auto-approve" in c.args
}
"#;
    let dir = private_dir();
    std::fs::write(dir.path().join("commands.rego"), policy).expect("rego test setup");
    let config = "[[subscriber]]\nname = \"policy\"\nbuiltin = \"rego\"\npolicy = [\"*.rego\"]\n";
    let gateway = TestGateway::start_in(dir, config, &[]).await;
    let dialect = Dialect::ClaudeCode;
    let run = |line: &'static str| {
        let shim = gateway.shim(Some(dialect.arg()));
        async move { shim.run(&dialect.shell_payload(line)).await }
    };
    let out = run("cd infra && sudo sh -c '/usr/bin/terraform destroy -auto-approve'").await;
    let reason = blocked(dialect, &out).unwrap_or_else(|| panic!("not blocked: {out}"));
    assert!(
        reason.ends_with("destroy in /home/dev/acme-api/infra"),
        "{reason}"
    );
    let out = run("terraform destroy $(echo -auto-approve)").await;
    assert!(blocked(dialect, &out).is_some(), "not blocked: {out}");
    for allowed in [
        "echo terraform destroy -auto-approve",
        "terraform destroy",
        // What the file holds is unknown: the commands are not resolved,
        // and this policy asks for resolved ones. (`$(echo -auto-approve)`
        // is resolved: the guard's parser evaluates a literal echo.)
        "terraform destroy $(cat flags.txt)",
    ] {
        let out = run(allowed).await;
        assert_eq!(blocked(dialect, &out), None, "{allowed}: {out}");
    }
}

/// A signed (or not) bundle whose policy's reason names its revision.
fn bundle(revision: &str, key: Option<&rcgen::KeyPair>, tamper: bool) -> Vec<u8> {
    let policy = POLICY.replace("(policy)", &format!("(revision {revision})"));
    let mut files = vec![
        ("hookgate/policy.rego".to_owned(), policy.into_bytes()),
        (
            ".manifest".to_owned(),
            format!(r#"{{"revision": "{revision}", "roots": ["hookgate"]}}"#).into_bytes(),
        ),
    ];
    if let Some(key) = key {
        let signatures =
            sign(&files, Algorithm::Es256, &key.serialize_pem(), "ops").expect("rego test setup");
        files.push((".signatures.json".to_owned(), signatures.into_bytes()));
    }
    if tamper {
        files[0].1 = b"package hookgate\n".to_vec();
    }
    archive(&files).expect("rego test setup")
}

/// Python's `http.server` on a free loopback port serving `dir`.
struct StaticServer {
    /// Killed when dropped.
    _child: tokio::process::Child,
    port: u16,
}

impl StaticServer {
    async fn start(dir: &Path) -> StaticServer {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .expect("rego test setup")
            .local_addr()
            .expect("rego test setup")
            .port();
        let child = tokio::process::Command::new("python3")
            .args([
                "-m",
                "http.server",
                "--bind",
                "127.0.0.1",
                &port.to_string(),
            ])
            .current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("python3 -m http.server");
        let deadline = tokio::time::Instant::now() + EVENTUALLY;
        while tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err()
        {
            assert!(
                tokio::time::Instant::now() < deadline,
                "http.server did not start"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        StaticServer {
            _child: child,
            port,
        }
    }
}

fn policy_of(status: &Value) -> &Value {
    let subs = status["subscribers"].as_array().expect("subscribers");
    &subs
        .iter()
        .find(|s| s["name"] == "policy")
        .expect("policy subscriber")["policy"]
}

/// Waits until the policy's status satisfies `done`; returns it.
async fn status_until(gateway: &TestGateway, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        let status = gateway.status_json().await;
        let policy = policy_of(&status).clone();
        if done(&policy) {
            return policy;
        }
        assert!(tokio::time::Instant::now() < deadline, "{what}: {policy}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn reason(gateway: &TestGateway) -> Option<String> {
    let dialect = Dialect::ClaudeCode;
    let out = gateway
        .shim(Some(dialect.arg()))
        .run(&dialect.shell_payload("terraform destroy"))
        .await;
    blocked(dialect, &out)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signed_bundle_is_fetched_enforced_updated_and_guarded() {
    let key =
        rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).expect("rego test setup");
    let site = tempfile::tempdir().expect("rego test setup");
    let served = site.path().join("bundle.tar.gz");
    let publish = |bytes: Vec<u8>| {
        // Written aside and renamed: the server never sends half a file.
        let tmp = site.path().join("next.tmp");
        std::fs::write(&tmp, bytes).expect("rego test setup");
        std::fs::rename(&tmp, &served).expect("rego test setup");
    };
    publish(bundle("1", Some(&key), false));
    let server = StaticServer::start(site.path()).await;
    let keys = tempfile::tempdir().expect("rego test setup");
    let key_file = keys.path().join("ops.pem");
    std::fs::write(&key_file, key.public_key_pem()).expect("rego test setup");
    let state = private_dir();
    let config = format!(
        "[server]\nmetrics_addr = \"127.0.0.1:0\"\n\n\
         [[subscriber]]\nname = \"policy\"\nbuiltin = \"rego\"\non_error = \"deny\"\n\
         bundle = \"http://127.0.0.1:{}/bundle.tar.gz\"\nbundle_poll_ms = 200\n\
         bundle_key_file = {key_file:?}\nbundle_key_alg = \"ES256\"\n",
        server.port
    );
    let env = [(
        "XDG_STATE_HOME",
        state.path().to_str().expect("rego test setup"),
    )];
    let gateway = TestGateway::start_with_env(&config, &env).await;

    status_until(&gateway, "revision 1 loaded", |p| p["revision"] == "1").await;
    assert!(
        reason(&gateway)
            .await
            .is_some_and(|r| r.contains("(revision 1)"))
    );

    // A newer bundle is picked up without a restart.
    publish(bundle("2", Some(&key), false));
    status_until(&gateway, "revision 2 loaded", |p| p["revision"] == "2").await;
    assert!(
        reason(&gateway)
            .await
            .is_some_and(|r| r.contains("(revision 2)"))
    );

    // Tampered, unsigned, rolled back: each refused and counted, with a
    // clear reason, while revision 2 keeps deciding.
    let cases = [
        (bundle("3", Some(&key), true), "digest mismatch"),
        (bundle("4", None, false), "unsigned"),
        (bundle("1", Some(&key), false), "not newer"),
    ];
    for (refused, (bytes, why)) in cases.into_iter().enumerate() {
        publish(bytes);
        let policy = status_until(&gateway, why, |p| {
            p["last_fetch"].as_str().is_some_and(|f| f.contains(why))
        })
        .await;
        // Refused once, however often the server sends it again.
        tokio::time::sleep(Duration::from_millis(600)).await;
        let policy_now = policy_of(&gateway.status_json().await).clone();
        assert_eq!(
            policy_now["refused"].as_u64(),
            Some(refused as u64 + 1),
            "{policy_now}"
        );
        assert_eq!(policy["revision"], "2", "{policy}");
        assert!(
            reason(&gateway)
                .await
                .is_some_and(|r| r.contains("(revision 2)")),
            "{why}"
        );
    }
    // The same counts on the Prometheus endpoint, beside the revision.
    let status = gateway.status_json().await;
    let addr = status["metrics_addr"]
        .as_str()
        .expect("metrics_addr is set");
    let text = crate::status::scrape(addr).await;
    let fetches = "hookgate_policy_bundle_fetches_total{subscriber=\"policy\"";
    for line in [
        "hookgate_policy_info{subscriber=\"policy\",revision=\"2\"} 1".to_owned(),
        format!("{fetches},result=\"updated\"}} 2"),
        format!("{fetches},result=\"refused\"}} 3"),
    ] {
        assert!(text.lines().any(|l| l == line), "{line} not in:\n{text}");
    }
    drop(gateway);

    // Offline: no server, a new gateway, the cached bundle still enforced.
    drop(server);
    let gateway = TestGateway::start_with_env(&config, &env).await;
    let policy = status_until(&gateway, "cached revision 2", |p| p["revision"] == "2").await;
    assert!(
        reason(&gateway)
            .await
            .is_some_and(|r| r.contains("(revision 2)")),
        "{policy}"
    );
    status_until(&gateway, "the failed fetch shown", |p| {
        p["last_fetch"]
            .as_str()
            .is_some_and(|f| f.starts_with("failed"))
    })
    .await;
}

/// The audit log's lines once there are `count`.
async fn eventually_lines(path: &Path, count: usize) -> Vec<Value> {
    let deadline = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let lines: Vec<Value> = text
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        if lines.len() >= count {
            return lines;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{} of {count} lines",
            lines.len()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
