//! Generates the `hookgate.v1` types with protox, so no system `protoc` is needed.

#![allow(
    clippy::disallowed_methods,
    reason = "a build script runs before any runtime: blocking file I/O is its job"
)]
#![allow(
    clippy::print_stdout,
    reason = "a build script speaks to cargo on stdout"
)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let proto = "hookgate/v1/hookgate.proto";
    println!("cargo:rerun-if-changed={proto}");
    let descriptors = protox::compile([proto], ["."])?;
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(
        out_dir.join("hookgate_descriptor.bin"),
        prost::Message::encode_to_vec(&descriptors),
    )?;
    tonic_prost_build::configure()
        .build_server(true)
        .build_client(true)
        // No `connect()` helpers: they need tonic's transport feature, and the
        // gateway builds its channels itself (lazy, with deadlines).
        .build_transport(false)
        .compile_fds(descriptors)?;
    Ok(())
}
