//! The HTTP hook endpoint against another local user (Linux, as root: the
//! other user is `nobody`, through `setpriv` or a thread of this process
//! switched to it, `foreign`): its connection is refused even with the
//! token, its connection flood takes no place of this user's calls, and a
//! port it holds before the gateway starts is named, with what to do, while
//! the socket is still served.

use hookgate_integration_tests::http_hook::{HTTP_SECTION, HttpClient};
use hookgate_integration_tests::{TestGateway, payloads};

use crate::http_hook::{events, guard, guarded, http_refused};
use crate::support::{AS_NOBODY, cannot_switch_users};

/// Another user's connection is refused even with the token (Linux: the
/// client socket's owner in /proc/net/tcp). Needs root to run the client
/// as `nobody`, and curl; skipped with a printed reason otherwise.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_users_connection_is_refused_even_with_the_token() {
    if let Some(reason) = cannot_switch_users() {
        eprintln!("SKIPPED another_users_connection_is_refused_even_with_the_token: {reason}");
        return;
    }
    if std::process::Command::new("curl")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("SKIPPED another_users_connection_is_refused_even_with_the_token: no curl");
        return;
    }
    let (gateway, endpoint) = guarded().await;
    let curl = |wrapper: &[&str]| {
        let mut args: Vec<String> = wrapper.iter().map(|s| (*s).to_owned()).collect();
        args.extend(
            [
                "curl",
                "-sS",
                "-o",
                "/dev/stdout",
                "-w",
                "\n%{http_code}",
                "-H",
                &format!("Authorization: Bearer {}", endpoint.token),
                "--data-binary",
                &payloads::claude_bash("rm -rf build"),
                &endpoint.url("claude-code"),
            ]
            .map(str::to_owned),
        );
        let out = std::process::Command::new(&args[0])
            .args(&args[1..])
            .output()
            .unwrap();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (stdout, stderr) = curl(&AS_NOBODY);
    assert!(
        !stdout.contains("deny") && !stdout.ends_with("200"),
        "nobody was answered: {stdout} {stderr}"
    );
    let (stdout, stderr) = curl(&[]);
    assert!(
        stdout.contains("deny") && stdout.ends_with("200"),
        "this user was not answered: {stdout} {stderr}"
    );
    let doc = gateway.status_json().await;
    assert_eq!(http_refused(&doc, "foreign_uid"), 1, "{doc:#}");
    assert_eq!(events(&doc), 1, "{doc:#}");
}

