//! Test support: canonical events built by hand (adapters' `sample`, as
//! the daemon's and the guard's tests build them), for the filters and the
//! default guard's rules.

pub(crate) use hookgate_adapters::sample::{event, shell_tool};
