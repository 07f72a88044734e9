// Serving a Subscriber, with what the gateway needs done for the author:
// its message limits, grpc.health.v1, the call's deadline exposed to the
// handler and enforced (a late handler answers nothing rather than late),
// TLS or mTLS and a bearer token as options, a graceful stop on SIGTERM,
// and unix: sockets as well as TCP.

import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';

import { Event } from './event.js';
import { subscriberService } from './proto.js';

/** The largest event the gateway sends (an 8 MiB payload, carried twice). */
export const MAX_RECEIVE_BYTES = 32 << 20;
/** The largest reply the gateway accepts (what an agent's reply may be). */
export const MAX_SEND_BYTES = (8 << 20) + (64 << 10);
/** The deadline of a call that carries none (the gateway always sends one). */
export const DEFAULT_DEADLINE_MS = 30_000;
const SERVICE = 'hookgate.v1.Subscriber';

export class Server {
  #app;
  #requested;
  #tls;
  #tokens;
  #grace;
  #server = undefined;
  #health = undefined;
  #unixPath = undefined;
  #address = undefined;
  #resolveStopped;
  #stopping = undefined;

  /** `address`: `host:port` (port 0 picks one) or `unix:path` (relative
   * to the working directory, or `unix:///absolute`). Options: `tls`
   * (`{ certFile, keyFile, clientCaFile? }`: mTLS with `clientCaFile`),
   * `token` (a string or several: every OnEvent call must carry one),
   * `graceMs` (calls in flight at a stop, default 5000). */
  constructor(app, address, options = {}) {
    this.#app = app;
    this.#requested = address;
    this.#tls = options.tls;
    const tokens = options.token === undefined ? [] : [options.token].flat();
    if (tokens.some((t) => !t)) throw new TypeError('a bearer token must not be empty');
    this.#tokens = tokens.map((t) => digest(`Bearer ${t}`));
    this.#grace = options.graceMs ?? 5000;
    /** What the server saw (for tests and the test kit). */
    this.stats = { calls: 0, late: 0, unauthenticated: 0, errors: [] };
    /** Resolves once the server has stopped. */
    this.stopped = new Promise((resolve) => {
      this.#resolveStopped = resolve;
    });
  }

  /** The address it listens on (`127.0.0.1:41234`, `unix:/abs/path`). */
  get address() {
    return this.#address;
  }

