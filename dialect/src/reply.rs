//! What a hook process answers: stdout bytes, stderr bytes, exit code.

use alloc::vec::Vec;

/// The exact reply a hook command gives the agent.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reply {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub exit_code: i32,
}
