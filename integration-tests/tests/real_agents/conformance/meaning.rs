//! What each decision part must make the agent do (docs/agents.md, top),
//! as checks on what a run left: was the scripted action done, how many
//! model requests were there, did the model read the part's text.

use hookgate_adapters::Capabilities;

/// A decision part, or a gateway-down reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    Deny,
    Ask,
    Allow,
    Context,
    Rewrite,
    Halt,
    Followup,
    /// A follow-up on every stop, the loop's continuations included: the
    /// gateway's cap (`[server] max_followups`) must end the run.
    FollowupEveryStop,
    FailOpen,
    FailClosed,
}

/// The gateway's default cap on follow-ups in a row per session
/// (`[server] max_followups`), which the every-stop row counts on.
pub(crate) const MAX_FOLLOWUPS: usize = 3;

impl Part {
    /// Everything a subscriber (or a dead gateway) can say before a tool
    /// call: the row set of every agent's pre-tool event.
    pub(crate) const PRE_TOOL: [Part; 8] = [
        Part::Deny,
        Part::Ask,
        Part::Allow,
        Part::Context,
        Part::Rewrite,
        Part::Halt,
        Part::FailOpen,
        Part::FailClosed,
    ];

    /// Parses [`Part::as_str`].
    pub(crate) fn from_name(name: &str) -> Option<Part> {
        Part::PRE_TOOL
            .into_iter()
            .chain([Part::Followup, Part::FollowupEveryStop])
            .find(|part| part.as_str() == name)
    }

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Part::Deny => "deny",
            Part::Ask => "ask",
            Part::Allow => "allow",
            Part::Context => "context",
            Part::Rewrite => "rewrite",
            Part::Halt => "halt",
            Part::Followup => "follow-up",
            Part::FollowupEveryStop => "follow-up on every stop",
            Part::FailOpen => "gateway down, fail-open",
            Part::FailClosed => "gateway down, fail-closed",
        }
    }
}

/// When an event fires relative to the scripted action, which decides what
/// a part means there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Before the action (a tool call, a skill's shell command).
    Pre,
    /// After the action ran.
    Post,
    /// Before the first model request (the prompt, the session).
    Prompt,
    /// When the agent is about to stop.
    Stop,
}

/// How a part is said for an event, by the adapter's capabilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expressed {
    Yes,
    /// A deny after the fact: its reason as context.
    AsFeedback,
    /// An ask nobody can answer: a deny.
    AsDeny,
    /// Not expressible: left out and counted as a loss.
    Loss,
}

impl Expressed {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Expressed::Yes => "yes",
            Expressed::AsFeedback => "as feedback",
            Expressed::AsDeny => "as deny",
            Expressed::Loss => "no (loss)",
        }
    }

    /// Parses [`Expressed::as_str`].
    pub(crate) fn from_name(name: &str) -> Option<Expressed> {
        [
            Expressed::Yes,
            Expressed::AsFeedback,
            Expressed::AsDeny,
            Expressed::Loss,
        ]
        .into_iter()
        .find(|e| e.as_str() == name)
    }
}

/// What a run left, as far as the checks go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Observed {
    /// The scripted action happened (its marker exists).
    pub(crate) ran: bool,
    /// The rewritten action happened instead.
    pub(crate) rewritten: bool,
    /// Model requests (conversation turns).
    pub(crate) calls: usize,
    /// Some model request carried the part's text.
    pub(crate) told: bool,
}

/// The checks for one scenario; `None` = not checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Expect {
    pub(crate) ran: Option<bool>,
    pub(crate) rewritten: Option<bool>,
    pub(crate) calls: Option<usize>,
    pub(crate) told: Option<bool>,
}

impl Expect {
    pub(crate) fn holds(&self, seen: &Observed) -> bool {
        self.ran.is_none_or(|ran| ran == seen.ran)
            && self.rewritten.is_none_or(|r| r == seen.rewritten)
            && self.calls.is_none_or(|calls| calls == seen.calls)
            && self.told.is_none_or(|told| told == seen.told)
    }
}

/// How `part` is said on an event with `caps` in `phase`.
pub(crate) fn expressed(phase: Phase, part: Part, caps: Capabilities) -> Expressed {
    let yes = |can: bool| if can { Expressed::Yes } else { Expressed::Loss };
    match part {
        Part::Allow | Part::FailOpen | Part::FailClosed => Expressed::Yes,
        Part::Deny if phase == Phase::Post && !caps.deny && caps.context => Expressed::AsFeedback,
        Part::Deny => yes(caps.deny),
        Part::Ask if caps.ask => Expressed::Yes,
        Part::Ask if caps.deny => Expressed::AsDeny,
        Part::Ask => Expressed::Loss,
        Part::Context => yes(caps.context),
        Part::Rewrite => yes(caps.input_rewrite),
        Part::Halt => yes(caps.halt),
        Part::Followup | Part::FollowupEveryStop => yes(caps.followup),
    }
}

/// What a run with no opinion does: whether the action runs, and how many
/// model requests there are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Baseline {
    pub(crate) ran: bool,
    pub(crate) calls: usize,
}

/// What the agent must do. A part that is a loss must leave exactly what a
/// neutral run does ([`Baseline`]), never something with another meaning.
pub(crate) fn expect(phase: Phase, part: Part, how: Expressed, neutral: Baseline) -> Expect {
    let as_neutral = Expect {
        ran: Some(neutral.ran),
        calls: Some(neutral.calls),
        ..Expect::default()
    };
    let calls = neutral.calls;
    match (how, part) {
        (Expressed::Loss, _) | (_, Part::FailOpen) => as_neutral,
        (_, Part::Allow) => Expect {
            ran: Some(true),
            ..as_neutral
        },
        (_, Part::FailClosed) => Expect {
            ran: Some(false),
            ..Expect::default()
        },
        (Expressed::AsFeedback, _) => Expect {
            told: Some(true),
            ..as_neutral
        },
        (_, Part::Deny | Part::Ask) if phase == Phase::Prompt => Expect {
            ran: Some(false),
            calls: Some(0),
            ..Expect::default()
        },
        // Headless nobody can be asked, so an ask is refused too; only a
        // deny promises the model its reason.
        (_, Part::Deny | Part::Ask) => Expect {
            ran: Some(false),
            calls: Some(calls),
            told: (part == Part::Deny).then_some(true),
            ..Expect::default()
        },
        (_, Part::Context) => Expect {
            told: Some(true),
            ..as_neutral
        },
        (_, Part::Rewrite) => Expect {
            ran: Some(false),
            rewritten: Some(true),
            calls: Some(calls),
            ..Expect::default()
        },
        (_, Part::Halt) => match phase {
            Phase::Pre => Expect {
                ran: Some(false),
                calls: Some(calls.saturating_sub(1)),
                ..Expect::default()
            },
            Phase::Post => Expect {
                ran: Some(true),
                calls: Some(calls.saturating_sub(1)),
                ..Expect::default()
            },
            Phase::Prompt => Expect {
                ran: Some(false),
                calls: Some(0),
                ..Expect::default()
            },
            // The loop was about to end anyway: it must not go on.
            Phase::Stop => as_neutral,
        },
        (_, Part::Followup) => Expect {
            ran: Some(true),
            calls: Some(calls + 1),
            told: Some(true),
            ..Expect::default()
        },
        // Each follow-up is one more request, until the gateway drops the
        // one past its cap and the agent stops.
        (_, Part::FollowupEveryStop) => Expect {
            ran: Some(true),
            calls: Some(calls + MAX_FOLLOWUPS),
            told: Some(true),
            ..Expect::default()
        },
    }
}