/// Another user floods the HTTP port with connections while this user's
/// hooks call: each foreign connection is checked before it takes an
/// open-connection place, closed at once and counted, so every one of
/// this user's calls is answered (a place taken first would have let the
/// flood crowd them out, and a failed HTTP hook lets the call go ahead).
/// Needs root, to connect as `nobody`; skipped with a printed reason
/// otherwise.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_users_flood_takes_no_place_of_this_users_calls() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

    if let Some(reason) = cannot_switch_users() {
        eprintln!("SKIPPED another_users_flood_takes_no_place_of_this_users_calls: {reason}");
        return;
    }
    // Two places only: two foreign connections holding one would be enough
    // to turn this user's next connection away.
    let config = guard().replace(
        HTTP_SECTION,
        &format!("{HTTP_SECTION}max_open_connections = 2\n"),
    );
    let gateway = TestGateway::start(&config).await;
    let endpoint = gateway.http_endpoint().await;
    let stop = Arc::new(AtomicBool::new(false));
    let made = Arc::new(AtomicU64::new(0));
    let flooders: Vec<_> = (0..3)
        .map(|_| {
            let (stop, made, addr) = (Arc::clone(&stop), Arc::clone(&made), endpoint.addr);
            crate::foreign::spawn_as_nobody(move || {
                // Bursts of connections, each held until the gateway closes
                // it (a client gone first would leave only a TIME_WAIT
                // row, owned by no one); bounded so the tables stay small.
                while !stop.load(Ordering::Relaxed) && made.load(Ordering::Relaxed) < 30_000 {
                    let burst: Vec<_> = (0..16)
                        .filter_map(|_| std::net::TcpStream::connect(addr).ok())
                        .collect();
                    made.fetch_add(burst.len() as u64, Ordering::Relaxed);
                    for mut stream in burst {
                        use std::io::Read as _;
                        let _ = stream.set_read_timeout(Some(std::time::Duration::from_secs(2)));
                        let _ = stream.read(&mut [0u8; 64]);
                    }
                }
            })
        })
        .collect();
    // The flood is on before the first call.
    while made.load(Ordering::Relaxed) < 200 {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let payload = payloads::claude_bash("rm -rf build");
    let mut failures = Vec::new();
    for call in 0..20 {
        // Each call's connection closed before the next: with two places,
        // two of this user's connections the gateway had not yet seen end
        // would turn the next away, flood or not.
        let answered = async {
            let mut client = HttpClient::connect(endpoint.addr).await?;
            let response = client
                .post_hook(&endpoint, "/hook/claude-code", payload.as_bytes())
                .await?;
            client.close().await?;
            Ok::<_, std::io::Error>(response)
        };
        match answered.await {
            Ok(response)
                if response.status == 200
                    && response.json()["hookSpecificOutput"]["permissionDecision"] == "deny" => {}
            Ok(response) => failures.push(format!(
                "call {call}: {} {}",
                response.status,
                response.text()
            )),
            Err(err) => failures.push(format!("call {call}: {err}")),
        }
    }
    stop.store(true, Ordering::Relaxed);
    for flooder in flooders {
        flooder.join().expect("a flooder");
    }
    let doc = gateway.status_json().await;
    assert!(
        failures.is_empty(),
        "this user's calls failed under the flood: {failures:#?}\n{:#}",
        doc["http_refused"]
    );
    assert!(
        http_refused(&doc, "foreign_uid") >= 100,
        "the flood's {} connections were not refused as another user's: {doc:#}",
        made.load(Ordering::Relaxed)
    );
    assert_eq!(http_refused(&doc, "too_many_connections"), 0, "{doc:#}");
    assert_eq!(events(&doc), 20, "{doc:#}");
}

/// The HTTP port taken by another user before the gateway starts: the
/// gateway names who holds it and what to do, and still serves its socket,
/// so the squatter, which gets the HTTP hooks whether the gateway runs or
/// not, cannot take the command hooks down too. Needs root, to listen as
/// `nobody`; skipped with a printed reason otherwise.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_port_another_user_holds_is_named_and_the_socket_still_served() {
    if let Some(reason) = cannot_switch_users() {
        eprintln!(
            "SKIPPED a_port_another_user_holds_is_named_and_the_socket_still_served: {reason}"
        );
        return;
    }
    let squatter = crate::foreign::as_nobody(|| std::net::TcpListener::bind("127.0.0.1:0"))
        .expect("nobody listens on a port");
    let addr = squatter.local_addr().unwrap();
    let config = guard().replace(HTTP_SECTION, &format!("[http]\nlisten = \"{addr}\"\n"));
    let gateway = TestGateway::start(&config).await;
    let (nobody, _) = crate::support::nobody_ids().expect("checked above");
    let named = format!(
        "cannot serve HTTP hooks on {addr}: another user (uid {nobody} (nobody)) is listening there"
    );
    let logged = gateway
        .wait_for_stderr(crate::support::EVENTUALLY, |log| {
            log.contains(&named)
                && log.contains("do not use HTTP hooks until it is freed")
                && log.contains("gateway install --transport http --service")
        })
        .await;
    assert!(logged, "the holder was not named:\n{}", gateway.stderr());
    // The shims' socket is served: the guard answers a command hook.
    let out = gateway
        .shim(Some("claude-code"))
        .run(payloads::claude_bash("rm -rf build"))
        .await;
    crate::support::assert_claude_deny(&out, "PreToolUse", "HG-HTTP-GUARD");
    let doc = gateway.status_json().await;
    assert!(doc["http_addr"].is_null(), "{doc:#}");
    drop(squatter);
}
