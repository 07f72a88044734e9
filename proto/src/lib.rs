//! The `hookgate.v1` gRPC contract, generated from `hookgate/v1/hookgate.proto`.
//!
//! This crate holds generated code and nothing else: no conversions, no
//! policy. The gateway maps these types to the canonical ones of `adapters`
//! in exactly one module (the daemon's `convert`).

/// Package `hookgate.v1`.
#[allow(
    missing_docs,
    unreachable_pub,
    missing_debug_implementations,
    clippy::all,
    clippy::unwrap_used
)]
pub mod v1 {
    tonic::include_proto!("hookgate.v1");

    /// The encoded file descriptor set, for gRPC server reflection.
    pub const FILE_DESCRIPTOR_SET: &[u8] =
        tonic::include_file_descriptor_set!("hookgate_descriptor");
}
