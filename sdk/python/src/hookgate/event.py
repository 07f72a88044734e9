"""The typed event a handler receives: one hook call of any agent, in the
gateway's canonical form (`hookgate.v1.HookEvent`), with the shell commands
as hookgate's guard parsed them."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Dict, List, Optional, Tuple

from .v1 import hookgate_pb2 as pb


class Agent(str, Enum):
    """The coding agent that raised the event (the names the gateway's
    config uses)."""

    UNSPECIFIED = "unspecified"
    CLAUDE_CODE = "claude-code"
    CURSOR = "cursor"
    CLINE = "cline"
    GEMINI_CLI = "gemini-cli"
    CODEX = "codex"
    QWEN_CODE = "qwen-code"
    DROID = "droid"
    COPILOT = "copilot"
    HERMES = "hermes"
    OPENCODE = "opencode"


class Kind(str, Enum):
    """What happened, in agent-neutral terms (the config's event names)."""

    OTHER = "other"
    SESSION_START = "session_start"
    SESSION_END = "session_end"
    PROMPT_SUBMIT = "prompt_submit"
    PRE_TOOL_USE = "pre_tool_use"
    POST_TOOL_USE = "post_tool_use"
    TOOL_FAILURE = "tool_failure"
    FILE_READ = "file_read"
    FILE_EDIT = "file_edit"
    AGENT_RESPONSE = "agent_response"
    AGENT_THOUGHT = "agent_thought"
    STOP = "stop"
    SUBAGENT_START = "subagent_start"
    SUBAGENT_STOP = "subagent_stop"
    PRE_COMPACT = "pre_compact"
    POST_COMPACT = "post_compact"
    NOTIFICATION = "notification"
    PERMISSION_REQUEST = "permission_request"
    TASK_ERROR = "task_error"
    TASK_ABORT = "task_abort"
    TASK_COMPLETE = "task_complete"
    SESSION_RESUME = "session_resume"
    MODEL_REQUEST = "model_request"
    MODEL_RESPONSE = "model_response"
    CONFIG_CHANGE = "config_change"


class ToolClass(str, Enum):
    """The broad class of a tool, so a policy can say "every shell tool"."""

    OTHER = "other"
    SHELL = "shell"
    MCP = "mcp"
    FILE_READ = "file_read"
    FILE_WRITE = "file_write"
    SEARCH = "search"
    WEB = "web"
    SUBAGENT = "subagent"


def _enum(cls: Any, descriptor: Any, prefix: str, number: int, dash: bool = False) -> Any:
    """The member of `cls` for a proto enum number (an unknown number, from
    a newer gateway, is the first member: unspecified / other)."""
    try:
        name = descriptor.Name(number)
    except ValueError:
        return next(iter(cls))
    value = name[len(prefix) :].lower()
    if dash:
        value = value.replace("_", "-")
    try:
        return cls(value)
    except ValueError:
        return next(iter(cls))


@dataclass(frozen=True)
class Capabilities:
    """Which answers the agent can act on for this event; a decision part
    it cannot express is dropped by the gateway (and counted as a loss)."""

    deny: bool = False
    ask: bool = False
    context: bool = False
    input_rewrite: bool = False
    halt: bool = False
    followup: bool = False


@dataclass(frozen=True)
class Command:
    """One simple command of a shell line, as hookgate's guard parsed it:
    wrappers (`sudo`, `env`, `xargs`, `sh -c '…'`) unwrapped, quotes
    removed, `~` and literal variables expanded. A part that cannot be known
    statically (`$X`, `$(date)`) is U+FFFD."""

    name: str
    args: Tuple[str, ...] = ()
    flags: Tuple[str, ...] = ()
    operands: Tuple[str, ...] = ()
    cwd: Optional[str] = None


@dataclass(frozen=True)
class Tool:
    """The tool a tool event is about."""

    name: str
    tool_class: ToolClass
    input_json: str
    command: Optional[str] = None
    mcp_server: Optional[str] = None
    file_path: Optional[str] = None
    output: Optional[str] = None
    error: Optional[str] = None
    duration_ms: Optional[int] = None
    call_id: Optional[str] = None

    @property
    def input(self) -> Any:
        """The tool's input, parsed (a dict for most tools; `None` when it
        is not JSON)."""
        try:
            return json.loads(self.input_json) if self.input_json else None
        except ValueError:
            return None

    @property
    def paths(self) -> List[str]:
        """The file paths the tool names (for file tools)."""
        return [self.file_path] if self.file_path else []


@dataclass(frozen=True)
class Stop:
    """Stop / subagent-stop details."""

    status: Optional[str] = None
    loop_count: Optional[int] = None
    continuing: bool = False


@dataclass(frozen=True)
class Caller:
    """The machine and user the gateway runs for (its `[identity]`): a
    label, not a proof."""

    hostname: Optional[str] = None
    user: Optional[str] = None
    origin: Optional[str] = None
    labels: Dict[str, str] = field(default_factory=dict)
    gateway_version: str = ""


@dataclass(frozen=True)
class Event:
    """One hook event, the same shape whatever agent raised it."""

    id: str
    agent: Agent
    kind: Kind
    native_event: str
    dialect: str = ""
    agent_version: Optional[str] = None
    blocking: bool = False
    capabilities: Capabilities = field(default_factory=Capabilities)
    session_id: Optional[str] = None
    cwd: Optional[str] = None
    workspace_roots: Tuple[str, ...] = ()
    transcript_path: Optional[str] = None
    model: Optional[str] = None
    tool: Optional[Tool] = None
    prompt: Optional[str] = None
    text: Optional[str] = None
    stop: Optional[Stop] = None
    reason: Optional[str] = None
    subagent_id: Optional[str] = None
    caller: Caller = field(default_factory=Caller)
    commands: Tuple[Command, ...] = ()
    commands_resolved: bool = False
    raw_json: str = ""
    deadline: Optional[float] = None
    """When the gateway stops waiting, on `time.monotonic()`'s clock."""

    @property
    def command(self) -> Optional[str]:
        """A shell tool's command line, as the agent sent it."""
        return self.tool.command if self.tool else None

    @property
    def paths(self) -> List[str]:
        """The file paths a file tool names."""
        return self.tool.paths if self.tool else []

    def time_left(self) -> Optional[float]:
        """Seconds until the gateway stops waiting (`None`: no deadline)."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def runs(self, name: str, *operands: str) -> bool:
        """Does the shell line run `name` with all of `operands` among its
        operands (`event.runs("terraform", "destroy")`)?"""
        return any(
            c.name == name and all(o in c.operands for o in operands) for c in self.commands
        )

    @staticmethod
    def from_proto(message: Any, deadline: Optional[float] = None) -> "Event":
        """The typed form of a `hookgate.v1.HookEvent`."""
        m = message

        def opt(holder: Any, name: str) -> Any:
            return getattr(holder, name) if holder.HasField(name) else None

        tool = None
        if m.HasField("tool"):
            t = m.tool
            tool = Tool(
                name=t.name,
                tool_class=_enum(ToolClass, pb.ToolClass, "TOOL_CLASS_", getattr(t, "class")),
                input_json=t.input_json,
                command=opt(t, "command"),
                mcp_server=opt(t, "mcp_server"),
                file_path=opt(t, "file_path"),
                output=opt(t, "output"),
                error=opt(t, "error"),
                duration_ms=opt(t, "duration_ms"),
                call_id=opt(t, "call_id"),
            )
        stop = None
        if m.HasField("stop"):
            stop = Stop(
                status=opt(m.stop, "status"),
                loop_count=opt(m.stop, "loop_count"),
                continuing=m.stop.continuing,
            )
        c = m.capabilities
        caller = m.caller
        commands: Tuple[Command, ...] = ()
        resolved = False
        if m.HasField("shell"):
            commands = tuple(
                Command(
                    name=s.name,
                    args=tuple(s.args),
                    flags=tuple(s.flags),
                    operands=tuple(s.operands),
                    cwd=opt(s, "cwd"),
                )
                for s in m.shell.commands
            )
            resolved = m.shell.resolved
        return Event(
            id=m.id,
            agent=_enum(Agent, pb.Agent, "AGENT_", m.agent, dash=True),
            kind=_enum(Kind, pb.EventKind, "EVENT_KIND_", m.kind),
            native_event=m.native_event,
            dialect=_dialect(m.dialect),
            agent_version=opt(m, "agent_version"),
            blocking=m.blocking,
            capabilities=Capabilities(
                deny=c.deny,
                ask=c.ask,
                context=c.context,
                input_rewrite=c.input_rewrite,
                halt=c.halt,
                followup=c.followup,
            ),
            session_id=opt(m, "session_id"),
            cwd=opt(m, "cwd"),
            workspace_roots=tuple(m.workspace_roots),
            transcript_path=opt(m, "transcript_path"),
            model=opt(m, "model"),
            tool=tool,
            prompt=opt(m, "prompt"),
            text=opt(m, "text"),
            stop=stop,
            reason=opt(m, "reason"),
            subagent_id=opt(m, "subagent_id"),
            caller=Caller(
                hostname=opt(caller, "hostname"),
                user=opt(caller, "user"),
                origin=opt(caller, "origin"),
                labels=dict(caller.labels),
                gateway_version=caller.gateway_version,
            ),
            commands=commands,
            commands_resolved=resolved,
            raw_json=m.raw_json,
            deadline=deadline,
        )


def _dialect(number: int) -> str:
    """`cline-sdk`, `copilot-camel`, ...; `unspecified` when unknown."""
    try:
        return str(pb.Dialect.Name(number))[len("DIALECT_") :].lower().replace("_", "-")
    except ValueError:
        return "unspecified"
