//! Cline's hooks: one bash script per event, named after the event, in a
//! hooks directory. Cline starts each as `bash <file>` (never exec, so the
//! shim itself cannot be the file); hookgate's script `exec`s the shim
//! through `env`, which sets the command's variables.
//! A file of that name that is not hookgate's is left alone and reported;
//! so is one install cannot read (a link to nothing, another user's file):
//! the other events are hooked all the same. A hook file that is a symlink
//! (a dotfiles manager's) is read and written through the link.

use std::path::Path;

use hookgate_adapters::Agent;

use super::change::{self, Change};
use super::command::{self, HookCommand};
use super::hold::Hold;

/// The line that marks a hook script as hookgate's.
const MARKER: &str = "# hookgate: installed by `gateway install`; `gateway uninstall` removes it.";

/// What runs the command line: bash's `exec` takes no `NAME=value`
/// words (it would look for a program called `HOOKGATE_SOCKET=…`), `env`
/// does, then becomes the shim.
const EXEC: &str = "exec /usr/bin/env ";

/// The script for `agent`'s hooks, taking holds of up to `hold_max_ms`
/// (an event an `approval` can hold; Cline has no per-hook timeout to
/// raise).
pub(crate) fn script(command: &HookCommand, agent: Agent, hold_max_ms: Option<u64>) -> String {
    let line = command.line_for(agent, None, None, hold_max_ms);
    format!("#!/bin/bash\n{MARKER}\n{EXEC}{line}\n")
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

/// An event left unhooked, with why (`path` is its hook file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Skipped {
    pub(crate) event: String,
    pub(crate) path: std::path::PathBuf,
    pub(crate) why: String,
}

/// The changes that install hookgate's script for each event in `dir`,
/// and the events skipped (a file of the user's is there, or one that
/// cannot be read).
pub(crate) fn install(
    dir: &Path,
    events: &[&str],
    command: &HookCommand,
    agent: Agent,
    hold: Option<&Hold>,
) -> (Vec<Change>, Vec<Skipped>) {
    let mut changes = Vec::new();
    let mut skipped = Vec::new();
    for event in events {
        let held = hold.filter(|_| super::hold::held_events(agent).contains(event));
        let text = script(command, agent, held.map(Hold::shim_max_ms));
        let link = dir.join(event);
        let path = change::resolve(&link);
        let skip = |why: String| Skipped {
            event: (*event).to_owned(),
            path: link.clone(),
            why,
        };
        match change::read(&path) {
            Err(err) => skipped.push(skip(format!("cannot be read ({err:#})"))),
            Ok(Some(before)) if !is_ours(&before) => {
                skipped.push(skip("is not hookgate's".to_owned()));
            }
            Ok(before) => changes.push(Change {
                path,
                before,
                after: Some(text),
                executable: true,
            }),
        }
    }
    (changes, skipped)
}

/// The changes that remove every hookgate script among `events` in `dir`
/// (through a link, as install wrote it), and the files that could not be
/// read.
pub(crate) fn uninstall(dir: &Path, events: &[&str]) -> (Vec<Change>, Vec<Skipped>) {
    let mut changes = Vec::new();
    let mut skipped = Vec::new();
    for event in events {
        let link = dir.join(event);
        let path = change::resolve(&link);
        match change::read(&path) {
            Ok(Some(before)) if is_ours(&before) => changes.push(Change {
                path,
                before: Some(before),
                after: None,
                executable: true,
            }),
            Ok(_) => {}
            Err(err) => skipped.push(Skipped {
                event: (*event).to_owned(),
                path: link,
                why: format!("cannot be read ({err:#})"),
            }),
        }
    }
    (changes, skipped)
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
        let text = script(&command, Agent::Cline, None);
        assert!(text.starts_with("#!/bin/bash\n"));
        assert!(is_ours(&text));
        assert_eq!(
            command_of(&text),
            Some(command.line_for(Agent::Cline, None, None, None).as_str())
        );
        assert!(!is_ours("#!/bin/bash\nexec my-hook\n"));
    }
}
