//! The targets, each checked against the measured figures and
//! marked MET or NOT MET (or not measured, when its section was skipped).

use crate::Results;
use crate::fanout::DIRECT_WIDE;
use crate::stats::ms;

/// One target's verdict.
#[derive(Debug, Clone)]
pub(crate) struct Verdict {
    pub(crate) target: &'static str,
    pub(crate) measured: String,
    /// `None`: not measured in this run.
    pub(crate) met: Option<bool>,
}

impl Verdict {
    pub(crate) fn status(&self) -> &'static str {
        match self.met {
            Some(true) => "MET",
            Some(false) => "NOT MET",
            None => "not measured",
        }
    }
}

/// Growth from the first checkpoint to the last that still counts as flat.
pub(crate) const FLAT_TOLERANCE_KIB: u64 = 1024;
const MIB: f64 = 1024.0;

pub(crate) fn evaluate(results: &Results) -> Vec<Verdict> {
    let mut verdicts = Vec::new();
    let unmeasured = |target| Verdict {
        target,
        measured: "—".to_owned(),
        met: None,
    };

    let hook = results.hook.as_ref();
    let medians = hook.and_then(|h| {
        Some((
            h.median('a')?,
            h.median('c')?,
            h.median('d')?,
            h.median('e')?,
        ))
    });
    match medians {
        Some((a, c, d, e)) => {
            let vs_true = a.as_secs_f64() / c.as_secs_f64();
            verdicts.push(Verdict {
                target: "(a) median ≤ 1.2× (c) /bin/true",
                measured: format!("{} ms vs {} ms = {vs_true:.2}×", ms(a), ms(c)),
                met: Some(vs_true <= 1.2),
            });
            let vs_bash = d.as_secs_f64() / a.as_secs_f64();
            verdicts.push(Verdict {
                target: "(a) ≥ 20× faster than (d) bash + jq + curl",
                measured: format!("{vs_bash:.1}× ({} ms vs {} ms)", ms(a), ms(d)),
                met: Some(vs_bash >= 20.0),
            });
            let vs_node = e.as_secs_f64() / a.as_secs_f64();
            verdicts.push(Verdict {
                target: "(a) ≥ 50× faster than (e) node",
                measured: format!("{vs_node:.1}× ({} ms vs {} ms)", ms(a), ms(e)),
                met: Some(vs_node >= 50.0),
            });
        }
        None => {
            verdicts.push(unmeasured("(a) median ≤ 1.2× (c) /bin/true"));
            verdicts.push(unmeasured("(a) ≥ 20× faster than (d) bash + jq + curl"));
            verdicts.push(unmeasured("(a) ≥ 50× faster than (e) node"));
        }
    }

    hook_checks(&mut verdicts, hook);

    const FANOUT: &str = "8-way fan-out with delay L: median ≤ L + 1 ms";
    match results
        .fanout
        .as_ref()
        .and_then(|f| Some((f.delay, f.median_at(DIRECT_WIDE)?, f.direct_wide.median)))
    {
        Some((delay, median, direct)) => verdicts.push(Verdict {
            target: FANOUT,
            measured: format!(
                "{} ms with L = {} ms (L + {} ms; 8 subscribers asked directly, no gateway: L + {} ms)",
                ms(median),
                ms(delay),
                ms(median.saturating_sub(delay)),
                ms(direct.saturating_sub(delay))
            ),
            met: Some(median <= delay + std::time::Duration::from_millis(1)),
        }),
        None => verdicts.push(unmeasured(FANOUT)),
    }

    const THROUGHPUT: &str = "≥ 20,000 events/s with one gRPC subscriber";
    match results.throughput.as_ref().and_then(|t| t.with(1, false)) {
        Some(rate) => verdicts.push(Verdict {
            target: THROUGHPUT,
            measured: format!(
                "{:.0} events/s (subscriber over TCP){}",
                rate.overall(),
                results
                    .throughput
                    .as_ref()
                    .and_then(|t| t.with(1, true))
                    .map(|u| format!("; {:.0} events/s over a unix:// endpoint", u.overall()))
                    .unwrap_or_default()
            ),
            met: Some(rate.overall() >= 20_000.0),
        }),
        None => verdicts.push(unmeasured(THROUGHPUT)),
    }

    const IDLE: &str = "gateway idle RSS ≤ 15 MiB";
    const FLAT: &str = "no RSS growth after 1M events";
    match results.memory.as_ref() {
        Some(run) => {
            let idle = run.idle.rss_kib as f64 / MIB;
            verdicts.push(Verdict {
                target: IDLE,
                measured: format!("{idle:.1} MiB (1 gRPC subscriber configured)"),
                met: Some(idle <= 15.0),
            });
            match (run.checkpoints.first(), run.checkpoints.last()) {
                (Some((n0, first)), Some((n1, last))) => {
                    let growth = last.rss_kib as i64 - first.rss_kib as i64;
                    verdicts.push(Verdict {
                        target: FLAT,
                        measured: format!(
                            "{:.1} MiB after {n0} events → {:.1} MiB after {n1} ({growth:+} KiB; flat = within {FLAT_TOLERANCE_KIB} KiB)",
                            first.rss_kib as f64 / MIB,
                            last.rss_kib as f64 / MIB
                        ),
                        met: (*n1 >= 1_000_000).then_some(growth <= FLAT_TOLERANCE_KIB as i64),
                    });
                }
                _ => verdicts.push(unmeasured(FLAT)),
            }
        }
        None => {
            verdicts.push(unmeasured(IDLE));
            verdicts.push(unmeasured(FLAT));
        }
    }

    const SIZE: &str = "gateway-shim ≤ 1 MiB";
    const STATIC: &str = "gateway-shim statically linked";
    match results.shim.as_ref() {
        Some(shim) => {
            verdicts.push(Verdict {
                target: SIZE,
                measured: format!(
                    "{} bytes ({:.2} MiB)",
                    shim.bytes,
                    shim.bytes as f64 / MIB / MIB
                ),
                met: Some(shim.bytes <= 1024 * 1024),
            });
            verdicts.push(Verdict {
                target: STATIC,
                measured: if shim.is_static {
                    "static (no INTERP, no NEEDED)"
                } else {
                    "dynamic"
                }
                .to_owned(),
                met: Some(shim.is_static),
            });
        }
        None => {
            verdicts.push(unmeasured(SIZE));
            verdicts.push(unmeasured(STATIC));
        }
    }
    verdicts
}

