// The typed event a handler receives: one hook call of any agent, in the
// gateway's canonical form (hookgate.v1.HookEvent), with the shell
// commands as hookgate's guard parsed them.

/** The agents' names, as the gateway's config spells them. */
export const AGENTS = ['claude-code', 'cursor', 'cline', 'gemini-cli', 'codex', 'qwen-code', 'droid', 'copilot', 'hermes', 'opencode'];

/** The canonical event kinds, as the gateway's config spells them. */
export const KINDS = [
  'session_start', 'session_resume', 'session_end', 'prompt_submit', 'pre_tool_use', 'post_tool_use',
  'tool_failure', 'file_read', 'file_edit', 'agent_response', 'agent_thought', 'stop', 'subagent_start',
  'subagent_stop', 'pre_compact', 'post_compact', 'notification', 'permission_request', 'task_error',
  'task_abort', 'task_complete', 'model_request', 'model_response', 'config_change', 'other',
];

/** `AGENT_CLAUDE_CODE` → `claude-code`; an unknown value (a newer
 * gateway's) → `fallback`. */
function named(value, prefix, known, fallback, dash = false) {
  if (typeof value !== 'string' || !value.startsWith(prefix)) return fallback;
  let name = value.slice(prefix.length).toLowerCase();
  if (dash) name = name.replaceAll('_', '-');
  return known === undefined || known.includes(name) ? name : fallback;
}

const TOOL_CLASSES = ['other', 'shell', 'mcp', 'file_read', 'file_write', 'search', 'web', 'subagent'];

/** The tool a tool event is about. */
export class Tool {
  constructor(t) {
    this.name = t.name ?? '';
    this.toolClass = named(t.class, 'TOOL_CLASS_', TOOL_CLASSES, 'other');
    this.inputJson = t.input_json ?? '';
    this.command = t.command;
    this.mcpServer = t.mcp_server;
    this.filePath = t.file_path;
    this.output = t.output;
    this.error = t.error;
    this.durationMs = t.duration_ms;
    this.callId = t.call_id;
    Object.freeze(this);
  }

  /** The tool's input, parsed (an object for most tools; undefined when it
   * is not JSON). */
  get input() {
    try {
      return this.inputJson ? JSON.parse(this.inputJson) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The file paths the tool names (file tools). */
  get paths() {
    return this.filePath ? [this.filePath] : [];
  }
}

/** One hook event, the same shape whatever agent raised it. */
export class Event {
  /** The typed form of a `hookgate.v1.HookEvent` message; `deadline` is
   * when the gateway stops waiting, in `Date.now()` milliseconds. */
  constructor(m, deadline) {
    const caps = m.capabilities ?? {};
    const caller = m.caller ?? {};
    this.id = m.id ?? '';
    this.agent = named(m.agent, 'AGENT_', AGENTS, 'unspecified', true);
    this.dialect = named(m.dialect, 'DIALECT_', undefined, 'unspecified', true);
    this.kind = named(m.kind, 'EVENT_KIND_', KINDS, 'other');
    this.nativeEvent = m.native_event ?? '';
    this.agentVersion = m.agent_version;
    this.blocking = m.blocking ?? false;
    this.capabilities = Object.freeze({
      deny: caps.deny ?? false,
      ask: caps.ask ?? false,
      context: caps.context ?? false,
      inputRewrite: caps.input_rewrite ?? false,
      halt: caps.halt ?? false,
      followup: caps.followup ?? false,
    });
    this.sessionId = m.session_id;
    this.cwd = m.cwd;
    this.workspaceRoots = m.workspace_roots ?? [];
    this.transcriptPath = m.transcript_path;
    this.model = m.model;
    this.tool = m.tool ? new Tool(m.tool) : undefined;
    this.prompt = m.prompt;
    this.text = m.text;
    this.stop = m.stop
      ? Object.freeze({ status: m.stop.status, loopCount: m.stop.loop_count, continuing: m.stop.continuing ?? false })
      : undefined;
    this.reason = m.reason;
    this.subagentId = m.subagent_id;
    this.caller = Object.freeze({
      hostname: caller.hostname,
      user: caller.user,
      origin: caller.origin,
      labels: { ...(caller.labels ?? {}) },
      gatewayVersion: caller.gateway_version ?? '',
    });
    this.commands = (m.shell?.commands ?? []).map((c) =>
      Object.freeze({
        name: c.name ?? '',
        args: c.args ?? [],
        flags: c.flags ?? [],
        operands: c.operands ?? [],
        cwd: c.cwd,
      }),
    );
    this.commandsResolved = m.shell?.resolved ?? false;
    this.rawJson = m.raw_json ?? '';
    this.deadline = deadline;
    Object.freeze(this);
  }

  /** A shell tool's command line, as the agent sent it. */
  get command() {
    return this.tool?.command;
  }

  /** The file paths a file tool names. */
  get paths() {
    return this.tool?.paths ?? [];
  }

  /** Milliseconds until the gateway stops waiting (undefined: no deadline). */
  timeLeft() {
    return this.deadline === undefined ? undefined : Math.max(0, this.deadline - Date.now());
  }

  /** Does the shell line run `name` with all of `operands` among its
   * operands (`event.runs('terraform', 'destroy')`)? */
  runs(name, ...operands) {
    return this.commands.some((c) => c.name === name && operands.every((o) => c.operands.includes(o)));
  }
}
