//! Section "Memory built-in cost" (issue #31): (a) what capture adds to a
//! hook call, the memory built-in on vs off; (b) injection at a session's
//! start and at a prompt with 100,000 stored memories vs an empty store.
//! Three release gateways side by side, all on the embedded default config
//! (the guard and the decision log): without `memory`, with `memory` on an
//! empty store, and with `memory` on a store filled beforehand through the
//! `hookgate-memory` crate's own API (the project of the sample payloads,
//! so every injection searches all of them). Claude Code's sample
//! `PostToolUse` (`Write`: captured), `SessionStart` and `UserPromptSubmit`
//! go to each through the static release `gateway-shim`, interleaved with
//! `/bin/true` in one loop; a filled store's start or prompt answered
//! without memories (a timed-out injection) is an error, not a time.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context as _, bail};
use hookgate_memory::{MemoryKind, Observation, ObservationKind, Store};

use crate::artifacts::{Artifacts, workspace_root};
use crate::gateway::{Gateway, private_dir};
use crate::machine::Machine;
use crate::side_by_side::{self, Variant, allowed, quantiles};
use crate::spawn::HookIo;
use crate::stats::{ms, ratio};

/// The section's heading, which `--splice` finds in an existing report.
pub(crate) const HEADING: &str = "## Memory built-in cost (capture and injection)";
/// The project of the sample payloads (their `cwd`, no git root above it).
const PROJECT: &str = "/home/dev/acme-api";
/// The longest injection wait the config allows: slow injections are
/// measured, not cut short at the 100 ms default.
const TIMEOUT_MS: u64 = 1000;
/// Memories written per fill transaction.
const PER_BATCH: usize = 100;
/// The words the filled memories are made of: a project's vocabulary, the
/// sample prompt's words among them.
const WORDS: [&str; 24] = [
    "orders",
    "validation",
    "endpoint",
    "cache",
    "retry",
    "schema",
    "migration",
    "token",
    "payments",
    "webhook",
    "queue",
    "index",
    "timeout",
    "session",
    "invoice",
    "parser",
    "input",
    "customer",
    "refund",
    "ledger",
    "export",
    "report",
    "login",
    "search",
];
/// The sample prompt's words (UserPromptSubmit.json) that [`WORDS`] holds.
const PROMPT_WORDS: [&str; 4] = ["input", "validation", "orders", "endpoint"];

/// The events sent, in table order, with their sample payload.
const EVENTS: [(&str, &str); 3] = [
    (
        "`PostToolUse` (`Write`, captured)",
        "adapters/test_data/claude-code/PostToolUse.json",
    ),
    (
        "`SessionStart` (recent memories told)",
        "adapters/test_data/claude-code/SessionStart.json",
    ),
    (
        "`UserPromptSubmit` (matching memories told)",
        "adapters/test_data/claude-code/UserPromptSubmit.json",
    ),
];

/// The section's run.
#[derive(Debug)]
pub(crate) struct MemoryBuiltinCost {
    pub(crate) runs: usize,
    pub(crate) memories: usize,
    /// Filled memories holding one of the prompt's words.
    pub(crate) matching: usize,
    pub(crate) fill: Duration,
    /// `/bin/true`'s times.
    pub(crate) floor: Vec<Duration>,
    /// Per event of [`EVENTS`]: without memory, empty store, filled store.
    pub(crate) times: Vec<[Vec<Duration>; 3]>,
    pub(crate) load_at_start: String,
    pub(crate) load_at_end: String,
}

/// One filled memory's text: four words of [`WORDS`] and numbers, unique.
fn memory_text(i: usize) -> String {
    let word = |k: usize| WORDS[(i / 7 + k * 5 + i * k) % WORDS.len()];
    format!(
        "The {} {} in src/{}/{}_{}.ts returned 4{:02} after {} ms; fixed by the {} change (note {i})",
        word(0),
        word(1),
        word(2),
        word(3),
        i % 97,
        i % 30,
        10 + i % 900,
        word(1)
    )
}