/// Issue 17's breaker figure and issue 18's cross-check.
fn hook_checks(verdicts: &mut Vec<Verdict>, hook: Option<&crate::hook_cost::HookCost>) {
    const BREAKER: &str = "(j) p50 with the only subscriber killed (breaker open) not worse than (a) no subscriber (≤ 1.05×)";
    const AGREE: &str =
        "every spawned row's ratio to /bin/true agrees with the independent C loop (within 10 %)";
    let Some(hook) = hook else {
        for target in [
            BREAKER,
            AGREE,
            "(k) HTTP hook median ≤ 0.31 ms (clooks' HTTP hook)",
        ] {
            verdicts.push(Verdict {
                target,
                measured: "—".to_owned(),
                met: None,
            });
        }
        return;
    };
    let http = hook.median('k');
    verdicts.push(Verdict {
        target: "(k) HTTP hook median ≤ 0.31 ms (clooks' HTTP hook)",
        measured: http.map_or("—".to_owned(), |k| format!("{} ms", ms(k))),
        met: http.map(|k| k <= crate::http_hook::GOAL),
    });
    let breaker = hook.median('j').zip(hook.median('a'));
    verdicts.push(Verdict {
        target: BREAKER,
        measured: breaker.map_or("—".to_owned(), |(j, a)| {
            format!(
                "{} ms vs {} ms = {:.2}×",
                ms(j),
                ms(a),
                crate::stats::ratio(j, a)
            )
        }),
        met: breaker.map(|(j, a)| crate::stats::ratio(j, a) <= 1.05),
    });
    let checks: Vec<(char, bool)> = hook
        .rows
        .iter()
        .filter_map(|r| Some((r.key, crate::report_hook::agrees(hook, r.key)?.2)))
        .collect();
    let disagree: Vec<String> = checks
        .iter()
        .filter(|(_, ok)| !ok)
        .map(|(key, _)| format!("({key})"))
        .collect();
    verdicts.push(Verdict {
        target: AGREE,
        measured: if disagree.is_empty() {
            format!("{} rows agree", checks.len())
        } else {
            format!("disagree: {}", disagree.join(", "))
        },
        met: (!checks.is_empty()).then_some(disagree.is_empty()),
    });
}
