//! BENCHMARKS.md section "Floor": each in-process row beside its bare
//! exchange, with the independent C client's figures and where the two
//! clients disagree.

use std::fmt::Write as _;
use std::time::Duration;

use crate::floor::{Door, Floor, FloorRow};
use crate::machine::Machine;
use crate::stats::{ms, ratio};

pub(crate) const HEADING: &str = "## 1c. The gateway's own part against its floor";
/// The bench's and the C client's medians of one series agree within this
/// fraction (the bar).
pub(crate) const AGREEMENT: f64 = 0.20;

/// The targets: the gateway at most this many times its bare
/// exchange (socket hot, socket at 20 ms idle, HTTP in any regime).
const SOCKET_HOT: f64 = 2.0;
const SOCKET_COLD: f64 = 1.5;
const HTTP: f64 = 1.5;

fn regime(idle: Duration) -> String {
    if idle.is_zero() {
        "none (back to back)".to_owned()
    } else {
        format!("{} ms", idle.as_millis())
    }
}

/// The largest disagreement between the bench and the C client over the
/// row's two series, as a fraction of the C client's figure.
fn disagreement(row: &FloorRow) -> f64 {
    (0..2)
        .map(|i| (ratio(row.bench[i].median, row.c[i].median) - 1.0).abs())
        .fold(0.0, f64::max)
}

/// The target a row's ratio is held to.
fn target(row: &FloorRow) -> Option<f64> {
    match row.door {
        Door::Http => Some(HTTP),
        Door::Socket if row.idle.is_zero() => Some(SOCKET_HOT),
        Door::Socket if row.idle >= Duration::from_millis(20) => Some(SOCKET_COLD),
        Door::Socket => None,
    }
}

pub(crate) fn section(out: &mut String, floor: Option<&Floor>, machine: &Machine) {
    let Some(floor) = floor else { return };
    let _ = writeln!(out, "{HEADING}\n");
    crate::side_by_side::provenance(
        out,
        machine,
        (&floor.load_at_start, &floor.load_at_end),
        "floor",
    );
    let _ = writeln!(
        out,
        "The gateway's two in-process doors (no subscribers) against the cheapest server that exchanges the same bytes: an AF_UNIX echo that reads one request frame per connection and writes the gateway's own reply frame, and a loopback HTTP echo that reads each keep-alive request and answers with the gateway's own body; both are blocking threads of the bench, nothing between the read and the reply. Socket calls open a fresh connection each, as the shim does; HTTP calls share one keep-alive connection per server. Each regime sleeps the idle time before every call (untimed): none is hot, 20 ms is an agent between tool calls. Within a regime, each round calls the five servers (the fifth is the tokio server below) in a new shuffled order, and the bench's blocking client ({} chunks) alternates with a C client compiled in the run (`{}`: the bench's request bytes over its own sockets, timed by its own clock) doing the same; every figure is a median of its calls.\n",
        crate::floor::CHUNKS,
        floor.c_build
    );
    let _ = writeln!(
        out,
        "| Idle before each call | Door | gateway ms | bare ms | gateway × bare | C: gateway ms | C: bare ms | C: × bare | target | bench vs C |\n|---|---|---:|---:|---:|---:|---:|---:|---|---|"
    );
    let mut disagreements = Vec::new();
    for row in &floor.rows {
        let door = match row.door {
            Door::Socket => "socket (fresh connection)",
            Door::Http => "HTTP (keep-alive)",
        };
        let bench = ratio(row.bench[0].median, row.bench[1].median);
        let c = ratio(row.c[0].median, row.c[1].median);
        let target = target(row).map_or("—".to_owned(), |t| {
            let met = bench <= t && c <= t;
            format!("≤ {t:.1}×: {}", if met { "met" } else { "**not met**" })
        });
        let off = disagreement(row);
        let agree = if off <= AGREEMENT {
            format!("within {:.0} %", off * 100.0)
        } else {
            disagreements.push(format!("{} at {}", door, regime(row.idle)));
            format!("**{:.0} % apart**", off * 100.0)
        };
        let _ = writeln!(
            out,
            "| {} | {door} | {} | {} | {bench:.2} | {} | {} | {c:.2} | {target} | {agree} |",
            regime(row.idle),
            ms(row.bench[0].median),
            ms(row.bench[1].median),
            ms(row.c[0].median),
            ms(row.c[1].median),
        );
    }
    let n = floor.rows.first().map_or(0, |r| r.bench[0].n);
    let _ = writeln!(
        out,
        "\n{n} calls per figure and client. A target is met when both clients' ratios are within it. {}",
        if disagreements.is_empty() {
            format!(
                "The two clients agree within {:.0} % on every figure.",
                AGREEMENT * 100.0
            )
        } else {
            format!(
                "The two clients disagree by more than {:.0} % on: {}.",
                AGREEMENT * 100.0,
                disagreements.join("; ")
            )
        }
    );
    let _ = writeln!(
        out,
        "The bench's keep-alive connection to the gateway was found closed (idle past the read deadline while the C client ran) and reopened untimed {} times.\n",
        floor.reconnects
    );
    runtime_table(out, floor);
}

/// The socket door's second reference: what tokio alone adds to the bare
/// exchange, and what the gateway adds to tokio.
fn runtime_table(out: &mut String, floor: &Floor) {
    let _ = writeln!(
        out,
        "The socket door against a minimal tokio server of the same exchange, called in the same rounds (the runtime built as the gateway builds it, the accept loop on a worker, a task per connection, a deadline on each read and on the reply, nothing else): its ratio to the bare echo is the runtime's part, the gateway's ratio to it the gateway's own work.\n"
    );
    let _ = writeln!(
        out,
        "| Idle before each call | tokio ms | tokio × bare | gateway × tokio | C: tokio ms | C: tokio × bare | C: gateway × tokio |\n|---|---:|---:|---:|---:|---:|---:|"
    );
    for row in &floor.rows {
        let Some([bench, c]) = &row.runtime else {
            continue;
        };
        let _ = writeln!(
            out,
            "| {} | {} | {:.2} | {:.2} | {} | {:.2} | {:.2} |",
            regime(row.idle),
            ms(bench.median),
            ratio(bench.median, row.bench[1].median),
            ratio(row.bench[0].median, bench.median),
            ms(c.median),
            ratio(c.median, row.c[1].median),
            ratio(row.c[0].median, c.median),
        );
    }
    let _ = writeln!(out);
}
