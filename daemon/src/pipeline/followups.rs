//! The follow-up cap: a session's stop events answered with a follow-up,
//! counted in a row, and the follow-up dropped once there have been
//! `[server] max_followups` of them.
//!
//! A follow-up keeps the agent's loop going after it wanted to stop. A
//! subscriber that answers every stop with one ("remind it to run the
//! tests") loops Codex, Gemini CLI and Factory Droid without end (they have
//! no cap of their own; docs/agents.md, "Follow-ups"); the others stop it
//! after 8. So the gateway owns a cap well below any agent's: past it the
//! follow-up is left out, the agent stops, and the drop is counted
//! (`followup_capped`) and audited. A stop answered without a follow-up
//! ends the run of follow-ups; the next one starts a new count.
//!
//! The state is bounded: at most [`MAX_SESSIONS`] sessions, each forgotten
//! [`MAX_AGE`] after its last follow-up; a full table first forgets the aged
//! ones, then the least recently seen one.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use hookgate_adapters::{Decision, Dialect, EventKind, HookEvent};

/// Sessions followed at once, at most.
pub(crate) const MAX_SESSIONS: usize = 4096;
/// A session's count is forgotten this long after its last follow-up.
pub(crate) const MAX_AGE: Duration = Duration::from_secs(3600);

/// Which loop a stop event belongs to: the agent's session (or, for an
/// agent that sends no session id, its working directory) and the subagent.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Loop {
    dialect: Dialect,
    session: Option<String>,
    subagent: Option<String>,
}

/// A loop's follow-ups in a row so far.
#[derive(Debug, Clone, Copy)]
struct Streak {
    count: u32,
    last: Instant,
}

/// The per-session follow-up counts, shared by every event.
#[derive(Debug)]
pub(crate) struct FollowupCap {
    max: u32,
    loops: Mutex<HashMap<Loop, Streak>>,
}

impl FollowupCap {
    /// At most `max` follow-ups in a row per session (0: none at all).
    pub(crate) fn new(max: u32) -> FollowupCap {
        FollowupCap {
            max,
            loops: Mutex::new(HashMap::new()),
        }
    }

    /// Counts `event`'s follow-up, if `decision` has one the agent would
    /// act on, and drops it when the session already had `max` in a row.
    /// True when it was dropped.
    pub(crate) fn apply(&self, event: &HookEvent, decision: &mut Decision) -> bool {
        if !matches!(event.kind, EventKind::Stop | EventKind::SubagentStop) {
            return false;
        }
        let key = Loop {
            dialect: event.dialect,
            session: event.session_id.clone().or_else(|| event.cwd.clone()),
            subagent: event.subagent_id.clone(),
        };
        let follows = event.capabilities.followup
            && decision
                .followup_message
                .as_deref()
                .is_some_and(|m| !m.is_empty());
        let now = Instant::now();
        let mut loops = match self.loops.lock() {
            Ok(loops) => loops,
            Err(poisoned) => poisoned.into_inner(),
        };
        if !follows {
            // The loop ends here: the next follow-up starts a new count.
            loops.remove(&key);
            return false;
        }
        let so_far = loops
            .get(&key)
            .filter(|streak| now.duration_since(streak.last) < MAX_AGE)
            .map_or(0, |streak| streak.count);
        if so_far >= self.max {
            loops.remove(&key);
            decision.followup_message = None;
            return true;
        }
        if !loops.contains_key(&key) && loops.len() >= MAX_SESSIONS {
            make_room(&mut loops, now);
        }
        loops.insert(
            key,
            Streak {
                count: so_far + 1,
                last: now,
            },
        );
        false
    }

    /// Sessions followed now (for tests).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.loops.lock().map_or(0, |loops| loops.len())
    }
}

