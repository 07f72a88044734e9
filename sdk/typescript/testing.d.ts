// Types of `hookgate/testing`, the test kit.

import type { Decision, Event, Subscriber } from './index.js';

export declare const SUBSCRIBER_TIMEOUT_MS: number;
export declare const SHIM_TIMEOUT_MS: number;

export declare class KitError extends Error {}

/** What the agent receives from its hook command. */
export declare class Reply {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Stdout as JSON (undefined when empty). */
  json(): any;
  /** Does the agent receive `text` anywhere? */
  says(text: string): boolean;
}

/** One sample payload of the repository (adapters/test_data). */
export interface Sample {
  readonly directory: string;
  readonly name: string;
  readonly path: string;
  readonly payload: Buffer;
  /** The shim's arguments for it. */
  readonly args: readonly string[];
}

export declare function repository(): string;
export declare function binaries(): { gateway: string; shim: string };
export declare function samples(directory?: string): Sample[];
export declare function sample(name: string): Sample;
export declare function shellDialects(): string[];
export declare function shellCall(dialect: string, command: string): Sample;

/** A subscriber behind a real gateway and shim. */
export declare class Kit {
  static start(app: Subscriber, options?: { token?: string }): Promise<Kit>;
  /** A gateway in front of a subscriber served elsewhere (its events unseen). */
  static front(endpoint: string, options?: { token?: string }): Promise<Kit>;
  /** Every event the handlers received, in order. */
  readonly events: Event[];
  /** What the handlers answered, in order. */
  readonly decisions: Decision[];
  readonly socket: string;
  readonly gatewayLog: string;
  stop(): Promise<void>;
  run(call: Sample | string, payload?: Buffer | string | object): Promise<Reply>;
  shell(dialect: string, command: string): Promise<Reply>;
  sample(name: string): Promise<Reply>;
}
