// Types of the `hookgate` package (its code is plain ESM JavaScript in src/).

/** The coding agents, as the gateway's config names them. */
export type Agent =
  | 'claude-code' | 'cursor' | 'cline' | 'gemini-cli' | 'codex' | 'qwen-code' | 'droid' | 'copilot'
  | 'hermes' | 'opencode'
  | 'unspecified';

/** The canonical event kinds, as the gateway's config names them. */
export type Kind = 'session_start' | 'session_resume' | 'session_end' | 'prompt_submit' | 'pre_tool_use' | 'post_tool_use' | 'tool_failure' | 'file_read' | 'file_edit' | 'agent_response' | 'agent_thought' | 'stop' | 'subagent_start' | 'subagent_stop' | 'pre_compact' | 'post_compact' | 'notification' | 'permission_request' | 'task_error' | 'task_abort' | 'task_complete' | 'model_request' | 'model_response' | 'config_change' | 'other';

/** The broad class of a tool. */
export type ToolClass = 'other' | 'shell' | 'mcp' | 'file_read' | 'file_write' | 'search' | 'web' | 'subagent';

export declare const AGENTS: readonly Agent[];
export declare const KINDS: readonly Kind[];

/** Which answers the agent can act on for this event. */
export interface Capabilities {
  readonly deny: boolean;
  readonly ask: boolean;
  readonly context: boolean;
  readonly inputRewrite: boolean;
  readonly halt: boolean;
  readonly followup: boolean;
}

/** One simple command of a shell line, as hookgate's guard parsed it:
 * wrappers (`sudo`, `env`, `xargs`, `sh -c '…'`) unwrapped, quotes removed,
 * `~` and literal variables expanded; a part that cannot be known
 * statically is U+FFFD. */
export interface Command {
  readonly name: string;
  readonly args: readonly string[];
  readonly flags: readonly string[];
  readonly operands: readonly string[];
  readonly cwd?: string;
}

/** The tool a tool event is about. */
export declare class Tool {
  readonly name: string;
  readonly toolClass: ToolClass;
  readonly inputJson: string;
  readonly command?: string;
  readonly mcpServer?: string;
  readonly filePath?: string;
  readonly output?: string;
  readonly error?: string;
  readonly durationMs?: number;
  readonly callId?: string;
  /** The tool's input, parsed (undefined when it is not JSON). */
  get input(): any;
  /** The file paths the tool names (file tools). */
  get paths(): string[];
}

/** The machine and user the gateway runs for: a label, not a proof. */
export interface Caller {
  readonly hostname?: string;
  readonly user?: string;
  readonly origin?: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly gatewayVersion: string;
}

/** Stop / subagent-stop details. */
export interface Stop {
  readonly status?: string;
  readonly loopCount?: number;
  readonly continuing: boolean;
}

/** One hook event, the same shape whatever agent raised it. */
export declare class Event {
  constructor(message: object, deadline?: number);
  readonly id: string;
  readonly agent: Agent;
  /** `claude-code`, `cline-sdk`, `copilot-camel`, ... */
  readonly dialect: string;
  readonly kind: Kind;
  readonly nativeEvent: string;
  readonly agentVersion?: string;
  readonly blocking: boolean;
  readonly capabilities: Capabilities;
  readonly sessionId?: string;
  readonly cwd?: string;
  readonly workspaceRoots: readonly string[];
  readonly transcriptPath?: string;
  readonly model?: string;
  readonly tool?: Tool;
  readonly prompt?: string;
  readonly text?: string;
  readonly stop?: Stop;
  readonly reason?: string;
  readonly subagentId?: string;
  readonly caller: Caller;
  /** A shell tool's simple commands, as hookgate's guard parsed them. */
  readonly commands: readonly Command[];
  /** The guard read the whole line (parsed cleanly, every word known). */
  readonly commandsResolved: boolean;
  readonly rawJson: string;
  /** When the gateway stops waiting, in `Date.now()` milliseconds. */
  readonly deadline?: number;
  /** A shell tool's command line, as the agent sent it. */
  get command(): string | undefined;
  /** The file paths a file tool names. */
  get paths(): string[];
  /** Milliseconds until the gateway stops waiting. */
  timeLeft(): number | undefined;
  /** Does the shell line run `name` with all of `operands` among its operands? */
  runs(name: string, ...operands: string[]): boolean;
}

export interface DecisionParts {
  permission?: 'allow' | 'ask' | 'deny';
  reason?: string;
  agentMessage?: string;
  context?: string;
  updatedInput?: Record<string, unknown>;
  halt?: boolean;
  followup?: string;
}