/// Fills `db` with `count` memories of [`PROJECT`] through the store's
/// API: per batch, one observation recorded and replaced by its memories
/// (what a compression does). Returns how many hold a prompt word.
fn fill(db: &Path, count: usize) -> anyhow::Result<usize> {
    let mut store = Store::open(db).context("opening the store to fill")?;
    let now_ms = i64::try_from(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .context("the clock")?
            .as_millis(),
    )
    .context("the clock")?;
    let mut matching = 0;
    for batch in 0..count.div_ceil(PER_BATCH) {
        let session = format!("hookbench-fill-{batch}");
        store
            .record(&Observation {
                project: PROJECT.to_owned(),
                agent: "claude-code".to_owned(),
                session: session.clone(),
                kind: ObservationKind::Prompt,
                text: "fill".to_owned(),
                at_ms: now_ms,
            })
            .context("recording a fill observation")?;
        let pending = store
            .pending_batch(&session)
            .context("reading the fill batch")?
            .context("the fill observation is not pending")?;
        let memories: Vec<(MemoryKind, String)> = (batch * PER_BATCH
            ..count.min((batch + 1) * PER_BATCH))
            .map(|i| (MemoryKind::Fact, memory_text(i)))
            .collect();
        matching += memories
            .iter()
            .filter(|(_, text)| {
                text.split(|c: char| !c.is_alphanumeric())
                    .any(|w| PROMPT_WORDS.contains(&w))
            })
            .count();
        let stored = store
            .store_batch(&pending, &memories, now_ms)
            .context("storing fill memories")?;
        if stored.memories != memories.len() {
            bail!(
                "the store took {} of {} memories",
                stored.memories,
                memories.len()
            );
        }
    }
    store
        .checkpoint()
        .context("checkpointing the filled store")?;
    let stats = store.stats().context("the filled store's stats")?;
    if usize::try_from(stats.memories).ok() != Some(count) {
        bail!(
            "the filled store holds {} memories, not {count}",
            stats.memories
        );
    }
    Ok(matching)
}

fn memory_config(db: &Path) -> String {
    format!(
        "\n[[subscriber]]\nname = \"memory\"\nbuiltin = \"memory\"\npath = {}\ntimeout_ms = {TIMEOUT_MS}\ncompress_after = 1000000\n",
        serde_json::Value::String(db.display().to_string())
    )
}

fn told(stdout: &str) -> bool {
    allowed(stdout) && stdout.contains("additionalContext")
}

fn not_told(stdout: &str) -> bool {
    allowed(stdout) && !stdout.contains("additionalContext")
}

pub(crate) fn run(
    artifacts: &Artifacts,
    memories: usize,
    warmup: usize,
    runs: usize,
) -> anyhow::Result<MemoryBuiltinCost> {
    let dir = private_dir("hookbench-memory-")?;
    let filled_db = dir.path().join("filled.db");
    let started = Instant::now();
    let matching = fill(&filled_db, memories)?;
    let fill_time = started.elapsed();
    let load_at_start = Machine::load_now();
    let base = |name: &str| hookgate_integration_tests::default_config(&dir.path().join(name));
    let gateways = [
        Gateway::start(&artifacts.gateway, &base("off.jsonl"))?,
        Gateway::start(
            &artifacts.gateway,
            &(base("empty.jsonl") + &memory_config(&dir.path().join("empty.db"))),
        )?,
        Gateway::start(
            &artifacts.gateway,
            &(base("filled.jsonl") + &memory_config(&filled_db)),
        )?,
    ];
    let root = workspace_root();
    let floor_payload: PathBuf = root.join(crate::PAYLOAD);
    let mut variants = vec![Variant {
        label: "spawn /bin/true".to_owned(),
        hook: side_by_side::bin_true(),
        io: HookIo::open(&floor_payload)?,
        check: str::is_empty,
    }];
    for (e, (event, payload)) in EVENTS.iter().enumerate() {
        for (g, gateway) in gateways.iter().enumerate() {
            let check: fn(&str) -> bool = match (e, g) {
                (0, _) => allowed,
                (_, 2) => told,
                _ => not_told,
            };
            variants.push(Variant {
                label: format!("{event}, gateway {g}"),
                hook: side_by_side::shim(&artifacts.shim, gateway.socket()),
                io: HookIo::open(&root.join(payload))?,
                check,
            });
        }
    }
    let mut all = side_by_side::measure(&mut variants, warmup, runs)?.into_iter();
    let floor = all.next().unwrap_or_default();
    let mut times = Vec::new();
    while let (Some(off), Some(empty), Some(filled)) = (all.next(), all.next(), all.next()) {
        times.push([off, empty, filled]);
    }
    Ok(MemoryBuiltinCost {
        runs,
        memories,
        matching,
        fill: fill_time,
        floor,
        times,
        load_at_start,
        load_at_end: Machine::load_now(),
    })
}

