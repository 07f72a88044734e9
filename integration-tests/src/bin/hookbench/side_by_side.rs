//! Hook commands timed side by side in one loop: each round spawns every
//! variant once (see [`crate::spawn::HookIo`]: spawn to exit, stdout
//! drained), the order rotated each round so no variant always runs right
//! after another, and each answer checked so a wrong answer is an error,
//! never a time. What the approval and memory-builtin sections share.

use std::time::Duration;

use anyhow::{Context as _, bail};

use crate::baselines::HookCommand;
use crate::spawn::HookIo;
use crate::stats::percentile;

/// One hook command, its stdin, and what its answer must satisfy.
#[derive(Debug)]
pub(crate) struct Variant {
    pub(crate) label: String,
    pub(crate) hook: HookCommand,
    pub(crate) io: HookIo,
    /// Whether `stdout` is the answer expected (the exit status must be 0).
    pub(crate) check: fn(&str) -> bool,
}

/// Runs `warmup` discarded rounds, then `runs` measured ones; each
/// variant's times, in `variants`' order.
pub(crate) fn measure(
    variants: &mut [Variant],
    warmup: usize,
    runs: usize,
) -> anyhow::Result<Vec<Vec<Duration>>> {
    let count = variants.len();
    let mut times = vec![Vec::with_capacity(runs); count];
    for round in 0..warmup + runs {
        for k in 0..count {
            let index = (k + round) % count;
            let variant = &mut variants[index];
            let spawned = variant
                .io
                .run(&variant.hook)
                .with_context(|| format!("running {}", variant.label))?;
            let stdout = String::from_utf8_lossy(&spawned.stdout);
            if !spawned.status.success() || !(variant.check)(&stdout) {
                bail!(
                    "{}: unexpected answer: {} stdout {stdout:?}",
                    variant.label,
                    spawned.status
                );
            }
            if round >= warmup {
                times[index].push(spawned.elapsed);
            }
        }
    }
    Ok(times)
}

/// p50, p90, p99 of `samples`.
pub(crate) fn quantiles(samples: &[Duration]) -> [Duration; 3] {
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    [50.0, 90.0, 99.0].map(|p| percentile(&sorted, p).unwrap_or_default())
}

/// A shim call to the gateway at `socket` as Claude Code, failing closed:
/// a call that misses the gateway denies, and the checks reject denies.
pub(crate) fn shim(program: &std::path::Path, socket: &std::path::Path) -> HookCommand {
    HookCommand {
        program: program.to_path_buf(),
        args: vec!["claude-code".to_owned()],
        env: vec![
            ("HOOKGATE_SOCKET".to_owned(), socket.display().to_string()),
            ("HOOKGATE_FAIL".to_owned(), "closed".to_owned()),
        ],
    }
}

/// `/bin/true`, the floor every spawned hook pays.
pub(crate) fn bin_true() -> HookCommand {
    HookCommand {
        program: "/bin/true".into(),
        args: Vec::new(),
        env: Vec::new(),
    }
}

/// An answer that lets the call go on (no deny, no ask).
pub(crate) fn allowed(stdout: &str) -> bool {
    !stdout.contains("\"deny\"") && !stdout.contains("\"ask\"")
}

/// The lines under a section's heading: when and at which commit it was
/// measured, the machine and its load, and the command that reruns only
/// that section (`--only {only} --splice`).
pub(crate) fn provenance(
    out: &mut String,
    machine: &crate::machine::Machine,
    (load_at_start, load_at_end): (&str, &str),
    only: &str,
) {
    use std::fmt::Write as _;
    let _ = writeln!(
        out,
        "- Measured: {}, commit `{}`",
        machine.date,
        crate::guard_corpus::commit()
    );
    let _ = writeln!(
        out,
        "- Machine: {} CPUs, {}; load average (1/5/15 min) at the section's start: {load_at_start}; at its end: {load_at_end}{}",
        machine.cpus,
        machine.cpu_model,
        crate::machine::load_note(load_at_start, machine.cpus)
    );
    let _ = writeln!(
        out,
        "- Rerun: `cargo run --release -p hookgate-integration-tests --bin hookbench -- --only {only} --splice` (replaces this section only)\n"
    );
}
