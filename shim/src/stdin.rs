//! The agent's payload as read: whole, or only its first bytes when it is
//! larger than the shim forwards. Shared by the platform readers (`sys`)
//! and the request (`request`), so neither depends on the other for it.

use alloc::vec::Vec;

/// The agent's payload.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Stdin {
    Complete(Vec<u8>),
    /// More than `MAX_STDIN` bytes: only the first `MAX_STDIN` are kept, for
    /// dialect detection; it is never forwarded.
    Oversize(Vec<u8>),
}

impl Stdin {
    /// The bytes kept, complete or not.
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Stdin::Complete(bytes) | Stdin::Oversize(bytes) => bytes,
        }
    }
}

/// Reads with `read` (one read per call, `Ok(0)` at the end) until the
/// end, keeping at most `max` bytes and reading one more to tell a payload
/// of exactly `max` bytes from an oversized one.
pub(crate) fn read_bounded<E>(
    mut read: impl FnMut(&mut [u8]) -> Result<usize, E>,
    max: usize,
) -> Result<Stdin, E> {
    const CHUNK: usize = 64 * 1024;
    let limit = max.saturating_add(1);
    let mut bytes = Vec::new();
    while bytes.len() < limit {
        let start = bytes.len();
        bytes.resize(start + (limit - start).min(CHUNK), 0);
        let n = read(bytes.get_mut(start..).unwrap_or_default())?;
        bytes.truncate(start + n);
        if n == 0 {
            break;
        }
    }
    if bytes.len() > max {
        bytes.truncate(max);
        Ok(Stdin::Oversize(bytes))
    } else {
        Ok(Stdin::Complete(bytes))
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    use super::*;

    #[test]
    fn stdin_is_bounded() {
        let cases: &[(usize, bool)] =
            &[(0, false), (9, false), (10, false), (11, true), (100, true)];
        for (len, oversize) in cases {
            let input = vec![b'x'; *len];
            let mut rest = input.as_slice();
            let stdin = read_bounded(|buf| std::io::Read::read(&mut rest, buf), 10).unwrap();
            assert_eq!(matches!(stdin, Stdin::Oversize(_)), *oversize, "{len}");
            assert_eq!(stdin.bytes().len(), (*len).min(10), "{len}");
        }
    }
}
