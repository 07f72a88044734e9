//! One real agent run: a fresh HOME and work dir, the agent's hooks pointed
//! at `gateway-shim`, the fake model as its only peer, everything bounded
//! in time — and what came out of it ([`AgentOutcome`]).

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tempfile::TempDir;
use tokio::sync::Semaphore;

use hookgate_adapters::Dialect;

use super::cli::{Cli, cli, default_hooks};
use super::copilot::Case;
use super::install::{ClaudeCode, Clis, clis, npm_cli};
use super::isolation::{Isolation, isolation};
use super::outcome::{AgentOutcome, Session};
use super::pip::pip_cli;
use super::setup::{RunPaths, Setup, base_env};
use super::{claude, cline, codex, copilot, droid, gemini, hermes, opencode, qwen};
use crate::binaries::binaries;
use crate::fake_model::{Script, read_requests};
use crate::shim::TEST_SHIM_TIMEOUT_MS;

/// At most this many agents run at once (each takes 300–400 MB and a core
/// for a few seconds; the test machines have two).
const MAX_PARALLEL_AGENTS: usize = 2;
static AGENT_SLOTS: Semaphore = Semaphore::const_new(MAX_PARALLEL_AGENTS);

/// The agent itself is killed (by `timeout`) after this long.
const AGENT_TIMEOUT_SECS: u64 = 120;
/// The harness gives up on the whole run (namespace, fake model, agent)
/// after this long.
const RUN_DEADLINE: Duration = Duration::from_secs(AGENT_TIMEOUT_SECS + 60);

/// The installed CLI of a run.
enum Installed {
    /// Claude Code and Cline, installed together.
    Pair(&'static Clis),
    /// One CLI of its own ([`super::install::NpmCli`], [`super::pip::PipCli`]).
    Single(PathBuf),
    /// None: no real CLI speaks the dialect (refused by `AgentRun::new`).
    None,
}

/// One agent run, built up then [`AgentRun::run`].
#[derive(Debug)]
pub struct AgentRun {
    agent: Dialect,
    dir: TempDir,
    paths: RunPaths,
    fake_model: PathBuf,
    shim: PathBuf,
    prompt: String,
    script: Script,
    hooks: Vec<String>,
    env: Vec<(String, String)>,
    claude: ClaudeCode,
    ask_permissions: bool,
    /// Installs the hooks into the run's HOME (see `installed_hooks`).
    installer: Option<fn(&Path)>,
    /// A later session of a run whose hooks were installed: the HOME holds
    /// them already, as the first session left it (see
    /// [`AgentOutcome::next_session`]).
    installed: bool,
    /// Which session of the run this is (0: the first); a later one logs
    /// to files of its own.
    session: u32,
    /// The agent's HTTP hook URL (see `http_hooks`).
    http_url: Option<String>,
    /// Its HTTP hooks block when they fail (`onFailure: "block"`).
    http_block: bool,
}

impl AgentRun {
    /// A run of the real CLI speaking `agent` (see
    /// [`has_real_cli`](super::has_real_cli)) in a fresh directory, with its default hooks
    /// running `gateway-shim` and the fake model binary at `fake_model`
    /// (`env!("CARGO_BIN_EXE_fake-model")` in this package's tests). Set
    /// the gateway with [`AgentRun::socket`] and the conversation with
    /// [`AgentRun::script`].
    pub fn new(agent: Dialect, fake_model: &Path) -> AgentRun {
        AgentRun::with_hook_program(agent, fake_model, &binaries().shim)
    }

