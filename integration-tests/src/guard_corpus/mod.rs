//! The held-out guard corpus through the real binaries: dangerous and
//! ordinary command lines from `test-data/guard-corpus/`, each sent as a
//! Claude Code `Bash` call through a real `gateway-shim` to a real gateway
//! on its embedded default config, and the list of today's gaps.
//!
//! Shared by the `it` test `guard_heldout` (which keeps the gaps list
//! true) and hookbench's `guard` section (which reports the rates).

mod corpus;
pub mod gaps;
mod run;
mod summary;

pub use corpus::{CorpusError, Kind, OUT_OF_SCOPE, Row, dir, load, parse};
pub use run::{Outcome, RunError, Verdict, run};
pub use summary::{Summary, Tally};

/// The user's home directory the corpus is written for: the Claude Code
/// sample payload runs in `/home/dev/acme-api`.
pub const HOME: &str = "/home/dev";

/// The shim's agent argument for the corpus's payloads.
pub const AGENT: &str = "claude-code";
