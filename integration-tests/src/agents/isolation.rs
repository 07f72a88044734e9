//! Where an agent runs: in its own network and PID namespace when the
//! machine allows it, so nothing it does can leave loopback and nothing it
//! starts outlives it.
//!
//! `unshare --net --pid --fork --mount-proc --kill-child` (root only) gives
//! the agent a private network with just `lo`, brought up before anything
//! else runs; the fake model is the namespace's first process and the
//! agent its child. Unix sockets are filesystem objects, so the hooks still
//! reach the gateway outside. Where `unshare` is unavailable the agent runs
//! without it — a note is printed, the test still runs (its CLI settings
//! keep it offline, but the guarantee is weaker).

use std::path::Path;
use std::process::{Command as StdCommand, Stdio};
use std::sync::OnceLock;

use tokio::process::Command;

/// Brings `lo` up, then becomes the command given as its arguments.
const LOOPBACK_UP: &str = r#"ip link set lo up && exec "$@""#;

/// How agents are isolated on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Isolation {
    /// Private network (loopback only) and PID namespaces.
    Namespaces,
    /// None: the namespaces could not be created, for this reason.
    Unavailable(String),
}

static ISOLATION: OnceLock<Isolation> = OnceLock::new();

/// Probed once per test process; the note about a missing namespace is
/// printed then.
pub fn isolation() -> &'static Isolation {
    ISOLATION.get_or_init(|| {
        let isolation = probe();
        if let Isolation::Unavailable(reason) = &isolation {
            eprintln!(
                "note: real agents run WITHOUT a private network namespace here ({reason}); \
                 they are kept offline by their settings only"
            );
        }
        isolation
    })
}

fn probe() -> Isolation {
    let output = StdCommand::new("timeout")
        .arg("20")
        .args(unshare_args())
        .args(["sh", "-c", LOOPBACK_UP, "sh", "true"])
        .stdin(Stdio::null())
        .output();
    match output {
        Ok(out) if out.status.success() => Isolation::Namespaces,
        Ok(out) => Isolation::Unavailable(format!(
            "`unshare --net --pid` failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Err(err) => Isolation::Unavailable(format!("cannot run unshare: {err}")),
    }
}

fn unshare_args() -> [&'static str; 7] {
    [
        "unshare",
        "--net",
        "--pid",
        "--fork",
        "--mount-proc",
        "--kill-child",
        "--",
    ]
}

impl Isolation {
    /// A command running `program args` as the first process of a fresh
    /// namespace (or directly, without isolation).
    pub fn command(&self, program: &Path, args: &[String]) -> Command {
        match self {
            Isolation::Namespaces => {
                let [unshare, rest @ ..] = unshare_args();
                let mut command = Command::new(unshare);
                command
                    .args(rest)
                    .args(["sh", "-c", LOOPBACK_UP, "sh"])
                    .arg(program)
                    .args(args);
                command
            }
            Isolation::Unavailable(_) => {
                let mut command = Command::new(program);
                command.args(args);
                command
            }
        }
    }
}
