//! Tidy: rules of the repository's shape, checked as tests so that
//! `cargo test --workspace` keeps them: every Rust file says what it is
//! (`//!`), every relative link in the Markdown reaches a file, and every
//! page of the user guide (`docs/`) is in the book's `SUMMARY.md`.
//!
//! No module cycle at any depth of any crate (`cycles`), and the
//! adding-an-agent checklist names every file that lists the agents
//! (`agent_template`).

#![allow(
    clippy::disallowed_methods,
    reason = "reads the repository's files from a test, off any runtime"
)]

mod agent_template;
mod cycles;
mod docs;
mod headers;
mod paths;
mod source;
mod walk;
