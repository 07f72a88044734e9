//! `gateway eval`: one payload through a config's deciders, in-process,
//! or with `--socket` through a running gateway's live config (the admin
//! API's `Eval`), shown step by step (canonical event, verdicts, merge,
//! losses, the exact reply the agent gets). Exit 0 allow, 2 block, 1
//! error. The payload is a file, or built for an agent (`build.rs`) from
//! the question a user has: `--command`, `--tool`/`--input`, `--prompt`.

mod build;
mod print;

use std::io::Read as _;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::anyhow;
use hookgate_adapters::Agent;
use hookgate_config::Config;
use hookgate_daemon::offline::Offline;
use hookgate_wire::Request;
use serde_json::Value;

use crate::cli::EvalArgs;

/// Payloads are read up to the shim's own limit.
const MAX_PAYLOAD: u64 = 32 << 20;

/// How long a live gateway has to answer an eval: above any deadline it
/// gives its subscribers.
const SOCKET_TIMEOUT: Duration = Duration::from_secs(60);

pub(crate) fn run(args: &EvalArgs) -> ExitCode {
    match eval(args) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("gateway eval: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn eval(args: &EvalArgs) -> anyhow::Result<ExitCode> {
    let agent = match &args.agent {
        Some(name) => Some(
            name.parse::<Agent>()
                .map_err(|_| anyhow!("unknown agent `{name}` (one of: {})", agent_names()))?,
        ),
        None => None,
    };
    let (payload, event_arg) = question(args, agent)?;
    let payload = match &args.socket {
        // A live gateway counts and logs the call: marked as an eval.
        Some(_) if args.payload.is_some() => build::mark(&payload, agent)?,
        _ => payload,
    };
    let mut request_args: Vec<String> = agent.map(|a| a.as_str().to_owned()).into_iter().collect();
    request_args.extend(event_arg);
    let cwd = std::env::current_dir()
        .map(|d| d.display().to_string())
        .unwrap_or_default();
    let request = Request {
        args: request_args,
        cwd,
        env: Vec::new(),
        stdin: payload,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(hookgate_adapters::STACK_SIZE)
        .build()?;
    let doc = match &args.socket {
        Some(socket) => runtime.block_on(live(socket, request))?,
        None => {
            let config = Config::load(args.config.as_deref())?;
            runtime.block_on(async {
                let offline = Offline::new(&config, args.config.as_deref()).await?;
                anyhow::Ok(offline.run(request).await.document())
            })?
        }
    };
    print::print(&doc, args.json);
    Ok(exit_code(&doc))
}

/// The payload asked about and the event named on the hook's command
/// line: a file, or one built for `agent`.
fn question(args: &EvalArgs, agent: Option<Agent>) -> anyhow::Result<(Vec<u8>, Option<String>)> {
    let needs = |what: &str| agent.ok_or_else(|| anyhow!("{what} needs --agent"));
    let built = if let Some(command) = &args.command {
        build::command(needs("--command")?, command)?
    } else if let Some(tool) = &args.tool {
        let input = args.input.as_deref().unwrap_or("{}");
        build::tool(needs("--tool")?, tool, input)?
    } else if let Some(prompt) = &args.prompt {
        build::prompt(needs("--prompt")?, prompt)?
    } else if let Some(path) = &args.payload {
        return Ok((read_payload(path)?, args.event.clone()));
    } else {
        anyhow::bail!("give a payload file, `-` for stdin, --command, --tool or --prompt");
    };
    Ok((built.payload, Some(built.event.to_owned())))
}

/// The outcome document of the gateway on `socket`, which runs `request`.
async fn live(socket: &Path, request: Request) -> anyhow::Result<Value> {
    Ok(hookgate_daemon::admin::client::eval(socket, SOCKET_TIMEOUT, request).await?)
}

/// 1 when the payload was not understood, 2 when the call is blocked
/// (denied, or a reply that blocks), else 0.
fn exit_code(doc: &Value) -> ExitCode {
    if doc["event"].is_null() {
        ExitCode::FAILURE
    } else if doc["decision"]["permission"] == "deny" || doc["reply"]["exit_code"] == 2 {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

fn agent_names() -> String {
    Agent::ALL.map(Agent::as_str).join(", ")
}

#[expect(clippy::disallowed_methods, reason = "a CLI command, not on a runtime")]
fn read_payload(path: &Path) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if path == Path::new("-") {
        std::io::stdin().take(MAX_PAYLOAD).read_to_end(&mut bytes)?;
    } else {
        std::fs::File::open(path)
            .map_err(|err| anyhow!("{}: {err}", path.display()))?
            .take(MAX_PAYLOAD)
            .read_to_end(&mut bytes)?;
    }
    Ok(bytes)
}
