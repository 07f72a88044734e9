// Typed events from proto messages, and decisions to proto messages.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { AGENTS, Decision, Event, KINDS, allow, ask, context, deny, followup, halt, none, rewrite } from '../src/index.js';
import { hookgateV1 } from '../src/proto.js';
import { preToolUse } from './helpers.js';

test('an event carries every field', () => {
  const message = preToolUse('sudo terraform destroy', {
    session_id: 's-1',
    agent_version: '2.1.0',
    workspace_roots: ['/home/dev/acme'],
    caller: { hostname: 'laptop', origin: 'eu', labels: { team: 'payments' }, gateway_version: '0.1.0' },
    shell: {
      resolved: true,
      commands: [
        { name: 'sudo', args: ['terraform', 'destroy'], operands: ['terraform', 'destroy'] },
        { name: 'terraform', args: ['destroy'], operands: ['destroy'], cwd: '/home/dev/acme' },
      ],
    },
  });
  const event = new Event(message, Date.now() - 1);
  assert.deepEqual([event.agent, event.kind, event.dialect], ['claude-code', 'pre_tool_use', 'claude-code']);
  assert.equal(event.nativeEvent, 'PreToolUse');
  assert.ok(event.blocking && event.capabilities.deny && !event.capabilities.halt);
  assert.deepEqual([event.sessionId, event.agentVersion, event.cwd], ['s-1', '2.1.0', '/home/dev/acme']);
  assert.equal(event.prompt, undefined);
  assert.equal(event.tool.toolClass, 'shell');
  assert.deepEqual(event.tool.input, { command: 'sudo terraform destroy' });
  assert.equal(event.command, 'sudo terraform destroy');
  assert.deepEqual(event.caller.labels, { team: 'payments' });
  assert.ok(event.commandsResolved);
  assert.deepEqual(event.commands.map((c) => c.name), ['sudo', 'terraform']);
  assert.ok(event.runs('terraform', 'destroy') && event.runs('terraform'));
  assert.ok(!event.runs('terraform', 'apply') && !event.runs('destroy'));
  assert.equal(event.timeLeft(), 0, 'a deadline in the past leaves nothing');
});

test('unknown enum values from a newer gateway', () => {
  const event = new Event({ agent: 99, kind: 99, dialect: 99 });
  assert.deepEqual([event.agent, event.kind, event.dialect], ['unspecified', 'other', 'unspecified']);
  assert.equal(event.timeLeft(), undefined);
  assert.deepEqual(event.commands, []);
});

test('every proto enum value has a name', () => {
  const values = (name) => Object.keys(hookgateV1[name].type.value.reduce((o, v) => ({ ...o, [v.name]: 1 }), {}));
  assert.equal(AGENTS.length + 1, values('Agent').length);
  assert.equal(KINDS.length, values('EventKind').length);
  for (const kind of values('EventKind')) {
    assert.equal(new Event({ kind }).kind, kind.slice('EVENT_KIND_'.length).toLowerCase());
  }
});

test('the type declarations name what the code does', () => {
  const declared = readFileSync(new URL('../index.d.ts', import.meta.url), 'utf8');
  const union = (name) => {
    const body = declared.match(new RegExp(`export type ${name} =([^;]*);`));
    assert.ok(body, `index.d.ts declares ${name}`);
    return [...body[1].matchAll(/'([^']*)'/g)].map((m) => m[1]);
  };
  assert.deepEqual(union('Agent'), [...AGENTS, 'unspecified']);
  assert.deepEqual(union('Kind'), KINDS);
});

test('helpers build the decisions they say', () => {
  assert.equal(allow().toProto().permission, 'PERMISSION_ALLOW');
  const denied = deny('no terraform destroy', 'use plan').toProto();
  assert.deepEqual([denied.permission, denied.reason, denied.agent_message], ['PERMISSION_DENY', 'no terraform destroy', 'use plan']);
  assert.equal(ask('sure?').toProto().permission, 'PERMISSION_ASK');
  assert.equal(context('hello from typescript').toProto().additional_context, 'hello from typescript');
  assert.deepEqual(JSON.parse(rewrite({ command: 'ls' }).toProto().updated_input_json), { command: 'ls' });
  const stopped = halt('build is red').toProto();
  assert.ok(stopped.halt && stopped.reason === 'build is red');
  assert.equal(followup('go on').toProto().followup_message, 'go on');
  assert.deepEqual(none().toProto(), new Decision().toProto());
  const both = deny('no').withContext('why').withAgentMessage('instead').toProto();
  assert.deepEqual([both.additional_context, both.agent_message], ['why', 'instead']);
});

test('malformed decisions are refused when built', () => {
  assert.throws(() => new Decision({ permission: 'block' }), TypeError);
  assert.throws(() => rewrite(['ls']), TypeError);
});
