//! Per-rule hit counters of a built-in guard: how often each rule decided,
//! by its stable id, so `gateway status` and Prometheus say which rules
//! fire. Counters live in the subscriber's stats by id, so they survive a
//! reload that keeps the rule; the hook path holds each rule's counter and
//! only adds to it.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use hookgate_guard::Action;

/// The id of the hits the guard denied for no rule: a call it could not
/// check (past a bound). Not a valid rule id, so never a rule's.
pub(crate) const UNCHECKED: &str = "(unchecked)";

/// One rule's hits.
#[derive(Debug, Default)]
pub struct RuleHits {
    hits: AtomicU64,
    /// 0: deny, 1: ask (what the rule does, as last built).
    ask: AtomicU64,
}

impl RuleHits {
    pub fn hit(&self) {
        self.hits.fetch_add(1, Ordering::Relaxed);
    }

    fn set_action(&self, action: Action) {
        self.ask
            .store(u64::from(action == Action::Ask), Ordering::Relaxed);
    }
}

/// A subscriber's rules' counters by id.
#[derive(Debug, Default)]
pub struct Rules(Mutex<BTreeMap<String, Arc<RuleHits>>>);

/// One rule's count, for reports.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RuleCount {
    pub id: String,
    /// `deny` or `ask`.
    pub action: &'static str,
    pub hits: u64,
}

impl Rules {
    /// The counter of rule `id`, created on first use (at build, never on
    /// the hook path).
    pub fn counter(&self, id: &str, action: Action) -> Arc<RuleHits> {
        let mut rules = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let counter = rules.entry(id.to_owned()).or_default();
        counter.set_action(action);
        Arc::clone(counter)
    }

    /// Adds `hits` to rule `id` (restored counts).
    pub fn add(&self, id: &str, action: Action, hits: u64) {
        self.counter(id, action)
            .hits
            .fetch_add(hits, Ordering::Relaxed);
    }

    /// Every rule that ever hit, by id.
    pub fn snapshot(&self) -> Vec<RuleCount> {
        let rules = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        rules
            .iter()
            .map(|(id, counter)| RuleCount {
                id: id.clone(),
                action: if counter.ask.load(Ordering::Relaxed) == 1 {
                    "ask"
                } else {
                    "deny"
                },
                hits: counter.hits.load(Ordering::Relaxed),
            })
            .filter(|r| r.hits > 0)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_shared_by_id_and_only_hits_are_reported() {
        let rules = Rules::default();
        let a = rules.counter("env-read", Action::Deny);
        let again = rules.counter("env-read", Action::Deny);
        rules.counter("never", Action::Ask);
        a.hit();
        again.hit();
        rules.add("pem", Action::Ask, 3);
        assert_eq!(
            rules.snapshot(),
            [
                RuleCount {
                    id: "env-read".into(),
                    action: "deny",
                    hits: 2
                },
                RuleCount {
                    id: "pem".into(),
                    action: "ask",
                    hits: 3
                },
            ]
        );
    }
}
