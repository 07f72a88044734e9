//! The built-in `approval` as a `Builtin`: holds a call its rules match
//! (the guard crate's rules and matching, `hookgate_guard::Guard`) until a
//! person approves or denies it in the gateway's registry of held calls
//! (`crate::approvals`: `gateway approvals`), up to `hold_ms`, then
//! applies `on_timeout`. Its rules are matched through `bounded`, as the
//! guard's are (a first attempt where the call is, the pool past it).
//!
//! The wait is bounded three ways: `hold_ms`; what the shim allows
//! (`crate::hold`: hold frames up to its own maximum, or only its normal
//! deadline for a shim that takes none); and the gateway stopping, which
//! answers every held call with `on_timeout` at once. Past `max_held`
//! calls held at once, `on_timeout` applies at once, counted as a drop;
//! a call nobody answered in time is counted as a timeout. A call of a
//! session a person allowed "for this session" (or this exact command in
//! it) is allowed at once. Every answer says in the decision log who
//! answered, through which channel and after how long (`Ruling::held`).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant, SystemTime};

use hookgate_adapters::{Decision, HookEvent, Permission};
use hookgate_config::{ApprovalConfig, OnError};
use hookgate_guard::Guard;

use super::{Answer, Builtin, Call, Decided, Role, Ruling, bounded};
use crate::approvals::notify::{Notice, Notifier};
use crate::approvals::{self, Approvals, HeldCall, Scope, Verdict};
use crate::metrics::SubscriberStats;

/// How a held call ended, for the decision log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeldNote {
    /// `approved`, `denied`, `timeout`, `stopping`, `overflow` or
    /// `session` (allowed earlier for the session).
    pub outcome: &'static str,
    pub approver: Option<String>,
    pub channel: Option<String>,
    /// The approval's scope, when approved.
    pub scope: Option<&'static str>,
    pub wait: Duration,
}

/// A `[[subscriber]]` with `builtin = "approval"`.
#[derive(Debug)]
pub(super) struct Approval {
    name: String,
    guard: Arc<Guard>,
    hold: Duration,
    on_timeout: OnError,
    max_held: usize,
    approvals: Arc<Approvals>,
    stats: Arc<SubscriberStats>,
    /// Who is told a call is held (`crate::approvals::notify`).
    notifier: Notifier,
}

impl Approval {
    pub(super) fn new(
        name: &str,
        config: &ApprovalConfig,
        approvals: Arc<Approvals>,
        stats: Arc<SubscriberStats>,
    ) -> Approval {
        Approval {
            name: name.to_owned(),
            guard: Arc::new(config.guard.clone()),
            hold: config.hold,
            on_timeout: config.on_timeout,
            max_held: config.max_held,
            approvals,
            notifier: Notifier::start(name, &config.notify, Arc::clone(&stats)),
            stats,
        }
    }

    /// Whether its rules match `call`: at once when the first attempt
    /// answers, else checked on the blocking pool with the full budget.
    async fn matched(
        &self,
        call: &Call<'_>,
    ) -> Result<hookgate_guard::Verdict, bounded::Unanswered> {
        let first = bounded::inline(&self.stats.pooled, |work, until| {
            self.guard.try_within(call.event, work, Some(until))
        });
        if let Some(verdict) = first {
            return Ok(verdict);
        }
        let check = super::guard::pooled(Arc::clone(&self.guard), Arc::clone(call.event));
        bounded::run(call.received, self.guard.time_limit(), check).await
    }

