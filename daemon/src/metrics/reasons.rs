//! The bounded label sets of the gateway's failure counters.

use hookgate_adapters::{DetectError, ParseError, ParseErrorKind};
use hookgate_wire::fallback_record::Reason;

/// Why a connection was closed without a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The peer runs as another user.
    ForeignUid,
    /// The kernel would not tell the peer's credentials.
    NoPeerCred,
    /// Every connection slot stayed taken for the whole queue wait.
    Busy,
    /// The request did not arrive before the read deadline.
    ReadTimeout,
    /// The request frame is larger than the gateway accepts.
    Oversize,
    /// The bytes are not a valid request frame.
    BadFrame,
    /// The reply could not be written back.
    WriteFailed,
    /// The shim hung up before its request was evaluated (it had already
    /// given up and answered on its own): dropped before the fan-out.
    ShimGone,
    /// Taking the request would put the bytes in flight over the memory
    /// budget.
    OverBudget,
}

impl Refusal {
    /// Every reason, in a stable order (the index of the counter array).
    pub const ALL: [Refusal; 9] = [
        Refusal::ForeignUid,
        Refusal::NoPeerCred,
        Refusal::Busy,
        Refusal::ReadTimeout,
        Refusal::Oversize,
        Refusal::BadFrame,
        Refusal::WriteFailed,
        Refusal::ShimGone,
        Refusal::OverBudget,
    ];

    /// Name used in metric labels.
    pub fn as_str(self) -> &'static str {
        match self {
            Refusal::ForeignUid => "foreign_uid",
            Refusal::NoPeerCred => "no_peer_cred",
            Refusal::Busy => "busy",
            Refusal::ReadTimeout => "read_timeout",
            Refusal::Oversize => "oversize",
            Refusal::BadFrame => "bad_frame",
            Refusal::WriteFailed => "write_failed",
            Refusal::ShimGone => "shim_gone",
            Refusal::OverBudget => "over_budget",
        }
    }
}

/// Why the HTTP hook endpoint refused a request or connection (answered
/// with an error status, or closed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpRefusal {
    /// No `Authorization: Bearer` token.
    NoToken,
    /// A token, but not this gateway's.
    BadToken,
    /// The connecting socket belongs to another user (Linux).
    ForeignUid,
    /// The connecting socket's owner could not be found (Linux).
    NoPeerUid,
    /// Not `POST /hook/<agent>[/<event>]` for an agent with HTTP hooks.
    NotFound,
    /// No `Content-Length`, or a body over the frame's limit.
    Oversize,
    /// The body did not arrive before the read deadline.
    ReadTimeout,
    /// Every open-connection place is taken: closed at once.
    TooManyConnections,
    /// No evaluation slot within the queue wait: answered with the hook
    /// call's fail mode.
    Busy,
    /// The body does not fit in the memory budget now: answered with the
    /// hook call's fail mode.
    OverBudget,
}

impl HttpRefusal {
    /// Every reason, in a stable order (the index of the counter array).
    pub const ALL: [HttpRefusal; 10] = [
        HttpRefusal::NoToken,
        HttpRefusal::BadToken,
        HttpRefusal::ForeignUid,
        HttpRefusal::NoPeerUid,
        HttpRefusal::NotFound,
        HttpRefusal::Oversize,
        HttpRefusal::ReadTimeout,
        HttpRefusal::TooManyConnections,
        HttpRefusal::Busy,
        HttpRefusal::OverBudget,
    ];

    /// Name used in metric labels.
    pub fn as_str(self) -> &'static str {
        match self {
            HttpRefusal::NoToken => "no_token",
            HttpRefusal::BadToken => "bad_token",
            HttpRefusal::ForeignUid => "foreign_uid",
            HttpRefusal::NoPeerUid => "no_peer_uid",
            HttpRefusal::NotFound => "not_found",
            HttpRefusal::Oversize => "oversize",
            HttpRefusal::ReadTimeout => "read_timeout",
            HttpRefusal::TooManyConnections => "too_many_connections",
            HttpRefusal::Busy => "busy",
            HttpRefusal::OverBudget => "over_budget",
        }
    }
}

/// Why a payload was not understood (it then gets the hook call's fail
/// mode: the agent's neutral reply, or its blocking one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unparsed {
    /// Not JSON, even by `JSON.parse`'s rules.
    NotJson,
    /// JSON, but not an object.
    NotAnObject,
    /// Nested deeper than the adapters accept.
    TooDeep,
    /// A field missing or of the wrong type for its agent's dialect.
    BadField,
    /// No known agent's dialect (and no agent argument).
    UnknownDialect,
    /// The agent is known but has no adapter.
    NoAdapter,
}

impl Unparsed {
    /// Every reason, in a stable order (the index of the counter array).
    pub const ALL: [Unparsed; 6] = [
        Unparsed::NotJson,
        Unparsed::NotAnObject,
        Unparsed::TooDeep,
        Unparsed::BadField,
        Unparsed::UnknownDialect,
        Unparsed::NoAdapter,
    ];

    /// Name used in metric labels.
    pub fn as_str(self) -> &'static str {
        match self {
            Unparsed::NotJson => "not_json",
            Unparsed::NotAnObject => "not_an_object",
            Unparsed::TooDeep => "too_deep",
            Unparsed::BadField => "bad_field",
            Unparsed::UnknownDialect => "unknown_dialect",
            Unparsed::NoAdapter => "no_adapter",
        }
    }

    pub fn of_detect(err: &DetectError) -> Unparsed {
        match err {
            DetectError::NotAnObject => Unparsed::NotAnObject,
            DetectError::UnknownDialect => Unparsed::UnknownDialect,
            DetectError::UnsupportedAgent(_) => Unparsed::NoAdapter,
        }
    }

    pub fn of_parse(err: &ParseError) -> Unparsed {
        match err.kind {
            ParseErrorKind::NotJson { .. } => Unparsed::NotJson,
            ParseErrorKind::NotAnObject => Unparsed::NotAnObject,
            ParseErrorKind::TooDeep => Unparsed::TooDeep,
            ParseErrorKind::MissingField(_) | ParseErrorKind::WrongType { .. } => {
                Unparsed::BadField
            }
        }
    }
}

/// Why a shim answered without the gateway: each reason the shim writes
/// in its fallback record, then `other` for a token this gateway does not
/// know (a newer shim's).
pub(crate) const FALLBACK_REASONS: [&str; Reason::ALL.len() + 1] = {
    let mut names = ["other"; Reason::ALL.len() + 1];
    let mut i = 0;
    while i < Reason::ALL.len() {
        names[i] = Reason::ALL[i].as_str();
        i += 1;
    }
    names
};
