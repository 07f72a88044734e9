//! Tidy: rules of the repository's shape, checked as tests so that
//! `cargo test --workspace` keeps them: every Rust file says what it is
//! (`//!`), every relative link in the Markdown reaches a file, and every
//! page of the user guide (`docs/`) is in the book's `SUMMARY.md`.
//!
//! The module-cycle and adding-an-agent checks are still the Python
//! scripts in `.ci/` until they move here.

#![allow(
    clippy::disallowed_methods,
    reason = "reads the repository's files from a test, off any runtime"
)]

mod docs;
mod headers;
mod walk;