pub(crate) fn section(out: &mut String, run: Option<&MemoryBuiltinCost>, machine: &Machine) {
    let Some(run) = run else { return };
    let _ = writeln!(out, "{HEADING}\n");
    let _ = writeln!(
        out,
        "What the `memory` built-in costs a hook call (issue #31): what capture adds (memory on vs off), and injection with {} stored memories vs an empty store. Three release `gateway`s side by side, all on the embedded default config (the `guard` with its default rules, and the decision log): (off) without `memory`; (empty) with `memory` on an empty store; (filled) with `memory` on a store filled before the gateway started with {} memories of the payloads' project (`{PROJECT}`), through the `hookgate-memory` crate's own API (in {:.1} s: per batch of {PER_BATCH}, one observation recorded and replaced by its memories, as a compression does). Each memory is a sentence of four words from a project vocabulary of {} and numbers, unique; {} of them hold one of the sample prompt's words (words that common are matched among the newest 2,000 memories only: `memory/src/common.rs`). `timeout_ms = {TIMEOUT_MS}` (the most allowed), so a slow injection is measured, not cut short; a filled store's start or prompt answered without memories is an error, not a time. Claude Code's sample `PostToolUse` (a `Write`, captured after the reply), `SessionStart` and `UserPromptSubmit` (`adapters/test_data/claude-code/`) go to each through the static release `gateway-shim` (failing closed), interleaved in one loop with `/bin/true`, the order rotating each round; {} measured rounds. Times: the process as the agent waits for it, spawn to exit, in ms.\n",
        run.memories,
        run.memories,
        run.fill.as_secs_f64(),
        WORDS.len(),
        run.matching,
        run.runs
    );
    crate::side_by_side::provenance(
        out,
        machine,
        (&run.load_at_start, &run.load_at_end),
        "memory-builtin",
    );
    let _ = writeln!(
        out,
        "| Hook call | off p50 | p90 | empty p50 | p90 | filled p50 | p90 | filled − off p50 | filled/off p50 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    let floor = quantiles(&run.floor);
    let _ = writeln!(
        out,
        "| spawn `/bin/true` (the floor) | {} | {} | | | | | | |",
        ms(floor[0]),
        ms(floor[1])
    );
    for ((event, _), [off, empty, filled]) in EVENTS.iter().zip(&run.times) {
        let [off, empty, filled] = [off, empty, filled].map(|t| quantiles(t));
        let _ = writeln!(
            out,
            "| {event} | {} | {} | {} | {} | {} | {} | {} | {:.2} |",
            ms(off[0]),
            ms(off[1]),
            ms(empty[0]),
            ms(empty[1]),
            ms(filled[0]),
            ms(filled[1]),
            crate::stats::signed_ms(filled[0], off[0]),
            ratio(filled[0], off[0])
        );
    }
    let _ = writeln!(
        out,
        "\nCapture is the `PostToolUse` row, empty vs off (the filled store captures too). Injection is the `SessionStart` and `UserPromptSubmit` rows, filled vs empty and off; the issue's target is an injection p50 of at most 5 ms at 100,000 memories. For comparison, not measured here: claude-mem, which runs a Node process and an HTTP round trip to its worker per hook, is reported at 1–2.4 s per hook call in its own issue tracker (its issue #3857 and others, as cited in hookgate's issue #31): their published figure.\n"
    );
}
