//! The small pieces the real-agent tests and their scenarios
//! ([`crate::scenario`]) build on: starting runs and gateways, shell words,
//! reading subscriber events, the dead socket and the shim's fallback
//! record.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::AgentRun;
use hookgate_integration_tests::{SubscriberEntry, TestGateway, TestSubscriber, config_toml};
use hookgate_proto::v1::{EventKind, HookEvent, ToolClass};

/// How long an observe subscriber may take to receive an event the agent
/// already moved past (generous: loaded 2-core machines).
pub(crate) const EVENTUALLY: Duration = Duration::from_secs(15);

/// A run of `agent` against this package's fake model.
pub(crate) fn run(agent: Dialect) -> AgentRun {
    AgentRun::new(agent, Path::new(env!("CARGO_BIN_EXE_fake-model")))
}

/// A gateway whose config lists `entries`.
pub(crate) async fn gateway(entries: &[SubscriberEntry]) -> TestGateway {
    TestGateway::start(&config_toml(entries)).await
}

/// `path` as a shell word (the scripted commands quote their markers).
pub(crate) fn quoted(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

/// `touch <path>`.
pub(crate) fn touch(path: &Path) -> String {
    format!("touch {}", quoted(path))
}

/// The events of `kind` among `events`.
pub(crate) fn of_kind(events: &[HookEvent], kind: EventKind) -> Vec<&HookEvent> {
    events.iter().filter(|e| e.kind() == kind).collect()
}

/// The one shell pre-tool-use event among `events`, checked to carry
/// `command` as the agent's real payload said.
pub(crate) fn the_shell_call<'a>(events: &'a [HookEvent], command: &str) -> &'a HookEvent {
    let calls = of_kind(events, EventKind::PreToolUse);
    assert_eq!(
        calls.len(),
        1,
        "exactly one pre-tool-use event expected, got {events:#?}"
    );
    let tool = calls[0]
        .tool
        .as_ref()
        .expect("a pre-tool-use event has a tool");
    assert_eq!(tool.class(), ToolClass::Shell, "{tool:?}");
    assert_eq!(tool.command.as_deref(), Some(command), "{tool:?}");
    calls[0]
}

/// Polls `subscriber` until one of its events satisfies `found`, up to
/// [`EVENTUALLY`]; panics with what it received otherwise.
pub(crate) async fn eventually(
    subscriber: &TestSubscriber,
    what: &str,
    found: impl Fn(&HookEvent) -> bool,
) -> HookEvent {
    let until = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        if let Some(event) = subscriber.events().into_iter().find(|e| found(e)) {
            return event;
        }
        if tokio::time::Instant::now() >= until {
            panic!(
                "no event {what} within {EVENTUALLY:?}; received {:#?}",
                subscriber.events()
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A socket path where no gateway listens, in a private directory of the
/// run (so the shim may keep its fallback record next to it).
pub(crate) fn dead_socket(run: &AgentRun) -> PathBuf {
    let dir = run.dir().join("gateway");
    std::fs::create_dir(&dir).expect("create the socket dir");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))
        .expect("chmod the socket dir");
    dir.join("gateway.sock")
}

/// The reasons the shim recorded for answering without the gateway
/// (`<socket>.fallbacks`: one `<unix secs> <reason> <fail mode>` line per
/// fallback).
pub(crate) fn fallback_reasons(socket: &Path) -> Vec<String> {
    let mut record = socket.as_os_str().to_owned();
    record.push(".fallbacks");
    std::fs::read_to_string(PathBuf::from(record))
        .unwrap_or_default()
        .lines()
        // `<unix seconds> <reason> <fail mode>`: the reason.
        .filter_map(|line| line.split(' ').nth(1).map(str::to_owned))
        .collect()
}
