//! Built-ins behind the `Builtin` trait, through the deciders that call
//! them: an answer that comes later is awaited, and every call is counted
//! the same way whether it answered or failed.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use hookgate_adapters::{Decision, Dialect, EventKind, HookEvent, Permission};

use super::{Decider, DeciderKind};
use crate::budget::Payload;
use crate::builtin::{Answer, Builtin, Call, Failed, Role, Ruling};
use crate::convert::ProtoEvent;
use crate::metrics::SubscriberStats;
use crate::otel::CallOutcome;
use hookgate_config::Filter;

/// A built-in that answers `decided` after yielding once, as one waiting
/// on a pool or a person would.
#[derive(Debug)]
struct Later(Result<Permission, &'static str>);

impl Builtin for Later {
    fn role(&self) -> Role {
        Role::DECIDES
    }

    fn decide<'a>(&'a self, _call: &'a Call<'a>) -> Answer<'a> {
        Answer::Later(Box::pin(async move {
            tokio::task::yield_now().await;
            let deny = Decision {
                permission: Permission::Deny,
                ..Decision::default()
            };
            match self.0 {
                Ok(permission) => Ok(Ruling::from(Decision {
                    permission,
                    ..Decision::default()
                })),
                Err(class) => Err(Failed {
                    class,
                    instead: deny,
                }),
            }
        }))
    }
}

fn decider(builtin: Later) -> (Decider, Arc<SubscriberStats>) {
    let stats = Arc::new(SubscriberStats::default());
    let decider = Decider {
        name: "later".into(),
        priority: 0,
        filter: Filter::default(),
        kind: DeciderKind::Builtin(Arc::new(builtin), Arc::clone(&stats)),
        shadow: false,
    };
    (decider, stats)
}

async fn ask(decider: &Decider) -> (Decision, CallOutcome) {
    let event = Arc::new(HookEvent::new(
        Dialect::ClaudeCode,
        "PreToolUse",
        EventKind::PreToolUse,
    ));
    let payload = Arc::new(Payload::new(b"{}".to_vec(), None));
    let caller = Arc::default();
    let hold = crate::hold::HoldLine::none();
    let call = Call {
        event: &event,
        id: "evt-1",
        payload: &payload,
        received: Instant::now(),
        caller: &caller,
        deadline: None,
        hold: &hold,
    };
    let proto = ProtoEvent::new(
        Arc::clone(&event),
        "evt-1".into(),
        Arc::clone(&payload),
        Arc::default(),
    );
    let (ruling, outcome) = decider.decide_traced(&call, proto).await;
    // A built-in that does not judge rewrites is not asked again.
    assert!(decider.recheck(&call).await.is_none());
    (ruling.decision, outcome)
}

#[tokio::test]
async fn a_later_answer_is_awaited_and_counted() {
    let (decider, stats) = decider(Later(Ok(Permission::Ask)));
    let (decision, outcome) = ask(&decider).await;
    assert_eq!(decision.permission, Permission::Ask);
    assert_eq!(outcome, CallOutcome::Answered);
    assert_eq!(stats.calls.load(Ordering::Relaxed), 1);
    assert_eq!(stats.ok.load(Ordering::Relaxed), 1);
    assert_eq!(stats.ask.load(Ordering::Relaxed), 1);
    assert_eq!(stats.errors.load(Ordering::Relaxed), 0);
}

#[tokio::test]
async fn a_failed_builtin_stands_by_its_own_decision_counted_as_a_failure() {
    let (decider, stats) = decider(Later(Err("policy error")));
    let (decision, outcome) = ask(&decider).await;
    assert_eq!(decision.permission, Permission::Deny);
    assert_eq!(outcome, CallOutcome::Failed("policy error"));
    assert_eq!(stats.calls.load(Ordering::Relaxed), 1);
    assert_eq!(stats.errors.load(Ordering::Relaxed), 1);
    assert_eq!(stats.fail_closed.load(Ordering::Relaxed), 1);
    assert_eq!(stats.ok.load(Ordering::Relaxed), 0);
}
