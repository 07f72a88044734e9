//! `gateway ui`: the running gateway's console login URL (`[ui]`),
//! printed, and opened in the browser with `--open` (`xdg-open` on Linux,
//! `open` on macOS). The URL carries this start's login token, read from
//! the gateway's private directory (next to its socket); the console
//! swaps it for a session cookie at once.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context as _, bail};
use hookgate_daemon::admin::client;
use hookgate_daemon::console::{TOKEN_FILE, login_url};

use crate::admin_client::{client_runtime, resolve_socket};

/// Deadline of the status call.
const TIMEOUT: Duration = Duration::from_secs(5);

#[derive(Debug, clap::Args)]
pub(crate) struct UiArgs {
    /// Open the URL in the default browser.
    #[arg(long)]
    open: bool,
    /// The gateway's socket. Default: resolved like `gateway serve` does.
    #[arg(long, value_name = "PATH")]
    socket: Option<PathBuf>,
}

pub(crate) fn run(args: &UiArgs) -> ExitCode {
    let runtime = match client_runtime() {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    match url(&runtime, args) {
        Ok(url) => {
            outln!("{url}");
            if args.open
                && let Err(err) = open(&url)
            {
                eprintln!("gateway: could not open a browser ({err:#}); open the URL above");
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("gateway: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn url(runtime: &tokio::runtime::Runtime, args: &UiArgs) -> anyhow::Result<String> {
    let socket = resolve_socket(args.socket.as_deref());
    let doc = runtime.block_on(client::fetch(&socket, TIMEOUT))?;
    let Some(addr) = doc["ui_addr"].as_str() else {
        bail!(
            "the gateway on {} serves no console: add `[ui] listen = \"127.0.0.1:8788\"` to its config",
            socket.display()
        );
    };
    let path = socket
        .parent()
        .context("the socket path has no directory")?
        .join(TOKEN_FILE);
    let token = hookgate_transport::files::read_to_string(&path, 1024)
        .with_context(|| format!("reading the console's login token {}", path.display()))?;
    Ok(login_url(addr, token.trim()))
}

/// Opens `url` with the platform's opener, without waiting for the browser.
fn open(url: &str) -> anyhow::Result<()> {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .with_context(|| format!("running {opener}"))?;
    Ok(())
}
