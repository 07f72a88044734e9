//! Section 1's check: the same commands timed by the independent C loop of
//! `native` (its own `posix_spawn`, its own clock, none of the bench's
//! Rust), so a harness artefact shows up as a disagreement.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use anyhow::{Context as _, bail};

use crate::baselines::HookCommand;
use crate::native::Native;

/// Runs `commands` round-robin through the C loop, `runs` measured rounds
/// after `warmup`; appends each command's times to its series in
/// `samples` (by index in `commands`).
pub(crate) fn run(
    native: &Native,
    payload: &Path,
    commands: &[(char, &HookCommand)],
    (runs, warmup): (usize, usize),
    samples: &mut [Vec<Duration>],
) -> anyhow::Result<()> {
    let mut loop_cmd = Command::new(&native.spawnloop);
    loop_cmd
        .arg(runs.to_string())
        .arg(warmup.to_string())
        .arg(payload)
        .env("CLAUDE_PROJECT_DIR", "/home/dev/acme-api");
    for (_, command) in commands {
        loop_cmd.arg("--");
        for (name, value) in &command.env {
            loop_cmd.arg(format!("{name}={value}"));
        }
        loop_cmd.arg(&command.program).args(&command.args);
    }
    let output = loop_cmd.output().context("running the C spawn loop")?;
    if !output.status.success() {
        bail!(
            "the C spawn loop failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let parsed = parse(&String::from_utf8_lossy(&output.stdout), commands.len())?;
    for (index, time) in parsed {
        if let Some(series) = samples.get_mut(index) {
            series.push(time);
        }
    }
    for (series, (key, _)) in samples.iter().zip(commands) {
        if series.is_empty() {
            bail!("the C spawn loop timed no run of ({key})");
        }
    }
    Ok(())
}

/// Lines `INDEX NANOSECONDS`, one per measured run.
pub(crate) fn parse(text: &str, commands: usize) -> anyhow::Result<Vec<(usize, Duration)>> {
    text.lines()
        .map(|line| {
            let (index, ns) = line
                .split_once(' ')
                .with_context(|| format!("malformed C client line {line:?}"))?;
            let index: usize = index.parse().context("C client index")?;
            if index >= commands {
                bail!("C client index {index} out of range");
            }
            let ns: u64 = ns.trim().parse().context("C client time")?;
            Ok((index, Duration::from_nanos(ns)))
        })
        .collect()
}
