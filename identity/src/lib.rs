//! Who a local process runs as, read once for both ends of the named pipe:
//! the gateway admits only clients of its own user, and the shim talks only
//! to a server of its own user. Both compare Windows user SIDs, and this is
//! the one place that reads them (with one bound on what Windows hands
//! back), so the two checks cannot drift apart.
//!
//! Dependency-free beyond `windows-sys` (the shim uses it); on Unix the
//! socket's peer credentials give a uid directly.
//!
//! [`files`]: opening a file only if it is a regular file of this user's,
//! for every crate that opens one, async or not.

pub mod files;
#[cfg(windows)]
mod windows;

#[cfg(windows)]
pub use windows::UserSid;
