// hookgate: subscribers for the hookgate gateway in a few lines.

export { Decision, allow, ask, context, deny, followup, halt, none, rewrite } from './decision.js';
export { AGENTS, Event, KINDS, Tool } from './event.js';
export { Subscriber } from './subscriber.js';
export { DEFAULT_DEADLINE_MS, MAX_RECEIVE_BYTES, MAX_SEND_BYTES, Server } from './server.js';
