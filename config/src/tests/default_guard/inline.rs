//! The default guard's first attempt on a small budget (what the gateway
//! tries on its async worker, `hookgate_guard::INLINE_WORK`) over every
//! corpus: each answer it gives is the full call's, and no ordinary line
//! needs more work units than it has but three known glob-heavy ones (the
//! gateway's time limit on the attempt, which depends on the machine, is
//! not part of this test).

use hookgate_guard::INLINE_WORK;
use hookgate_test_data::guard_corpus::commands;

use super::corpus::rows;
use super::{default_guard, shell};

const SHELL: &str = include_str!("corpus/shell.tsv");
/// The held-out corpora the integration tests and hookbench send through
/// the real binaries.
const ORDINARY: &str = include_str!("../../../../test-data/guard-corpus/ordinary.tsv");
const DANGEROUS: &str = include_str!("../../../../test-data/guard-corpus/dangerous.tsv");

#[test]
fn the_small_attempt_answers_as_the_full_call_with_room_for_ordinary_lines() {
    let guard = default_guard();
    let ordinary = commands(ORDINARY);
    let dangerous = commands(DANGEROUS);
    let unit: Vec<String> = rows(SHELL)
        .iter()
        .filter_map(|r| r.get(2).cloned())
        .collect();
    assert!(ordinary.len() > 150 && dangerous.len() > 300 && unit.len() > 150);
    let mut pooled = Vec::new();
    for (corpus, lines) in [
        ("ordinary", &ordinary),
        ("dangerous", &dangerous),
        ("shell", &unit),
    ] {
        for line in lines {
            for ask in [false, true] {
                let mut event = shell(line);
                event.capabilities.ask = ask;
                let full = guard.decide_within(&event, None);
                match guard.try_within(&event, INLINE_WORK, None) {
                    Some(first) => assert_eq!(
                        (first.decision, first.hit, first.too_complex),
                        (full.decision, full.hit, full.too_complex),
                        "{corpus}: {line:.80}"
                    ),
                    None => pooled.push(format!("{corpus}: {line:.80}")),
                }
            }
        }
    }
    // No ordinary line needs more units, but for the three whose globs and
    // unknown directories have the secret rules' lazy DFAs build states by
    // the thousand (charged as work: milliseconds in full, far past the
    // gateway's time limit on the attempt anyway).
    let mut ordinary: Vec<&str> = pooled
        .iter()
        .filter_map(|p| p.strip_prefix("ordinary: "))
        .collect();
    ordinary.dedup();
    assert_eq!(
        ordinary,
        [
            "find src -type f -name '*.test.ts' | xargs wc -l",
            "wc -l src/**/*.ts",
            "cd \"$(git rev-parse --show-toplevel)\" && npm test",
        ],
        "{pooled:#?}"
    );
}
