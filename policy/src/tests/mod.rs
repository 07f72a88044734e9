//! The policy crate's tests: evaluation and its bounds, the input
//! document, bundles (reading, signatures, rollback, cache) and fetching.

mod bundles;
mod evaluate;
pub(crate) mod support;
