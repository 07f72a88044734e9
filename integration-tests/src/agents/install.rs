//! The pinned agent CLIs, installed with npm by the test setup itself.
//!
//! Each pinned package goes into its own npm prefix,
//! `<cargo target dir>/agent-clis/<name>-<version>/` (or under
//! `$HOOKGATE_AGENT_CLIS_DIR`), once: a marker file naming the exact
//! package is written after a successful install and checked on every
//! later run. Concurrent installs are serialized twice over: a `OnceLock`
//! within the test process, and `flock(1)` on a lock file across processes
//! (the kernel drops the lock if an installer dies). The install needs the
//! npm registry (about a minute, 1 GB for all three); if npm is missing or
//! the install fails, every real-agent test fails with the reason — never
//! a skip.
//!
//! **Bumping the newest Claude Code**: `npm view @anthropic-ai/claude-code
//! version` names the newest the registry serves; set
//! [`CLAUDE_CODE_NEWEST`] to it (the only place it is written), run the
//! real-agent tests (`cargo test -p hookgate-integration-tests --test
//! real_agents`), which also rewrite docs/conformance.md, and review what
//! changed there.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// The Claude Code npm package.
pub const CLAUDE_CODE_PACKAGE: &str = "@anthropic-ai/claude-code";
/// The oldest Claude Code hookgate supports.
pub const CLAUDE_CODE_OLDEST: &str = "2.1.197";
/// The newest Claude Code the npm registry served when last bumped.
pub const CLAUDE_CODE_NEWEST: &str = "2.1.332";
/// The Cline CLI npm package and the version under test.
pub const CLINE_PACKAGE: &str = "cline";
pub const CLINE_VERSION: &str = "3.0.65";

/// Which pinned Claude Code a run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClaudeCode {
    Oldest,
    Newest,
}

impl ClaudeCode {
    /// Both, oldest first.
    pub const ALL: [ClaudeCode; 2] = [ClaudeCode::Oldest, ClaudeCode::Newest];

    /// The npm version.
    pub fn version(self) -> &'static str {
        match self {
            ClaudeCode::Oldest => CLAUDE_CODE_OLDEST,
            ClaudeCode::Newest => CLAUDE_CODE_NEWEST,
        }
    }
}

/// One more agent CLI from npm, installed into a prefix of its own
/// (`<cache>/<dir>-<version>/`), so that pinning one does not reinstall
/// the others. Same marker, lock and version check as Claude Code's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NpmCli {
    pub package: &'static str,
    pub version: &'static str,
    /// The prefix's name (the version is appended).
    pub dir: &'static str,
    /// The executable, relative to the prefix.
    pub bin: &'static str,
    /// Packages installed with it at the same version (a platform package
    /// npm would otherwise pick, or skip, by itself).
    pub with: &'static [&'static str],
}

/// Qwen Code (runs on Node 20 although it asks for 22; needs no install
/// script).
pub const QWEN_CODE: NpmCli = NpmCli {
    package: "@qwen-code/qwen-code",
    version: "0.24.4",
    dir: "qwen-code",
    bin: "node_modules/.bin/qwen",
    with: &[],
};
/// Factory Droid: the platform package holds the whole binary (0.225.1's
/// is missing from the registry, hence 0.225.2).
pub const DROID: NpmCli = NpmCli {
    package: "@factory/cli-linux-x64",
    version: "0.225.2",
    dir: "droid",
    bin: "node_modules/@factory/cli-linux-x64/bin/droid",
    with: &[],
};

/// Gemini CLI (a bundled Node script; needs no install script).
pub const GEMINI_CLI: NpmCli = NpmCli {
    package: "@google/gemini-cli",
    version: "0.61.0",
    dir: "gemini-cli",
    bin: "node_modules/.bin/gemini",
    with: &[],
};

/// Codex: a Rust binary in the platform package `@openai/codex-linux-x64`
/// (an optional dependency), started through the npm launcher as users
/// run it (it sets `CODEX_MANAGED_BY_NPM` for hooks).
pub const CODEX: NpmCli = NpmCli {
    package: "@openai/codex",
    version: "0.171.0",
    dir: "codex",
    bin: "node_modules/.bin/codex",
    with: &[],
};

/// GitHub Copilot CLI: the npm loader plus its Linux platform package
/// (an optional dependency, named so the install never depends on npm's
/// platform pick).
pub const COPILOT: NpmCli = NpmCli {
    package: "@github/copilot",
    version: "1.0.102",
    dir: "copilot",
    bin: "node_modules/.bin/copilot",
    with: &["@github/copilot-linux-x64"],
};

/// OpenCode: a Bun binary in the platform package `opencode-linux-x64`
/// (an optional dependency, named so the install never depends on npm's
/// platform pick); the launcher `bin/opencode` needs its install script,
/// so the platform binary is run directly.
pub const OPENCODE: NpmCli = NpmCli {
    package: "opencode-ai",
    version: "1.18.33",
    dir: "opencode",
    bin: "node_modules/opencode-linux-x64/bin/opencode",
    with: &["opencode-linux-x64"],
};

