//! Every Rust file opens with a `//!` header saying what it is and why
//! (the style every crate follows), tests and build scripts included.

use crate::walk::{files, root, shown};

#[test]
fn every_rust_file_opens_with_a_doc_header() {
    let missing: Vec<String> = files(&root(), ".rs")
        .into_iter()
        .filter(|path| {
            let text = std::fs::read_to_string(path)
                .unwrap_or_else(|err| panic!("{}: {err}", path.display()));
            let first = text.lines().find(|line| !line.trim().is_empty());
            !first.is_some_and(|line| line.starts_with("//!"))
        })
        .map(|path| shown(&path))
        .collect();
    assert!(
        missing.is_empty(),
        "these files do not open with a `//!` header:\n{}",
        missing.join("\n")
    );
}
