//! The kinds of rows the store keeps, with their stable names (the
//! database's `kind` column and `gateway memory --json`).

/// What a raw observation is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ObservationKind {
    SessionStart,
    SessionEnd,
    /// A prompt the user submitted.
    Prompt,
    /// A shell command and its outcome (output excerpt).
    Command,
    /// Another tool's call and its outcome.
    Tool,
    /// A tool call or command that failed, and why.
    Failure,
    /// A file written or edited (its path).
    File,
}

impl ObservationKind {
    pub const ALL: [ObservationKind; 7] = [
        ObservationKind::SessionStart,
        ObservationKind::SessionEnd,
        ObservationKind::Prompt,
        ObservationKind::Command,
        ObservationKind::Tool,
        ObservationKind::Failure,
        ObservationKind::File,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ObservationKind::SessionStart => "session_start",
            ObservationKind::SessionEnd => "session_end",
            ObservationKind::Prompt => "prompt",
            ObservationKind::Command => "command",
            ObservationKind::Tool => "tool",
            ObservationKind::Failure => "failure",
            ObservationKind::File => "file",
        }
    }

    pub fn parse(name: &str) -> Option<ObservationKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

/// What a memory says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemoryKind {
    /// Something learned: a command's outcome, a tool's output.
    Fact,
    /// What the user asked for (a prompt).
    Decision,
    /// Files the session touched.
    File,
    /// Something that failed.
    Problem,
}

impl MemoryKind {
    pub const ALL: [MemoryKind; 4] = [
        MemoryKind::Fact,
        MemoryKind::Decision,
        MemoryKind::File,
        MemoryKind::Problem,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            MemoryKind::Fact => "fact",
            MemoryKind::Decision => "decision",
            MemoryKind::File => "file",
            MemoryKind::Problem => "problem",
        }
    }

    pub fn parse(name: &str) -> Option<MemoryKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == name)
    }
}
