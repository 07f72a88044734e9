// hookgate: installed by `gateway install`; `gateway uninstall` removes it.
//
// hookgate's OpenCode plugin (docs/agents.md, "OpenCode"). It forwards
// OpenCode's hook calls to the gateway through `gateway-shim opencode` (the
// same deadline, trust and fail-open/fail-closed logic as every other
// agent) and applies the reply: a deny throws with its reason, an input
// rewrite replaces the tool's arguments, context reaches the model. It
// imports nothing from npm, so OpenCode fetches nothing for it at start.
//
// Two parts: the forwarding core (`forward`), which knows nothing of
// OpenCode's plugin API, and the registration for OpenCode 1.x's API
// (`HookgateV1`). An OpenCode 2.x build adds only a registration.
import { spawn } from "node:child_process";

// The hook command `gateway install` writes for every agent (the shim by
// its absolute path, the pinned socket, autostart), run through /bin/sh
// like any agent runs a hook command. Set by install.
const COMMAND = "@COMMAND_LINE@";
// The hook names forwarded; null: every one this plugin knows (what
// install writes).
const EVENTS = null;
// Upper bounds: the shim answers within its own deadline; these only stop a
// wedged child from wedging OpenCode.
const WAIT_MS = 120000;
const MAX_REPLY_BYTES = 1048576;
const MAX_FIELD_CHARS = 65536;
const MAX_CONTEXT_ENTRIES = 16;

// What to do when the shim itself cannot run (it applies the fail mode
// itself whenever it runs), read as the shim reads it: the command's last
// `--fail-closed` or `--fail-open`, else `HOOKGATE_FAIL` in any case.
const failClosed = () => {
  const flags = COMMAND.split(/\s+/).filter((w) => w === "--fail-closed" || w === "--fail-open");
  if (flags.length > 0) return flags[flags.length - 1] === "--fail-closed";
  return String(process.env.HOOKGATE_FAIL || "").trim().toLowerCase() === "closed";
};

// --- forwarding core -------------------------------------------------------

/** Runs the shim with `doc` on stdin; resolves to {code, stdout, stderr},
 *  or to {error} when no reply could be had. Never rejects. */
function runShim(doc) {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn("/bin/sh", ["-c", COMMAND], { stdio: ["pipe", "pipe", "pipe"] });
    } catch (err) {
      resolve({ error: `cannot start the shim: ${err && err.message}` });
      return;
    }
    const out = [];
    const err = [];
    let size = 0;
    let done = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish({ error: `the shim gave no answer within ${WAIT_MS} ms` });
    }, WAIT_MS);
    const collect = (into) => (chunk) => {
      size += chunk.length;
      if (size > MAX_REPLY_BYTES) {
        child.kill("SIGKILL");
        finish({ error: `the shim replied more than ${MAX_REPLY_BYTES} bytes` });
        return;
      }
      into.push(chunk);
    };
    child.stdout.on("data", collect(out));
    child.stderr.on("data", collect(err));
    child.on("error", (e) => finish({ error: `cannot run the shim: ${e && e.message}` }));
    child.on("close", (code) =>
      finish({
        code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(doc));
  });
}

/** The reply in Claude Code's hook protocol, read as what to do:
 *  {block, reason, input, context}. */
function readReply(result, blockable) {
  if (result.error !== undefined) {
    return failClosed() && blockable
      ? { block: true, reason: `hookgate: ${result.error} (fail-closed)` }
      : {};
  }
  // The shim exits 0 or 2; anything else is the command failing to run it
  // (127: no shim at that path).
  if (result.code !== 0 && result.code !== 2) {
    const why = result.stderr.trim().split("\n").pop() || `exit ${result.code}`;
    return readReply({ error: `the shim did not run (${why})` }, blockable);
  }
  if (result.code === 2) {
    return blockable ? { block: true, reason: result.stderr.trim() || "blocked by hookgate" } : {};
  }
  if (result.stdout.trim() === "") return {};
  // The shim writes only replies it could render: anything else is a
  // broken shim, answered like one that did not run.
  let json;
  try {
    json = JSON.parse(result.stdout);
  } catch {
    json = undefined;
  }
  if (json === null || typeof json !== "object") {
    return readReply({ error: "the shim's reply is not a JSON object" }, blockable);
  }
  const specific = json.hookSpecificOutput || {};
  const reply = {};
  // OpenCode cannot ask the user: an ask blocks, as hookgate renders it.
  const refused = ["deny", "ask"].includes(specific.permissionDecision);
  if (refused || json.decision === "block") {
    reply.block = blockable;
    reply.reason = specific.permissionDecisionReason || json.reason || "blocked by hookgate";
  }
  if (specific.updatedInput && typeof specific.updatedInput === "object") {
    reply.input = specific.updatedInput;
  }
  if (typeof specific.additionalContext === "string" && specific.additionalContext !== "") {
    reply.context = specific.additionalContext;
  }
  if (reply.reason !== undefined && !reply.block) {
    // A deny after the fact (the tool already ran) is feedback for the model.
    reply.context = [reply.context, reply.reason].filter(Boolean).join("\n");
  }
  return reply;
}

