// What the tests share: a gRPC client of the subscriber service, events to send.

import * as grpc from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { hookgateV1 } from '../src/proto.js';

/** A Claude Code PreToolUse of Bash running `command`, as the gateway sends it. */
export function preToolUse(command = 'ls', fields = {}) {
  return {
    id: '01TEST',
    agent: 'AGENT_CLAUDE_CODE',
    dialect: 'DIALECT_CLAUDE_CODE',
    native_event: 'PreToolUse',
    kind: 'EVENT_KIND_PRE_TOOL_USE',
    blocking: true,
    capabilities: { deny: true, ask: true, context: true, input_rewrite: true },
    cwd: '/home/dev/acme',
    tool: { name: 'Bash', class: 'TOOL_CLASS_SHELL', input_json: JSON.stringify({ command }), command },
    raw_json: JSON.stringify({ tool_input: { command } }),
    ...fields,
  };
}

/** Calls OnEvent and the health service like the gateway does. */
export class Client {
  constructor(address, credentials = grpc.credentials.createInsecure(), options = {}) {
    const limits = { 'grpc.max_send_message_length': 64 << 20, 'grpc.max_receive_message_length': 64 << 20 };
    this.subscriber = new hookgateV1.Subscriber(address, credentials, { ...limits, ...options });
    const Health = grpc.makeGenericClientConstructor(healthService, 'Health');
    this.healthClient = new Health(address, credentials);
  }

  onEvent(event, { timeoutMs = 10_000, token } = {}) {
    const metadata = new grpc.Metadata();
    if (token !== undefined) metadata.set('authorization', token);
    return new Promise((resolve, reject) => {
      this.subscriber.OnEvent(event, metadata, { deadline: Date.now() + timeoutMs }, (err, reply) =>
        err ? reject(err) : resolve(reply),
      );
    });
  }

  check(service = '') {
    return new Promise((resolve, reject) => {
      this.healthClient.Check({ service }, { deadline: Date.now() + 10_000 }, (err, reply) => (err ? reject(err) : resolve(reply.status)));
    });
  }

  close() {
    this.subscriber.close();
    this.healthClient.close();
  }
}