static NPM_CLIS: Mutex<BTreeMap<&'static str, Result<PathBuf, String>>> =
    Mutex::new(BTreeMap::new());

/// `cli`'s executable, installed on first use (with `--ignore-scripts`:
/// none of these needs its install script). Panics with the reason when it
/// cannot be had, like [`clis`].
pub fn npm_cli(cli: &NpmCli) -> PathBuf {
    let mut installed = NPM_CLIS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let result = installed
        .entry(cli.package)
        .or_insert_with(|| install_npm_cli(cli));
    match result {
        Ok(path) => path.clone(),
        Err(reason) => panic!(
            "the real agent CLI {}@{} is unavailable: {reason}",
            cli.package, cli.version
        ),
    }
}

fn install_npm_cli(cli: &NpmCli) -> Result<PathBuf, String> {
    let root = cache_root()?;
    let prefix = root.join(format!("{}-{}", cli.dir, cli.version));
    let marker = prefix.join(".hookgate-installed");
    let spec = std::iter::once(cli.package)
        .chain(cli.with.iter().copied())
        .map(|package| format!("{package}@{}", cli.version))
        .collect::<Vec<_>>()
        .join(" ");
    let is_installed = || std::fs::read_to_string(&marker).is_ok_and(|text| text.trim() == spec);
    if !is_installed() {
        std::fs::create_dir_all(&prefix)
            .map_err(|err| format!("creating {}: {err}", prefix.display()))?;
        let mut args: Vec<String> = spec.split(' ').map(str::to_owned).collect();
        args.push("--ignore-scripts".to_owned());
        run_npm_install(&root.join("install.lock"), &marker, &prefix, &spec, &args)?;
        if !is_installed() {
            return Err(format!(
                "npm install finished but {} does not name {spec}",
                marker.display()
            ));
        }
    }
    let bin = prefix.join(cli.bin);
    check_version(cli.dir, &bin, cli.version)?;
    Ok(bin)
}

/// Overrides where the CLIs are installed.
const DIR_ENV: &str = "HOOKGATE_AGENT_CLIS_DIR";
/// Upper bounds: waiting for another installer, and one npm install.
pub(super) const LOCK_WAIT_SECS: &str = "1800";
pub(super) const INSTALL_SECS: &str = "1200";

/// The installed CLIs.
#[derive(Debug, Clone)]
pub struct Clis {
    /// Claude Code's native binaries: oldest, newest.
    claude: [PathBuf; 2],
    /// Cline's launcher (a Node script that runs its compiled binary).
    pub cline: PathBuf,
}

impl Clis {
    /// The native binary of the `which` Claude Code.
    pub fn claude(&self, which: ClaudeCode) -> &Path {
        match which {
            ClaudeCode::Oldest => &self.claude[0],
            ClaudeCode::Newest => &self.claude[1],
        }
    }
}

static CLIS: OnceLock<Result<Clis, String>> = OnceLock::new();

/// The CLIs, installed on first use. Panics with the reason when they
/// cannot be had: the real-agent tests are meaningless without them.
pub fn clis() -> &'static Clis {
    match CLIS.get_or_init(install) {
        Ok(clis) => clis,
        Err(reason) => panic!(
            "the real agent CLIs ({CLAUDE_CODE_PACKAGE}@{CLAUDE_CODE_OLDEST} and \
             @{CLAUDE_CODE_NEWEST}, {CLINE_PACKAGE}@{CLINE_VERSION}) are unavailable: {reason}"
        ),
    }
}

/// One pinned package: its npm name and version, the short name of its
/// prefix, and its binary inside the prefix.
struct Pin {
    package: &'static str,
    version: &'static str,
    short: &'static str,
    bin: &'static str,
}

impl Pin {
    fn spec(&self) -> String {
        format!("{}@{}", self.package, self.version)
    }
}

fn install() -> Result<Clis, String> {
    let root = cache_root()?;
    let claude = |version| Pin {
        package: CLAUDE_CODE_PACKAGE,
        version,
        short: "claude-code",
        bin: "node_modules/@anthropic-ai/claude-code/bin/claude.exe",
    };
    let pins = [
        claude(CLAUDE_CODE_OLDEST),
        claude(CLAUDE_CODE_NEWEST),
        Pin {
            package: CLINE_PACKAGE,
            version: CLINE_VERSION,
            short: "cline",
            bin: "node_modules/cline/bin/cline",
        },
    ];
    let mut bins = Vec::new();
    for pin in &pins {
        let prefix = root.join(format!("{}-{}", pin.short, pin.version));
        let marker = prefix.join(".hookgate-installed");
        if !installed(&marker, pin) {
            std::fs::create_dir_all(&prefix)
                .map_err(|err| format!("creating {}: {err}", prefix.display()))?;
            let spec = pin.spec();
            run_npm_install(
                &root.join("install.lock"),
                &marker,
                &prefix,
                &spec,
                std::slice::from_ref(&spec),
            )?;
            if !installed(&marker, pin) {
                return Err(format!(
                    "npm install finished but {} does not name {}",
                    marker.display(),
                    pin.spec()
                ));
            }
        }
        let bin = prefix.join(pin.bin);
        check_version(pin.short, &bin, pin.version)?;
        bins.push(bin);
    }
    let [oldest, newest, cline]: [PathBuf; 3] = bins
        .try_into()
        .map_err(|_| "one binary per pinned package".to_owned())?;
    Ok(Clis {
        claude: [oldest, newest],
        cline,
    })
}

