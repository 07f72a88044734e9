//! What a person allowed for the rest of a session: every call an
//! `approval` subscriber would hold in it, or one exact command. Bounded:
//! [`MAX_SESSIONS`] sessions (the oldest forgotten first) and
//! [`MAX_COMMANDS`] commands each (past it, a command is not remembered
//! and is held again).

use std::collections::{HashMap, HashSet, VecDeque};

/// Sessions remembered at once.
pub(crate) const MAX_SESSIONS: usize = 1024;
/// Exact commands remembered per session.
pub(crate) const MAX_COMMANDS: usize = 64;
/// A longer command is not remembered.
const MAX_COMMAND_LEN: usize = 4096;

/// How far an approval reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// This call only.
    Once,
    /// Every call this subscriber would hold in this session.
    Session,
    /// This exact command, in this session.
    Command,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Once => "once",
            Scope::Session => "session",
            Scope::Command => "command",
        }
    }

    pub fn parse(text: &str) -> Option<Scope> {
        match text {
            "" | "once" => Some(Scope::Once),
            "session" => Some(Scope::Session),
            "command" => Some(Scope::Command),
            _ => None,
        }
    }
}

#[derive(Debug, Default)]
struct Allowed {
    all: bool,
    commands: HashSet<String>,
}

/// Per (subscriber, session): what is allowed.
#[derive(Debug, Default)]
pub(super) struct Sessions {
    allowed: HashMap<(String, String), Allowed>,
    /// Insertion order, to forget the oldest.
    order: VecDeque<(String, String)>,
}

impl Sessions {
    /// Remembers `scope` for (`subscriber`, `session`); the scope really
    /// remembered: [`Scope::Once`] when nothing was (a command scope with
    /// no command, one too long, or past [`MAX_COMMANDS`]).
    pub(super) fn allow(
        &mut self,
        subscriber: &str,
        session: &str,
        scope: Scope,
        command: Option<&str>,
    ) -> Scope {
        let remembered = match (scope, command) {
            (Scope::Session, _) => Scope::Session,
            (Scope::Command, Some(command)) if command.len() <= MAX_COMMAND_LEN => Scope::Command,
            _ => return Scope::Once,
        };
        let key = (subscriber.to_owned(), session.to_owned());
        if let Some(entry) = self.allowed.get(&key)
            && remembered == Scope::Command
            && entry.commands.len() >= MAX_COMMANDS
            && !command.is_some_and(|c| entry.commands.contains(c))
        {
            return Scope::Once;
        }
        if !self.allowed.contains_key(&key) {
            while self.order.len() >= MAX_SESSIONS {
                if let Some(oldest) = self.order.pop_front() {
                    self.allowed.remove(&oldest);
                }
            }
            self.order.push_back(key.clone());
        }
        let entry = self.allowed.entry(key).or_default();
        match (remembered, command) {
            (Scope::Command, Some(command)) => {
                entry.commands.insert(command.to_owned());
            }
            _ => entry.all = true,
        }
        remembered
    }

    pub(super) fn allowed(
        &self,
        subscriber: &str,
        session: &str,
        command: Option<&str>,
    ) -> Option<Scope> {
        let entry = self
            .allowed
            .get(&(subscriber.to_owned(), session.to_owned()))?;
        if entry.all {
            return Some(Scope::Session);
        }
        command
            .filter(|c| entry.commands.contains(*c))
            .map(|_| Scope::Command)
    }
}
