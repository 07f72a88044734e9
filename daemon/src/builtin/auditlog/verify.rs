//! `gateway audit verify`: the chain checked over every file of the log,
//! the rotation numbering checked for gaps, and the result compared with
//! an anchor when one is given.
//!
//! What it proves and what it cannot (docs/decision-log.md): an edited,
//! removed or inserted line, a cut end and a rotated file missing from the
//! middle are caught. Files rotated away past `keep` are not checked (the
//! oldest file's first line points into them), and whoever can write the
//! log can rewrite the whole chain and its head consistently: only an
//! anchor written out of their reach ([`check_anchor`]) catches that.

use std::fs;
use std::io::Read as _;
use std::path::Path;

use serde_json::Value;

use super::{GENESIS, Head, files, hash, head_path, rotations};

/// The most of an anchor file read: it holds one small [`Head`].
const MAX_ANCHOR_BYTES: u64 = 64 * 1024;

/// Why `gateway audit verify` failed.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}:{line}: not a JSON object with `prev` (a torn or edited line)")]
    Malformed { path: String, line: usize },
    #[error(
        "{path}:{line}: the chain breaks here: a line before it was edited, removed or inserted"
    )]
    Broken { path: String, line: usize },
    #[error("{path}: ends before its recorded last line: the log was truncated or its end edited")]
    Truncated { path: String },
    #[error(
        "{path}: rotated file(s) {} missing while older ones (up to .{oldest}) remain: \
         deleted or renamed; the files older than the gap are not checked",
        numbers(missing)
    )]
    Gap {
        path: String,
        missing: Vec<usize>,
        oldest: usize,
    },
    #[error("cannot read the anchor {path}: {source}")]
    AnchorRead {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: not an anchor (the JSON head the gateway writes)")]
    AnchorMalformed { path: String },
    #[error(
        "the anchor {path} says the chain ends at {} (line {} of the current file, file_seq {}); \
         the log ends at {} (line {}, file_seq {}): the chain was rewritten, cut or extended \
         since (or the gateway wrote between the two reads: verify again)",
        anchor.last, anchor.lines, anchor.file_seq, log.last, log.lines, log.file_seq
    )]
    AnchorMismatch {
        path: String,
        anchor: Head,
        log: Head,
    },
}

/// `.3, .4` for `[3, 4]`.
fn numbers(missing: &[usize]) -> String {
    let names: Vec<String> = missing.iter().map(|n| format!(".{n}")).collect();
    names.join(", ")
}

/// What an intact log showed.
#[derive(Debug, Clone)]
pub struct Verified {
    /// Lines checked, over every file.
    pub lines: u64,
    /// Files checked (rotated ones and the current one).
    pub files: usize,
    /// Where the chain stands, as computed from the files (`file_seq` from
    /// the head sidecar).
    pub head: Head,
    /// The oldest file's first line points into a file no longer here
    /// (rotated away past `keep`, or a log moved away while open): the
    /// lines before it are not checked.
    pub starts_mid_chain: bool,
}

/// Checks the chain over every file of the log.
pub fn verify(path: &Path) -> Result<Verified, VerifyError> {
    let present = rotations(path);
    if let Some(&oldest) = present.last() {
        let missing: Vec<usize> = (1..oldest).filter(|n| !present.contains(n)).collect();
        if !missing.is_empty() {
            return Err(VerifyError::Gap {
                path: path.display().to_string(),
                missing,
                oldest,
            });
        }
    }
    let files = files(path);
    let head = Head::read(&head_path(path));
    let file_seq = head.as_ref().map_or(0, |h| h.file_seq);
    // The oldest file's first line may point into a file no longer here,
    // unless the chain never left its first file (the head says how often
    // it moved on): then it must start fresh.
    let mut expected: Option<String> =
        (files.len() == 1 && file_seq == 0).then(|| GENESIS.to_owned());
    let mut first_prev: Option<String> = None;
    let mut total = 0;
    let mut current_lines = 0;
    for file in &files {
        let name = file.display().to_string();
        let text = fs::read(file).map_err(|source| VerifyError::Read {
            path: name.clone(),
            source,
        })?;
        current_lines = 0;
        for (i, line) in text.split(|b| *b == b'\n').enumerate() {
            if line.is_empty() {
                continue;
            }
            let prev = serde_json::from_slice::<Value>(line)
                .ok()
                .and_then(|v| v.get("prev").and_then(Value::as_str).map(str::to_owned))
                .ok_or_else(|| VerifyError::Malformed {
                    path: name.clone(),
                    line: i + 1,
                })?;
            if expected.as_ref().is_some_and(|e| *e != prev) {
                return Err(VerifyError::Broken {
                    path: name,
                    line: i + 1,
                });
            }
            first_prev.get_or_insert(prev);
            expected = Some(hash(line));
            current_lines += 1;
            total += 1;
        }
    }
    let computed = Head {
        lines: current_lines,
        last: expected.unwrap_or_else(|| GENESIS.to_owned()),
        file_seq,
    };
    let truncated = match &head {
        None => total > 0,
        Some(head) => head.lines != computed.lines || head.last != computed.last,
    };
    if truncated {
        return Err(VerifyError::Truncated {
            path: path.display().to_string(),
        });
    }
    Ok(Verified {
        lines: total,
        files: files.len(),
        head: computed,
        starts_mid_chain: first_prev.is_some_and(|p| p != GENESIS),
    })
}

/// Compares the verified chain's head with the anchor at `anchor`: a
/// rewrite of the whole chain (hashes and head sidecar recomputed) ends at
/// another hash than the one the gateway exported when it wrote.
pub fn check_anchor(verified: &Verified, anchor: &Path) -> Result<(), VerifyError> {
    let name = anchor.display().to_string();
    let mut text = Vec::new();
    fs::File::open(anchor)
        .and_then(|file| file.take(MAX_ANCHOR_BYTES).read_to_end(&mut text))
        .map_err(|source| VerifyError::AnchorRead {
            path: name.clone(),
            source,
        })?;
    let recorded: Head = serde_json::from_slice(&text)
        .map_err(|_| VerifyError::AnchorMalformed { path: name.clone() })?;
    if recorded != verified.head {
        return Err(VerifyError::AnchorMismatch {
            path: name,
            anchor: recorded,
            log: verified.head.clone(),
        });
    }
    Ok(())
}
