//! Service managers aimed at the gateway: `systemctl` stopping, killing,
//! restarting or turning off one of its units (or `isolate`, which stops
//! them all), and `launchctl` booting out or unloading its agent.

use super::Processes;
use crate::pattern::UNKNOWN;
use crate::protect::operands::Certainty;
use crate::protect::targets::as_pattern;
use crate::shell::Word;

/// `systemctl` verbs that stop, kill, restart or turn off a unit.
const SYSTEMCTL_VERBS: &[&str] = &[
    "stop",
    "kill",
    "disable",
    "mask",
    "restart",
    "try-restart",
    "reload-or-restart",
    "try-reload-or-restart",
    "condrestart",
    "force-reload",
    "freeze",
    "edit",
    "revert",
    "set-property",
    "link",
    "preset",
    "clean",
];
/// `systemctl` options taking a value.
const SYSTEMCTL_VALUES: &[&str] = &[
    "-t",
    "-p",
    "-P",
    "-s",
    "-n",
    "-o",
    "-H",
    "-M",
    "--type",
    "--property",
    "--state",
    "--signal",
    "--kill-whom",
    "--kill-value",
    "--root",
    "--host",
    "--machine",
    "--what",
    "--lines",
    "--output",
    "--job-mode",
    "--preset-mode",
    "--timestamp",
    "--drop-in",
];

/// What `systemctl ARGS` does to the gateway's units, if anything.
pub(super) fn systemctl(
    args: &[Word],
    p: &Processes,
    mentioned: bool,
) -> Option<(Certainty, String)> {
    let mut words = args.iter();
    let mut operands = Vec::new();
    while let Some(word) = words.next() {
        let text = word.text.as_str();
        if SYSTEMCTL_VALUES.contains(&text) {
            words.next();
        } else if !text.starts_with('-') || !word.known() {
            operands.push(word);
        }
    }
    let (verb, units) = operands.split_first()?;
    if verb.text == "isolate" {
        return Some((
            Certainty::Sure,
            "`systemctl isolate` stops every other unit, the gateway's too".to_owned(),
        ));
    }
    if !SYSTEMCTL_VERBS.contains(&verb.text.as_str()) {
        return None;
    }
    for unit in units {
        if !unit.known() {
            if mentioned {
                return Some((
                    Certainty::Maybe,
                    format!(
                        "`systemctl {}` of a unit hookgate cannot name, on a line that names it",
                        verb.text
                    ),
                ));
            }
            continue;
        }
        let name = if unit.text.contains('.') {
            unit.text.clone()
        } else {
            format!("{}.service", unit.text)
        };
        let pattern = as_pattern(&name);
        let hit = p.units.iter().find(|ours| match &pattern {
            Some(_) => glob(&name, ours),
            None => **ours == name,
        });
        if let Some(ours) = hit {
            return Some((
                Certainty::Sure,
                format!("`systemctl {}` of hookgate's `{ours}`", verb.text),
            ));
        }
    }
    None
}

/// A systemd unit glob (`hook*`) against a unit name.
fn glob(pattern: &str, name: &str) -> bool {
    globset::Glob::new(pattern).is_ok_and(|g| g.compile_matcher().is_match(name))
}

/// `launchctl` subcommands that stop or unload an agent.
const LAUNCHCTL_VERBS: &[&str] = &["bootout", "unload", "remove", "kill", "stop", "disable"];

/// What `launchctl ARGS` does to the gateway's agent, if anything.
pub(super) fn launchctl(
    args: &[Word],
    p: &Processes,
    mentioned: bool,
) -> Option<(Certainty, String)> {
    let (verb, rest) = args.split_first()?;
    if !LAUNCHCTL_VERBS.contains(&verb.text.as_str()) {
        return None;
    }
    let named = rest.iter().find(|w| {
        let text = w.text.to_lowercase();
        text.contains("hookgate") || p.labels.iter().any(|l| text.contains(&l.to_lowercase()))
    });
    match named {
        Some(_) => Some((
            Certainty::Sure,
            format!("`launchctl {}` of hookgate's agent", verb.text),
        )),
        None if mentioned && rest.iter().any(|w| w.text.contains(UNKNOWN)) => Some((
            Certainty::Maybe,
            format!("`launchctl {}` of an agent hookgate cannot name", verb.text),
        )),
        None => None,
    }
}
