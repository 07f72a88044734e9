//! The walk of one event: facts gathered once, the rules in order, the
//! first certain deny else the first ask, all within the work budget and
//! the caller's deadline; past either, too complex to check: denied.
//!
//! [`Guard::try_within`] is the same walk on a smaller budget and a
//! short deadline, for a caller that answers cheap calls where it stands
//! and sends the rest elsewhere with the full budget: it gives up (`None`)
//! only when that budget or that time ran out, so every answer it does
//! give is the full walk's answer.

use std::time::Instant;

use hookgate_adapters::{Decision, HookEvent, Permission, Tool, ToolClass};
use regex::Regex;

use crate::budget::Budget;
use crate::facts::Facts;
use crate::pattern::Judged;
use crate::shell::Place;
use crate::{Action, Compiled, Guard, Hit, MAX_WORK, Matcher, Target, Verdict, facts, rules};

impl Guard {
    /// What the rules say about `event`'s tool call: the first certain
    /// deny, else the first ask (an ask rule, or a rule a part the guard
    /// could not resolve may match). A call past the budget, the deadline
    /// or a bound is denied as too complex, and so is one naming more
    /// paths than the adapters read.
    pub fn check(&self, event: &HookEvent) -> Option<Hit> {
        self.walk(event, MAX_WORK, None).hit
    }

    /// The walk of `event` with `work` units and `deadline`.
    fn walk(&self, event: &HookEvent, work: u64, deadline: Option<Instant>) -> Walked {
        let done = |hit, too_complex, budget: &Budget| Walked {
            hit,
            too_complex,
            spent: budget.spent(),
        };
        let Some(tool) = event.tool.as_ref() else {
            return Walked::default();
        };
        if tool.paths_overflow {
            let reason = format!(
                "the call names more paths than hookgate checks (over {}, or nested over {} \
                 levels); the guard denies what it cannot check",
                hookgate_adapters::paths::MAX_PATHS,
                hookgate_adapters::paths::MAX_DEPTH
            );
            return Walked {
                hit: Some(deny(reason)),
                ..Walked::default()
            };
        }
        let mut budget = Budget::new(work, deadline);
        let place = Place {
            cwd: event.cwd.as_deref(),
            home: self.home.as_deref(),
            fold: self.fold,
        };
        let facts = facts::gather(tool, place, &mut budget);
        if let Some(why) = budget.exceeded() {
            let reason = format!("{why}; the guard denies what it cannot check");
            return done(Some(deny(reason)), true, &budget);
        }
        let mut ask = None;
        for (index, (rule, compiled)) in self.rules.iter().zip(&self.compiled).enumerate() {
            let found = self.matches(&rule.matcher, compiled, tool, &facts, place, &mut budget);
            if let Some(why) = budget.exceeded() {
                let reason = format!("{why}; the guard denies what it cannot check");
                return done(Some(deny(reason)), true, &budget);
            }
            let Some(found) = found else {
                continue;
            };
            let unresolved = found.judged == Judged::Maybe;
            let hit = Hit {
                action: if unresolved { Action::Ask } else { rule.action },
                reason: match unresolved {
                    false => format!("{}: {}", rule.reason, found.detail),
                    true => format!(
                        "{}, possibly: {} (hookgate cannot tell what <unknown> is, so it \
                         judges the worst it could be)",
                        rule.reason, found.detail
                    ),
                },
                unresolved,
                rule: Some(index),
            };
            match hit.action {
                Action::Deny => return done(Some(hit), false, &budget),
                Action::Ask => {
                    ask.get_or_insert(hit);
                }
            }
        }
        if let Some(why) = budget.exceeded() {
            let reason = format!("{why}; the guard denies what it cannot check");
            return done(Some(deny(reason)), true, &budget);
        }
        done(ask, false, &budget)
    }

    /// What `matcher` matched in this call, shown, and how surely.
    fn matches(
        &self,
        matcher: &Matcher,
        compiled: &Compiled,
        tool: &Tool,
        facts: &Facts,
        place: Place<'_>,
        budget: &mut Budget,
    ) -> Option<rules::Found> {
        let certain = |detail: String| rules::Found {
            detail,
            judged: Judged::Yes,
        };
        match (matcher, compiled) {
            (Matcher::Regex(target, original), Compiled::Regex(folded)) => {
                regex_match(*target, folded.as_ref().unwrap_or(original), tool).map(certain)
            }
            (Matcher::Command(rule), Compiled::Command(Some(judges))) => {
                rule.find(judges, facts, place, budget)
            }
            (Matcher::Path(rule), Compiled::Path(Some(judge))) => rule.find(judge, facts, budget),
            (Matcher::Fetch(rule), _) => rule.find(facts, self.fold),
            // Not compiled for this case folding (`Guard::uncompiled`):
            // what the rule matches is unknown, so a call it could apply
            // to is judged the worst it could be.
            (Matcher::Command(_), Compiled::Command(None)) => facts
                .commands
                .first()
                .map(|c| uncompiled(format!("`{}`", crate::pattern::shown(&c.name)))),
            (Matcher::Path(rule), Compiled::Path(None)) => facts
                .paths
                .iter()
                .find(|p| rule.access.covers(p.access))
                .map(|p| {
                    let shown = crate::pattern::shown(&p.written);
                    uncompiled(format!("`{shown}` ({})", p.access.as_str()))
                }),
            // Compiled from the same rules, in order: never another kind.
            _ => None,
        }
    }

