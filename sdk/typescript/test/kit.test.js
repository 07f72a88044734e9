// The test kit, and the SDK through the real gateway and shim: every
// agent's samples reach the handler typed, every agent's shell call carries
// the parsed commands, and large payloads pass.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { Subscriber, context, deny, none } from '../src/index.js';
import { Kit, KitError, samples, shellCall, shellDialects } from '../src/testing.js';

const noDestroy = (e) => (e.runs('terraform', 'destroy') ? deny('no terraform destroy') : undefined);

test('every sample of every agent reaches the handler', async () => {
  const every = samples();
  for (const dir of ['claude-code', 'cline', 'codex', 'cursor', 'gemini-cli']) {
    assert.ok(every.some((s) => s.directory === dir), dir);
  }
  const kit = await Kit.start(new Subscriber().onEvent(() => none()));
  try {
    for (const sample of every) {
      const before = kit.events.length;
      const reply = await kit.run(sample);
      if (sample.path === 'claude-code/WorktreeCreate.json') {
        // The hook replaces `git worktree add`: whatever the subscribers
        // say, hookgate answers that it cannot.
        assert.ok(reply.exitCode === 1 && reply.stderr.includes('cannot create worktrees'), sample.path);
      } else {
        assert.equal(reply.exitCode, 0, `${sample.path}: ${reply.stderr}`);
      }
      assert.equal(kit.events.length, before + 1, `${sample.path}: the handler was not called`);
      const event = kit.events.at(-1);
      assert.notEqual(event.agent, 'unspecified', sample.path);
      assert.ok(event.nativeEvent, sample.path);
      assert.deepEqual(JSON.parse(event.rawJson), JSON.parse(sample.payload), sample.path);
    }
  } finally {
    await kit.stop();
  }
});

test('a shell call in every dialect carries its parsed commands', async () => {
  const kit = await Kit.start(new Subscriber().onPreToolUse(noDestroy));
  const command = 'cd infra && sudo terraform destroy -auto-approve';
  try {
    for (const dialect of shellDialects()) {
      const reply = await kit.shell(dialect, command);
      const event = kit.events.at(-1);
      assert.equal(event.command, command, dialect);
      assert.ok(event.commandsResolved, dialect);
      assert.deepEqual(event.commands.map((c) => c.name), ['cd', 'sudo', 'terraform'], dialect);
      const terraform = event.commands.at(-1);
      assert.ok(terraform.operands[0] === 'destroy' && terraform.cwd.endsWith('infra'), dialect);
      assert.equal(kit.decisions.at(-1).permission, 'deny', dialect);
      assert.ok(reply.says('no terraform destroy'), `${dialect}: ${reply.stdout} ${reply.stderr}`);
    }
  } finally {
    await kit.stop();
  }
});

test('what Claude Code, Cline and Codex receive', async () => {
  const app = new Subscriber().onPreToolUse(noDestroy).onSessionStart(() => context('hello from typescript'));
  const kit = await Kit.start(app);
  try {
    const claude = (await kit.shell('claude-code', 'terraform destroy')).json().hookSpecificOutput;
    assert.deepEqual([claude.permissionDecision, claude.permissionDecisionReason], ['deny', 'no terraform destroy']);
    const codex = (await kit.shell('codex', 'terraform destroy')).json().hookSpecificOutput;
    assert.deepEqual([codex.permissionDecision, codex.permissionDecisionReason], ['deny', 'no terraform destroy']);
    assert.deepEqual((await kit.shell('cline', 'terraform destroy')).json(), { context: 'no terraform destroy', overrideInput: {} });
    assert.equal((await kit.shell('claude-code', 'terraform plan')).stdout, '', 'no opinion: no output');
    for (const agent of ['claude-code', 'codex']) {
      const start = (await kit.sample(`${agent}/SessionStart`)).json().hookSpecificOutput;
      assert.equal(start.additionalContext, 'hello from typescript');
    }
  } finally {
    await kit.stop();
  }
});

test('a large Write through the gateway reaches the handler', async () => {
  const sizes = [];
  const kit = await Kit.start(new Subscriber().onPreToolUse((e) => void sizes.push(e.tool.input.content.length)));
  try {
    const payload = JSON.parse(shellCall('claude-code', 'true').payload);
    // The shim takes payloads up to 8 MiB.
    Object.assign(payload, { tool_name: 'Write', tool_input: { file_path: 'big.txt', content: 'x'.repeat(7 << 20) } });
    assert.equal((await kit.run('claude-code', payload)).exitCode, 0);
  } finally {
    await kit.stop();
  }
  assert.deepEqual(sizes, [7 << 20], 'the event (the payload twice, ~14 MiB) reached the handler');
});

test('a token the gateway sends', async () => {
  const kit = await Kit.start(new Subscriber().onEvent(() => context('with a token')), { token: 'kit-secret' });
  try {
    const start = (await kit.sample('claude-code/SessionStart')).json().hookSpecificOutput;
    assert.equal(start.additionalContext, 'with a token');
  } finally {
    await kit.stop();
  }
});

test('a handler that throws fails the kit call', async () => {
  const kit = await Kit.start(
    new Subscriber().onStop(() => {
      throw new Error('bad policy');
    }),
  );
  try {
    await assert.rejects(kit.sample('claude-code/Stop'), (err) => err instanceof KitError && /bad policy/.test(err.message));
    assert.equal(kit.events.at(-1).kind, 'stop');
  } finally {
    await kit.stop();
  }
});
