//! The table shared by the agents whose hooks are a shell tool's pre- and
//! post-tool events and a stop event: every pre-tool part (the gateway
//! down included) on the pre-tool event, what can be said after the fact
//! on the post-tool one, and what can be said when the agent stops.

use super::matrix::{Scenario, Setup};
use super::meaning::{Part, Phase};

/// The parts asked after the tool ran.
const POST: [Part; 3] = [Part::Deny, Part::Context, Part::Halt];
/// The parts asked when the agent is about to stop.
const STOP: [Part; 4] = [
    Part::Context,
    Part::Halt,
    Part::Followup,
    Part::FollowupEveryStop,
];

/// The native event names of an agent's tool table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ToolEvents {
    pub(crate) pre: &'static str,
    pub(crate) post: &'static str,
    /// `None` for an agent with no stop hook.
    pub(crate) stop: Option<&'static str>,
}

/// The scenarios of `events`, one shell call each, in table order.
pub(crate) fn scenarios(events: ToolEvents) -> Vec<Scenario> {
    let row = |event: &'static str, phase: Phase| {
        move |part: &Part| Scenario {
            event,
            hook: event,
            phase,
            part: *part,
            setup: Setup::Shell,
        }
    };
    let stop = events
        .stop
        .into_iter()
        .flat_map(|event| STOP.iter().map(row(event, Phase::Stop)));
    Part::PRE_TOOL
        .iter()
        .map(row(events.pre, Phase::Pre))
        .chain(POST.iter().map(row(events.post, Phase::Post)))
        .chain(stop)
        .collect()
}
