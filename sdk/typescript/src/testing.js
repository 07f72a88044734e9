// The test kit: a subscriber tested without an agent.
//
// `await Kit.start(app)` serves `app` on a private Unix socket, starts a
// real `gateway` whose only subscriber it is, and runs the real
// `gateway-shim` the way an agent runs its hook, so
// `await kit.shell('claude-code', 'terraform destroy')` is exactly what
// Claude Code would receive (stdout, stderr, exit code). `samples()` lists
// every agent's sample payloads from the hookgate repository
// (adapters/test_data), each of which `kit.run(sample)` sends.
//
// Where things are: the binaries from HOOKGATE_GATEWAY_BIN and
// HOOKGATE_SHIM_BIN, else target/debug/ (or $CARGO_TARGET_DIR/debug/) of
// the repository; the repository from HOOKGATE_REPO, else the first parent
// of the working directory holding adapters/test_data.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { Subscriber } from './subscriber.js';

/** How long the gateway waits for the subscriber, in the kit's config. */
export const SUBSCRIBER_TIMEOUT_MS = 10_000;
/** The shim's own deadline (generous: a kit tests answers, not speed). */
export const SHIM_TIMEOUT_MS = 20_000;
const READY_MS = 15_000;

export class KitError extends Error {}

/** What the agent receives from its hook command. */
export class Reply {
  constructor(exitCode, stdout, stderr) {
    this.exitCode = exitCode;
    this.stdout = stdout;
    this.stderr = stderr;
    Object.freeze(this);
  }

  /** Stdout as JSON (undefined when empty). */
  json() {
    return this.stdout.trim() ? JSON.parse(this.stdout) : undefined;
  }

  /** Does the agent receive `text` anywhere (stdout, stderr, or a string
   * inside stdout's JSON)? */
  says(text) {
    if (this.stdout.includes(text) || this.stderr.includes(text)) return true;
    try {
      return strings(this.json()).some((s) => s.includes(text));
    } catch {
      return false;
    }
  }
}

function strings(value) {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** The hookgate repository the kit takes samples (and by default
 * binaries) from. */
export function repository() {
  if (process.env.HOOKGATE_REPO) return process.env.HOOKGATE_REPO;
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'adapters', 'test_data'))) return dir;
    if (path.dirname(dir) === dir) break;
  }
  throw new KitError(
    'no hookgate repository above the working directory: set HOOKGATE_REPO to a checkout ' +
      '(the kit reads adapters/test_data and target/debug there)',
  );
}

/** The `gateway` and `gateway-shim` binaries the kit runs. */
export function binaries() {
  let found;
  if (process.env.HOOKGATE_GATEWAY_BIN && process.env.HOOKGATE_SHIM_BIN) {
    found = { gateway: process.env.HOOKGATE_GATEWAY_BIN, shim: process.env.HOOKGATE_SHIM_BIN };
  } else {
    const target = process.env.CARGO_TARGET_DIR || path.join(repository(), 'target');
    found = { gateway: path.join(target, 'debug', 'gateway'), shim: path.join(target, 'debug', 'gateway-shim') };
  }
  for (const file of Object.values(found)) {
    try {
      fs.accessSync(file, fs.constants.X_OK);
    } catch {
      throw new KitError(
        `${file} is not an executable: run \`cargo build --workspace\` in the repository, ` +
          'or set HOOKGATE_GATEWAY_BIN and HOOKGATE_SHIM_BIN',
      );
    }
  }
  return found;
}

function table() {
  return JSON.parse(fs.readFileSync(path.join(repository(), 'adapters', 'test_data', 'shell-calls.json'), 'utf8'));
}

