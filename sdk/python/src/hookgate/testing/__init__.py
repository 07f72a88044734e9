"""The test kit: a subscriber tested without an agent.

`Kit(app)` serves `app` on a private Unix socket, starts a real `gateway`
whose only subscriber it is, and runs the real `gateway-shim` the way an
agent runs its hook, so `kit.shell("claude-code", "terraform destroy")`
returns exactly what Claude Code would receive (stdout, stderr, exit code).
`kit.samples()` lists every agent's sample payloads from the hookgate
repository (`adapters/test_data`), each of which `kit.run(sample)` sends.

    from hookgate.testing import Kit

    def test_no_destroy():
        with Kit(app) as kit:
            reply = kit.shell("claude-code", "terraform destroy -auto-approve")
            assert reply.says("no terraform destroy")

Where things are: the binaries from `HOOKGATE_GATEWAY_BIN` and
`HOOKGATE_SHIM_BIN`, else `target/debug/` (or `$CARGO_TARGET_DIR/debug/`) of
the repository; the repository from `HOOKGATE_REPO`, else the first parent
of the working directory holding `adapters/test_data`.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Union

from ..app import Subscriber
from ..decision import Decision
from ..event import Event
from ..server import Server

#: How long the gateway waits for the subscriber, in the kit's config.
SUBSCRIBER_TIMEOUT_MS = 10_000
#: The shim's own deadline (generous: a kit tests answers, not speed).
SHIM_TIMEOUT_MS = 20_000
#: The kit gives up on a gateway that does not listen within this.
READY_SECONDS = 15.0


# _SPAWN: processes are started with `close_fds=False`, which lets
# `subprocess` use posix_spawn instead of fork: gRPC's threads are running
# (the subscriber), and a fork runs gRPC's fork handlers in the child, which
# can abort it before it execs (seen on Python 3.9). Python's own
# descriptors are not inheritable, so nothing leaks into the child.


class KitError(AssertionError):
    """The kit could not run, or the handler failed on a call."""


@dataclass(frozen=True)
class Reply:
    """What the agent receives from its hook command."""

    exit_code: Optional[int]
    stdout: str
    stderr: str

    def json(self) -> Any:
        """Stdout as JSON (`None` when it is empty)."""
        return json.loads(self.stdout) if self.stdout.strip() else None

    def says(self, text: str) -> bool:
        """Does the agent receive `text` anywhere (stdout, stderr, or a
        string inside stdout's JSON)?"""
        if text in self.stdout or text in self.stderr:
            return True
        try:
            return any(text in s for s in _strings(self.json()))
        except ValueError:
            return False

    @property
    def blocked_by_exit_code(self) -> bool:
        """Exit code 2: the agents' "blocking error" (Claude Code-style
        hooks, Gemini CLI, Codex, Cline's legacy hooks); JSON-speaking
        agents block in stdout instead."""
        return self.exit_code == 2


@dataclass(frozen=True)
class Sample:
    """One sample payload of the repository (`adapters/test_data`)."""

    directory: str
    """The agent's sample directory (`claude-code`, `copilot-camel`, ...)."""
    name: str
    """The file name without `.json` (`PreToolUse`, `Stop.stop_hook_active`)."""
    payload: bytes
    args: Sequence[str]
    """The shim's arguments for it."""

    @property
    def path(self) -> str:
        return f"{self.directory}/{self.name}.json"


def _strings(value: Any) -> List[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def repository() -> Path:
    """The hookgate repository the kit takes samples (and by default
    binaries) from."""
    named = os.environ.get("HOOKGATE_REPO")
    if named:
        return Path(named)
    here = Path.cwd().resolve()
    for candidate in (here, *here.parents):
        if (candidate / "adapters" / "test_data").is_dir():
            return candidate
    raise KitError(
        "no hookgate repository above the working directory: set HOOKGATE_REPO "
        "to a checkout (the kit reads adapters/test_data and target/debug there)"
    )


def binaries() -> Dict[str, Path]:
    """The `gateway` and `gateway-shim` binaries the kit runs."""
    gateway, shim = os.environ.get("HOOKGATE_GATEWAY_BIN"), os.environ.get("HOOKGATE_SHIM_BIN")
    if gateway and shim:
        found = {"gateway": Path(gateway), "shim": Path(shim)}
    else:
        target = Path(os.environ.get("CARGO_TARGET_DIR") or repository() / "target")
        found = {"gateway": target / "debug" / "gateway", "shim": target / "debug" / "gateway-shim"}
    for path in found.values():
        if not os.access(path, os.X_OK):
            raise KitError(
                f"{path} is not an executable: run `cargo build --workspace` in the "
                "repository, or set HOOKGATE_GATEWAY_BIN and HOOKGATE_SHIM_BIN"
            )
    return found


def _table() -> Dict[str, Any]:
    path = repository() / "adapters" / "test_data" / "shell-calls.json"
    with open(path, encoding="utf-8") as f:
        table: Dict[str, Any] = json.load(f)
    return table


def samples(directory: Optional[str] = None) -> List[Sample]:
    """Every sample payload of every agent (or of one sample directory),
    sorted."""
    root = repository() / "adapters" / "test_data"
    table = _table()["samples"]
    out = []
    for agent_dir in sorted(table):
        if directory is not None and agent_dir != directory:
            continue
        for file in sorted((root / agent_dir).glob("*.json")):
            name = file.name[: -len(".json")]
            event = name.split(".")[0]
            args = [a.replace("{event}", event) for a in table[agent_dir]]
            out.append(Sample(agent_dir, name, file.read_bytes(), args))
    if directory is not None and not out:
        raise KitError(f"no samples for {directory!r}; directories: {', '.join(sorted(table))}")
    return out


def sample(path: str) -> Sample:
    """One sample: `"claude-code/PreToolUse"`."""
    directory, _, name = path.partition("/")
    for s in samples(directory):
        if s.name == name:
            return s
    raise KitError(f"no sample {path!r}")


def shell_dialects() -> List[str]:
    """The dialects `shell_call` knows (every agent's, and Cline's legacy
    hooks as `cline-legacy`)."""
    return sorted(_table()["shell"])


def shell_call(dialect: str, command: str) -> Sample:
    """The pre-tool sample of `dialect` (`claude-code`, `cline`,
    `cline-legacy`, `cursor`, `codex`, `copilot-camel`, ...) made to run
    `command` in the agent's shell tool."""
    shell = _table()["shell"]
    if dialect not in shell:
        raise KitError(f"no shell call for {dialect!r}; dialects: {', '.join(sorted(shell))}")
    entry = shell[dialect]
    base = sample(entry["sample"][: -len(".json")])
    payload = json.loads(base.payload)
    for pointer, value in entry["set"].items():
        _set(payload, pointer, _fill(copy.deepcopy(value), command))
    return Sample(base.directory, base.name, json.dumps(payload).encode(), base.args)


def _fill(value: Any, command: str) -> Any:
    if value == "{command}":
        return command
    if value == "{commands_json}":
        return json.dumps([command])
    if isinstance(value, dict):
        return {k: _fill(v, command) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, command) for v in value]
    return value


def _set(doc: Any, pointer: str, value: Any) -> None:
    keys = pointer.strip("/").split("/")
    for key in keys[:-1]:
        doc = doc.setdefault(key, {})
    doc[keys[-1]] = value


class Kit:
    """`app` behind a real gateway; see the module's documentation."""

    def __init__(
        self,
        app: Optional[Subscriber] = None,
        *,
        endpoint: Optional[str] = None,
        token: Optional[str] = None,
    ) -> None:
        """`app` served by the kit, or (`endpoint=`, as the gateway's config
        spells it: `unix:///path`, `http://host:port`) a subscriber served
        elsewhere, whose events the kit does not see. `token`: a bearer
        token the gateway sends (and the kit's server requires)."""
        if (app is None) == (endpoint is None):
            raise KitError("Kit(app) or Kit(endpoint=...): one of them")
        self.app = app
        self._endpoint = endpoint
        self.events: List[Event] = []
        """Every event the handlers received, in order."""
        self.decisions: List[Decision] = []
        """What the handlers answered, in order."""
        self._token = token
        self._dir: Optional[str] = None
        self._server: Optional[Server] = None
        self._gateway: Optional["subprocess.Popen[bytes]"] = None
        self._bins: Dict[str, Path] = {}

    def __enter__(self) -> "Kit":
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def gateway_log(self) -> str:
        """What the gateway wrote to stderr so far."""
        if self._dir is None:
            return ""
        with open(os.path.join(self._dir, "gateway.stderr"), encoding="utf-8", errors="replace") as f:
            return f.read()

    def start(self) -> None:
        self._bins = binaries()
        # A short private directory: Unix socket paths are limited to ~100 bytes.
        self._dir = tempfile.mkdtemp(prefix="hgkit-", dir="/tmp")
        os.chmod(self._dir, 0o700)
        if self.app is not None:
            recording = _Recording(self.app, self)
            self._server = recording.start(
                "unix:" + os.path.join(self._dir, "subscriber.sock"), token=self._token
            )
            self._endpoint = self._server.endpoint
        assert self._endpoint is not None
        self._start_gateway(self._endpoint)

    def _start_gateway(self, endpoint: str) -> None:
        assert self._dir is not None
        config = os.path.join(self._dir, "gateway.toml")
        token_line = ""
        if self._token is not None:
            token_line = 'token_env = "HOOKGATE_KIT_TOKEN"\n'
        with open(config, "w", encoding="utf-8") as f:
            f.write(
                "# Written by the hookgate test kit.\n[[subscriber]]\n"
                f'name = "kit"\nendpoint = {json.dumps(endpoint)}\nmode = "decide"\n'
                f'timeout_ms = {SUBSCRIBER_TIMEOUT_MS}\non_error = "allow"\n{token_line}'
            )
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", self._dir),
            "XDG_CONFIG_HOME": self._dir,
            "XDG_STATE_HOME": os.path.join(self._dir, "state"),
            "HOOKGATE_SYSTEM_CONFIG": os.path.join(self._dir, "system.toml"),
            "RUST_LOG": "info",
        }
        if self._token is not None:
            env["HOOKGATE_KIT_TOKEN"] = self._token
        stderr = open(os.path.join(self._dir, "gateway.stderr"), "wb")
        socket_path = self.socket
        self._gateway = subprocess.Popen(
            [str(self._bins["gateway"]), "serve", "--socket", socket_path, "--config", config],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env=env,
            close_fds=False,  # see _SPAWN
        )
        stderr.close()
        deadline = time.monotonic() + READY_SECONDS
        while not (_accepts(socket_path) and _accepts(socket_path + ".admin")):
            if self._gateway.poll() is not None:
                raise KitError(f"the gateway exited before listening:\n{self.gateway_log}")
            if time.monotonic() > deadline:
                raise KitError(f"the gateway did not listen within {READY_SECONDS} s:\n{self.gateway_log}")
            time.sleep(0.02)

    @property
    def socket(self) -> str:
        """The gateway's hook socket."""
        assert self._dir is not None, "the kit is not started"
        return os.path.join(self._dir, "gateway.sock")

    def stop(self) -> None:
        if self._gateway is not None:
            self._gateway.terminate()
            try:
                self._gateway.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._gateway.kill()
                self._gateway.wait()
            self._gateway = None
        if self._server is not None:
            self._server.stop()
            self._server = None
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    # -- calls ---------------------------------------------------------------

    def run(self, call: Union[Sample, str], payload: Union[bytes, str, Dict[str, Any], None] = None) -> Reply:
        """Runs the shim as the agent would: a `Sample`, or shim arguments
        (`"claude-code"`, `"copilot preToolUse"`) with a payload."""
        if isinstance(call, Sample):
            args, body = list(call.args), call.payload
        else:
            if payload is None:
                raise KitError("run(args, payload): the payload is missing")
            args = call.split()
            body = (
                payload
                if isinstance(payload, bytes)
                else (payload.encode() if isinstance(payload, str) else json.dumps(payload).encode())
            )
        errors_before = len(self._server.stats.errors) if self._server else 0
        out = subprocess.run(
            [str(self._bins["shim"]), *args],
            input=body,
            capture_output=True,
            env={
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "HOOKGATE_SOCKET": self.socket,
                "HOOKGATE_TIMEOUT_MS": str(SHIM_TIMEOUT_MS),
            },
            timeout=SHIM_TIMEOUT_MS / 1000 + 30,
            close_fds=False,  # see _SPAWN
        )
        if self._server and len(self._server.stats.errors) > errors_before:
            event_id, error = self._server.stats.errors[-1]
            raise KitError(f"the handler raised on event {event_id}: {error}")
        return Reply(
            out.returncode,
            out.stdout.decode("utf-8", "replace"),
            out.stderr.decode("utf-8", "replace"),
        )

    def shell(self, dialect: str, command: str) -> Reply:
        """What `dialect`'s agent receives when its shell tool is about to
        run `command` (see `shell_call`)."""
        return self.run(shell_call(dialect, command))

    def sample(self, path: str) -> Reply:
        """What the agent receives for one sample (`"codex/SessionStart"`)."""
        return self.run(sample(path))


class _Recording(Subscriber):
    """The kit's view of `app`: the same handlers, each event and decision
    recorded."""

    def __init__(self, app: Subscriber, kit: Kit) -> None:
        super().__init__()
        self._app = app
        self._kit = kit

    async def decide(self, event: Event, executor: Any = None) -> Decision:
        self._kit.events.append(event)
        decision = await self._app.decide(event, executor)
        self._kit.decisions.append(decision)
        return decision


def _accepts(path: str) -> bool:
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(path)
        return True
    except OSError:
        return False
    finally:
        probe.close()


__all__ = [
    "Kit",
    "KitError",
    "Reply",
    "Sample",
    "binaries",
    "repository",
    "sample",
    "samples",
    "shell_call",
    "shell_dialects",
]
