//! The binaries under test as the harness finds them: both exist, passed
//! the freshness check, and are the versions of this checkout. CI runs
//! this test alone after each way of building (`cargo test` first,
//! `cargo build` then `cargo test`) and with a source made newer than the
//! gateway, where the harness must refuse.

use std::process::Command;

use hookgate_integration_tests::binaries::binaries;

#[test]
fn the_binaries_under_test_are_fresh_and_of_this_checkout() {
    let version = env!("CARGO_PKG_VERSION");
    for program in [&binaries().gateway, &binaries().shim] {
        let out = Command::new(program)
            .arg("--version")
            .output()
            .expect("run --version");
        let printed = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}: {out:?}", program.display());
        assert!(
            printed.contains(version),
            "{} --version printed {printed:?}, not {version}",
            program.display()
        );
    }
}
