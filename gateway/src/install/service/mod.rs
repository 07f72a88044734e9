//! The gateway started by the platform's service manager, so it is never
//! "forgotten": a systemd user socket + service pair ([`systemd`], socket
//! activation) on Linux, a launchd agent ([`launchd`]) on macOS. The
//! shim's autostart stays the fallback everywhere (and the only start on
//! machines without either, such as containers with no systemd).
//!
//! With `[http]` on (a fixed port), systemd also gets `hookgate-http.socket`,
//! so the user manager holds the HTTP hook port and no other local user
//! can take it while the gateway is down. launchd gets no such socket: the
//! gateway does not take sockets from launchd, so on macOS the port is
//! held only while the gateway runs (docs/http-hooks.md).
//!
//! `gateway install` sets the service up by default where a systemd user
//! manager runs (its private socket is in `$XDG_RUNTIME_DIR/systemd/`) and
//! on macOS; `--service` writes the units anyway, `--no-service` never.
//! `gateway uninstall --service` (or `--all`) stops, disables and removes
//! exactly the files install wrote (they start with [`MARKER`]).

mod launchd;
mod systemd;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use anyhow::bail;

use super::change::{self, Change};

/// The first line of every unit file install writes: what uninstall
/// removes, and what install may overwrite.
pub(crate) const MARKER: &str =
    "# Written by `gateway install`; `gateway uninstall --service` removes it.";
/// `systemctl` / `launchctl` get this long per call.
const MANAGER_TIMEOUT: Duration = Duration::from_secs(20);

/// One unit file: its name in the manager's directory, and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unit {
    pub(crate) name: &'static str,
    pub(crate) text: String,
}

/// Whether `install` sets the service up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Choice {
    /// Where a service manager runs (default).
    Auto,
    /// Write the units even with no running manager (`--service`).
    Always,
    /// Never (`--no-service`).
    Never,
}

/// The service managers hookgate writes units for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Manager {
    Systemd,
    Launchd,
}

/// The platform's manager, and whether it is running for this user.
fn manager() -> Option<(Manager, bool)> {
    if cfg!(target_os = "macos") {
        return Some((Manager::Launchd, true));
    }
    if cfg!(target_os = "linux") {
        let running = std::env::var_os("XDG_RUNTIME_DIR")
            .map(PathBuf::from)
            .is_some_and(|dir| dir.is_absolute() && dir.join("systemd/private").exists());
        return Some((Manager::Systemd, running));
    }
    None
}

/// What the service runs: the gateway binary, the socket it serves and
/// the HTTP hook port it serves, if `[http]` is on with a fixed port.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Served<'a> {
    pub(crate) gateway: &'a Path,
    pub(crate) socket: &'a Path,
    pub(crate) http: Option<SocketAddr>,
}

/// Where the units go and what they say.
fn plan(manager: Manager, home: &Path, served: Served<'_>) -> (PathBuf, Vec<Unit>) {
    let Served {
        gateway,
        socket,
        http,
    } = served;
    match manager {
        Manager::Systemd => {
            let config = std::env::var_os("XDG_CONFIG_HOME")
                .map(PathBuf::from)
                .filter(|dir| dir.is_absolute())
                .unwrap_or_else(|| home.join(".config"));
            (
                config.join(systemd::UNIT_DIR),
                systemd::units(gateway, socket, http),
            )
        }
        Manager::Launchd => {
            let log = home.join("Library/Logs/hookgate/gateway.log");
            (
                home.join(launchd::AGENT_DIR),
                vec![launchd::unit(gateway, socket, &log)],
            )
        }
    }
}

/// Sets the service up for what is `served`: prints and (unless
/// `dry_run`) writes the units, then enables them where the manager runs.
pub(crate) fn install(
    choice: Choice,
    served: Served<'_>,
    home: &Path,
    dry_run: bool,
) -> anyhow::Result<()> {
    let Some((manager, running)) = manager() else {
        if choice == Choice::Always {
            bail!("--service: no supported service manager on this platform (systemd, launchd)");
        }
        return Ok(());
    };
    if choice == Choice::Never || (choice == Choice::Auto && !running) {
        return Ok(());
    }
    let (dir, units) = plan(manager, home, served);
    let sockets: Vec<&'static str> = units
        .iter()
        .map(|u| u.name)
        .filter(|name| name.ends_with(".socket"))
        .collect();
    let mut changes = Vec::new();
    for unit in units {
        let path = dir.join(unit.name);
        let before = change::read(&path)?;
        if before.as_deref().is_some_and(|text| !is_ours(text)) {
            bail!(
                "{} exists and was not written by `gateway install`: left alone (remove it, or install with --no-service)",
                path.display()
            );
        }
        changes.push(Change {
            path,
            before,
            after: Some(unit.text),
            executable: false,
        });
    }
    let changed = changes.iter().any(|c| !c.is_noop());
    super::finish("service", &dir, &changes, dry_run, change::apply_plain)?;
    if dry_run || !running {
        if !running && !dry_run {
            outln!(
                "service: no user service manager is running here; the shim's autostart starts the gateway"
            );
        }
        return Ok(());
    }
    enable(manager, &dir, changed, &sockets);
    Ok(())
}

