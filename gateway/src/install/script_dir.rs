//! Cline's hooks: one bash script per event, named after the event, in a
//! hooks directory. Cline starts each as `bash <file>` (never exec, so the
//! shim itself cannot be the file); hookgate's script `exec`s the shim
//! through `env`, which sets the command's variables.
//! A file of that name that is not hookgate's is left alone and reported.

use std::path::Path;

use hookgate_adapters::Agent;

use super::change::{self, Change};
use super::command::{self, HookCommand};

/// The line that marks a hook script as hookgate's.
const MARKER: &str = "# hookgate: installed by `gateway install`; `gateway uninstall` removes it.";

/// What runs the command line: bash's `exec` takes no `NAME=value`
/// words (it would look for a program called `HOOKGATE_SOCKET=…`), `env`
/// does, then becomes the shim.
const EXEC: &str = "exec /usr/bin/env ";

/// The script for `agent`'s hooks.
pub(crate) fn script(command: &HookCommand, agent: Agent) -> String {
    format!("#!/bin/bash\n{MARKER}\n{EXEC}{}\n", command.line(agent))
}

/// Whether a hook file's text is hookgate's script.
pub(crate) fn is_ours(text: &str) -> bool {
    text.lines().any(|line| line == MARKER)
}

/// The hookgate command a script runs.
pub(crate) fn command_of(text: &str) -> Option<&str> {
    text.lines()
        .find_map(|line| line.strip_prefix(EXEC))
        .filter(|line| command::is_ours(line))
}

/// The changes that install hookgate's script for each event in `dir`,
/// and the events skipped because a file of the user's is there.
pub(crate) fn install(
    dir: &Path,
    events: &[&str],
    command: &HookCommand,
    agent: Agent,
) -> anyhow::Result<(Vec<Change>, Vec<String>)> {
    let text = script(command, agent);
    let mut changes = Vec::new();
    let mut skipped = Vec::new();
    for event in events {
        let path = dir.join(event);
        let before = change::read(&path)?;
        if before.as_deref().is_some_and(|b| !is_ours(b)) {
            skipped.push((*event).to_owned());
            continue;
        }
        changes.push(Change {
            path,
            before,
            after: Some(text.clone()),
            executable: true,
        });
    }
    Ok((changes, skipped))
}

/// The changes that remove every hookgate script among `events` in `dir`.
pub(crate) fn uninstall(dir: &Path, events: &[&str]) -> anyhow::Result<Vec<Change>> {
    let mut changes = Vec::new();
    for event in events {
        let path = dir.join(event);
        if let Some(before) = change::read(&path)?
            && is_ours(&before)
        {
            changes.push(Change {
                path,
                before: Some(before),
                after: None,
                executable: true,
            });
        }
    }
    Ok(changes)
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    #[test]
    fn scripts_exec_the_pinned_shim_and_are_recognised() {
        let command = HookCommand {
            shim: PathBuf::from("/b/gateway-shim"),
            gateway: PathBuf::from("/b/gateway"),
            socket: PathBuf::from("/s.sock"),
            fail_closed: false,
        };
        let text = script(&command, Agent::Cline);
        assert!(text.starts_with("#!/bin/bash\n"));
        assert!(is_ours(&text));
        assert_eq!(command_of(&text), Some(command.line(Agent::Cline).as_str()));
        assert!(!is_ours("#!/bin/bash\nexec my-hook\n"));
    }
}
