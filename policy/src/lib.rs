//! Policy as code for hookgate: the built-in `rego` subscriber's engine.
//!
//! A [`Policy`] is Rego compiled once (regorus, in-process, no OPA) from
//! `.rego` modules and JSON data, either files named in the config or an
//! OPA [`bundle`]. Each event becomes the documented [`input`] document;
//! the configured query (`data.hookgate.decision` by default) answers an
//! object in the shape of a subscriber decision (`decision`). Every
//! evaluation is bounded: input size, a wall-clock limit the interpreter
//! checks as it works, output size ([`Limits`]); over any of them is an
//! [`EvalError`], which the gateway turns into the subscriber's `on_error`.
//!
//! Bundles ([`bundle`]) are read as `opa build` writes them (gzip tar,
//! `.manifest` with `revision` and `roots`), verified per OPA's bundle
//! signing (`.signatures.json`: one JWT over every file's digest, RS256 or
//! ES256 keys from config), refused when unsigned-but-required, tampered or
//! older than the last good one (`bundle::Revision`), and kept on disk
//! ([`cache`]) so a restart offline still enforces the last good bundle.
//! [`fetch`] polls a bundle URL with `If-None-Match`.
//!
//! This crate knows no tokio and no gateway: the gateway decides on which
//! thread evaluation and fetching run, and what a failure means.

pub mod bundle;
pub mod cache;
mod decision;
mod engine;
pub mod fetch;
pub mod input;

#[cfg(test)]
mod tests;

pub use decision::{DecisionError, decision_from_value};
pub use engine::{CompileError, DataFile, EvalError, Limits, Module, Policy, files_digest};