    /// [`AgentRun::new`] with `program` as the hook command instead of
    /// the harness's `gateway-shim` (it gets the same arguments): for
    /// hookbench, which compares the shim with other hooks and brings its
    /// own release binaries.
    pub fn with_hook_program(agent: Dialect, fake_model: &Path, program: &Path) -> AgentRun {
        assert!(
            cli(agent).is_some(),
            "no real CLI under test speaks {agent:?}"
        );
        let dir = tempfile::Builder::new()
            .prefix("hg-agent-")
            .tempdir_in("/tmp")
            .expect("create the run directory");
        // tempfile leaves the mode to the umask; the run is private.
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))
            .expect("chmod 0700 the run directory");
        let root = dir.path().to_path_buf();
        let paths = RunPaths {
            home: root.join("home"),
            work: root.join("work"),
            root,
        };
        for dir in [&paths.home, &paths.work] {
            std::fs::create_dir(dir).expect("create the run's HOME and work dir");
        }
        AgentRun {
            agent,
            dir,
            paths,
            fake_model: fake_model.to_path_buf(),
            shim: program.to_path_buf(),
            prompt: "Run the scripted command.".to_owned(),
            script: Script::shell_then_text("true", "Done."),
            hooks: default_hooks(agent)
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
            env: vec![(
                "HOOKGATE_TIMEOUT_MS".to_owned(),
                TEST_SHIM_TIMEOUT_MS.to_owned(),
            )],
            claude: ClaudeCode::Oldest,
            ask_permissions: false,
            installer: None,
            installed: false,
            session: 0,
            http_url: None,
            http_block: false,
        }
    }

    /// Claude Code: leave the Bash tool to permission prompts
    /// (`--permission-mode default`) instead of allowing it, so a call asks
    /// (firing PermissionRequest) and is refused when no hook allows it.
    pub fn ask_permissions(mut self) -> Self {
        self.ask_permissions = true;
        self
    }

    /// Use the hooks `install` writes into the run's HOME (it is called
    /// with that HOME, e.g. to run `gateway install`) instead of the
    /// harness's own: the agent's other settings are written first, with
    /// no hooks, so the installer merges into them as into a user's config.
    pub fn installed_hooks(mut self, install: fn(&Path)) -> Self {
        self.installer = Some(install);
        self
    }

    /// Claude Code and Qwen Code: `type: "http"` hooks to `endpoint` (the token in the
    /// agent's environment, read by the hook's header) instead of the
    /// shim. The run then shares the host's network: the endpoint is on
    /// the gateway's loopback, which a private network namespace does not
    /// reach (the agent stays offline by its settings, as without one).
    pub fn http_hooks(self, endpoint: &crate::http_hook::HttpEndpoint) -> Self {
        let route = match self.agent {
            Dialect::QwenCode => "qwen-code",
            _ => "claude-code",
        };
        let mut run = self.env(crate::http_hook::TOKEN_VAR, &endpoint.token);
        run.http_url = Some(endpoint.url(route));
        run
    }

    /// With [`AgentRun::installed_hooks`]: the installed hooks are HTTP
    /// hooks (`gateway install --transport http`, token in the handler),
    /// so the run shares the host's network, as with
    /// [`AgentRun::http_hooks`], and no token is put in the environment.
    pub fn installed_http_hooks(mut self, endpoint: &crate::http_hook::HttpEndpoint) -> Self {
        self.http_url = Some(endpoint.url("claude-code"));
        self
    }

    /// Claude Code: its HTTP hooks say `onFailure: "block"` (2.1.295+):
    /// a hook that cannot be sent or answered blocks.
    pub fn http_fail_closed(mut self) -> Self {
        self.http_block = true;
        self
    }

    /// The agent's HOME: where `gateway install` (with `HOME` set to it)
    /// writes the agent's config.
    pub fn home(&self) -> &Path {
        &self.paths.home
    }

    /// Which pinned Claude Code runs (the oldest unless told otherwise;
    /// ignored for other agents).
    pub fn claude_code(mut self, which: ClaudeCode) -> Self {
        self.claude = which;
        self
    }

    /// Writes `text` to `path` under the work directory (creating its
    /// directories): project files the agent reads, such as a slash
    /// command in `.claude/commands/`.
    pub fn work_file(self, path: &str, text: &str) -> Self {
        let file = self.paths.work.join(path);
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).expect("create the work file's directory");
        }
        std::fs::write(&file, text).expect("write the work file");
        self
    }

    /// Runs the agent in `dir` instead of the run's own `work/`: a project
    /// several runs share (of different agents, or none of which owns it),
    /// made and removed by the caller. Markers then go there too.
    pub fn work_in(mut self, dir: &Path) -> Self {
        assert!(
            dir.is_absolute() && dir.is_dir(),
            "{}: not a directory",
            dir.display()
        );
        self.paths.work = dir.to_path_buf();
        self
    }

    /// The run's directory (settings, logs, `home/`, `work/`).
    pub fn dir(&self) -> &Path {
        &self.paths.root
    }

    /// The agent's working directory: where markers go.
    pub fn work(&self) -> &Path {
        &self.paths.work
    }

    /// The model's side of the conversation.
    pub fn script(mut self, script: Script) -> Self {
        self.script = script;
        self
    }

    /// The user's prompt.
    pub fn prompt(mut self, prompt: &str) -> Self {
        self.prompt = prompt.to_owned();
        self
    }

    /// The hook events to install (the agent's native names), instead of
    /// the defaults.
    pub fn hooks(mut self, events: &[&str]) -> Self {
        self.hooks = events.iter().map(|s| (*s).to_owned()).collect();
        self
    }

    /// The gateway socket the shim talks to (`HOOKGATE_SOCKET`).
    pub fn socket(self, socket: &Path) -> Self {
        let socket = socket.display().to_string();
        self.env("HOOKGATE_SOCKET", &socket)
    }

    /// Sets a variable in the agent's environment, which its hooks (the
    /// shim) inherit.
    pub fn env(mut self, name: &str, value: &str) -> Self {
        self.env.retain(|(n, _)| n != name);
        self.env.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Runs the agent to the end (at most two at a time in this process)
    /// and returns what happened. Panics if the run cannot be set up or
    /// outlives its deadline.
    pub async fn run(self) -> AgentOutcome {
        // The install blocks (a minute, the first time): off the runtime.
        let cli = cli(self.agent);
        let installed = tokio::task::spawn_blocking(move || match cli {
            Some(Cli::Pair) => Installed::Pair(clis()),
            Some(Cli::Single(cli)) => Installed::Single(npm_cli(cli)),
            Some(Cli::Pip(cli)) => Installed::Single(pip_cli(cli)),
            None => Installed::None,
        })
        .await
        .unwrap_or_else(|err| std::panic::resume_unwind(err.into_panic()));
        let _slot = AGENT_SLOTS
            .acquire()
            .await
            .expect("agent slots never close");
        let outcome = self.launch(installed).await;
        outcome.log_summary();
        outcome
    }

    async fn launch(self, installed: Installed) -> AgentOutcome {
        let root = &self.paths.root;
        let port = free_port();
        // A later session's files do not mix with the first's.
        let name = |stem: &str, ext: &str| match self.session {
            0 => root.join(format!("{stem}.{ext}")),
            n => root.join(format!("{stem}-{n}.{ext}")),
        };
        let script = name("script", "json");
        self.script.save(&script).expect("write the model script");
        let requests_log = name("requests", "jsonl");
        let hooks = if self.installer.is_some() {
            &[][..]
        } else {
            &self.hooks[..]
        };
        let setup = Setup {
            paths: &self.paths,
            port,
            prompt: &self.prompt,
            hooks,
            shim: &self.shim,
        };
        let launch = match (self.agent, &installed) {
            (Dialect::ClaudeCode, Installed::Pair(clis)) => {
                let options = claude::Options {
                    which: self.claude,
                    ask_permissions: self.ask_permissions,
                    installed_hooks: self.installer.is_some() || self.installed,
                    http_url: self.http_url.clone(),
                    http_block: self.http_block,
                };
                claude::prepare(clis, options, &setup)
            }
            (Dialect::ClineSdk, Installed::Pair(clis)) => cline::prepare(clis, &setup),
            (Dialect::QwenCode, Installed::Single(program)) => {
                qwen::prepare(program, &setup, self.http_url.as_deref())
            }
            (Dialect::Droid, Installed::Single(program)) => droid::prepare(program, &setup),
            (Dialect::GeminiCli, Installed::Single(program)) => gemini::prepare(program, &setup),
            (Dialect::Codex, Installed::Single(program)) => codex::prepare(program, &setup),
            (Dialect::CopilotPascal, Installed::Single(program)) => {
                copilot::prepare(program, &setup, Case::Pascal)
            }
            (Dialect::CopilotCamel, Installed::Single(program)) => {
                copilot::prepare(program, &setup, Case::Camel)
            }
            (Dialect::OpenCode, Installed::Single(program)) => opencode::prepare(program, &setup),
            (Dialect::Hermes, Installed::Single(program)) => hermes::prepare(program, &setup),
            (agent, _) => panic!("{agent:?}: installed the wrong CLI (see agents::cli)"),
        }
        .expect("write the agent's configuration");
        if let Some(install) = self.installer {
            install(&self.paths.home);
        }

        let mut args: Vec<String> = vec![
            "--script".into(),
            script.display().to_string(),
            "--log".into(),
            requests_log.display().to_string(),
            "--listen".into(),
            format!("127.0.0.1:{port}"),
            "--".into(),
            "timeout".into(),
            "-k".into(),
            "5".into(),
            AGENT_TIMEOUT_SECS.to_string(),
            launch.program.display().to_string(),
        ];
        args.extend(launch.args);
        let stdout_path = name("stdout", "txt");
        let stderr_path = name("stderr", "txt");
        let host_network = Isolation::Unavailable("HTTP hooks reach the gateway's loopback".into());
        let isolation = match self.http_url {
            Some(_) => &host_network,
            None => isolation(),
        };
        let mut command = isolation.command(&self.fake_model, &args);
        command
            .env_clear()
            .envs(base_env(&self.paths))
            .envs(launch.env)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .current_dir(&self.paths.work)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&stdout_path).expect("create stdout file"))
            .stderr(std::fs::File::create(&stderr_path).expect("create stderr file"))
            .kill_on_drop(true);
        let started = std::time::Instant::now();
        let mut child = command.spawn().expect("spawn the agent run");
        let status = match tokio::time::timeout(RUN_DEADLINE, child.wait()).await {
            Ok(status) => Some(status.expect("wait for the agent run")),
            Err(_) => {
                let _ = child.kill().await;
                None
            }
        };
        let read = |path: &Path| {
            std::fs::read(path)
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default()
        };
        let requests = read_requests(&requests_log);
        let outcome = AgentOutcome {
            agent: self.agent,
            next: Some(Session {
                fake_model: self.fake_model.clone(),
                shim: self.shim.clone(),
                env: self.env.clone(),
                claude: self.claude,
                installed: self.installer.is_some() || self.installed,
                session: self.session,
            }),
            status,
            elapsed: started.elapsed(),
            stdout: read(&stdout_path),
            stderr: read(&stderr_path),
            requests: requests.as_ref().map(Vec::clone).unwrap_or_default(),
            paths: self.paths,
            dir: Some(self.dir),
        };
        if outcome.status.is_none() {
            panic!("the agent run outlived {RUN_DEADLINE:?}:\n{outcome}");
        }
        if let Err(err) = requests {
            panic!("{err}\n{outcome}");
        }
        outcome
    }
}

/// A port free now on 127.0.0.1. Inside a fresh network namespace any port
/// is free; without one, another process could take it before the fake
/// model binds it (the fake model then fails loudly).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("find a free port")
}

impl AgentOutcome {
    /// A new session of the same Claude Code, in the same HOME and working
    /// directory, with the settings the first session left there (not
    /// written again): whatever the first session changed, the second
    /// reads. Same environment and Claude Code; a new script and prompt
    /// may be set. Claude Code only: the other agents' setups rewrite
    /// their settings on every launch.
    pub fn next_session(mut self) -> AgentRun {
        assert_eq!(
            self.agent,
            Dialect::ClaudeCode,
            "a next session is supported for Claude Code only"
        );
        let session = self.next.take().expect("a finished run keeps its session");
        let dir = self.dir.take().expect("a finished run keeps its directory");
        let paths = self.paths.clone();
        let mut run = AgentRun::with_hook_program(self.agent, &session.fake_model, &session.shim);
        // The fresh directory made above is dropped for this run's own.
        run.dir = dir;
        run.paths = paths;
        run.env = session.env;
        run.claude = session.claude;
        run.installed = session.installed;
        run.session = session.session + 1;
        run
    }
}