/// Stops, disables and removes the units install wrote.
pub(crate) fn uninstall(home: &Path, dry_run: bool) -> anyhow::Result<()> {
    let Some((manager, running)) = manager() else {
        return Ok(());
    };
    // The paths do not depend on what is named inside; every unit install
    // may have written is listed.
    let every = Served {
        gateway: Path::new("/"),
        socket: Path::new("/"),
        http: Some(SocketAddr::from(([127, 0, 0, 1], 1))),
    };
    let (dir, units) = plan(manager, home, every);
    let mut names = Vec::new();
    let mut changes = Vec::new();
    for unit in units {
        let path = dir.join(unit.name);
        match change::read(&path)? {
            Some(text) if is_ours(&text) => {
                names.push(unit.name);
                changes.push(Change {
                    path,
                    before: Some(text),
                    after: None,
                    executable: false,
                });
            }
            Some(_) => outln!(
                "service: {} was not written by `gateway install`: left alone",
                path.display()
            ),
            None => {}
        }
    }
    if !changes.is_empty() && running && !dry_run {
        disable(manager, &names);
    }
    super::finish("service", &dir, &changes, dry_run, change::apply_plain)?;
    if !changes.is_empty() && running && !dry_run && manager == Manager::Systemd {
        manage("systemctl", &["--user", "daemon-reload"]);
    }
    Ok(())
}

fn is_ours(text: &str) -> bool {
    text.lines()
        .take(2)
        .any(|line| line.contains(MARKER.trim_start_matches("# ")))
}

/// Loads the units into the running manager and starts listening on
/// `sockets` (systemd's socket units).
fn enable(manager: Manager, dir: &Path, changed: bool, sockets: &[&str]) {
    match manager {
        Manager::Systemd => {
            manage("systemctl", &["--user", "daemon-reload"]);
            let mut args = vec!["--user", "enable", "--now"];
            args.extend(sockets);
            manage("systemctl", &args);
        }
        Manager::Launchd => {
            let plist = dir.join(format!("{}.plist", launchd::LABEL));
            let domain = launchd_domain();
            if changed {
                // A loaded older agent must go first (bootstrap refuses).
                let _ = run(
                    "launchctl",
                    &["bootout", &format!("{domain}/{}", launchd::LABEL)],
                );
            }
            manage(
                "launchctl",
                &["bootstrap", &domain, &plist.display().to_string()],
            );
        }
    }
}

/// Stops and disables the units `names` (those install wrote and
/// uninstall removes).
fn disable(manager: Manager, names: &[&str]) {
    match manager {
        Manager::Systemd => {
            let mut args = vec!["--user", "disable", "--now"];
            args.extend(names);
            manage("systemctl", &args);
        }
        Manager::Launchd => manage(
            "launchctl",
            &[
                "bootout",
                &format!("{}/{}", launchd_domain(), launchd::LABEL),
            ],
        ),
    }
}

/// launchd's domain for this user's GUI session (`gui/<uid>`).
fn launchd_domain() -> String {
    #[cfg(unix)]
    let uid = hookgate_wire::socket::current_uid();
    // Never used off Unix (no launchd); keeps the module portable.
    #[cfg(not(unix))]
    let uid = 0;
    format!("gui/{uid}")
}

/// Runs a manager command, saying what happened; a failure is reported,
/// not fatal: the hooks are installed and the shim's autostart covers.
fn manage(program: &str, args: &[&str]) {
    let line = format!("{program} {}", args.join(" "));
    match run(program, args) {
        Ok(()) => outln!("service: ran `{line}`"),
        Err(err) => eprintln!(
            "gateway: warning: `{line}` failed ({err:#}); run it yourself (the shim's autostart starts the gateway meanwhile)"
        ),
    }
}

/// Runs `program args` to its end (bounded by [`MANAGER_TIMEOUT`]).
fn run(program: &str, args: &[&str]) -> anyhow::Result<()> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()?;
    match crate::child::wait_bounded(&mut child, MANAGER_TIMEOUT)? {
        status if status.success() => Ok(()),
        status => bail!("{status}"),
    }
}