    async fn decide_held(&self, call: &Call<'_>) -> Decided {
        let (rule, reason) = match self.matched(call).await {
            // Matched a rule, or too complex to tell: a person decides.
            Ok(v) if v.hit.is_some() || v.too_complex => (
                v.hit
                    .and_then(|hit| hit.rule)
                    .and_then(|i| self.guard.rules().get(i))
                    .map(|r| r.id.clone()),
                v.decision.reason,
            ),
            Ok(_) => return Ok(Ruling::default()),
            // Not checked in time: held, as a call too complex to check.
            Err(why) => (None, Some(format!("not checked: {why}"))),
        };
        let event = call.event;
        let command = event.tool.as_ref().and_then(|t| t.command.clone());
        let started = Instant::now();
        if let Some(scope) =
            self.approvals
                .allowed(&self.name, event.session_id.as_deref(), command.as_deref())
        {
            let note = HeldNote {
                outcome: "session",
                approver: None,
                channel: None,
                scope: Some(scope.as_str()),
                wait: Duration::ZERO,
            };
            let why = format!(
                "hookgate approval: allowed earlier for this {}",
                match scope {
                    Scope::Command => "command in this session",
                    _ => "session",
                }
            );
            return Ok(self.ruling(allowed(why), rule, note));
        }
        let now = SystemTime::now();
        let until = Instant::now() + self.hold;
        // What the shim grants: the reply must be ready by then.
        let ready_by = call.hold.extend(until).unwrap_or(until);
        let left = ready_by.saturating_duration_since(Instant::now());
        let held = HeldCall {
            id: 0,
            subscriber: self.name.clone(),
            agent: event.dialect.agent().as_str().to_owned(),
            event: event.native_event.clone(),
            session: event.session_id.clone(),
            tool: event.tool.as_ref().map(|t| t.name.clone()),
            input: masked_input(event),
            rule: rule.clone(),
            reason: reason.clone(),
            held_at_unix_ms: crate::clock::unix_ms(now),
            deadline_unix_ms: crate::clock::unix_ms(now + left),
            time_left_ms: 0,
        };
        let notice = held.clone();
        let mut holding = match self.approvals.hold(held, command, self.max_held) {
            Ok(holding) => holding,
            Err(not_held) => {
                self.stats.drops.fetch_add(1, Ordering::Relaxed);
                tracing::warn!(subscriber = %self.name, "{not_held}; on_timeout applied at once");
                let outcome = match not_held {
                    approvals::NotHeld::Stopping => "stopping",
                    _ => "overflow",
                };
                let why = format!("hookgate approval: not held ({not_held})");
                return Ok(self.timed_out(why, rule, outcome, Duration::ZERO));
            }
        };
        tracing::info!(subscriber = %self.name, id = holding.id, wait_ms = left.as_millis(), "a call is held for approval");
        self.notifier.send(Notice {
            call: HeldCall {
                id: holding.id,
                ..notice
            },
            time_left: left,
        });
        let answer = tokio::select! {
            answer = &mut holding.answer => answer.ok(),
            () = tokio::time::sleep(left) => None,
            () = self.approvals.stopped() => {
                let why = "hookgate approval: the gateway stopped before anyone answered".to_owned();
                return Ok(self.timed_out(why, rule, "stopping", started.elapsed()));
            }
        };
        let wait = started.elapsed();
        match answer {
            Some(Verdict::Approve {
                approver,
                channel,
                scope,
            }) => {
                let why = format!(
                    "hookgate approval: approved by {approver} via {channel} after {} ms",
                    wait.as_millis()
                );
                let note = HeldNote {
                    outcome: "approved",
                    approver: Some(approver),
                    channel: Some(channel),
                    scope: Some(scope.as_str()),
                    wait,
                };
                Ok(self.ruling(allowed(why), rule, note))
            }
            Some(Verdict::Deny {
                approver,
                channel,
                reason,
            }) => {
                let why = match &reason {
                    Some(reason) => format!("denied by {approver}: {reason}"),
                    None => format!("denied by {approver}"),
                };
                let decision = Decision {
                    permission: Permission::Deny,
                    reason: Some(format!("hookgate approval: {why}")),
                    agent_message: Some(format!("hookgate approval: {why}")),
                    ..Decision::default()
                };
                let note = HeldNote {
                    outcome: "denied",
                    approver: Some(approver),
                    channel: Some(channel),
                    scope: None,
                    wait,
                };
                Ok(self.ruling(decision, rule, note))
            }
            None => {
                self.stats.timeouts.fetch_add(1, Ordering::Relaxed);
                let why = format!(
                    "hookgate approval: nobody answered within {} ms",
                    wait.as_millis()
                );
                Ok(self.timed_out(why, rule, "timeout", wait))
            }
        }
    }

    /// `on_timeout`'s decision, saying `why`.
    fn timed_out(
        &self,
        why: String,
        rule: Option<String>,
        outcome: &'static str,
        wait: Duration,
    ) -> Ruling {
        let decision = match self.on_timeout {
            OnError::Allow => allowed(format!("{why}; allowed (on_timeout)")),
            OnError::Deny => Decision {
                permission: Permission::Deny,
                reason: Some(format!("{why}; denied (on_timeout)")),
                agent_message: Some(format!("{why}; denied (on_timeout)")),
                ..Decision::default()
            },
        };
        let note = HeldNote {
            outcome,
            approver: None,
            channel: None,
            scope: None,
            wait,
        };
        self.ruling(decision, rule, note)
    }

    fn ruling(&self, decision: Decision, rule: Option<String>, note: HeldNote) -> Ruling {
        Ruling {
            decision,
            rule,
            revision: None,
            held: Some(Arc::new(note)),
        }
    }
}

fn allowed(reason: String) -> Decision {
    Decision {
        permission: Permission::Allow,
        reason: Some(reason),
        ..Decision::default()
    }
}

/// The tool's input as the audit log would write it (masked), shortened.
fn masked_input(event: &HookEvent) -> String {
    let Some(tool) = &event.tool else {
        return String::new();
    };
    let mut input = tool.input.clone();
    hookgate_mask::mask_json(&mut input);
    approvals::shorten(&input.to_string(), approvals::MAX_INPUT_SHOWN)
}

impl Builtin for Approval {
    fn role(&self) -> Role {
        Role::DECIDES
    }

    fn decide<'a>(&'a self, call: &'a Call<'a>) -> Answer<'a> {
        Answer::Later(Box::pin(self.decide_held(call)))
    }
}
