//! The scripted conversation: what the fake model answers on each turn.
//!
//! The server is stateless: a request's turn is the number of assistant
//! messages already in its history, so a retried or repeated request gets
//! the same answer and an agent's side requests (titles, probes) cannot
//! shift the script.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// Stands for a lone UTF-16 surrogate in a scripted shell command. JSON
/// can carry one only as the escape `\ud800`, which no Rust string holds,
/// so the Anthropic stream writes the escape where this token stands: the
/// agent's `JSON.parse` then holds a JavaScript string with an unpaired
/// surrogate, as a model can make it do through any tool argument.
pub const LONE_SURROGATE: &str = "@HG-LONE-SURROGATE@";

/// One scripted answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Step {
    /// Call the agent's shell tool with this command line (Anthropic:
    /// `Bash {command, description}`; OpenAI: `run_commands {commands}`).
    Shell { command: String },
    /// Answer with plain text, ending the turn.
    Text { text: String },
}

/// The whole conversation, as a JSON file the fake server reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Script {
    /// Turn `n` answers `turns[n]`; turns past the end repeat the last one.
    pub turns: Vec<Step>,
    /// The answer to requests that do not offer the shell tool (an agent's
    /// side requests, e.g. a title for the session).
    #[serde(default = "default_side_text")]
    pub side_text: String,
}

fn default_side_text() -> String {
    "ok".to_owned()
}

/// Why a script file could not be had.
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    #[error("reading script {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("script {path} is not a valid script: {source}")]
    Json {
        path: String,
        source: serde_json::Error,
    },
    #[error("script {path} has no turns")]
    Empty { path: String },
}

impl Script {
    /// Turn 0 runs `command` in the shell tool; every later turn answers
    /// `text`.
    pub fn shell_then_text(command: &str, text: &str) -> Script {
        Script {
            turns: vec![
                Step::Shell {
                    command: command.to_owned(),
                },
                Step::Text {
                    text: text.to_owned(),
                },
            ],
            side_text: default_side_text(),
        }
    }

    /// The answer for `turn` (the last step repeats); `None` only for a
    /// script without turns, which [`Script::load`] refuses.
    pub fn step(&self, turn: usize) -> Option<&Step> {
        self.turns.get(turn).or_else(|| self.turns.last())
    }

    /// What to answer a request in its `turn` (assistant messages already
    /// in its history), given whether it offers the shell tool.
    pub fn answer(&self, turn: usize, offers_shell: bool) -> Step {
        match self.step(turn) {
            Some(step) if offers_shell => step.clone(),
            _ => Step::Text {
                text: self.side_text.clone(),
            },
        }
    }

    /// Reads and checks a script file.
    pub fn load(path: &Path) -> Result<Script, ScriptError> {
        let shown = || path.display().to_string();
        let text = std::fs::read(path).map_err(|source| ScriptError::Io {
            path: shown(),
            source,
        })?;
        let script: Script = serde_json::from_slice(&text).map_err(|source| ScriptError::Json {
            path: shown(),
            source,
        })?;
        if script.turns.is_empty() {
            return Err(ScriptError::Empty { path: shown() });
        }
        Ok(script)
    }

    /// Writes the script where [`Script::load`] reads it.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let text = serde_json::to_vec_pretty(self).map_err(std::io::Error::other)?;
        std::fs::write(path, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_turns_repeat_the_last_step() {
        let script = Script::shell_then_text("touch m", "done");
        assert_eq!(
            script.step(0),
            Some(&Step::Shell {
                command: "touch m".into()
            })
        );
        for turn in [1, 2, 9] {
            assert_eq!(
                script.step(turn),
                Some(&Step::Text {
                    text: "done".into()
                })
            );
        }
    }

    #[test]
    fn round_trips_through_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("script.json");
        let script = Script::shell_then_text("echo 'a \"b\"'", "done");
        script.save(&path).unwrap();
        assert_eq!(Script::load(&path).unwrap(), script);
    }

    #[test]
    fn refuses_an_empty_script() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("script.json");
        std::fs::write(&path, r#"{"turns": []}"#).unwrap();
        assert!(matches!(
            Script::load(&path),
            Err(ScriptError::Empty { .. })
        ));
    }
}