fn installed(marker: &Path, pin: &Pin) -> bool {
    std::fs::read_to_string(marker).is_ok_and(|text| text.trim() == pin.spec())
}

/// `$HOOKGATE_AGENT_CLIS_DIR`, else `<target>/agent-clis`: the cargo
/// target dir is the first directory above this binary that holds cargo's
/// `CACHEDIR.TAG` (a test binary is `<target>/<profile>/deps/<name>-<hash>`,
/// hookbench `<target>/<profile>/hookbench`).
pub(super) fn cache_root() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os(DIR_ENV).filter(|dir| !dir.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    let exe = std::env::current_exe().map_err(|err| format!("current_exe: {err}"))?;
    let target = exe
        .ancestors()
        .skip(1)
        .find(|dir| dir.join("CACHEDIR.TAG").is_file())
        .ok_or_else(|| {
            format!(
                "cannot find the cargo target dir (holding CACHEDIR.TAG) above {}; set {DIR_ENV}",
                exe.display()
            )
        })?;
    Ok(target.join("agent-clis"))
}

/// Installs `args` (packages and flags) under the lock; re-checks the
/// marker (which must then say `spec`) once the lock is held, so a second
/// process waiting on the first does not install again.
fn run_npm_install(
    lock: &Path,
    marker: &Path,
    prefix: &Path,
    spec: &str,
    args: &[String],
) -> Result<(), String> {
    for (tool, hint) in [
        ("npm", "install Node.js 20+ with npm"),
        ("flock", "install util-linux"),
    ] {
        let found = Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|out| out.status.success());
        if !found {
            return Err(format!(
                "`{tool}` is not on PATH, but the real-agent tests install the agent CLIs \
                 with it ({hint})"
            ));
        }
    }
    eprintln!(
        "real agents: installing {spec} into {} (one time, about a minute)",
        prefix.display()
    );
    const SCRIPT: &str = r#"marker=$1 spec=$2 prefix=$3 limit=$4; shift 4
[ "$(cat "$marker" 2>/dev/null)" = "$spec" ] && exit 0
rm -f "$marker"
timeout "$limit" npm install --prefix "$prefix" --no-audit --no-fund --save-exact "$@" \
  && printf '%s\n' "$spec" > "$marker""#;
    let output = Command::new("flock")
        .args(["--exclusive", "--timeout", LOCK_WAIT_SECS])
        .arg(lock)
        .args(["sh", "-c", SCRIPT, "sh"])
        .arg(marker)
        .arg(spec)
        .arg(prefix)
        .arg(INSTALL_SECS)
        .args(args)
        .output()
        .map_err(|err| format!("running flock/npm: {err}"))?;
    if output.status.success() {
        return Ok(());
    }
    Err(format!(
        "`npm install --prefix {} {}` failed ({}); does this machine reach the npm registry?\n\
         --- stdout ---\n{}\n--- stderr ---\n{}",
        prefix.display(),
        args.join(" "),
        output.status,
        tail(&output.stdout),
        tail(&output.stderr)
    ))
}

/// `<cli> --version` must name the pinned version (and proves the binary
/// runs here).
pub(super) fn check_version(name: &str, path: &Path, version: &str) -> Result<(), String> {
    let home = tempfile::tempdir().map_err(|err| format!("temp HOME: {err}"))?;
    let mut command = Command::new("timeout");
    command
        .args(["-k", "5", "60"])
        .arg(path)
        .arg("--version")
        .env_clear()
        .env("HOME", home.path())
        .env("DISABLE_AUTOUPDATER", "1")
        .env("CLINE_NO_AUTO_UPDATE", "1")
        .env("DO_NOT_TRACK", "1");
    if let Some(path) = std::env::var_os("PATH") {
        command.env("PATH", path);
    }
    let output = command
        .output()
        .map_err(|err| format!("running {} --version: {err}", path.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if output.status.success() && stdout.contains(version) {
        return Ok(());
    }
    Err(format!(
        "`{name} --version` ({}) answered {} with stdout {stdout:?}, stderr {:?}; expected {version}",
        path.display(),
        output.status,
        tail(&output.stderr)
    ))
}

/// The last few KiB of an output, for error messages.
pub(super) fn tail(bytes: &[u8]) -> String {
    const KEEP: usize = 4096;
    let start = bytes.len().saturating_sub(KEEP);
    String::from_utf8_lossy(&bytes[start..]).into_owned()
}