    /// The guard's decision: a deny (or ask) naming the rule's reason, or
    /// no opinion.
    pub fn decide(&self, event: &HookEvent) -> Decision {
        self.decide_within(event, None).decision
    }

    /// [`Guard::decide`], with the hit that decided (for the decision log
    /// and the per-rule counters).
    pub fn decide_with_hit(&self, event: &HookEvent) -> (Decision, Option<Hit>) {
        let verdict = self.decide_within(event, None);
        (verdict.decision, verdict.hit)
    }

    /// [`Guard::decide`], stopping at `deadline` (a call past it is denied
    /// as too complex). An ask goes to an agent that can ask; one that
    /// cannot gets a deny.
    pub fn decide_within(&self, event: &HookEvent, deadline: Option<Instant>) -> Verdict {
        self.verdict(event, MAX_WORK, deadline).0
    }

    /// [`Guard::decide_within`] with only `work` units (at most
    /// [`MAX_WORK`]) and until `until`: `None` when, and only when, those
    /// units or that time ran out before an answer, so a caller can try a
    /// call cheaply where it stands and retry the few that need more with
    /// the full budget. Every other outcome (a deny, an ask, a bound such
    /// as [`crate::MAX_LINE_BYTES`]) is the one the full call gives; with
    /// all of [`MAX_WORK`] and no deadline the answer is always final.
    pub fn try_within(
        &self,
        event: &HookEvent,
        work: u64,
        until: Option<Instant>,
    ) -> Option<Verdict> {
        crate::budget::attempt(work, until, |work| self.verdict(event, work, until))
    }

    /// The verdict of a walk with `work` units, and whether they (or the
    /// time) ran out.
    fn verdict(&self, event: &HookEvent, work: u64, deadline: Option<Instant>) -> (Verdict, bool) {
        if !event.capabilities.deny && !event.capabilities.ask {
            return (Verdict::default(), false);
        }
        let Walked {
            hit,
            too_complex,
            spent,
        } = self.walk(event, work, deadline);
        let decision = match &hit {
            Some(hit) => Decision {
                permission: match hit.action {
                    Action::Ask if event.capabilities.ask => Permission::Ask,
                    Action::Ask | Action::Deny => Permission::Deny,
                },
                reason: Some(format!("hookgate guard: {}", hit.reason)),
                agent_message: Some(
                    "Do not retry this; choose a safer alternative or ask the user.".to_owned(),
                ),
                ..Decision::default()
            },
            None => Decision::default(),
        };
        let verdict = Verdict {
            decision,
            hit,
            too_complex,
        };
        (verdict, spent)
    }
}

/// What one walk found.
#[derive(Debug, Default)]
struct Walked {
    hit: Option<Hit>,
    /// Past the budget, the deadline or a bound: denied.
    too_complex: bool,
    /// The first bound reached was the work budget or the deadline.
    spent: bool,
}

fn deny(reason: String) -> Hit {
    Hit {
        action: Action::Deny,
        reason,
        unresolved: false,
        rule: None,
    }
}

/// A raw-text rule: the command line, each named path, the MCP tool name.
/// What a rule the guard could not compile says of `detail`: maybe.
fn uncompiled(detail: String) -> rules::Found {
    rules::Found {
        detail: format!("{detail}, which a rule too large to match without case could not judge"),
        judged: Judged::Maybe,
    }
}

fn regex_match(target: Target, pattern: &Regex, tool: &Tool) -> Option<String> {
    let shown = |text: &str| Some(format!("`{text}`"));
    match target {
        Target::Shell => tool
            .command
            .as_deref()
            .filter(|c| pattern.is_match(c))
            .map(|_| "the command line".to_owned()),
        Target::FilePath => tool
            .file_path
            .iter()
            .chain(&tool.paths)
            .find(|p| pattern.is_match(p))
            .and_then(|p| shown(p)),
        Target::McpTool if tool.class == ToolClass::Mcp => {
            let qualified = tool
                .mcp_server
                .as_deref()
                .map(|server| format!("{server}/{}", tool.name));
            if pattern.is_match(&tool.name) {
                shown(&tool.name)
            } else {
                qualified
                    .filter(|q| pattern.is_match(q))
                    .and_then(|q| shown(&q))
            }
        }
        Target::McpTool => None,
    }
}
