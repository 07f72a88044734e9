// The README's JavaScript subscriber ("Write a subscriber", its first js
// block), run as written from a directory where `hookgate` is this package
// (linked, so the test needs no registry; the README's own install line is
// run by integration-tests' real-agent test), asked through the
// real gateway and shim with Claude Code, Cline and Codex payloads, then
// stopped with SIGTERM.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Kit, repository } from '../src/testing.js';

function readmeExample() {
  const readme = fs.readFileSync(path.join(repository(), 'README.md'), 'utf8');
  const section = readme.split('\n## Write a subscriber\n')[1].split('\n## ')[0];
  const match = /^```js\n([\s\S]*?)^```$/m.exec(section);
  assert.ok(match, 'README.md: no js block in "Write a subscriber"');
  assert.ok(match[1].split('\n').length - 1 <= 15, "the README's example is at most 15 lines");
  return match[1];
}

function accepts(file) {
  return new Promise((resolve) => {
    const probe = net.connect(file);
    probe.once('connect', () => (probe.destroy(), resolve(true)));
    probe.once('error', () => resolve(false));
  });
}

test('the README example denies destroy and greets', async () => {
  const dir = fs.mkdtempSync('/tmp/hg-ts-');
  fs.writeFileSync(path.join(dir, 'policy.mjs'), readmeExample());
  fs.mkdirSync(path.join(dir, 'node_modules'));
  const sdk = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  fs.symlinkSync(sdk, path.join(dir, 'node_modules', 'hookgate'));
  const child = spawn(process.execPath, ['policy.mjs'], { cwd: dir, stdio: 'inherit' });
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const socket = path.join(dir, 'policy.sock');
  try {
    const deadline = Date.now() + 20_000;
    while (!(await accepts(socket))) {
      assert.equal(child.exitCode, null, 'the example exited');
      assert.ok(Date.now() < deadline, 'the example did not listen');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const kit = await Kit.front(`unix://${socket}`);
    try {
      for (const agent of ['claude-code', 'codex']) {
        for (const command of ['terraform destroy', 'cd infra && terraform destroy -auto-approve']) {
          const hook = (await kit.shell(agent, command)).json().hookSpecificOutput;
          assert.deepEqual([hook.permissionDecision, hook.permissionDecisionReason], ['deny', 'no terraform destroy'], `${agent}: ${command}`);
        }
        const start = (await kit.sample(`${agent}/SessionStart`)).json().hookSpecificOutput;
        assert.equal(start.additionalContext, 'hello from typescript');
        assert.equal((await kit.shell(agent, 'terraform plan')).stdout, '', 'no opinion');
      }
      assert.deepEqual((await kit.shell('cline', 'terraform destroy')).json(), { context: 'no terraform destroy', overrideInput: {} });
      assert.deepEqual((await kit.shell('cline-legacy', 'terraform destroy')).json(), { cancel: true, errorMessage: 'no terraform destroy' });
    } finally {
      await kit.stop();
    }
    child.kill('SIGTERM');
    assert.equal(await exited, 0, 'a clean exit on SIGTERM');
    assert.equal(fs.existsSync(socket), false, 'its socket removed');
  } finally {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
