//! The freshness check on a planted workspace and target directory: each
//! kind of file cargo and rustc leave behind, aged one at a time.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use super::check;

/// A workspace `app-pkg` (binary `app`) → `lib-a` (with a build script),
/// plus `other`, which `app-pkg` only dev-depends on, and the target
/// directory `cargo test` would leave: every file at `BUILT`, sources
/// older.
struct Planted {
    root: tempfile::TempDir,
}

const OLD: Duration = Duration::from_secs(1_000_000);
const BUILT: Duration = Duration::from_secs(2_000_000);
const LATER: Duration = Duration::from_secs(3_000_000);

const FILES: &[(&str, &str)] = &[
    (
        "Cargo.toml",
        "[workspace]\nmembers = [\"app\", \"lib-a\", \"other\"]\n",
    ),
    (
        "app/Cargo.toml",
        "[package]\nname = \"app-pkg\"\n[[bin]]\nname = \"app\"\n\
         [target.'cfg(unix)'.dependencies]\nlib-a = { path = \"../lib-a\" }\n\
         [dev-dependencies]\nother = { path = \"../other\" }\n",
    ),
    ("lib-a/Cargo.toml", "[package]\nname = \"lib-a\"\n"),
    ("other/Cargo.toml", "[package]\nname = \"other\"\n"),
    ("app/src/main.rs", ""),
    ("lib-a/src/lib.rs", ""),
    ("lib-a/src/only_tests.rs", ""),
    ("lib-a/proto.txt", ""),
    ("other/src/lib.rs", ""),
];

impl Planted {
    fn new() -> Planted {
        let planted = Planted {
            root: tempfile::tempdir().unwrap(),
        };
        for (path, text) in FILES {
            planted.write(path, text, OLD);
        }
        let deps = "target/debug/deps";
        let out = planted.path("target/debug/build/lib-a-bbbbbbbbbbbbbbbb/out/gen.rs");
        planted.write(&format!("{deps}/app-0123456789abcdef"), "binary", BUILT);
        planted.dep_info(
            &format!("{deps}/app-0123456789abcdef.d"),
            &["app/src/main.rs"],
        );
        planted.write(&format!("{deps}/liblib_a-aaaaaaaaaaaaaaaa.rlib"), "", BUILT);
        planted.dep_info(
            &format!("{deps}/lib_a-aaaaaaaaaaaaaaaa.d"),
            &["lib-a/src/lib.rs", out.to_str().unwrap()],
        );
        // The library's unit-test build: an executable, no `.rlib`.
        planted.write(&format!("{deps}/lib_a-cccccccccccccccc"), "", BUILT);
        planted.dep_info(
            &format!("{deps}/lib_a-cccccccccccccccc.d"),
            &["lib-a/src/lib.rs", "lib-a/src/only_tests.rs"],
        );
        planted.write(&format!("{deps}/libother-dddddddddddddddd.rlib"), "", BUILT);
        planted.dep_info(
            &format!("{deps}/other-dddddddddddddddd.d"),
            &["other/src/lib.rs"],
        );
        planted.write(
            "target/debug/build/lib-a-bbbbbbbbbbbbbbbb/output",
            "cargo:rerun-if-changed=proto.txt\n",
            BUILT,
        );
        planted.write(
            "target/debug/build/lib-a-bbbbbbbbbbbbbbbb/out/gen.rs",
            "",
            OLD,
        );
        std::fs::hard_link(
            planted.path(&format!("{deps}/app-0123456789abcdef")),
            planted.path("target/debug/app"),
        )
        .unwrap();
        planted
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root.path().join(relative)
    }

    fn write(&self, relative: &str, text: &str, age: Duration) {
        let path = self.path(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        self.touch(relative, age);
    }

    /// rustc's dep-info, as it writes it: a member's sources relative to
    /// the workspace root, generated files absolute.
    fn dep_info(&self, relative: &str, sources: &[&str]) {
        let target = self.path(relative.trim_end_matches(".d"));
        let text = format!("{}: {}\n", target.display(), sources.join(" "));
        self.write(relative, &text, BUILT);
    }

    fn touch(&self, relative: &str, age: Duration) {
        let file = std::fs::File::options()
            .write(true)
            .open(self.path(relative))
            .unwrap();
        file.set_modified(SystemTime::UNIX_EPOCH + age).unwrap();
    }

    fn check(&self) -> Result<(), String> {
        check(
            &self.path("target/debug/app"),
            &self.path("target/debug"),
            self.root.path(),
            "app-pkg",
        )
    }
}

fn refused_for(result: Result<(), String>, source: &str) {
    let err = result.expect_err("a stale binary was accepted");
    assert!(
        err.contains(source) && err.contains("cargo build --workspace"),
        "{err}"
    );
}

#[test]
fn a_binary_built_after_its_sources_is_fresh() {
    Planted::new().check().unwrap();
}

#[test]
fn an_edited_source_of_the_binary_itself_refuses_it() {
    let planted = Planted::new();
    planted.touch("app/src/main.rs", LATER);
    refused_for(planted.check(), "main.rs");
}

#[test]
fn an_edited_source_of_a_dependency_refuses_it() {
    let planted = Planted::new();
    planted.touch("lib-a/src/lib.rs", LATER);
    refused_for(planted.check(), "lib-a/src/lib.rs");
}

#[test]
fn an_edited_build_script_input_refuses_it() {
    let planted = Planted::new();
    planted.touch("lib-a/proto.txt", LATER);
    refused_for(planted.check(), "proto.txt");
}

/// The failure of issue #34: another unit's build script ran after the
/// binary was linked.
#[test]
fn a_newer_generated_file_of_another_unit_does_not_refuse_it() {
    let planted = Planted::new();
    planted.touch(
        "target/debug/build/lib-a-bbbbbbbbbbbbbbbb/out/gen.rs",
        LATER,
    );
    planted.check().unwrap();
}

#[test]
fn a_source_only_tests_read_does_not_refuse_it() {
    let planted = Planted::new();
    planted.touch("lib-a/src/only_tests.rs", LATER);
    planted.check().unwrap();
}

#[test]
fn a_package_it_only_dev_depends_on_does_not_refuse_it() {
    let planted = Planted::new();
    planted.touch("other/src/lib.rs", LATER);
    planted.check().unwrap();
}

/// A copied binary: its own unit is unknown, its dependencies still count.
#[test]
fn a_binary_that_is_no_unit_of_cargo_is_checked_against_its_dependencies() {
    let planted = Planted::new();
    let binary = planted.path("target/debug/app");
    std::fs::remove_file(&binary).unwrap();
    planted.write("target/debug/app", "copied", BUILT);
    planted.touch("app/src/main.rs", LATER);
    planted.check().unwrap();
    planted.touch("lib-a/src/lib.rs", LATER);
    refused_for(planted.check(), "lib-a/src/lib.rs");
}

#[test]
fn an_unknown_package_is_an_error() {
    let planted = Planted::new();
    let err = check(
        &planted.path("target/debug/app"),
        &planted.path("target/debug"),
        planted.root.path(),
        "no-such-package",
    )
    .unwrap_err();
    assert!(err.contains("not a member"), "{err}");
}
