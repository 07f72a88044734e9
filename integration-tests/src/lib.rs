//! Test harness for hookgate's end-to-end tests. IMPLEMENT.