const clip = (text) =>
  typeof text === "string" && text.length > MAX_FIELD_CHARS ? text.slice(0, MAX_FIELD_CHARS) : text;

/** Sends one event document; resolves to what to do (nothing for an
 *  event not forwarded). */
async function forward(doc, blockable) {
  if (EVENTS !== null && !EVENTS.includes(doc.hook_event_name)) return {};
  return readReply(await runShim(doc), blockable);
}

// --- OpenCode 1.x registration ---------------------------------------------

/** The plugin OpenCode 1.x loads from `plugin/` (every export is called
 *  with the plugin context and returns the hooks). */
export const HookgateV1 = async (ctx) => {
  const cwd = ctx.directory;
  const base = (event, sessionID) => ({ hook_event_name: event, session_id: sessionID, cwd });
  // Context for the model: per session (system prompt), per tool call
  // (appended to the tool's result).
  const sessionContext = new Map();
  const callContext = new Map();
  const pending = new Map();
  const addSessionContext = (sessionID, text) => {
    if (!text) return;
    const list = sessionContext.get(sessionID) || [];
    list.push(text);
    sessionContext.set(sessionID, list.slice(-MAX_CONTEXT_ENTRIES));
  };

  // A tool call's payload, before or after it runs.
  const toolCall = (event, input, args) => ({
    ...base(event, input.sessionID),
    tool_name: input.tool,
    tool_input: args,
    tool_use_id: input.callID,
  });

  return {
    "tool.execute.before": async (input, output) => {
      const reply = await forward(toolCall("tool.execute.before", input, output.args), true);
      if (reply.block) throw new Error(reply.reason);
      if (reply.input) {
        // OpenCode runs the tool with this very object: replace its fields.
        for (const key of Object.keys(output.args)) delete output.args[key];
        Object.assign(output.args, reply.input);
      }
      if (reply.context) callContext.set(input.callID, reply.context);
    },
    "tool.execute.after": async (input, output) => {
      const reply = await forward(
        {
          ...toolCall("tool.execute.after", input, input.args),
          tool_response: { title: output.title, output: clip(output.output) },
        },
        false,
      );
      const context = [callContext.get(input.callID), reply.context].filter(Boolean);
      callContext.delete(input.callID);
      if (context.length > 0 && typeof output.output === "string") {
        output.output = [output.output, ...context].join("\n\n");
      }
    },
    "chat.message": async (input, output) => {
      const prompt = (output.parts || [])
        .filter((part) => part.type === "text" && !part.synthetic)
        .map((part) => part.text)
        .join("\n");
      await pending.get(input.sessionID);
      const reply = await forward(
        { ...base("chat.message", input.sessionID), prompt: clip(prompt) },
        true,
      );
      if (reply.block) throw new Error(reply.reason);
      addSessionContext(input.sessionID, reply.context);
    },
    "experimental.chat.system.transform": async (input, output) => {
      await pending.get(input.sessionID);
      for (const text of sessionContext.get(input.sessionID) || []) output.system.push(text);
    },
    event: async ({ event }) => {
      if (event.type !== "session.created" && event.type !== "session.idle") return;
      const sessionID = event.properties && event.properties.sessionID;
      if (typeof sessionID !== "string") return;
      // OpenCode does not wait for `event`: the model request waits for
      // what session.created adds instead.
      const sent = forward(base(event.type, sessionID), false).then((reply) =>
        addSessionContext(sessionID, reply.context),
      );
      if (event.type === "session.created") pending.set(sessionID, sent);
      await sent;
    },
  };
};
