from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Agent(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AGENT_UNSPECIFIED: _ClassVar[Agent]
    AGENT_CLAUDE_CODE: _ClassVar[Agent]
    AGENT_CURSOR: _ClassVar[Agent]
    AGENT_CLINE: _ClassVar[Agent]
    AGENT_GEMINI_CLI: _ClassVar[Agent]
    AGENT_CODEX: _ClassVar[Agent]
    AGENT_QWEN_CODE: _ClassVar[Agent]
    AGENT_DROID: _ClassVar[Agent]
    AGENT_COPILOT: _ClassVar[Agent]
    AGENT_HERMES: _ClassVar[Agent]
    AGENT_OPENCODE: _ClassVar[Agent]

class Dialect(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DIALECT_UNSPECIFIED: _ClassVar[Dialect]
    DIALECT_CLAUDE_CODE: _ClassVar[Dialect]
    DIALECT_CURSOR: _ClassVar[Dialect]
    DIALECT_CLINE_SDK: _ClassVar[Dialect]
    DIALECT_CLINE_LEGACY: _ClassVar[Dialect]
    DIALECT_GEMINI_CLI: _ClassVar[Dialect]
    DIALECT_CODEX: _ClassVar[Dialect]
    DIALECT_QWEN_CODE: _ClassVar[Dialect]
    DIALECT_DROID: _ClassVar[Dialect]
    DIALECT_COPILOT_PASCAL: _ClassVar[Dialect]
    DIALECT_COPILOT_CAMEL: _ClassVar[Dialect]
    DIALECT_HERMES: _ClassVar[Dialect]
    DIALECT_OPENCODE: _ClassVar[Dialect]

class EventKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EVENT_KIND_OTHER: _ClassVar[EventKind]
    EVENT_KIND_SESSION_START: _ClassVar[EventKind]
    EVENT_KIND_SESSION_END: _ClassVar[EventKind]
    EVENT_KIND_PROMPT_SUBMIT: _ClassVar[EventKind]
    EVENT_KIND_PRE_TOOL_USE: _ClassVar[EventKind]
    EVENT_KIND_POST_TOOL_USE: _ClassVar[EventKind]
    EVENT_KIND_TOOL_FAILURE: _ClassVar[EventKind]
    EVENT_KIND_FILE_READ: _ClassVar[EventKind]
    EVENT_KIND_FILE_EDIT: _ClassVar[EventKind]
    EVENT_KIND_AGENT_RESPONSE: _ClassVar[EventKind]
    EVENT_KIND_AGENT_THOUGHT: _ClassVar[EventKind]
    EVENT_KIND_STOP: _ClassVar[EventKind]
    EVENT_KIND_SUBAGENT_START: _ClassVar[EventKind]
    EVENT_KIND_SUBAGENT_STOP: _ClassVar[EventKind]
    EVENT_KIND_PRE_COMPACT: _ClassVar[EventKind]
    EVENT_KIND_POST_COMPACT: _ClassVar[EventKind]
    EVENT_KIND_NOTIFICATION: _ClassVar[EventKind]
    EVENT_KIND_PERMISSION_REQUEST: _ClassVar[EventKind]
    EVENT_KIND_TASK_ERROR: _ClassVar[EventKind]
    EVENT_KIND_TASK_ABORT: _ClassVar[EventKind]
    EVENT_KIND_TASK_COMPLETE: _ClassVar[EventKind]
    EVENT_KIND_SESSION_RESUME: _ClassVar[EventKind]
    EVENT_KIND_MODEL_REQUEST: _ClassVar[EventKind]
    EVENT_KIND_MODEL_RESPONSE: _ClassVar[EventKind]
    EVENT_KIND_CONFIG_CHANGE: _ClassVar[EventKind]

class ToolClass(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TOOL_CLASS_OTHER: _ClassVar[ToolClass]
    TOOL_CLASS_SHELL: _ClassVar[ToolClass]
    TOOL_CLASS_MCP: _ClassVar[ToolClass]
    TOOL_CLASS_FILE_READ: _ClassVar[ToolClass]
    TOOL_CLASS_FILE_WRITE: _ClassVar[ToolClass]
    TOOL_CLASS_SEARCH: _ClassVar[ToolClass]
    TOOL_CLASS_WEB: _ClassVar[ToolClass]
    TOOL_CLASS_SUBAGENT: _ClassVar[ToolClass]

class Permission(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PERMISSION_UNSPECIFIED: _ClassVar[Permission]
    PERMISSION_ALLOW: _ClassVar[Permission]
    PERMISSION_ASK: _ClassVar[Permission]
    PERMISSION_DENY: _ClassVar[Permission]
AGENT_UNSPECIFIED: Agent
AGENT_CLAUDE_CODE: Agent
AGENT_CURSOR: Agent
AGENT_CLINE: Agent
AGENT_GEMINI_CLI: Agent
AGENT_CODEX: Agent
AGENT_QWEN_CODE: Agent
AGENT_DROID: Agent
AGENT_COPILOT: Agent
AGENT_HERMES: Agent
AGENT_OPENCODE: Agent
DIALECT_UNSPECIFIED: Dialect
DIALECT_CLAUDE_CODE: Dialect
DIALECT_CURSOR: Dialect
DIALECT_CLINE_SDK: Dialect
DIALECT_CLINE_LEGACY: Dialect
DIALECT_GEMINI_CLI: Dialect
DIALECT_CODEX: Dialect
DIALECT_QWEN_CODE: Dialect
DIALECT_DROID: Dialect
DIALECT_COPILOT_PASCAL: Dialect
DIALECT_COPILOT_CAMEL: Dialect
DIALECT_HERMES: Dialect
DIALECT_OPENCODE: Dialect
EVENT_KIND_OTHER: EventKind
EVENT_KIND_SESSION_START: EventKind
EVENT_KIND_SESSION_END: EventKind
EVENT_KIND_PROMPT_SUBMIT: EventKind
EVENT_KIND_PRE_TOOL_USE: EventKind
EVENT_KIND_POST_TOOL_USE: EventKind
EVENT_KIND_TOOL_FAILURE: EventKind
EVENT_KIND_FILE_READ: EventKind
EVENT_KIND_FILE_EDIT: EventKind
EVENT_KIND_AGENT_RESPONSE: EventKind
EVENT_KIND_AGENT_THOUGHT: EventKind
EVENT_KIND_STOP: EventKind
EVENT_KIND_SUBAGENT_START: EventKind
EVENT_KIND_SUBAGENT_STOP: EventKind
EVENT_KIND_PRE_COMPACT: EventKind
EVENT_KIND_POST_COMPACT: EventKind
EVENT_KIND_NOTIFICATION: EventKind
EVENT_KIND_PERMISSION_REQUEST: EventKind
EVENT_KIND_TASK_ERROR: EventKind
EVENT_KIND_TASK_ABORT: EventKind
EVENT_KIND_TASK_COMPLETE: EventKind
EVENT_KIND_SESSION_RESUME: EventKind
EVENT_KIND_MODEL_REQUEST: EventKind
EVENT_KIND_MODEL_RESPONSE: EventKind
EVENT_KIND_CONFIG_CHANGE: EventKind
TOOL_CLASS_OTHER: ToolClass
TOOL_CLASS_SHELL: ToolClass
TOOL_CLASS_MCP: ToolClass
TOOL_CLASS_FILE_READ: ToolClass
TOOL_CLASS_FILE_WRITE: ToolClass
TOOL_CLASS_SEARCH: ToolClass
TOOL_CLASS_WEB: ToolClass
TOOL_CLASS_SUBAGENT: ToolClass
PERMISSION_UNSPECIFIED: Permission
PERMISSION_ALLOW: Permission
PERMISSION_ASK: Permission
PERMISSION_DENY: Permission

class Capabilities(_message.Message):
    __slots__ = ("deny", "ask", "context", "input_rewrite", "halt", "followup")
    DENY_FIELD_NUMBER: _ClassVar[int]
    ASK_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    INPUT_REWRITE_FIELD_NUMBER: _ClassVar[int]
    HALT_FIELD_NUMBER: _ClassVar[int]
    FOLLOWUP_FIELD_NUMBER: _ClassVar[int]
    deny: bool
    ask: bool
    context: bool
    input_rewrite: bool
    halt: bool
    followup: bool
    def __init__(self, deny: bool = ..., ask: bool = ..., context: bool = ..., input_rewrite: bool = ..., halt: bool = ..., followup: bool = ...) -> None: ...

class Tool(_message.Message):
    __slots__ = ("name", "input_json", "command", "mcp_server", "file_path", "output", "error", "duration_ms", "call_id", "paths", "paths_overflow", "elided_from_raw_json")
    NAME_FIELD_NUMBER: _ClassVar[int]
    CLASS_FIELD_NUMBER: _ClassVar[int]
    INPUT_JSON_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    MCP_SERVER_FIELD_NUMBER: _ClassVar[int]
    FILE_PATH_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    DURATION_MS_FIELD_NUMBER: _ClassVar[int]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    PATHS_FIELD_NUMBER: _ClassVar[int]
    PATHS_OVERFLOW_FIELD_NUMBER: _ClassVar[int]
    ELIDED_FROM_RAW_JSON_FIELD_NUMBER: _ClassVar[int]
    name: str
    input_json: str
    command: str
    mcp_server: str
    file_path: str
    output: str
    error: str
    duration_ms: int
    call_id: str
    paths: _containers.RepeatedScalarFieldContainer[str]
    paths_overflow: bool
    elided_from_raw_json: int
    def __init__(self, name: _Optional[str] = ..., input_json: _Optional[str] = ..., command: _Optional[str] = ..., mcp_server: _Optional[str] = ..., file_path: _Optional[str] = ..., output: _Optional[str] = ..., error: _Optional[str] = ..., duration_ms: _Optional[int] = ..., call_id: _Optional[str] = ..., paths: _Optional[_Iterable[str]] = ..., paths_overflow: bool = ..., elided_from_raw_json: _Optional[int] = ..., **kwargs) -> None: ...

class StopInfo(_message.Message):
    __slots__ = ("status", "loop_count", "continuing")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    LOOP_COUNT_FIELD_NUMBER: _ClassVar[int]
    CONTINUING_FIELD_NUMBER: _ClassVar[int]
    status: str
    loop_count: int
    continuing: bool
    def __init__(self, status: _Optional[str] = ..., loop_count: _Optional[int] = ..., continuing: bool = ...) -> None: ...

class HookEvent(_message.Message):
    __slots__ = ("id", "agent", "agent_version", "native_event", "kind", "blocking", "capabilities", "session_id", "cwd", "workspace_roots", "transcript_path", "model", "tool", "prompt", "text", "stop", "raw_json", "dialect", "reason", "subagent_id", "caller", "shell")
    ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_FIELD_NUMBER: _ClassVar[int]
    AGENT_VERSION_FIELD_NUMBER: _ClassVar[int]
    NATIVE_EVENT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    BLOCKING_FIELD_NUMBER: _ClassVar[int]
    CAPABILITIES_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    CWD_FIELD_NUMBER: _ClassVar[int]
    WORKSPACE_ROOTS_FIELD_NUMBER: _ClassVar[int]
    TRANSCRIPT_PATH_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    TOOL_FIELD_NUMBER: _ClassVar[int]
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    STOP_FIELD_NUMBER: _ClassVar[int]
    RAW_JSON_FIELD_NUMBER: _ClassVar[int]
    DIALECT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    SUBAGENT_ID_FIELD_NUMBER: _ClassVar[int]
    CALLER_FIELD_NUMBER: _ClassVar[int]
    SHELL_FIELD_NUMBER: _ClassVar[int]
    id: str
    agent: Agent
    agent_version: str
    native_event: str
    kind: EventKind
    blocking: bool
    capabilities: Capabilities
    session_id: str
    cwd: str
    workspace_roots: _containers.RepeatedScalarFieldContainer[str]
    transcript_path: str
    model: str
    tool: Tool
    prompt: str
    text: str
    stop: StopInfo
    raw_json: str
    dialect: Dialect
    reason: str
    subagent_id: str
    caller: Caller
    shell: ShellLine
    def __init__(self, id: _Optional[str] = ..., agent: _Optional[_Union[Agent, str]] = ..., agent_version: _Optional[str] = ..., native_event: _Optional[str] = ..., kind: _Optional[_Union[EventKind, str]] = ..., blocking: bool = ..., capabilities: _Optional[_Union[Capabilities, _Mapping]] = ..., session_id: _Optional[str] = ..., cwd: _Optional[str] = ..., workspace_roots: _Optional[_Iterable[str]] = ..., transcript_path: _Optional[str] = ..., model: _Optional[str] = ..., tool: _Optional[_Union[Tool, _Mapping]] = ..., prompt: _Optional[str] = ..., text: _Optional[str] = ..., stop: _Optional[_Union[StopInfo, _Mapping]] = ..., raw_json: _Optional[str] = ..., dialect: _Optional[_Union[Dialect, str]] = ..., reason: _Optional[str] = ..., subagent_id: _Optional[str] = ..., caller: _Optional[_Union[Caller, _Mapping]] = ..., shell: _Optional[_Union[ShellLine, _Mapping]] = ...) -> None: ...

class ShellLine(_message.Message):
    __slots__ = ("commands", "resolved")
    COMMANDS_FIELD_NUMBER: _ClassVar[int]
    RESOLVED_FIELD_NUMBER: _ClassVar[int]
    commands: _containers.RepeatedCompositeFieldContainer[ShellCommand]
    resolved: bool
    def __init__(self, commands: _Optional[_Iterable[_Union[ShellCommand, _Mapping]]] = ..., resolved: bool = ...) -> None: ...

class ShellCommand(_message.Message):
    __slots__ = ("name", "args", "flags", "operands", "cwd")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ARGS_FIELD_NUMBER: _ClassVar[int]
    FLAGS_FIELD_NUMBER: _ClassVar[int]
    OPERANDS_FIELD_NUMBER: _ClassVar[int]
    CWD_FIELD_NUMBER: _ClassVar[int]
    name: str
    args: _containers.RepeatedScalarFieldContainer[str]
    flags: _containers.RepeatedScalarFieldContainer[str]
    operands: _containers.RepeatedScalarFieldContainer[str]
    cwd: str
    def __init__(self, name: _Optional[str] = ..., args: _Optional[_Iterable[str]] = ..., flags: _Optional[_Iterable[str]] = ..., operands: _Optional[_Iterable[str]] = ..., cwd: _Optional[str] = ...) -> None: ...

class Caller(_message.Message):
    __slots__ = ("hostname", "user", "origin", "labels", "gateway_version")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    HOSTNAME_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    ORIGIN_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    GATEWAY_VERSION_FIELD_NUMBER: _ClassVar[int]
    hostname: str
    user: str
    origin: str
    labels: _containers.ScalarMap[str, str]
    gateway_version: str
    def __init__(self, hostname: _Optional[str] = ..., user: _Optional[str] = ..., origin: _Optional[str] = ..., labels: _Optional[_Mapping[str, str]] = ..., gateway_version: _Optional[str] = ...) -> None: ...

class Decision(_message.Message):
    __slots__ = ("permission", "reason", "agent_message", "additional_context", "updated_input_json", "halt", "followup_message")
    PERMISSION_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    AGENT_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    ADDITIONAL_CONTEXT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_INPUT_JSON_FIELD_NUMBER: _ClassVar[int]
    HALT_FIELD_NUMBER: _ClassVar[int]
    FOLLOWUP_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    permission: Permission
    reason: str
    agent_message: str
    additional_context: str
    updated_input_json: str
    halt: bool
    followup_message: str
    def __init__(self, permission: _Optional[_Union[Permission, str]] = ..., reason: _Optional[str] = ..., agent_message: _Optional[str] = ..., additional_context: _Optional[str] = ..., updated_input_json: _Optional[str] = ..., halt: bool = ..., followup_message: _Optional[str] = ...) -> None: ...

class EvalRequest(_message.Message):
    __slots__ = ("payload", "args", "cwd")
    PAYLOAD_FIELD_NUMBER: _ClassVar[int]
    ARGS_FIELD_NUMBER: _ClassVar[int]
    CWD_FIELD_NUMBER: _ClassVar[int]
    payload: bytes
    args: _containers.RepeatedScalarFieldContainer[str]
    cwd: str
    def __init__(self, payload: _Optional[bytes] = ..., args: _Optional[_Iterable[str]] = ..., cwd: _Optional[str] = ...) -> None: ...

class EvalReply(_message.Message):
    __slots__ = ("outcome_json",)
    OUTCOME_JSON_FIELD_NUMBER: _ClassVar[int]
    outcome_json: str
    def __init__(self, outcome_json: _Optional[str] = ...) -> None: ...

class ApprovalsRequest(_message.Message):
    __slots__ = ("action", "id", "reason", "approver", "channel", "scope")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    APPROVER_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    action: str
    id: int
    reason: str
    approver: str
    channel: str
    scope: str
    def __init__(self, action: _Optional[str] = ..., id: _Optional[int] = ..., reason: _Optional[str] = ..., approver: _Optional[str] = ..., channel: _Optional[str] = ..., scope: _Optional[str] = ...) -> None: ...

class ApprovalsReply(_message.Message):
    __slots__ = ("held_json",)
    HELD_JSON_FIELD_NUMBER: _ClassVar[int]
    held_json: str
    def __init__(self, held_json: _Optional[str] = ...) -> None: ...

class ReloadRequest(_message.Message):
    __slots__ = ("allow_weaker",)
    ALLOW_WEAKER_FIELD_NUMBER: _ClassVar[int]
    allow_weaker: bool
    def __init__(self, allow_weaker: bool = ...) -> None: ...

class ReloadReply(_message.Message):
    __slots__ = ("result", "generation", "error")
    RESULT_FIELD_NUMBER: _ClassVar[int]
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    result: str
    generation: int
    error: str
    def __init__(self, result: _Optional[str] = ..., generation: _Optional[int] = ..., error: _Optional[str] = ...) -> None: ...

class StatusRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class StatusReply(_message.Message):
    __slots__ = ("version", "uptime_secs", "pid", "socket", "config", "status_json")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    UPTIME_SECS_FIELD_NUMBER: _ClassVar[int]
    PID_FIELD_NUMBER: _ClassVar[int]
    SOCKET_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    STATUS_JSON_FIELD_NUMBER: _ClassVar[int]
    version: str
    uptime_secs: int
    pid: int
    socket: str
    config: str
    status_json: str
    def __init__(self, version: _Optional[str] = ..., uptime_secs: _Optional[int] = ..., pid: _Optional[int] = ..., socket: _Optional[str] = ..., config: _Optional[str] = ..., status_json: _Optional[str] = ...) -> None: ...
