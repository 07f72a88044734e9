//! Self-protection: no tool call may weaken hookgate.
//!
//! The gateway gives [`Protection`] hookgate's own parts, resolved when it
//! starts: its config and state directories, the decision log, the HTTP
//! token, the socket, the shim and gateway binaries, the agents' hook
//! configs (as [`Protected`] path patterns), and the gateway as a process
//! and a service ([`Processes`]). A tool call that writes, deletes, moves,
//! links or changes the mode of any of them, reads the token or the log,
//! or signals, stops or uninstalls the gateway is denied, whatever the
//! config says: the gateway runs this check as a built-in no user config
//! can remove (docs/self-protection.md). So is an agent's in-session
//! config reload (Claude Code's `ConfigChange`), which could turn hooks
//! off for the rest of the session.
//!
//! The guard's parser and path arithmetic apply; where it cannot resolve
//! something (a path with `$x` in it, a pid from `$(…)`, a program text
//! given to an interpreter that names hookgate's files), the call is asked
//! about where the agent can ask, else denied: unknown means dangerous.
//! Pure, like the rest of the crate: no disk, no processes looked at.
//! [`Protection::try_decide`] tries a call on a smaller work budget and a
//! short deadline and gives up only when those ran out, as
//! [`crate::Guard::try_within`] does.

mod line;
mod operands;
mod signals;
mod targets;
#[cfg(test)]
mod tests;

pub use signals::Processes;
pub use targets::{Pattern, Protected};

use std::time::Instant;

use hookgate_adapters::{Decision, EventKind, HookEvent, Permission, ToolClass};

use crate::budget::Budget;
use crate::facts::{self, Access};
use crate::pattern::{self, UNKNOWN};
use crate::{Action, Hit, paths};
use operands::{Certainty, Touch};
use targets::Relation;

/// The start of every reason self-protection gives.
pub const REASON_PREFIX: &str = "hookgate self-protection";

/// What the model is told to do about it.
const AGENT_MESSAGE: &str = "This is hookgate protecting itself: do not retry this or work \
     around it. If the user wants this change, tell them to make it themselves from a terminal.";

/// Why an agent's in-session config reload is refused.
const CONFIG_CHANGE: &str = "a settings change is not applied during a session hookgate guards \
     (it could turn hooks off); it takes effect in the next session";

/// Words every line naming hookgate's parts contains one of, besides the
/// protected paths themselves.
const NEEDLES: &[&str] = &[
    "hookgate",
    "gateway-shim",
    "disableallhooks",
    "allowmanagedhooksonly",
];

/// hookgate's parts and the checks over them.
#[derive(Debug, Clone, Default)]
pub struct Protection {
    protected: Vec<Protected>,
    processes: Processes,
    /// Lower-cased text a line that names hookgate's parts contains.
    needles: Vec<String>,
    home: Option<String>,
}

/// One thing a call would do to hookgate.
struct Finding {
    certainty: Certainty,
    detail: String,
}

impl Protection {
    /// Protection of `protected` and `processes`; `home` resolves `~` (and
    /// an absolute home path becomes `~`, as in the guard).
    pub fn new(
        protected: Vec<Protected>,
        processes: Processes,
        home: Option<String>,
    ) -> Protection {
        let home = home.filter(|h| h.starts_with('/') && h.len() > 1);
        let protected: Vec<Protected> = protected
            .into_iter()
            .map(|p| p.normalized(home.as_deref()))
            .collect();
        let mut needles: Vec<String> = NEEDLES.iter().map(|n| (*n).to_owned()).collect();
        for p in &protected {
            let text = match &p.pattern {
                Pattern::Tree(t) | Pattern::Prefix(t) | Pattern::Anywhere(t) => t,
            };
            needles.push(text.to_lowercase());
            if let (Some(home), Some(rest)) = (&home, text.strip_prefix('~')) {
                needles.push(format!("{home}{rest}").to_lowercase());
            }
        }
        needles.extend(processes.units.iter().map(|u| u.to_lowercase()));
        needles.extend(processes.labels.iter().map(|l| l.to_lowercase()));
        needles.sort();
        needles.dedup();
        Protection {
            protected,
            processes,
            needles,
            home,
        }
    }