/// Forgets the aged loops, and if none was, the least recently seen one.
fn make_room(loops: &mut HashMap<Loop, Streak>, now: Instant) {
    let before = loops.len();
    loops.retain(|_, streak| now.duration_since(streak.last) < MAX_AGE);
    if loops.len() < before {
        return;
    }
    let oldest = loops
        .iter()
        .min_by_key(|(_, streak)| streak.last)
        .map(|(key, _)| key.clone());
    if let Some(oldest) = oldest {
        loops.remove(&oldest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::event;

    fn stop(session: &str) -> HookEvent {
        let mut e = event(Dialect::Codex, EventKind::Stop);
        e.capabilities.followup = true;
        e.session_id = Some(session.to_owned());
        e
    }

    fn followup() -> Decision {
        Decision {
            followup_message: Some("run the tests".into()),
            ..Decision::default()
        }
    }

    #[test]
    fn the_follow_up_after_max_in_a_row_is_dropped_and_the_count_starts_again() {
        let cap = FollowupCap::new(3);
        for round in 0..2 {
            for n in 0..3 {
                let mut d = followup();
                assert!(!cap.apply(&stop("s1"), &mut d), "round {round}, #{n}");
                assert!(d.followup_message.is_some());
            }
            let mut d = followup();
            assert!(cap.apply(&stop("s1"), &mut d), "round {round}: the fourth");
            assert_eq!(d.followup_message, None);
            assert_eq!(d, Decision::default(), "nothing else touched");
        }
    }

    #[test]
    fn a_stop_without_a_follow_up_ends_the_streak() {
        let cap = FollowupCap::new(2);
        for _ in 0..2 {
            assert!(!cap.apply(&stop("s1"), &mut followup()));
        }
        assert!(!cap.apply(&stop("s1"), &mut Decision::default()));
        assert_eq!(cap.len(), 0);
        for _ in 0..2 {
            assert!(!cap.apply(&stop("s1"), &mut followup()));
        }
    }

    #[test]
    fn sessions_and_subagents_count_apart() {
        let cap = FollowupCap::new(1);
        assert!(!cap.apply(&stop("a"), &mut followup()));
        assert!(!cap.apply(&stop("b"), &mut followup()));
        let mut sub = stop("a");
        sub.kind = EventKind::SubagentStop;
        sub.subagent_id = Some("agent-1".into());
        assert!(!cap.apply(&sub, &mut followup()));
        assert!(cap.apply(&stop("a"), &mut followup()));
        assert!(cap.apply(&stop("b"), &mut followup()));
    }

    #[test]
    fn only_follow_ups_the_agent_would_act_on_count() {
        let cap = FollowupCap::new(0);
        let mut pre = stop("s");
        pre.kind = EventKind::PreToolUse;
        assert!(!cap.apply(&pre, &mut followup()), "not a stop");
        let mut mute = stop("s");
        mute.capabilities.followup = false;
        assert!(
            !cap.apply(&mute, &mut followup()),
            "rendered as a loss anyway"
        );
        let mut d = followup();
        assert!(cap.apply(&stop("s"), &mut d), "0: never");
        assert_eq!(cap.len(), 0);
    }

    #[test]
    fn the_table_is_bounded() {
        let cap = FollowupCap::new(5);
        for n in 0..MAX_SESSIONS + 10 {
            cap.apply(&stop(&format!("s{n}")), &mut followup());
        }
        assert_eq!(cap.len(), MAX_SESSIONS);
        // The newest sessions are still counted.
        let newest = format!("s{}", MAX_SESSIONS + 9);
        let mut loops = cap.loops.lock().unwrap();
        let key = Loop {
            dialect: Dialect::Codex,
            session: Some(newest),
            subagent: None,
        };
        assert_eq!(loops.get(&key).map(|s| s.count), Some(1));
        // Aged ones go first.
        let aged = Instant::now().checked_sub(MAX_AGE * 2);
        if let Some(aged) = aged {
            for streak in loops.values_mut().take(5) {
                streak.last = aged;
            }
            make_room(&mut loops, Instant::now());
            assert_eq!(loops.len(), MAX_SESSIONS - 5);
        }
    }
}
