//! Commands aimed at the gateway's process and its service: `kill` of its
//! pid (or of every process, `-1`), `pkill`/`killall` whose pattern or
//! name matches it, `systemctl` stopping, killing or disabling its units,
//! `launchctl` booting out its agent, and the `gateway` commands that
//! remove hookgate (`uninstall`), re-point it (`install`), read the
//! decision log (`audit`) or apply a weaker config (`reload
//! --allow-weaker`).

use regex::RegexBuilder;

use super::operands::Certainty;
use crate::argv::{self, Flag};
use crate::pattern::{Judged, UNKNOWN};
use crate::shell::{Simple, Word};

mod services;

use services::{launchctl, systemctl};

/// The gateway as a process and a service.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Processes {
    /// The gateway's process id (`kill PID`, `kill -- -PID`).
    pub pids: Vec<u32>,
    /// What `pkill`/`killall`/`pgrep` may match: process names (`gateway`,
    /// `gateway-shim`, the names as the kernel shortens them) and the
    /// gateway's command line (`pkill -f`).
    pub names: Vec<String>,
    /// Its systemd user units (`hookgate.service`, `hookgate.socket`, …).
    pub units: Vec<String>,
    /// Its launchd labels (`dev.hookgate.gateway`).
    pub labels: Vec<String>,
    /// The gateway's program names (`gateway`): `gateway uninstall`.
    pub programs: Vec<String>,
}

/// The biggest regex `pkill` patterns compile to: they come from a
/// payload, so bounded like the config's own.
const PATTERN_SIZE_LIMIT: usize = 1 << 16;

/// What one command does to the gateway, if anything: how sure, and what.
pub(crate) fn aimed(
    c: &Simple,
    p: &Processes,
    searched: bool,
    mentioned: bool,
) -> Option<(Certainty, String)> {
    let unknown_target = |what: &str| {
        if searched {
            Some((
                Certainty::Sure,
                format!("{what} a process found by looking for the gateway"),
            ))
        } else if mentioned {
            Some((
                Certainty::Maybe,
                format!("{what} a process hookgate cannot name, on a line that names the gateway"),
            ))
        } else {
            None
        }
    };
    match c.name.as_str() {
        "kill" => {
            let pids = kill_targets(&c.args)?;
            if pids.iter().any(|w| w.text == "-1") {
                return Some((
                    Certainty::Sure,
                    "`kill -1` signals every process of the user, the gateway's too".to_owned(),
                ));
            }
            let ours = pids.iter().find(|w| {
                let pid = w.text.strip_prefix('-').unwrap_or(&w.text);
                p.pids.iter().any(|own| own.to_string() == pid)
            });
            if let Some(pid) = ours {
                return Some((
                    Certainty::Sure,
                    format!("`kill {}` signals the gateway's process", pid.text),
                ));
            }
            // `pgrep gateway | xargs kill`: the pids come from stdin.
            let fed = pids.is_empty() && c.stdin.iter().any(|n| n == "pgrep" || n == "pidof");
            if fed || pids.iter().any(|w| !w.known()) {
                return unknown_target("`kill` signals");
            }
            None
        }
        "pkill" | "killall" => {
            let selection = select(c, p);
            match selection {
                Selection::Ours(what) => {
                    Some((Certainty::Sure, format!("`{}` would signal {what}", c.name)))
                }
                Selection::Unknown => unknown_target(&format!("`{}` signals", c.name)),
                Selection::Unreadable => Some((
                    Certainty::Maybe,
                    format!(
                        "`{}` signals the processes a pattern hookgate cannot read selects",
                        c.name
                    ),
                )),
                Selection::Other => None,
            }
        }
        "systemctl" => systemctl(&c.args, p, mentioned),
        "launchctl" => launchctl(&c.args, p, mentioned),
        name if p.programs.iter().any(|g| g == name) => gateway_command(&c.args, name),
        _ => None,
    }
}

/// Whether `c` looks for the gateway's pid (`pgrep -f 'gateway serve'`,
/// `pidof gateway`): a `kill` of what it found is aimed at the gateway.
pub(crate) fn searches(c: &Simple, p: &Processes) -> bool {
    matches!(c.name.as_str(), "pgrep" | "pidof")
        && matches!(select(c, p), Selection::Ours(_) | Selection::Unreadable)
}

/// The pid operands of `kill`: past the signal (`-9`, `-STOP`, `-s STOP`,
/// `--signal STOP`) and `--`; `None` for `kill -l` (lists signals).
fn kill_targets(args: &[Word]) -> Option<Vec<&Word>> {
    let mut i = 0;
    match args.first().map(|w| w.text.as_str()) {
        Some("-l" | "-L" | "--list" | "--table") => return None,
        Some("-s" | "-n" | "--signal") => i = 2,
        Some("--") => {}
        Some(first) if first.starts_with('-') && first.len() > 1 => i = 1,
        _ => {}
    }
    if args.get(i).is_some_and(|w| w.text == "--") {
        i += 1;
    }
    Some(args.get(i..).unwrap_or_default().iter().collect())
}

/// Which processes a `pkill`/`killall`/`pgrep`/`pidof` picks.
enum Selection {
    Ours(String),
    Unknown,
    /// A pattern hookgate's regex engine does not take (a back-reference,
    /// or past its size limit) that `pkill`'s POSIX one may: it could
    /// select anything, the gateway too.
    Unreadable,
    Other,
}

