//! The desktop notification: `notify-send` (Linux, from PATH) or
//! `osascript` (macOS), with the title and text as arguments of their own,
//! never through a shell or inside a script's text, and killed past
//! [`LIMIT`]. Off unless the approval says `desktop = true`.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long the program may run.
const LIMIT: Duration = Duration::from_secs(5);
/// How often the thread looks whether it ended.
const POLL: Duration = Duration::from_millis(20);

/// Shows `title` and `text`; `Err` says why not.
pub(super) fn show(title: &str, text: &str) -> Result<(), String> {
    let mut command = program(title, text);
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let mut child = command
        .spawn()
        .map_err(|err| format!("cannot run {:?}: {err}", command.get_program()))?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => return Ok(()),
            Ok(Some(status)) => return Err(format!("the notifier exited with {status}")),
            Ok(None) if started.elapsed() >= LIMIT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("the notifier ran past {} s", LIMIT.as_secs()));
            }
            Ok(None) => std::thread::sleep(POLL),
            Err(err) => return Err(format!("waiting for the notifier: {err}")),
        }
    }
}

#[cfg(target_os = "macos")]
fn program(title: &str, text: &str) -> Command {
    // The script reads both from its arguments: no quoting in its text.
    let mut command = Command::new("osascript");
    command.args([
        "-e",
        "on run argv",
        "-e",
        "display notification (item 2 of argv) with title (item 1 of argv)",
        "-e",
        "end run",
        title,
        text,
    ]);
    command
}

#[cfg(not(target_os = "macos"))]
fn program(title: &str, text: &str) -> Command {
    let mut command = Command::new("notify-send");
    command.args(["--app-name=hookgate", "--", title, text]);
    command
}
