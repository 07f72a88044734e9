//! Config parsing tests: `errors` checks every kind of mistake is reported
//! at the right line and key, `semantics` what valid files mean, `remote`
//! the connection settings of remote subscribers and `[identity]`,
//! `default_guard` the guard the embedded default config builds.
//!
//! They run on Unix and (under Wine, `.ci/windows/wine-unit-tests.sh`) on
//! Windows, where sockets, endpoints and home folders differ: [`per_os`]
//! picks what each platform should do, so both are stated, not skipped.

mod approval;
mod default_guard;
mod default_layer;
mod errors;
mod kinds;
mod layers;
mod otel;
mod rego;
mod remote;
mod semantics;
mod show;

use std::ffi::OsString;
use std::path::PathBuf;

use super::*;

/// `unix` on Unix, `windows` on Windows.
fn per_os<T>(unix: T, windows: T) -> T {
    if cfg!(windows) { windows } else { unix }
}

/// [`Env::from_vars`] over exactly these variables.
fn env_of(vars: &[(&str, &str)]) -> Env {
    Env::from_vars(|name| {
        vars.iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| OsString::from(v))
    })
}

/// The per-user folders Windows always sets for a user `dev` (and Unix
/// does not).
const WINDOWS_FOLDERS: [(&str, &str); 3] = [
    ("USERPROFILE", r"C:\Users\dev"),
    ("APPDATA", r"C:\Users\dev\AppData\Roaming"),
    ("LOCALAPPDATA", r"C:\Users\dev\AppData\Local"),
];

/// The environment of a user `dev` as each platform sets it: `$HOME` on
/// Unix; on Windows no `HOME`, but the profile, roaming and local folders.
fn env() -> Env {
    per_os(env_of(&[("HOME", "/home/dev")]), env_of(&WINDOWS_FOLDERS))
}

fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::parse("gw.toml", text, &env())
}
