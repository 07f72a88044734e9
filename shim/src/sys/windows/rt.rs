//! The Windows entry point: argv and the environment as the byte strings
//! `run` takes on every platform.

use std::env;
use std::ffi::OsString;
use std::process::ExitCode;

/// Collects argv (after the program name) and the environment, then runs
/// the hook call. Returning ends the process, and with it any worker thread
/// still blocked past the deadline.
#[cfg_attr(test, allow(dead_code))]
pub(crate) fn main() -> ExitCode {
    let args = env::args_os().skip(1).map(bytes).collect();
    let environ = env::vars_os()
        .map(|(name, value)| (upper_ascii(bytes(name)), bytes(value)))
        .collect();
    ExitCode::from(crate::hook_call(args, environ))
}

/// The string's bytes: its WTF-8 encoding, which is its UTF-8 when it is
/// valid Unicode. One that is not (an unpaired surrogate) gives bytes that
/// are not UTF-8 either, so the shim treats it as it treats a non-UTF-8
/// argument or variable on Unix.
fn bytes(string: OsString) -> Vec<u8> {
    string.into_encoded_bytes()
}

/// Windows variable names are case-insensitive (`std::env::var` finds
/// `hookgate_fail` for `HOOKGATE_FAIL`), the shim's lookups and prefix
/// filters are exact: upper-casing the names makes them agree.
fn upper_ascii(mut name: Vec<u8>) -> Vec<u8> {
    name.make_ascii_uppercase();
    name
}

#[cfg(test)]
mod tests {
    use std::os::windows::ffi::OsStringExt;

    use super::*;

    #[test]
    fn unicode_strings_keep_their_bytes_and_others_are_not_utf8() {
        assert_eq!(bytes(OsString::from("claude-code")), b"claude-code");
        assert_eq!(bytes(OsString::from("é")), "é".as_bytes());
        let lone_surrogate = OsString::from_wide(&[0x61, 0xD800]);
        assert!(String::from_utf8(bytes(lone_surrogate)).is_err());
    }

    #[test]
    fn names_are_upper_cased() {
        assert_eq!(upper_ascii(b"hookgate_Fail".to_vec()), b"HOOKGATE_FAIL");
    }
}
