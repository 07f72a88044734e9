//! What a first attempt on a small work budget costs, in time, with the
//! embedded default guard and a self-protection like the gateway builds:
//! how `hookgate_guard::INLINE_WORK` was chosen (issue #33), and how to
//! check it again on another machine.
//!
//! ```text
//! cargo run --release -p hookgate-config --example inline_cost [WORK...]
//! ```
//!
//! For each work budget (default: `INLINE_WORK`), every line of the held-out
//! ordinary corpus and a set of lines built to use up any budget (long,
//! nested, self-evaluating) is tried `ROUNDS` times; it prints, per line
//! kind, whether the attempt answered or gave up, and the median and the
//! slowest attempt. A measurement, not a test: nothing here can fail but
//! the build.

#![allow(clippy::print_stdout, reason = "a measurement tool prints its report")]

use std::time::{Duration, Instant};

use hookgate_adapters::sample::{event, shell_tool};
use hookgate_adapters::{Dialect, EventKind, HookEvent};
use hookgate_config::{Config, DEFAULT_TOML, EMBEDDED_NAME, Env, SubscriberKind};
use hookgate_guard::protect::{Pattern, Processes, Protected, Protection};
use hookgate_guard::{Guard, INLINE_WORK};
use hookgate_test_data::guard_corpus::commands;

/// Attempts per line and budget.
const ROUNDS: usize = 200;

const ORDINARY: &str = include_str!("../../test-data/guard-corpus/ordinary.tsv");
const DANGEROUS: &str = include_str!("../../test-data/guard-corpus/dangerous.tsv");

fn main() {
    // `--crafted`: only the crafted lines (for a profiler); `--cap-us=N`:
    // each attempt also stops N µs after it starts, as the gateway's does.
    let crafted_only = std::env::args().any(|a| a == "--crafted");
    let cap = std::env::args()
        .find_map(|a| a.strip_prefix("--cap-us=")?.parse().ok())
        .map(Duration::from_micros);
    let until = || cap.map(|c| Instant::now() + c);
    let works: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let works = if works.is_empty() {
        vec![INLINE_WORK]
    } else {
        works
    };
    let guard = default_guard();
    let protection = protection();
    let corpus: Vec<String> = commands(ORDINARY)
        .into_iter()
        .chain(commands(DANGEROUS))
        .collect();
    // `--quick`: only the attempts, not the units each line needs.
    if !crafted_only && !std::env::args().any(|a| a == "--quick") {
        heaviest(&guard, &protection, &corpus);
        per_glob(&guard, &protection, until);
    }
    for work in works {
        println!("work {work}, time cap {cap:?}:");
        let crafted = crafted(work);
        let corpus = if crafted_only {
            Vec::new()
        } else {
            corpus.clone()
        };
        for (kind, lines) in [("corpus", corpus), ("crafted", crafted), ("globs", globs())] {
            if lines.is_empty() {
                continue;
            }
            for (who, attempt) in [
                (
                    "guard",
                    &(|e: &HookEvent| guard.try_within(e, work, until()).is_some())
                        as &dyn Fn(&HookEvent) -> bool,
                ),
                ("self-protection", &|e: &HookEvent| {
                    protection.try_decide(e, work, until()).is_some()
                }),
            ] {
                let (mut answered, mut gave_up) = (0, 0);
                let mut all = Vec::new();
                let mut slowest = (Duration::ZERO, String::new());
                for line in &lines {
                    let event = shell(line);
                    let mut times = Vec::with_capacity(ROUNDS);
                    let mut ok = false;
                    for _ in 0..ROUNDS {
                        let started = Instant::now();
                        ok = attempt(&event);
                        times.push(started.elapsed());
                    }
                    times.sort();
                    let median = times[ROUNDS / 2];
                    if median > slowest.0 {
                        slowest = (median, line.chars().take(50).collect());
                    }
                    all.extend(times);
                    if ok {
                        answered += 1;
                    } else {
                        gave_up += 1;
                    }
                }
                all.sort();
                let at = |q: f64| all[((all.len() - 1) as f64 * q) as usize];
                println!(
                    "  {kind:8} {who:16} answered {answered:3} gave up {gave_up:3}  p50 {:>9.1?} p99 {:>9.1?} max {:>9.1?}  slowest median {:>9.1?} ({:?})",
                    at(0.5),
                    at(0.99),
                    at(1.0),
                    slowest.0,
                    slowest.1
                );
            }
        }
    }
}

