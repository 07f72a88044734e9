//! N subscriber decisions to one, by the written rules in docs/agents.md:
//! deny > ask > allow > no opinion; reasons and agent messages joined;
//! contexts concatenated in priority order and truncated to the agent's
//! limit with a visible marker; one input rewrite (highest priority wins,
//! the others are conflicts); halt if anyone halts; follow-ups joined.

use crate::{Decision, Dialect};

/// One subscriber's decision with what merge needs to order it.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedDecision {
    pub subscriber: String,
    /// Higher wins rewrite conflicts and comes first in joined text.
    pub priority: i32,
    pub decision: Decision,
}

/// The merged decision and what merging had to drop.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Merged {
    pub decision: Decision,
    /// Subscribers whose input rewrite lost to a higher-priority one.
    pub rewrite_conflicts: Vec<String>,
    /// The joined context exceeded the agent's limit and was cut.
    pub context_truncated: bool,
}

/// Merges `decisions` for an event of `dialect`. Ties in priority keep the
/// order of `decisions` (the gateway passes them in config order).
pub fn merge(dialect: Dialect, decisions: &[RankedDecision]) -> Merged {
    let _ = (dialect, decisions);
    Merged::default() // IMPLEMENT
}
