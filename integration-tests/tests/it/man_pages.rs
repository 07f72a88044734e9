//! `gateway man` through the real binary: `--dir` writes gateway(1), a
//! page per subcommand and gateway-shim(1); every page parses (groff, when
//! the machine has it); gateway(1) has FILES, ENVIRONMENT, EXIT STATUS and
//! EXAMPLES and names every `HOOKGATE_*` variable the code reads, found by
//! grepping the sources, so a new variable without a line in the page
//! fails here.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::sdk::workspace;

/// The sources of the two binaries and the libraries they read the
/// environment through.
const SOURCES: &[&str] = &[
    "gateway/src",
    "daemon/src",
    "config/src",
    "transport/src",
    "wire/src",
    "adapters/src",
    "dialect/src",
    "shim/src",
];

/// Every `HOOKGATE_*` name in the non-test code under `dirs`: files named
/// `tests.rs` or under a `tests/` directory are skipped, and so is each
/// file's text from its inline `mod tests {` on (made-up names live there).
fn variables_in(dirs: &[&str]) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for dir in dirs {
        for file in rust_files(&workspace().join(dir)) {
            let text = std::fs::read_to_string(&file).expect("read a source file");
            let code = text
                .lines()
                .take_while(|line| !line.trim_start().starts_with("mod tests {"));
            for line in code {
                let mut rest = line;
                while let Some(at) = rest.find("HOOKGATE_") {
                    let tail = &rest[at..];
                    let end = tail
                        .find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
                        .unwrap_or(tail.len());
                    // `HOOKGATE_` alone is the prefix the shim matches, no variable.
                    if end > "HOOKGATE_".len() {
                        names.insert(tail[..end].to_owned());
                    }
                    rest = &tail[end..];
                }
            }
        }
    }
    names
}

fn rust_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read a source directory") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "tests" {
                files.extend(rust_files(&path));
            }
        } else if name.ends_with(".rs") && name != "tests.rs" {
            files.push(path);
        }
    }
    files
}

#[test]
fn man_pages_document_every_variable_and_parse() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pages = dir.path().join("man1");
    let out = Command::new(&binaries().gateway)
        .args(["man", "--dir"])
        .arg(&pages)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .output()
        .expect("run gateway man --dir");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read = |name: &str| {
        std::fs::read_to_string(pages.join(name)).unwrap_or_else(|err| panic!("{name}: {err}"))
    };

    // A page per subcommand (and per subcommand's subcommand).
    for name in [
        "gateway.1",
        "gateway-shim.1",
        "gateway-serve.1",
        "gateway-status.1",
        "gateway-install.1",
        "gateway-uninstall.1",
        "gateway-doctor.1",
        "gateway-reload.1",
        "gateway-audit.1",
        "gateway-audit-verify.1",
        "gateway-eval.1",
        "gateway-replay.1",
        "gateway-config.1",
        "gateway-config-init.1",
    ] {
        assert!(pages.join(name).is_file(), "{name} not written");
    }

    // `gateway man` alone prints gateway(1), the same page.
    let printed = Command::new(&binaries().gateway)
        .arg("man")
        .output()
        .expect("run gateway man");
    assert_eq!(String::from_utf8_lossy(&printed.stdout), read("gateway.1"));

    let gateway = read("gateway.1");
    for section in [
        ".SH FILES",
        ".SH ENVIRONMENT",
        ".SH \"EXIT STATUS\"",
        ".SH EXAMPLES",
    ] {
        assert!(gateway.contains(section), "gateway(1) lacks {section}");
    }
    // The exit codes scripts rely on.
    for code in [
        "64 when an agent is unprotected",
        "0 allow, 2 block, 1 error",
    ] {
        assert!(gateway.contains(code), "gateway(1) lacks `{code}`");
    }
    let every = variables_in(SOURCES);
    assert!(
        every.contains("HOOKGATE_SOCKET") && every.contains("HOOKGATE_SYSTEM_CONFIG"),
        "the grep found too little: {every:?}"
    );
    // As an entry (bold), not as part of a longer name.
    let entry = |name: &str| format!("\\fB{name}\\fR");
    for name in &every {
        assert!(
            gateway.contains(&entry(name)),
            "gateway(1) does not document {name}"
        );
    }

    let shim = read("gateway-shim.1");
    for section in [
        ".SH ENVIRONMENT",
        ".SH \"EXIT STATUS\"",
        ".SH \"FAIL MODES\"",
    ] {
        assert!(shim.contains(section), "gateway-shim(1) lacks {section}");
    }
    for name in &variables_in(&["shim/src"]) {
        assert!(
            shim.contains(&entry(name)),
            "gateway-shim(1) does not document {name}"
        );
    }

    let Some(groff) = which("groff") else {
        eprintln!("no groff here: checked the roff text only");
        return;
    };
    for entry in std::fs::read_dir(&pages).expect("read the pages") {
        let page = entry.expect("a page").path();
        let out = Command::new(&groff)
            .args(["-man", "-Tutf8", "-ww", "-z"])
            .arg(&page)
            .output()
            .expect("run groff");
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "{}: {}",
            page.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// `name` on PATH, if there.
fn which(name: &str) -> Option<std::path::PathBuf> {
    std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    })
}