/// The corpus lines that need the most units (the guard's, and
/// self-protection's), with the time of a full check of each: what an
/// ordinary unit costs.
fn heaviest(guard: &Guard, protection: &Protection, corpus: &[String]) {
    let mut needs: Vec<(u64, u64, Duration, &String)> = corpus
        .iter()
        .filter(|line| line.len() < 100_000)
        .map(|line| {
            let event = shell(line);
            let g = needed(|w| guard.try_within(&event, w, None).is_some());
            let p = needed(|w| protection.try_decide(&event, w, None).is_some());
            let mut times: Vec<Duration> = (0..ROUNDS / 4)
                .map(|_| {
                    let started = Instant::now();
                    let _ = guard.try_within(&event, hookgate_guard::MAX_WORK, None);
                    let _ = protection.try_decide(&event, hookgate_guard::MAX_WORK, None);
                    started.elapsed()
                })
                .collect();
            times.sort();
            (g, p, times[times.len() / 2], line)
        })
        .collect();
    needs.sort_by_key(|n| std::cmp::Reverse(n.0.max(n.1)));
    println!("corpus lines needing the most units (guard, self-protection, both checked in full):");
    for (g, p, took, line) in needs.iter().take(25) {
        let line: String = line.chars().take(60).collect();
        println!("  {g:>8} {p:>8} {took:>9.1?}  {line:?}");
    }
    let count = needs.len();
    for limit in [4_096, 8_192, 16_384, 32_768, 65_536, 131_072, 262_144] {
        let over = needs.iter().filter(|n| n.0.max(n.1) > limit).count();
        println!("  over {limit:>7}: {over} of {count}");
    }
}

/// Each glob line built to make the lazy DFAs work: the units a full
/// check needs, its time, and the slowest of its attempts on
/// `INLINE_WORK` (and the time cap, if given).
fn per_glob(guard: &Guard, protection: &Protection, until: impl Fn() -> Option<Instant>) {
    println!("glob lines: units (guard, self-protection), full check, attempt p50 and max:");
    for line in globs() {
        let event = shell(&line);
        let g = needed(|w| guard.try_within(&event, w, None).is_some());
        let p = needed(|w| protection.try_decide(&event, w, None).is_some());
        let time = |f: &dyn Fn()| {
            let mut times: Vec<Duration> = (0..ROUNDS)
                .map(|_| {
                    let started = Instant::now();
                    f();
                    started.elapsed()
                })
                .collect();
            times.sort();
            (times[ROUNDS / 2], times[ROUNDS - 1])
        };
        let (full, _) = time(&|| {
            let _ = guard.try_within(&event, hookgate_guard::MAX_WORK, None);
        });
        let (p50, max) = time(&|| {
            let _ = guard.try_within(&event, INLINE_WORK, until());
            let _ = protection.try_decide(&event, INLINE_WORK, until());
        });
        let line: String = line.chars().take(50).collect();
        println!("  {g:>8} {p:>8} {full:>9.1?} {p50:>9.1?} {max:>9.1?}  {line:?}");
    }
}

/// Lines whose globs and unknown parts make the secret rules' lazy DFAs
/// build many states: many parts, classes, `*`, `**`, long words.
fn globs() -> Vec<String> {
    let classes = "[a-zA-Z0-9._-]".repeat(8);
    vec![
        "find . -name .env -exec cat {} +".to_owned(),
        "cat src/**/*.ts".to_owned(),
        "cat ~/.*/*/*/*/*".to_owned(),
        "cat *e*n*v* .*e*n*v* */.*/*".to_owned(),
        format!("cat {classes}"),
        format!("cat .{classes}*"),
        format!("cat ~/{classes}/{classes}/*"),
        format!("cat {}", "*?".repeat(100)),
        format!("cat {}", "[a-z]*/".repeat(50)),
        format!("cat {}", "*/.*/* ".repeat(50)),
        format!("cat {}", "**/.[!.]*[kK][eE][yY]* ".repeat(30)),
        format!("cat {}", "$a$b/.$c*/$d ".repeat(40)),
        format!("cat \"$HOME\"/.{}", "?".repeat(200)),
        format!("cat {}", "x".repeat(2000) + "*"),
        format!(
            "cp {} /tmp",
            "~/.ssh/* ~/.aws/* ~/.gnupg/* ~/.config/*/* ".repeat(20)
        ),
        format!(
            "tar czf /tmp/a.tgz {}",
            "./*/*[a-f0-9]*.{pem,key,p12} ".repeat(20)
        ),
    ]
}