    /// The protected paths, normalized.
    pub fn protected(&self) -> &[Protected] {
        &self.protected
    }

    /// What self-protection says about `event`: a deny (or, where it
    /// cannot be sure, an ask) naming what the call would do to hookgate.
    pub fn check(&self, event: &HookEvent) -> Option<Hit> {
        self.check_with(event, crate::MAX_WORK, None).0
    }

    /// [`Protection::check`] with `work` units until `until`; also whether
    /// they (or the time) ran out: the line was denied for that, and a
    /// larger budget might not. The parse and every path compared against
    /// hookgate's parts draw from the budget.
    fn check_with(
        &self,
        event: &HookEvent,
        work: u64,
        until: Option<Instant>,
    ) -> (Option<Hit>, bool) {
        if event.kind == EventKind::ConfigChange {
            let hit = Hit {
                rule: None,
                unresolved: false,
                action: Action::Deny,
                reason: CONFIG_CHANGE.to_owned(),
            };
            return (Some(hit), false);
        }
        let Some(tool) = event.tool.as_ref() else {
            return (None, false);
        };
        let cwd = event.cwd.as_deref();
        let mut budget = Budget::new(work, until);
        let mut found: Option<Finding> = None;
        let mut note = |finding: Option<Finding>| {
            if let Some(f) = finding
                && found.as_ref().is_none_or(|old| f.certainty > old.certainty)
            {
                found = Some(f);
            }
        };
        let writes = facts::tool_access(tool) == Access::Write;
        for path in tool.file_path.iter().chain(&tool.paths) {
            if !budget.charge(self.compare_cost(path)) {
                break;
            }
            let touch = Touch {
                text: path,
                write: writes.then_some(Certainty::Sure),
                whole: tool.class == ToolClass::Search,
            };
            note(self.touched(&tool.name, &touch, cwd, false));
        }
        if let Some(line) = tool.command.as_deref()
            && budget.ok()
        {
            self.check_line(line, cwd, &mut budget, &mut note);
        }
        if let Some(why) = budget.exceeded() {
            let hit = Hit {
                rule: None,
                unresolved: false,
                action: Action::Deny,
                reason: format!("{why}, so hookgate cannot tell whether it touches its own files"),
            };
            return (Some(hit), budget.spent());
        }
        let hit = found.map(|f| Hit {
            rule: None,
            unresolved: f.certainty == Certainty::Maybe,
            action: match f.certainty {
                Certainty::Sure => Action::Deny,
                Certainty::Maybe => Action::Ask,
            },
            reason: f.detail,
        });
        (hit, false)
    }

    /// The work units of comparing `path` with every protected part,
    /// charged before [`Protection::touched`] so a call naming many paths
    /// stops at its budget and its deadline as the parse before it does.
    /// Priced like the parse's units by time (measured over lines of a
    /// few thousand words): two per part for a plain path, and a unit per
    /// two bytes more for one with unknown or glob parts, matched as a
    /// pattern (up to the longest pattern matched, `MAX_PATTERN`).
    fn compare_cost(&self, path: &str) -> usize {
        let wild = !pattern::is_literal(path) || path.contains(['*', '?', '[', '{']);
        let per_part = 2 + if wild {
            path.len().min(targets::MAX_PATTERN) / 2
        } else {
            0
        };
        per_part.saturating_mul(self.protected.len().max(1))
    }

    /// The decision: a deny (or ask) saying it is hookgate protecting
    /// itself, or no opinion.
    pub fn decide(&self, event: &HookEvent) -> Decision {
        self.decision(event, crate::MAX_WORK, None).0
    }

    /// [`Protection::decide`] with only `work` units (at most
    /// [`crate::MAX_WORK`]) until `until`: `None` when, and only when,
    /// they or the time ran out before an answer; every other answer is
    /// the full call's.
    pub fn try_decide(
        &self,
        event: &HookEvent,
        work: u64,
        until: Option<Instant>,
    ) -> Option<Decision> {
        crate::budget::attempt(work, until, |work| self.decision(event, work, until))
    }

