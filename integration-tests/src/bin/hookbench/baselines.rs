//! The hooks hookgate replaces, written the way people write them: a bash
//! script piping through jq and curl, a node script and a python script,
//! each posting the tool call to a local HTTP policy endpoint and printing
//! its answer. Each uses its language's lightest idiomatic HTTP client
//! (node `http`, python `http.client`), so the comparison is not against a
//! strawman.
//!
//! Interpreters are run by absolute path, not through a version manager's
//! shim (pyenv's `python3` is a bash script that would double python's
//! cost).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, bail};

/// A hook command: program and arguments.
#[derive(Debug, Clone)]
pub(crate) struct HookCommand {
    pub(crate) program: PathBuf,
    pub(crate) args: Vec<String>,
    /// Set on top of the bench's own environment.
    pub(crate) env: Vec<(String, String)>,
}

/// The three scripted hooks, written into `dir`.
#[derive(Debug, Clone)]
pub(crate) struct Scripts {
    pub(crate) bash: HookCommand,
    pub(crate) node: HookCommand,
    pub(crate) python: HookCommand,
    /// Versions of the interpreters and tools, for the report.
    pub(crate) versions: Vec<String>,
}

const BASH_HOOK: &str = r#"#!/usr/bin/env bash
# PreToolUse hook: extract the tool call with jq, ask the policy server.
set -euo pipefail
input=$(cat)
body=$(jq -c '{tool: .tool_name, input: .tool_input}' <<<"$input")
curl -sS --max-time 5 -H 'Content-Type: application/json' --data-binary "$body" "http://127.0.0.1:__PORT__/hook"
"#;

const NODE_HOOK: &str = r#"// PreToolUse hook: post the tool call to the policy server.
const http = require('http');
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const event = JSON.parse(input);
  const body = JSON.stringify({ tool: event.tool_name, input: event.tool_input });
  const req = http.request({
    host: '127.0.0.1', port: __PORT__, path: '/hook', method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
  }, (res) => {
    let out = '';
    res.setEncoding('utf8');
    res.on('data', (chunk) => { out += chunk; });
    res.on('end', () => { JSON.parse(out); process.stdout.write(out); });
  });
  req.on('error', (err) => { process.stderr.write(String(err)); process.exit(1); });
  req.end(body);
});
"#;

const PYTHON_HOOK: &str = r#"# PreToolUse hook: post the tool call to the policy server.
import http.client
import json
import sys

event = json.load(sys.stdin)
body = json.dumps({"tool": event.get("tool_name"), "input": event.get("tool_input")})
conn = http.client.HTTPConnection("127.0.0.1", __PORT__, timeout=5)
conn.request("POST", "/hook", body, {"Content-Type": "application/json"})
out = conn.getresponse().read()
json.loads(out)
sys.stdout.write(out.decode())
"#;

impl Scripts {
    /// Writes the scripts (posting to `port`) into `dir`, installing jq and
    /// curl first if they are missing.
    pub(crate) fn write(dir: &Path, port: u16) -> anyhow::Result<Scripts> {
        ensure_tools()?;
        let port = port.to_string();
        let write = |name: &str, text: &str| -> anyhow::Result<PathBuf> {
            let path = dir.join(name);
            std::fs::write(&path, text.replace("__PORT__", &port))
                .with_context(|| format!("writing {}", path.display()))?;
            Ok(path)
        };
        let bash = write("hook.sh", BASH_HOOK)?;
        let node = write("hook.js", NODE_HOOK)?;
        let python = write("hook.py", PYTHON_HOOK)?;
        let bash_bin = which("bash")?;
        let node_bin = which("node")?;
        let python_bin = real_python()?;
        let versions = vec![
            version(&bash_bin, "--version")?,
            version(&which("jq")?, "--version")?,
            version(&which("curl")?, "--version")?,
            format!("node {}", version(&node_bin, "--version")?),
            format!(
                "{} ({})",
                version(&python_bin, "--version")?,
                python_bin.display()
            ),
        ];
        let command = |program: PathBuf, script: PathBuf| HookCommand {
            program,
            args: vec![script.display().to_string()],
            env: Vec::new(),
        };
        Ok(Scripts {
            bash: command(bash_bin, bash),
            node: command(node_bin, node),
            python: command(python_bin, python),
            versions,
        })
    }
}

/// Installs jq and curl with apt-get when either is missing.
fn ensure_tools() -> anyhow::Result<()> {
    if which("jq").is_ok() && which("curl").is_ok() {
        return Ok(());
    }
    apt_install(
        &["jq", "curl"],
        "jq and curl are needed by the bash baseline",
    )
}

/// `apt-get install -y PACKAGES`, for a tool the bench needs (`why`).
pub(crate) fn apt_install(packages: &[&str], why: &str) -> anyhow::Result<()> {
    let list = packages.join(" ");
    eprintln!("hookbench: installing {list} (apt-get install -y {list})");
    let status = Command::new("apt-get")
        .args(["install", "-y"])
        .args(packages)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()
        .with_context(|| format!("running apt-get ({why})"))?;
    if !status.success() {
        bail!("apt-get install -y {list} failed ({status}); install them and rerun");
    }
    Ok(())
}

/// The absolute path of `program` on PATH.
fn which(program: &str) -> anyhow::Result<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
        .with_context(|| format!("{program} not found on PATH"))
}

/// The python3 executable itself, even when `python3` on PATH is a
/// version manager's wrapper script.
fn real_python() -> anyhow::Result<PathBuf> {
    let output = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .context("running python3")?;
    let path = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
    if !output.status.success() || !path.is_file() {
        bail!("cannot locate the python3 executable");
    }
    Ok(path)
}

/// The first line of `program flag`.
fn version(program: &Path, flag: &str) -> anyhow::Result<String> {
    let output = Command::new(program)
        .arg(flag)
        .output()
        .with_context(|| format!("running {} {flag}", program.display()))?;
    let text = String::from_utf8_lossy(&output.stdout);
    Ok(text.lines().next().unwrap_or("").trim().to_owned())
}
