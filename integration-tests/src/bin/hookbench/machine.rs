//! The machine the numbers come from, for the report: figures without
//! their machine are not reproducible.

use std::process::Command;

/// What the report says about the machine.
#[derive(Debug, Clone)]
pub(crate) struct Machine {
    pub(crate) cpus: usize,
    pub(crate) cpu_model: String,
    pub(crate) kernel: String,
    pub(crate) memory: String,
    pub(crate) rustc: String,
    pub(crate) date: String,
    /// 1-minute load average when the run started (other work on the box).
    pub(crate) load_at_start: String,
}

impl Machine {
    pub(crate) fn probe() -> Machine {
        let cpuinfo = read("/proc/cpuinfo");
        let field = |text: &str, name: &str| {
            text.lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_owned())
                .unwrap_or_else(|| "unknown".to_owned())
        };
        Machine {
            cpus: std::thread::available_parallelism().map_or(0, usize::from),
            cpu_model: field(&cpuinfo, "model name"),
            kernel: read("/proc/sys/kernel/osrelease").trim().to_owned(),
            memory: field(&read("/proc/meminfo"), "MemTotal"),
            rustc: command("rustc", &["-V"]),
            date: command("date", &["-u", "+%Y-%m-%d %H:%M:%S UTC"]),
            load_at_start: Machine::load_now(),
        }
    }

    /// Current load averages (1, 5, 15 min).
    pub(crate) fn load_now() -> String {
        read("/proc/loadavg")
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

fn command(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|_| "unknown".to_owned())
}

/// Says so when the machine was busier than its CPUs at the start (the
/// 1- or 5-minute load average).
pub(crate) fn load_note(load: &str, cpus: usize) -> String {
    let busiest = (load.split_whitespace().take(2))
        .filter_map(|l| l.parse::<f64>().ok())
        .reduce(f64::max);
    match busiest {
        Some(l) if l > cpus as f64 => format!(
            ". Other work (a CI run, other builds and tests) shared the machine, the load above its {cpus} CPUs: the absolute times are inflated and noisy; what is compared was interleaved call by call, so the differences and ratios are the figures to read"
        ),
        _ => String::new(),
    }
}
