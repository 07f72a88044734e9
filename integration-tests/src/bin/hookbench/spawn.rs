//! One hook process, spawned the way an agent spawns it and timed from
//! spawn to exit with nothing else inside the timer.
//!
//! What an agent does: `posix_spawn` (Node's libuv, Rust's std and Go all
//! use it or vfork), the payload on stdin, stdout read until EOF, then the
//! exit status. So here: stdin is a FILE holding the payload (rewound
//! before each run, outside the timer), stdout a pipe drained to EOF,
//! stderr /dev/null opened once. std's `Command` takes glibc's
//! `posix_spawn` path on Linux when no `pre_exec`, uid/gid, groups or
//! chroot is set (none is here; `strace -f -e trace=clone,clone3,vfork`
//! shows `clone3({flags=CLONE_VM|CLONE_VFORK…})`), and builds the child's
//! environment before the fork — the same work libuv does.
//!
//! The previous harness wrote the payload into a stdin pipe and captured
//! stderr too, so each run paid a pipe write and a two-pipe poll loop in
//! the bench; see BENCHMARKS.md "Why" for what that did to row (g).

use std::fs::File;
use std::io::{Read as _, Seek as _, SeekFrom};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};

use crate::baselines::HookCommand;

/// What one spawned hook did.
#[derive(Debug)]
pub(crate) struct Spawned {
    pub(crate) elapsed: Duration,
    pub(crate) status: ExitStatus,
    pub(crate) stdout: Vec<u8>,
}

/// The payload file every spawned hook reads as its stdin, and /dev/null
/// for its stderr, both opened once.
#[derive(Debug)]
pub(crate) struct HookIo {
    payload: File,
    devnull: File,
}

impl HookIo {
    pub(crate) fn open(payload: &Path) -> anyhow::Result<HookIo> {
        Ok(HookIo {
            payload: File::open(payload)
                .with_context(|| format!("opening {}", payload.display()))?,
            devnull: File::options()
                .write(true)
                .open("/dev/null")
                .context("opening /dev/null")?,
        })
    }

    /// Spawns `hook` once and times it from spawn to exit (stdout drained).
    pub(crate) fn run(&mut self, hook: &HookCommand) -> anyhow::Result<Spawned> {
        // The child shares the file's offset: rewind it for every run.
        self.payload
            .seek(SeekFrom::Start(0))
            .context("rewinding the payload file")?;
        let mut command = Command::new(&hook.program);
        command
            .args(&hook.args)
            .envs(hook.env.iter().map(|(k, v)| (k, v)))
            .env("CLAUDE_PROJECT_DIR", "/home/dev/acme-api")
            .stdin(Stdio::from(
                self.payload.try_clone().context("sharing the payload")?,
            ))
            .stdout(Stdio::piped())
            .stderr(Stdio::from(
                self.devnull.try_clone().context("sharing /dev/null")?,
            ));
        let mut stdout = Vec::with_capacity(4096);

        let start = Instant::now();
        let mut child = command.spawn().context("spawning")?;
        // Closed on drop: the pipe's only writer left is the child.
        let mut pipe = child.stdout.take().context("no stdout pipe")?;
        pipe.read_to_end(&mut stdout).context("reading stdout")?;
        let status = child.wait().context("waiting for the hook")?;
        let elapsed = start.elapsed();

        Ok(Spawned {
            elapsed,
            status,
            stdout,
        })
    }
}

/// What a variant's stdout must look like.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Expect {
    /// /bin/true and the C no-op: nothing.
    Nothing,
    /// The gateway's allow: exit 0, no deny. The shims run with
    /// `HOOKGATE_FAIL=closed`, so a call that missed the gateway denies.
    GatewayAllow,
    /// The HTTP stub's `{}`.
    StubReply,
    /// `gateway-shim --version`.
    Version,
}

/// Spawns the hook once (see [`HookIo::run`]), checks its answer, returns its time.
pub(crate) fn run_once(
    io: &mut HookIo,
    hook: &HookCommand,
    expect: Expect,
) -> anyhow::Result<Duration> {
    let spawned = io.run(hook)?;
    let stdout = String::from_utf8_lossy(&spawned.stdout);
    let ok = spawned.status.success()
        && match expect {
            Expect::Nothing => stdout.is_empty(),
            Expect::GatewayAllow => !stdout.contains("deny"),
            Expect::StubReply => stdout.trim() == "{}",
            Expect::Version => stdout.starts_with("gateway-shim "),
        };
    if !ok {
        bail!("unexpected result: {} stdout {stdout:?}", spawned.status);
    }
    Ok(spawned.elapsed)
}
