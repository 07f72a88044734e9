//! `gateway install --transport http` through the real binaries: the
//! handler it writes into Claude Code's settings is answered by the
//! running gateway exactly as written (URL, token header), the file holding
//! the token is private, a second install changes nothing, uninstall
//! removes it, and an agent without HTTP hooks is refused.

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::process::{Command, Output};

use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::http_hook::HttpClient;
use hookgate_integration_tests::{TestGateway, payloads};
use serde_json::Value;

const GUARD_REASON: &str = "HG-INSTALL-HTTP: no rm";

fn install(home: &Path, socket: &Path, extra: &[&str]) -> Output {
    let shim = binaries().shim.display().to_string();
    let socket = socket.display().to_string();
    let mut args = vec![
        "install",
        "--shim",
        &shim,
        "--socket",
        &socket,
        "--transport",
        "http",
    ];
    args.extend(extra);
    Command::new(&binaries().gateway)
        .args(&args)
        .env_clear()
        .env("HOME", home)
        .env("PATH", "/usr/bin:/bin")
        .output()
        .expect("run gateway install")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_installed_http_handler_is_answered_by_the_gateway() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let config = format!(
        "[http]\nlisten = \"127.0.0.1:{port}\"\n\n[[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\n\n\
         [[subscriber.rules]]\ncommand = [\"rm\"]\nreason = \"{GUARD_REASON}\"\n"
    );
    let gateway = TestGateway::start(&config).await;
    let home = tempfile::tempdir().unwrap();
    // The user's gateway config, which install reads for the address.
    let config_dir = home.path().join(".config/hookgate");
    std::fs::create_dir_all(&config_dir).unwrap();
    std::fs::write(config_dir.join("gateway.toml"), &config).unwrap();

    let out = install(home.path(), gateway.socket(), &["--agent", "claude-code"]);
    assert!(
        out.status.success(),
        "install failed: {}",
        text(&out.stderr)
    );
    let settings = home.path().join(".claude/settings.json");
    let mode = std::fs::metadata(&settings).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the settings hold the token");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    let handler = &doc["hooks"]["PreToolUse"][0]["hooks"][0];
    assert_eq!(handler["type"], "http", "{doc:#}");
    let url = handler["url"].as_str().unwrap();
    let path = url
        .strip_prefix(&format!("http://127.0.0.1:{port}"))
        .unwrap_or_else(|| panic!("not the gateway's address: {url}"));
    let auth = handler["headers"]["Authorization"].as_str().unwrap();
    let token = std::fs::read_to_string(gateway.dir().join("http.token")).unwrap();
    assert_eq!(auth, format!("Bearer {}", token.trim()));

    // The agent's request, as written: answered with the guard's deny.
    let mut client = HttpClient::connect(([127, 0, 0, 1], port).into())
        .await
        .unwrap();
    let payload = payloads::claude_bash("rm -rf build");
    let response = client
        .post(path, &[("Authorization", auth)], payload.as_bytes())
        .await
        .unwrap();
    assert_eq!(response.status, 200, "{}", response.text());
    assert_eq!(
        response.json()["hookSpecificOutput"]["permissionDecision"],
        "deny",
        "{}",
        response.text()
    );

    // A dry run prints the diff, but never the token (issue 25 §6).
    let dry = install(
        home.path(),
        gateway.socket(),
        &["--agent", "qwen-code", "--dry-run"],
    );
    assert!(dry.status.success(), "{}", text(&dry.stderr));
    let diff = text(&dry.stdout);
    assert!(diff.contains("\"Bearer <the HTTP token>\""), "{diff}");
    assert!(!diff.contains(token.trim()), "the token is printed: {diff}");

    let again = install(home.path(), gateway.socket(), &["--agent", "claude-code"]);
    assert!(
        text(&again.stdout).contains("nothing to change"),
        "{}",
        text(&again.stdout)
    );
    let out = Command::new(&binaries().gateway)
        .args(["uninstall", "--agent", "claude-code"])
        .env_clear()
        .env("HOME", home.path())
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!settings.exists(), "uninstall leaves what install created");

    let refused = install(home.path(), gateway.socket(), &["--agent", "cursor"]);
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr).contains("no HTTP hooks"),
        "{}",
        text(&refused.stderr)
    );
}
