//! The walk of one event: facts gathered once, the rules in order, the
//! first certain deny else the first ask, all within the work budget and
//! the caller's deadline; past either, too complex to check: denied.

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
        self.check_within(event, None).0
    }

    fn check_within(&self, event: &HookEvent, deadline: Option<Instant>) -> (Option<Hit>, bool) {
        let Some(tool) = event.tool.as_ref() else {
            return (None, false);
        };
        if tool.paths_overflow {
            let reason = format!(
                "the call names more paths than hookgate checks (over {}, or nested over {} \
                 levels); the guard denies what it cannot check",
                hookgate_adapters::paths::MAX_PATHS,
                hookgate_adapters::paths::MAX_DEPTH
            );
            return (Some(deny(reason)), false);
        }
        let mut budget = Budget::new(MAX_WORK, deadline);
        let place = Place {
            cwd: event.cwd.as_deref(),
            home: self.home.as_deref(),
            fold: self.fold,
        };
        let facts = facts::gather(tool, place, &mut budget);
        let mut ask = None;
        for (index, (rule, compiled)) in self.rules.iter().zip(&self.compiled).enumerate() {
            let found = self.matches(&rule.matcher, compiled, tool, &facts, place, &mut budget);
            if let Some(why) = budget.exceeded() {
                return (
                    Some(deny(format!(
                        "{why}; the guard denies what it cannot check"
                    ))),
                    true,
                );
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
                Action::Deny => return (Some(hit), false),
                Action::Ask => {
                    ask.get_or_insert(hit);
                }
            }
        }
        if let Some(why) = budget.exceeded() {
            return (
                Some(deny(format!(
                    "{why}; the guard denies what it cannot check"
                ))),
                true,
            );
        }
        (ask, false)
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
        if !event.capabilities.deny && !event.capabilities.ask {
            return Verdict::default();
        }
        let (hit, too_complex) = self.check_within(event, deadline);
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
        Verdict {
            decision,
            hit,
            too_complex,
        }
    }
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
