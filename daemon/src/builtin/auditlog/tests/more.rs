//! Tests of the trust items of issue 25: a gap in the rotation numbering
//! fails `verify`, naming it; the oldest files gone is not a gap.

use std::path::{Path, PathBuf};

use super::super::{VerifyError, files, head_path, rotated, verify};
use super::write;

/// A log of `n` records, one per file: `<log>` and `<log>.1` ... `.n-1`.
fn one_line_per_file(dir: &Path, n: usize) -> PathBuf {
    let path = dir.join("audit.jsonl");
    write(&path, 1, 1 << 20, 0);
    let one = std::fs::metadata(&path).unwrap().len();
    std::fs::remove_file(&path).unwrap();
    std::fs::remove_file(head_path(&path)).unwrap();
    write(&path, n, one + 2, 50);
    path
}

#[test]
fn a_rotated_file_missing_from_the_middle_fails_verify_and_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = one_line_per_file(dir.path(), 7);
    assert!(rotated(&path, 6).exists() && !rotated(&path, 7).exists());
    assert_eq!(verify(&path).unwrap().lines, 7, "intact first");

    std::fs::remove_file(rotated(&path, 3)).unwrap();
    // The older files are still listed: nothing hides behind the gap.
    let listed = files(&path);
    assert_eq!(listed.len(), 6, "{listed:?}");
    assert_eq!(listed[0], rotated(&path, 6));
    match verify(&path) {
        Err(err @ VerifyError::Gap { .. }) => {
            let VerifyError::Gap {
                ref missing,
                oldest,
                ..
            } = err
            else {
                unreachable!()
            };
            assert_eq!((missing.as_slice(), oldest), (&[3][..], 6));
            let text = err.to_string();
            assert!(
                text.contains(".3 missing") && text.contains("up to .6"),
                "{text}"
            );
        }
        other => panic!("a gap must fail verify: {other:?}"),
    }

    // Two gaps are both named.
    std::fs::remove_file(rotated(&path, 5)).unwrap();
    let text = verify(&path).unwrap_err().to_string();
    assert!(text.contains(".3, .5 missing"), "{text}");
}

#[test]
fn the_oldest_files_gone_is_not_a_gap_but_is_said() {
    // What rotation past `keep` leaves: verify passes and says the chain
    // starts in a file no longer here.
    let dir = tempfile::tempdir().unwrap();
    let path = one_line_per_file(dir.path(), 5);
    assert!(!verify(&path).unwrap().starts_mid_chain);
    std::fs::remove_file(rotated(&path, 4)).unwrap();
    let verified = verify(&path).unwrap();
    assert_eq!(verified.lines, 4);
    assert!(verified.starts_mid_chain);
}