/** Every sample payload of every agent (or of one sample directory), sorted. */
export function samples(directory) {
  const root = path.join(repository(), 'adapters', 'test_data');
  const args = table().samples;
  const out = [];
  for (const dir of Object.keys(args).sort()) {
    if (directory !== undefined && dir !== directory) continue;
    for (const file of fs.readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.json')).sort()) {
      const name = file.slice(0, -'.json'.length);
      const event = name.split('.')[0];
      out.push(
        Object.freeze({
          directory: dir,
          name,
          path: `${dir}/${file}`,
          payload: fs.readFileSync(path.join(root, dir, file)),
          args: args[dir].map((a) => a.replaceAll('{event}', event)),
        }),
      );
    }
  }
  if (directory !== undefined && out.length === 0) {
    throw new KitError(`no samples for ${JSON.stringify(directory)}; directories: ${Object.keys(args).sort().join(', ')}`);
  }
  return out;
}

/** One sample: `'claude-code/PreToolUse'`. */
export function sample(name) {
  const [directory, file] = [name.slice(0, name.indexOf('/')), name.slice(name.indexOf('/') + 1)];
  const found = samples(directory).find((s) => s.name === file);
  if (!found) throw new KitError(`no sample ${JSON.stringify(name)}`);
  return found;
}

/** The dialects `shellCall` knows (every agent's, and Cline's legacy hooks
 * as `cline-legacy`). */
export function shellDialects() {
  return Object.keys(table().shell).sort();
}

/** The pre-tool sample of `dialect` made to run `command` in the agent's
 * shell tool. */
export function shellCall(dialect, command) {
  const entry = table().shell[dialect];
  if (!entry) throw new KitError(`no shell call for ${JSON.stringify(dialect)}; dialects: ${shellDialects().join(', ')}`);
  const base = sample(entry.sample.slice(0, -'.json'.length));
  const payload = JSON.parse(base.payload.toString('utf8'));
  for (const [pointer, value] of Object.entries(entry.set)) {
    const keys = pointer.replace(/^\//, '').split('/');
    let doc = payload;
    for (const key of keys.slice(0, -1)) doc = doc[key] ??= {};
    doc[keys.at(-1)] = fill(value, command);
  }
  return Object.freeze({ ...base, payload: Buffer.from(JSON.stringify(payload)) });
}

function fill(value, command) {
  if (value === '{command}') return command;
  if (value === '{commands_json}') return JSON.stringify([command]);
  if (Array.isArray(value)) return value.map((v) => fill(v, command));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, command)]));
  return value;
}

/** `app` behind a real gateway; see the module's header. */
export class Kit {
  /** Every event the handlers received, in order. */
  events = [];
  /** What the handlers answered, in order. */
  decisions = [];
  #dir;
  #server;
  #gateway;
  #bins;

  /** Serves `app` and starts a gateway in front of it; `token`: a bearer
   * token the gateway sends and the server requires. */
  static async start(app, options = {}) {
    const kit = new Kit();
    await kit.#start(app, undefined, options);
    return kit;
  }

  /** A gateway in front of a subscriber served elsewhere (`endpoint` as the
   * gateway's config spells it: `unix:///path`, `http://host:port`), whose
   * events the kit does not see. */
  static async front(endpoint, options = {}) {
    const kit = new Kit();
    await kit.#start(undefined, endpoint, options);
    return kit;
  }

