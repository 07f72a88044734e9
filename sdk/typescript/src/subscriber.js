// A subscriber: a handler per canonical event kind, and a catch-all.
//
//   const app = new Subscriber()
//     .onPreToolUse((event) => (event.runs('terraform', 'destroy') ? deny('no') : undefined));
//   await app.serve('unix:policy.sock');
//
// A handler takes an Event and returns a Decision, undefined (no
// opinion), or a promise of either.

import { Decision } from './decision.js';
import { KINDS } from './event.js';

export class Subscriber {
  #handlers = new Map();
  #fallback = undefined;

  /** Registers `handler` for events of `kind` (`'pre_tool_use'`); one per kind. */
  on(kind, handler) {
    if (!KINDS.includes(kind)) throw new TypeError(`unknown event kind ${JSON.stringify(kind)}`);
    if (this.#handlers.has(kind)) throw new Error(`a handler for ${kind} is already registered`);
    this.#handlers.set(kind, handler);
    return this;
  }

  /** Handles every event no handler of its kind takes (the catch-all). */
  onEvent(handler) {
    if (this.#fallback !== undefined) throw new Error('a catch-all handler is already registered');
    this.#fallback = handler;
    return this;
  }

  /** The handler an event of `kind` goes to, if any. */
  handlerFor(kind) {
    return this.#handlers.get(kind) ?? this.#fallback;
  }

  /** Runs the handler for `event` and returns its decision (no handler:
   * no opinion). */
  async decide(event) {
    const handler = this.handlerFor(event.kind);
    if (handler === undefined) return new Decision();
    const result = await handler(event);
    if (result === undefined || result === null) return new Decision();
    if (!(result instanceof Decision)) {
      throw new TypeError(`a handler must return a Decision or undefined, not ${typeof result}`);
    }
    return result;
  }

  /** Serves until SIGTERM or SIGINT, then stops gracefully. */
  async serve(address, options = {}) {
    const { Server } = await import('./server.js');
    const server = await new Server(this, address, options).start();
    server.stopOnSignals();
    console.error(`hookgate: serving on ${server.address}`);
    await server.stopped;
  }

  /** Starts serving and returns the running Server (stop it with `stop()`). */
  async start(address, options = {}) {
    const { Server } = await import('./server.js');
    return new Server(this, address, options).start();
  }
}

// onSessionStart, onPreToolUse, ...: `on(kind, handler)` for each kind.
for (const kind of KINDS) {
  const name = 'on' + kind.replace(/(^|_)(\w)/g, (_, __, c) => c.toUpperCase());
  Subscriber.prototype[name] = function (handler) {
    return this.on(kind, handler);
  };
}