/// The fewest units with which `answers` does (bisection).
fn needed(answers: impl Fn(u64) -> bool) -> u64 {
    let (mut low, mut high) = (0, hookgate_guard::MAX_WORK);
    while low + 1 < high {
        let mid = low + (high - low) / 2;
        if answers(mid) {
            high = mid;
        } else {
            low = mid;
        }
    }
    high
}

/// Lines that use up `work` units in different ways.
fn crafted(work: u64) -> Vec<String> {
    let n = usize::try_from(work).unwrap_or(usize::MAX).min(1 << 22);
    let vars = |k: usize| {
        (0..k)
            .map(|i| format!("v{i}=/tmp/{i}; "))
            .collect::<String>()
    };
    let evals = |k: usize, depth: usize| {
        let all: String = (0..k).map(|i| format!("$v{i} ")).collect();
        let mut line = vars(k);
        for _ in 0..depth {
            line.push_str(&format!("( eval \"ls {all}\"; "));
        }
        line + &")".repeat(depth)
    };
    let doubling = {
        let mut line = String::from("v0=xxxxxxxx; ");
        for i in 1..40 {
            line.push_str(&format!("v{i}=\"$v{}$v{}\"; ", i - 1, i - 1));
        }
        line + "( ( ( eval \"echo $v39\" ) ) )"
    };
    let loops = {
        let values: String = (0..30).map(|i| format!("{i} ")).collect();
        let mut line = String::from("true");
        for var in ["a", "b", "c", "d"] {
            line = format!("for {var} in {values}; do {line}; done");
        }
        line
    };
    vec![
        "a".repeat(n),
        "a ".repeat(n / 2),
        "ls -la ".repeat(n / 7),
        "a|".repeat(n / 2) + "a",
        "$(".repeat(n / 4) + &")".repeat(n / 4),
        "(".repeat(n / 2),
        "\"$(echo \"".repeat(n / 10),
        "x=${y:-".repeat(n / 7),
        "cat .e\"nv\" ".repeat(n / 12),
        "rm -rf /tmp/a/b/c/*/d ".repeat(n / 22),
        evals(40, 8),
        evals(100, 20),
        doubling,
        loops,
        "s='eval \"$s\"'; eval \"$s\"".to_owned(),
        "f() { f; }; f".to_owned(),
        "sh -c 'sh -c \"sh -c \\\"eval ls\\\"\"'".repeat(n / 40),
    ]
}

/// A blockable Claude Code `Bash` call of `command` in `/home/dev/acme`.
fn shell(command: &str) -> HookEvent {
    let mut e = event(Dialect::ClaudeCode, EventKind::PreToolUse);
    e.capabilities.deny = true;
    e.tool = Some(shell_tool("Bash", command));
    e
}

/// The embedded default config's guard, for a user whose home is
/// `/home/dev`.
fn default_guard() -> Guard {
    let env = Env {
        home: Some("/home/dev".into()),
        ..Env::default()
    };
    let Ok(config) = Config::parse(EMBEDDED_NAME, DEFAULT_TOML, &env) else {
        panic!("the embedded default config parses");
    };
    config
        .subscribers
        .into_iter()
        .find_map(|s| match s.kind {
            SubscriberKind::Guard { guard, .. } => Some(guard),
            _ => None,
        })
        .unwrap_or_default()
}

/// Self-protection over parts like the gateway's for that user.
fn protection() -> Protection {
    let part = |pattern: Pattern, secret: bool| Protected {
        pattern,
        secret,
        what: "hookgate's part".to_owned(),
    };
    let parts = vec![
        part(Pattern::Tree("~/.config/hookgate".into()), false),
        part(Pattern::Tree("~/.local/state/hookgate".into()), false),
        part(
            Pattern::Prefix("~/.local/state/hookgate/audit.jsonl".into()),
            true,
        ),
        part(Pattern::Tree("~/.local/bin/gateway-shim".into()), false),
        part(Pattern::Tree("~/.claude/settings.json".into()), false),
        part(
            Pattern::Anywhere(".claude/settings.local.json".into()),
            false,
        ),
    ];
    let processes = Processes {
        pids: vec![4242],
        names: vec!["gateway".into()],
        units: vec!["hookgate.service".into()],
        labels: vec![],
        programs: vec!["gateway".into()],
    };
    Protection::new(parts, processes, Some("/home/dev".into()))
}