  async #start(app, endpoint, { token } = {}) {
    this.#bins = binaries();
    // A short private directory: Unix socket paths are limited to ~100 bytes.
    this.#dir = fs.mkdtempSync('/tmp/hgkit-');
    fs.chmodSync(this.#dir, 0o700);
    if (app !== undefined) {
      const recording = new Subscriber().onEvent(async (event) => {
        this.events.push(event);
        const decision = await app.decide(event);
        this.decisions.push(decision);
        return decision;
      });
      this.#server = await recording.start(`unix:${path.join(this.#dir, 'subscriber.sock')}`, { token });
      endpoint = this.#server.endpoint;
    }
    const config = path.join(this.#dir, 'gateway.toml');
    fs.writeFileSync(
      config,
      '# Written by the hookgate test kit.\n[[subscriber]]\n' +
        `name = "kit"\nendpoint = ${JSON.stringify(endpoint)}\nmode = "decide"\n` +
        `timeout_ms = ${SUBSCRIBER_TIMEOUT_MS}\non_error = "allow"\n` +
        (token !== undefined ? 'token_env = "HOOKGATE_KIT_TOKEN"\n' : ''),
    );
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? this.#dir,
      XDG_CONFIG_HOME: this.#dir,
      XDG_STATE_HOME: path.join(this.#dir, 'state'),
      HOOKGATE_SYSTEM_CONFIG: path.join(this.#dir, 'system.toml'),
      RUST_LOG: 'info',
      ...(token !== undefined ? { HOOKGATE_KIT_TOKEN: token } : {}),
    };
    const stderr = fs.openSync(path.join(this.#dir, 'gateway.stderr'), 'w');
    this.#gateway = spawn(this.#bins.gateway, ['serve', '--socket', this.socket, '--config', config], {
      stdio: ['ignore', 'ignore', stderr],
      env,
    });
    fs.closeSync(stderr);
    let exited = false;
    this.#gateway.once('exit', () => {
      exited = true;
    });
    const deadline = Date.now() + READY_MS;
    while (!((await accepts(this.socket)) && (await accepts(`${this.socket}.admin`)))) {
      if (exited) throw new KitError(`the gateway exited before listening:\n${this.gatewayLog}`);
      if (Date.now() > deadline) throw new KitError(`the gateway did not listen within ${READY_MS} ms:\n${this.gatewayLog}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The gateway's hook socket. */
  get socket() {
    return path.join(this.#dir, 'gateway.sock');
  }

  /** What the gateway wrote to stderr so far. */
  get gatewayLog() {
    try {
      return fs.readFileSync(path.join(this.#dir, 'gateway.stderr'), 'utf8');
    } catch {
      return '';
    }
  }

  async stop() {
    const gateway = this.#gateway;
    if (gateway && gateway.exitCode === null && gateway.signalCode === null) {
      const exited = new Promise((resolve) => gateway.once('exit', resolve));
      gateway.kill('SIGTERM');
      const killer = setTimeout(() => gateway.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    await this.#server?.stop();
    if (this.#dir) fs.rmSync(this.#dir, { recursive: true, force: true });
  }

  /** Runs the shim as the agent would: a sample, or shim arguments
   * (`'claude-code'`, `'copilot preToolUse'`) with a payload. */
  async run(call, payload) {
    let args;
    let body;
    if (typeof call === 'object') {
      args = call.args;
      body = call.payload;
    } else {
      if (payload === undefined) throw new KitError('run(args, payload): the payload is missing');
      args = call.split(/\s+/).filter(Boolean);
      body = Buffer.isBuffer(payload) ? payload : Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload));
    }
    const errors = this.#server?.stats.errors ?? [];
    const errorsBefore = errors.length;
    const reply = await new Promise((resolve, reject) => {
      const shim = spawn(this.#bins.shim, args, {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOOKGATE_SOCKET: this.socket, HOOKGATE_TIMEOUT_MS: String(SHIM_TIMEOUT_MS) },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const out = [];
      const err = [];
      const killer = setTimeout(() => shim.kill('SIGKILL'), SHIM_TIMEOUT_MS + 30_000);
      shim.stdout.on('data', (d) => out.push(d));
      shim.stderr.on('data', (d) => err.push(d));
      shim.stdin.on('error', () => {}); // the shim may answer before reading it all
      shim.once('error', reject);
      shim.once('close', (code) => {
        clearTimeout(killer);
        resolve(new Reply(code, Buffer.concat(out).toString('utf8'), Buffer.concat(err).toString('utf8')));
      });
      shim.stdin.end(body);
    });
    if (errors.length > errorsBefore) {
      const [id, error] = errors.at(-1);
      throw new KitError(`the handler threw on event ${id}: ${error}`);
    }
    return reply;
  }

  /** What `dialect`'s agent receives when its shell tool is about to run `command`. */
  shell(dialect, command) {
    return this.run(shellCall(dialect, command));
  }

  /** What the agent receives for one sample (`'codex/SessionStart'`). */
  sample(name) {
    return this.run(sample(name));
  }
}

function accepts(file) {
  return new Promise((resolve) => {
    const probe = net.connect(file);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}