/// `pkill`/`pgrep` options taking a value (the next word).
const PKILL_VALUES: &[&str] = &[
    "-s",
    "-u",
    "-U",
    "-g",
    "-G",
    "-P",
    "-t",
    "-F",
    "--signal",
    "--session",
    "--euid",
    "--uid",
    "--pgroup",
    "--group",
    "--parent",
    "--terminal",
    "--pidfile",
    "--ns",
    "--nslist",
];
/// `killall` options taking a value.
const KILLALL_VALUES: &[&str] = &[
    "-s",
    "-u",
    "-o",
    "-y",
    "-n",
    "--signal",
    "--user",
    "--older-than",
    "--younger-than",
    "--ns",
];

fn select(c: &Simple, p: &Processes) -> Selection {
    let values = if c.name == "killall" {
        KILLALL_VALUES
    } else {
        PKILL_VALUES
    };
    let mut patterns = Vec::new();
    let mut by_user = false;
    let mut words = c.args.iter();
    let mut flags_done = false;
    while let Some(word) = words.next() {
        let text = word.text.as_str();
        if flags_done || !text.starts_with('-') || !word.known() {
            patterns.push(word);
        } else if text == "--" {
            flags_done = true;
        } else if values.contains(&text) {
            by_user |= matches!(text, "-u" | "-U" | "--euid" | "--uid" | "--user");
            words.next();
        } else if text.starts_with("--user=") || text.starts_with("--euid=") {
            by_user = true;
        }
    }
    let split = argv::split("", &c.args);
    let has = |flags: &[Flag]| split.has_any(flags).0 == Judged::Yes;
    let full = c.name != "killall" && has(&[Flag::Short('f'), Flag::Long("full".into())]);
    let regex = c.name != "killall" || has(&[Flag::Short('r'), Flag::Long("regexp".into())]);
    let exact = c.name == "pidof"
        || has(&[Flag::Short('x'), Flag::Long("exact".into())]) && c.name != "killall";
    let ignore_case = has(&[Flag::Short('i'), Flag::Long("ignore-case".into())]);
    if patterns.is_empty() {
        return if by_user && c.name != "pgrep" {
            Selection::Ours("every process of a user, the gateway's too".to_owned())
        } else {
            Selection::Other
        };
    }
    let (mut unknown, mut unreadable) = (false, false);
    for pattern in patterns {
        if !pattern.known() {
            unknown = true;
            continue;
        }
        // Compiled once for every name. One that does not compile within
        // the size limit may still be one pkill takes (POSIX regexes have
        // back-references): unreadable, not harmless.
        let compiled = (regex && !exact && c.name != "pidof").then(|| {
            RegexBuilder::new(&pattern.text)
                .case_insensitive(ignore_case)
                .size_limit(PATTERN_SIZE_LIMIT)
                .build()
                .ok()
        });
        if matches!(compiled, Some(None)) {
            unreadable = true;
            continue;
        }
        let hit = p.names.iter().find(|name| {
            let candidate = if full || name.contains(' ') {
                name.as_str()
            } else {
                name.rsplit('/').next().unwrap_or(name)
            };
            if (name.contains(' ') || name.contains('/')) && !full {
                return false;
            }
            match &compiled {
                Some(re) => re.as_ref().is_some_and(|re| re.is_match(candidate)),
                None if ignore_case => candidate.eq_ignore_ascii_case(&pattern.text),
                None => candidate == pattern.text,
            }
        });
        if let Some(name) = hit {
            return Selection::Ours(format!("`{name}` (hookgate's)"));
        }
    }
    if unreadable {
        Selection::Unreadable
    } else if unknown {
        Selection::Unknown
    } else {
        Selection::Other
    }
}

/// The options `gateway` takes before its subcommand with a value as the
/// next word (`--log-level`, global in `gateway/src/cli.rs`).
const GATEWAY_VALUE_OPTIONS: &[&str] = &["--log-level"];

/// `gateway uninstall`, `install`, `audit`, `reload --allow-weaker`, and
/// `approvals approve|deny` (an agent answering its own held call).
fn gateway_command(args: &[Word], name: &str) -> Option<(Certainty, String)> {
    let (sub, rest) = argv::first_operand(args, GATEWAY_VALUE_OPTIONS)?;
    let why = match sub.text.as_str() {
        "uninstall" => "removes hookgate's hooks",
        "install" => "rewrites hookgate's hooks",
        "audit" => "reads hookgate's decision log",
        // The URL it prints logs in to the console, which answers held calls.
        "ui" => "prints the console's login URL",
        "reload" if may_allow_weaker(rest) => "applies a config that weakens hookgate",
        "approvals"
            if rest.iter().any(|w| {
                matches!(w.text.as_str(), "approve" | "deny") || w.text.contains(UNKNOWN)
            }) =>
        {
            "answers a call held for a person"
        }
        // Any of the above, for all hookgate can tell.
        word if word.contains(UNKNOWN) => "runs a gateway command hookgate cannot read",
        _ => return None,
    };
    Some((Certainty::Sure, format!("`{name} {}` {why}", sub.text)))
}

/// Whether `gateway reload`'s arguments `rest` may hold `--allow-weaker`:
/// written (`--allow-w…`), or a word hookgate cannot read whose known
/// start is a start of it (`"$FLAGS"`, `--allow-$X`), the value of
/// `--socket` aside.
fn may_allow_weaker(rest: &[Word]) -> bool {
    const FLAG: &str = "--allow-weaker";
    let mut words = rest.iter();
    while let Some(word) = words.next() {
        let text = word.text.as_str();
        if text == "--socket" {
            words.next();
            continue;
        }
        let known = text.split(UNKNOWN).next().unwrap_or_default();
        if text.starts_with("--allow-w") || (text.contains(UNKNOWN) && FLAG.starts_with(known)) {
            return true;
        }
    }
    false
}
