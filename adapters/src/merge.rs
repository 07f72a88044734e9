//! N subscriber decisions to one, by the written rules in docs/agents.md:
//! deny > ask > allow > no opinion; reasons and agent messages joined;
//! contexts concatenated in priority order and truncated to the agent's
//! limit with a visible marker; one input rewrite (highest priority wins,
//! the others are conflicts); halt if anyone halts; follow-ups joined.

use crate::{Decision, Dialect, Permission};

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
///
/// The rules (docs/agents.md, "Merging decisions"):
/// * permission: the strongest wins, deny > ask > allow > unspecified;
/// * `reason` and `agent_message`: those of the decisions that hold the
///   winning permission, plus those of decisions that halt (their reason is
///   the stop reason), joined with `\n`, highest priority first; a text
///   repeated verbatim appears once. Reasons of the losing side are left out
///   on purpose: an allow's "read-only command" must not be shown as part of
///   a deny's explanation;
/// * `additional_context`: every decision's, joined with `\n\n`, highest
///   priority first, cut to [`Dialect::context_limit`] characters with
///   the marker `"\n[hookgate: context truncated]"` (the marker counts towards the limit);
/// * `updated_input`: single writer, the highest priority wins (first in
///   input order on a tie); the others are listed in `rewrite_conflicts`;
/// * `halt`: if any decision halts;
/// * `followup_message`: every decision's, joined with `\n\n`, highest
///   priority first.
///
/// Empty strings count as absent.
pub fn merge(dialect: Dialect, decisions: &[RankedDecision]) -> Merged {
    let mut ranked: Vec<&RankedDecision> = decisions.iter().collect();
    // Stable: equal priorities keep input order.
    ranked.sort_by_key(|ranked| std::cmp::Reverse(ranked.priority));

    let permission = ranked
        .iter()
        .map(|ranked| ranked.decision.permission)
        .max()
        .unwrap_or(Permission::Unspecified);
    let speaks = |d: &Decision| d.permission == permission || d.halt;

    let mut merged = Merged::default();
    let decision = &mut merged.decision;
    decision.permission = permission;
    decision.halt = ranked.iter().any(|ranked| ranked.decision.halt);
    decision.reason = join(&ranked, "\n", true, |d| {
        speaks(d).then_some(d.reason.as_deref()).flatten()
    });
    decision.agent_message = join(&ranked, "\n", true, |d| {
        speaks(d).then_some(d.agent_message.as_deref()).flatten()
    });
    decision.followup_message = join(&ranked, "\n\n", false, |d| d.followup_message.as_deref());
    if let Some(context) = join(&ranked, "\n\n", false, |d| d.additional_context.as_deref()) {
        let (context, truncated) = truncate_chars(context, dialect.context_limit());
        decision.additional_context = Some(context);
        merged.context_truncated = truncated;
    }

    let mut rewrites = ranked
        .iter()
        .filter(|ranked| ranked.decision.updated_input.is_some());
    if let Some(winner) = rewrites.next() {
        decision.updated_input = winner.decision.updated_input.clone();
        merged.rewrite_conflicts = rewrites.map(|loser| loser.subscriber.clone()).collect();
    }
    merged
}

/// Appended to context cut at the agent's limit, so the model can tell.
pub(crate) const TRUNCATION_MARKER: &str = "\n[hookgate: context truncated]";

/// Joins the non-empty texts `pick` returns, in `ranked` order.
fn join<'a>(
    ranked: &[&'a RankedDecision],
    separator: &str,
    dedup: bool,
    pick: impl Fn(&'a Decision) -> Option<&'a str>,
) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for text in ranked.iter().filter_map(|ranked| pick(&ranked.decision)) {
        let repeated = dedup && parts.contains(&text);
        if !text.is_empty() && !repeated {
            parts.push(text);
        }
    }
    (!parts.is_empty()).then(|| parts.join(separator))
}

/// Cuts `text` to at most `limit` characters (not bytes, so a UTF-8
/// character is never split), ending with [`TRUNCATION_MARKER`] when cut.
fn truncate_chars(mut text: String, limit: usize) -> (String, bool) {
    if text.chars().nth(limit).is_none() {
        return (text, false); // at most `limit` characters
    }
    let marker_chars = TRUNCATION_MARKER.chars().count();
    if marker_chars >= limit {
        return (TRUNCATION_MARKER.chars().take(limit).collect(), true);
    }
    let keep = limit - marker_chars;
    let end = text.char_indices().nth(keep).map_or(text.len(), |(i, _)| i);
    text.truncate(end); // `end` is a char boundary
    text.push_str(TRUNCATION_MARKER);
    (text, true)
}

#[cfg(test)]
mod tests;