/** A subscriber's answer; every part is optional. */
export declare class Decision {
  constructor(parts?: DecisionParts);
  readonly permission?: 'allow' | 'ask' | 'deny';
  readonly reason: string;
  readonly agentMessage: string;
  readonly context: string;
  readonly updatedInput?: Record<string, unknown>;
  readonly halt: boolean;
  readonly followup: string;
  withContext(text: string): Decision;
  withAgentMessage(text: string): Decision;
  toProto(): object;
}

export declare function allow(reason?: string): Decision;
export declare function deny(reason: string, agentMessage?: string): Decision;
export declare function ask(reason: string): Decision;
export declare function context(text: string): Decision;
export declare function rewrite(input: Record<string, unknown>): Decision;
export declare function halt(reason: string): Decision;
export declare function followup(text: string): Decision;
export declare function none(): Decision;

/** A handler: a Decision, or undefined for no opinion (or a promise of either). */
export type Handler = (event: Event) => Decision | undefined | null | void | Promise<Decision | undefined | null | void>;

export interface ServeOptions {
  /** Serve TLS; with `clientCaFile`, require a client certificate it issued (mTLS). */
  tls?: { certFile: string; keyFile: string; clientCaFile?: string };
  /** Every OnEvent call must carry `authorization: Bearer <token>` (one of them). */
  token?: string | string[];
  /** Milliseconds calls in flight get at a stop (default 5000). */
  graceMs?: number;
}

export interface Stats {
  calls: number;
  late: number;
  unauthenticated: number;
  errors: [string, string][];
}

/** One running subscriber service. */
export declare class Server {
  constructor(app: Subscriber, address: string, options?: ServeOptions);
  readonly stats: Stats;
  /** Resolves once the server has stopped. */
  readonly stopped: Promise<void>;
  /** `127.0.0.1:41234` or `unix:/abs/path`. */
  get address(): string;
  /** The gateway config's `endpoint` for this server. */
  get endpoint(): string;
  start(): Promise<Server>;
  stopOnSignals(): void;
  stop(): Promise<void>;
}

/** A handler per canonical event kind, and a catch-all. */
export declare class Subscriber {
  on(kind: Kind, handler: Handler): this;
  /** Handles every event no handler of its kind takes. */
  onEvent(handler: Handler): this;
  /** Handles `session_start` events. */
  onSessionStart(handler: Handler): this;
  /** Handles `session_resume` events. */
  onSessionResume(handler: Handler): this;
  /** Handles `session_end` events. */
  onSessionEnd(handler: Handler): this;
  /** Handles `prompt_submit` events. */
  onPromptSubmit(handler: Handler): this;
  /** Handles `pre_tool_use` events. */
  onPreToolUse(handler: Handler): this;
  /** Handles `post_tool_use` events. */
  onPostToolUse(handler: Handler): this;
  /** Handles `tool_failure` events. */
  onToolFailure(handler: Handler): this;
  /** Handles `file_read` events. */
  onFileRead(handler: Handler): this;
  /** Handles `file_edit` events. */
  onFileEdit(handler: Handler): this;
  /** Handles `agent_response` events. */
  onAgentResponse(handler: Handler): this;
  /** Handles `agent_thought` events. */
  onAgentThought(handler: Handler): this;
  /** Handles `stop` events. */
  onStop(handler: Handler): this;
  /** Handles `subagent_start` events. */
  onSubagentStart(handler: Handler): this;
  /** Handles `subagent_stop` events. */
  onSubagentStop(handler: Handler): this;
  /** Handles `pre_compact` events. */
  onPreCompact(handler: Handler): this;
  /** Handles `post_compact` events. */
  onPostCompact(handler: Handler): this;
  /** Handles `notification` events. */
  onNotification(handler: Handler): this;
  /** Handles `permission_request` events. */
  onPermissionRequest(handler: Handler): this;
  /** Handles `task_error` events. */
  onTaskError(handler: Handler): this;
  /** Handles `task_abort` events. */
  onTaskAbort(handler: Handler): this;
  /** Handles `task_complete` events. */
  onTaskComplete(handler: Handler): this;
  /** Handles `model_request` events. */
  onModelRequest(handler: Handler): this;
  /** Handles `model_response` events. */
  onModelResponse(handler: Handler): this;
  /** Handles `config_change` events. */
  onConfigChange(handler: Handler): this;
  /** Handles `other` events. */
  onOther(handler: Handler): this;
  handlerFor(kind: Kind): Handler | undefined;
  decide(event: Event): Promise<Decision>;
  /** Serves on `host:port` or `unix:path` until SIGTERM or SIGINT, then stops gracefully. */
  serve(address: string, options?: ServeOptions): Promise<void>;
  /** Starts serving and returns the running Server. */
  start(address: string, options?: ServeOptions): Promise<Server>;
}

export declare const MAX_RECEIVE_BYTES: number;
export declare const MAX_SEND_BYTES: number;
export declare const DEFAULT_DEADLINE_MS: number;
