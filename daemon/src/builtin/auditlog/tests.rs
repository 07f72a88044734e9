//! Tests of the decision log's files: rotation at the size limit, the
//! hash chain's verification against each kind of tampering, two writers;
//! a gap in the rotation numbering, a reopen after the log was moved or
//! deleted, and the anchor (`tests/more.rs`).

use serde_json::json;

use super::{GENESIS, LogConfig, LogFile, VerifyError, files, rotated, verify};

mod more;

/// Writes `n` records of about 100 bytes, one per append.
pub(super) fn write(path: &std::path::Path, n: usize, max_bytes: u64, keep: usize) {
    let mut log = LogFile::open(path, max_bytes, keep).unwrap();
    for i in 0..n {
        log.append(vec![json!({ "id": i, "pad": "x".repeat(20) })])
            .unwrap();
    }
}

pub(super) fn lines(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn rotates_at_its_size_limit_and_keeps_the_newest_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    write(&path, 1, 1 << 20, 2);
    let one = std::fs::metadata(&path).unwrap().len();
    // Room for exactly three lines per file (they grow by at most a digit).
    let max = one * 3 + 3;
    std::fs::remove_file(&path).unwrap();
    write(&path, 20, max, 2);
    for file in [path.clone(), rotated(&path, 1), rotated(&path, 2)] {
        let size = std::fs::metadata(&file).unwrap().len();
        assert!(size <= max, "{} is {size} > {max}", file.display());
        assert_eq!(lines(&file).len(), if file == path { 2 } else { 3 });
    }
    assert!(
        !rotated(&path, 3).exists(),
        "only `keep` rotated files stay"
    );
    assert_eq!(files(&path).len(), 3);
    // The chain runs across the files, from the oldest kept one.
    assert_eq!(verify(&path).unwrap().lines, 8);
    // Reopening continues the chain.
    write(&path, 1, max, 2);
    assert_eq!(verify(&path).unwrap().lines, 9);
}

#[test]
fn verify_passes_an_intact_log_and_catches_each_kind_of_tampering() {
    type Tamper = fn(&std::path::Path, Vec<String>);
    let cases: [(&str, Tamper, &str); 6] = [
        ("intact", |_, _| {}, ""),
        (
            "edited line",
            |p, mut l| {
                l[2] = l[2].replace("\"id\":2", "\"id\":7");
                std::fs::write(p, l.join("\n") + "\n").unwrap();
            },
            ":4: the chain breaks",
        ),
        (
            "removed line",
            |p, mut l| {
                l.remove(1);
                std::fs::write(p, l.join("\n") + "\n").unwrap();
            },
            ":2: the chain breaks",
        ),
        (
            // The log never rotated: its first line must start the chain.
            "removed first line",
            |p, mut l| {
                l.remove(0);
                std::fs::write(p, l.join("\n") + "\n").unwrap();
            },
            ":1: the chain breaks",
        ),
        (
            "truncated end",
            |p, l| std::fs::write(p, l[..4].join("\n") + "\n").unwrap(),
            "truncated",
        ),
        (
            "torn last line",
            |p, l| {
                let text = l.join("\n");
                std::fs::write(p, &text[..text.len() - 5]).unwrap();
            },
            ":6: not a JSON object",
        ),
    ];
    for (what, tamper, error) in cases {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        write(&path, 6, 1 << 20, 2);
        assert!(lines(&path)[0].contains(GENESIS), "{what}");
        tamper(&path, lines(&path));
        match verify(&path) {
            Ok(v) => assert!(
                error.is_empty() && v.lines == 6,
                "{what}: passed with {}",
                v.lines
            ),
            Err(
                err @ (VerifyError::Broken { .. }
                | VerifyError::Truncated { .. }
                | VerifyError::Malformed { .. }),
            ) => {
                assert!(
                    err.to_string().contains(error) && !error.is_empty(),
                    "{what}: {err}"
                );
            }
            Err(err) => panic!("{what}: {err}"),
        }
    }
}

#[test]
fn two_writers_of_one_log_keep_one_chain() {
    // A reload that changes the audit settings runs a second writer while
    // the first drains.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let (old, new) = (
        super::SharedLog::for_path(&path),
        super::SharedLog::for_path(&path),
    );
    let config = LogConfig {
        path: path.clone(),
        max_bytes: 1 << 20,
        keep: 2,
        anchor: None,
    };
    for i in 0..10 {
        let writer = if i % 2 == 0 { &old } else { &new };
        writer.append(&config, vec![json!({ "id": i })]).unwrap();
    }
    assert_eq!(verify(&path).unwrap().lines, 10);
}