    /// The decision with `work` units until `until`, and whether they (or
    /// the time) ran out.
    fn decision(&self, event: &HookEvent, work: u64, until: Option<Instant>) -> (Decision, bool) {
        if !event.capabilities.deny && !event.capabilities.ask {
            return (Decision::default(), false);
        }
        let (hit, spent) = self.check_with(event, work, until);
        let decision = match hit {
            Some(hit) => Decision {
                permission: match hit.action {
                    Action::Deny => Permission::Deny,
                    Action::Ask => Permission::Ask,
                },
                reason: Some(format!("{REASON_PREFIX}: {}", hit.reason)),
                agent_message: Some(AGENT_MESSAGE.to_owned()),
                ..Decision::default()
            },
            None => Decision::default(),
        };
        (decision, spent)
    }

    /// What `program` touching `touch` in `cwd` does to hookgate.
    fn touched(
        &self,
        program: &str,
        touch: &Touch<'_>,
        cwd: Option<&str>,
        mentioned: bool,
    ) -> Option<Finding> {
        let text = touch.text;
        if text.is_empty() || touch.write.is_none() && !self.protected.iter().any(|p| p.secret) {
            return None;
        }
        let known_chars = text.chars().any(|c| !pattern::is_marker(c) && c != '/');
        if !known_chars {
            return (mentioned && touch.write.is_some()).then(|| Finding {
                certainty: Certainty::Maybe,
                detail: format!(
                    "`{program}` writes a path hookgate cannot resolve, on a line that names \
                     hookgate's files"
                ),
            });
        }
        // `$XDG_RUNTIME_DIR/…`: could be absolute, so not joined to `cwd`.
        let starts_unknown = text.starts_with(UNKNOWN);
        let relative_unknown =
            cwd.is_none() && !starts_unknown && !text.starts_with('/') && !text.starts_with('~');
        let resolved = if starts_unknown {
            paths::normalize(text)
        } else {
            resolve(cwd, text, self.home.as_deref())
        };
        // Somewhere hookgate cannot name (`cd "$x" && rm f`): any directory.
        let anywhere = || format!("{UNKNOWN}/{resolved}");
        let glob = targets::as_pattern(&resolved).map(|_| {
            if relative_unknown {
                anywhere()
            } else {
                resolved.clone()
            }
        });
        let shown = pattern::shown(text);
        for p in &self.protected {
            let could_be = |pattern: &str| {
                targets::as_pattern(pattern).is_some_and(|g| p.could_be(&g, touch.whole))
            };
            let (how, certainty) = match &glob {
                Some(glob) if could_be(glob) => {
                    let sure = !glob.contains(UNKNOWN);
                    (
                        "may be",
                        if sure {
                            Certainty::Sure
                        } else {
                            Certainty::Maybe
                        },
                    )
                }
                Some(_) => continue,
                None => match p.relation(&resolved) {
                    Some(Relation::Inside) => ("is", Certainty::Sure),
                    Some(Relation::Ancestor)
                        if touch.whole && resolved != "/" && resolved != "~" =>
                    {
                        ("holds", Certainty::Sure)
                    }
                    _ if relative_unknown && could_be(&anywhere()) => ("may be", Certainty::Maybe),
                    _ => continue,
                },
            };
            let detail = match touch.write {
                Some(write) => Finding {
                    certainty: certainty.min(write),
                    detail: format!("`{program}` writes `{shown}`, which {how} {}", p.what),
                },
                None if p.secret => Finding {
                    certainty,
                    detail: format!("`{program}` reads `{shown}`, which {how} {}", p.what),
                },
                None => continue,
            };
            return Some(detail);
        }
        None
    }
}

/// A command's working directory when the line says where it is.
fn known_cwd(cwd: &str) -> Option<&str> {
    (!cwd.is_empty() && !pattern::has_unknown(cwd)).then_some(cwd)
}

/// `path` resolved as the guard does, against `cwd` when known; a relative
/// path in an unknown directory stays relative.
pub(crate) fn resolve(cwd: Option<&str>, path: &str, home: Option<&str>) -> String {
    paths::resolve(cwd.unwrap_or("."), path, home, false)
}