  /** The gateway config's `endpoint` for this server. */
  get endpoint() {
    if (this.#unixPath !== undefined) return `unix://${this.#unixPath}`;
    return `${this.#tls ? 'https' : 'http'}://${this.#address}`;
  }

  async start() {
    const server = new grpc.Server({
      'grpc.max_receive_message_length': MAX_RECEIVE_BYTES,
      'grpc.max_send_message_length': MAX_SEND_BYTES,
      // Two servers on one port would split the gateway's calls.
      'grpc.so_reuseport': 0,
    });
    this.#health = new HealthImplementation({ '': 'SERVING', [SERVICE]: 'SERVING' });
    this.#health.addToServer(server);
    server.addService(subscriberService, { OnEvent: (call, callback) => this.#onEvent(call, callback) });
    let address = this.#requested;
    if (address.startsWith('unix:')) {
      const file = path.resolve(address.startsWith('unix://') ? address.slice(7) : address.slice(5));
      await clearStale(file);
      this.#unixPath = file;
      address = `unix:${file}`;
    }
    const port = await new Promise((resolve, reject) => {
      server.bindAsync(address, this.#credentials(), (err, bound) =>
        err ? reject(new Error(`cannot listen on ${this.#requested}: ${err.message}`)) : resolve(bound),
      );
    });
    this.#server = server;
    if (this.#unixPath !== undefined) {
      fs.chmodSync(this.#unixPath, 0o600);
      this.#address = `unix:${this.#unixPath}`;
    } else {
      this.#address = `${address.slice(0, address.lastIndexOf(':'))}:${port}`;
    }
    return this;
  }

  #credentials() {
    if (!this.#tls) return grpc.ServerCredentials.createInsecure();
    const { certFile, keyFile, clientCaFile } = this.#tls;
    return grpc.ServerCredentials.createSsl(
      clientCaFile ? fs.readFileSync(clientCaFile) : null,
      [{ cert_chain: fs.readFileSync(certFile), private_key: fs.readFileSync(keyFile) }],
      clientCaFile !== undefined,
    );
  }

  /** Stops on SIGTERM or SIGINT (once; a second signal is the default). */
  stopOnSignals() {
    const stop = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      void this.stop();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  }

  /** Stops gracefully: health NOT_SERVING, no new calls, calls in flight
   * finished within the grace period. */
  stop() {
    this.#stopping ??= new Promise((resolve) => {
      const server = this.#server;
      if (server === undefined) return resolve();
      this.#health.setStatus('', 'NOT_SERVING');
      this.#health.setStatus(SERVICE, 'NOT_SERVING');
      const force = setTimeout(() => server.forceShutdown(), this.#grace);
      server.tryShutdown(() => {
        clearTimeout(force);
        if (this.#unixPath !== undefined && isSocket(this.#unixPath)) fs.unlinkSync(this.#unixPath);
        resolve();
      });
    }).then(() => this.#resolveStopped());
    return this.#stopping;
  }

  async #onEvent(call, callback) {
    this.stats.calls += 1;
    if (this.#tokens.length > 0 && !this.#authorized(call.metadata)) {
      this.stats.unauthenticated += 1;
      return callback({ code: grpc.status.UNAUTHENTICATED, details: 'bad or missing bearer token' });
    }
    const sent = call.getDeadline();
    const sentMs = sent instanceof Date ? sent.getTime() : sent;
    const deadline = Math.min(Number.isFinite(sentMs) ? sentMs : Infinity, Date.now() + DEFAULT_DEADLINE_MS);
    const event = new Event(call.request, deadline);
    let timer;
    let cancelled = false;
    call.on('cancelled', () => {
      cancelled = true;
    });
    const late = new Promise((resolve) => {
      timer = setTimeout(() => resolve('late'), Math.max(0, deadline - Date.now()));
    });
    let outcome;
    try {
      outcome = await Promise.race([this.#app.decide(event), late]);
    } catch (err) {
      this.stats.errors.push([event.id, String(err)]);
      console.error(`hookgate: the handler failed on event ${event.id}:`, err);
      return callback({ code: grpc.status.INTERNAL, details: "the subscriber's handler failed" });
    } finally {
      clearTimeout(timer);
    }
    if (outcome === 'late' || cancelled) {
      this.stats.late += 1;
      console.error(`hookgate: the handler missed event ${event.id}'s deadline: no answer sent`);
      return callback({ code: grpc.status.DEADLINE_EXCEEDED, details: "the handler missed the call's deadline" });
    }
    callback(null, outcome.toProto());
  }

  #authorized(metadata) {
    const sent = digest(String(metadata.get('authorization')[0] ?? ''));
    // Every token compared, in constant time (over digests of equal length).
    return this.#tokens.map((t) => crypto.timingSafeEqual(sent, t)).includes(true);
  }
}

function digest(text) {
  return crypto.createHash('sha256').update(text).digest();
}

function isSocket(file) {
  try {
    return fs.lstatSync(file).isSocket();
  } catch {
    return false;
  }
}

/** Removes a socket file nothing listens on (a killed server's); refuses
 * one a live server holds, and anything that is not a socket. */
async function clearStale(file) {
  let stat;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return;
  }
  if (!stat.isSocket()) throw new Error(`cannot listen on unix:${file}: the path exists and is not a socket`);
  const live = await new Promise((resolve) => {
    const probe = net.connect(file);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (live) throw new Error(`cannot listen on unix:${file}: another server is listening there`);
  fs.unlinkSync(file);
}
