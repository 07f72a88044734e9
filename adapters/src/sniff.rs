//! A dependency-free scan of a JSON document's top-level object: which keys
//! it has and the string values of a few of them.
//!
//! `detect` and `fallback` run in the shim, which must not pull in serde, so
//! they cannot parse JSON properly. They only need the top level: this
//! scanner walks the document once, tracks nesting and string escapes, and
//! never panics or allocates more than the keys it is asked about.

// IMPLEMENTATION: see the module doc. Suggested API (crate-private):
//   pub(crate) struct TopLevel<'a> { .. }
//   pub(crate) fn scan(payload: &[u8]) -> Option<TopLevel<'_>>  // None: not a JSON object
//   TopLevel::has_key(&self, key: &str) -> bool
//   TopLevel::string_value(&self, key: &str) -> Option<String> // unescaped, only if the value is a string
