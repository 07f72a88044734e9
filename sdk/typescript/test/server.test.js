// The server side done for the author, through a real gRPC client:
// dispatch, message limits, deadlines, health, token, TLS, Unix sockets.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';

import { Subscriber, context, deny, none, rewrite } from '../src/index.js';
import { Client, preToolUse } from './helpers.js';

function tmpdir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'hgts-'));
}

/** `app` on a Unix socket, a client of it, and a way to stop both. */
async function serve(app, options = {}, address = `unix:${path.join(tmpdir(), 's.sock')}`) {
  const server = await app.start(address, options);
  const client = new Client(server.address);
  return { server, client, stop: async () => (client.close(), await server.stop()) };
}

test('each kind goes to its handler and the rest to the catch-all', async () => {
  const seen = [];
  const app = new Subscriber()
    .onPreToolUse((e) => (seen.push(['pre', e.kind]), deny(`no ${e.command}`)))
    .onEvent((e) => (seen.push(['any', e.kind]), context('from the catch-all')));
  const { client, stop } = await serve(app);
  const reply = await client.onEvent(preToolUse('rm -rf /'));
  assert.equal(reply.permission, 'PERMISSION_DENY');
  assert.equal(reply.reason, 'no rm -rf /');
  const stopEvent = { id: '2', kind: 'EVENT_KIND_STOP', native_event: 'Stop' };
  assert.equal((await client.onEvent(stopEvent)).additional_context, 'from the catch-all');
  assert.deepEqual(seen, [['pre', 'pre_tool_use'], ['any', 'stop']]);
  await stop();
});

test('no handler, undefined and none() are no opinion', async () => {
  const app = new Subscriber().onSessionStart(() => undefined).onStop(() => none());
  const { client, stop } = await serve(app);
  for (const kind of ['EVENT_KIND_SESSION_START', 'EVENT_KIND_STOP', 'EVENT_KIND_PRE_TOOL_USE']) {
    const reply = await client.onEvent({ id: 'x', kind });
    assert.equal(reply.permission, 'PERMISSION_UNSPECIFIED');
    assert.equal(reply.reason + reply.additional_context + reply.updated_input_json, '');
    assert.equal(reply.halt, false);
  }
  await stop();
});

test('async handlers and rewrites', async () => {
  const app = new Subscriber().onPreToolUse(async (e) => rewrite({ ...e.tool.input, command: `${e.command} --dry-run` }));
  const { client, stop } = await serve(app);
  const reply = await client.onEvent(preToolUse('terraform apply'));
  assert.deepEqual(JSON.parse(reply.updated_input_json), { command: 'terraform apply --dry-run' });
  await stop();
});

test('one handler per kind', () => {
  const app = new Subscriber().onStop(() => undefined);
  assert.throws(() => app.on('stop', () => undefined));
  assert.throws(() => app.on('no_such_kind', () => undefined), TypeError);
  app.onEvent(() => undefined);
  assert.throws(() => app.onEvent(() => undefined));
});

test('a 20 MiB Write reaches the handler, and past 32 MiB is refused', async () => {
  const sizes = [];
  const app = new Subscriber().onPreToolUse((e) => (sizes.push(e.tool.input.content.length), none()));
  const { client, stop } = await serve(app);
  const write = preToolUse();
  write.tool = { name: 'Write', class: 'TOOL_CLASS_FILE_WRITE', input_json: JSON.stringify({ file_path: 'big.txt', content: 'x'.repeat(20 << 20) }) };
  await client.onEvent(write);
  assert.deepEqual(sizes, [20 << 20]);
  write.tool.input_json = JSON.stringify({ content: 'x'.repeat(33 << 20) });
  await assert.rejects(client.onEvent(write), (err) => err.code === grpc.status.RESOURCE_EXHAUSTED);
  assert.deepEqual(sizes, [20 << 20], 'an event past the limit never reaches the handler');
  await stop();
});

test('the deadline is exposed, and a late handler answers nothing', async () => {
  const left = [];
  let finished;
  const done = new Promise((resolve) => (finished = resolve));
  const app = new Subscriber().onPreToolUse(async (e) => {
    left.push(e.timeLeft());
    if (e.command === 'slow') {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      finished();
    }
    return deny('too late to matter');
  });
  const { server, client, stop } = await serve(app);
  await client.onEvent(preToolUse('fast'), { timeoutMs: 5000 });
  assert.ok(left[0] > 0 && left[0] <= 5000, `time left: ${left[0]}`);
  await assert.rejects(client.onEvent(preToolUse('slow'), { timeoutMs: 300 }), (err) => err.code === grpc.status.DEADLINE_EXCEEDED);
  await done;
  assert.equal(server.stats.late, 1, 'the server dropped the late answer itself');
  await stop();
});

test('a handler that throws fails the call', async () => {
  const app = new Subscriber().onPreToolUse(() => {
    throw new Error('boom');
  });
  const { server, client, stop } = await serve(app);
  await assert.rejects(client.onEvent(preToolUse()), (err) => err.code === grpc.status.INTERNAL && !err.details.includes('boom'));
  assert.deepEqual(server.stats.errors, [['01TEST', 'Error: boom']]);
  await stop();
});

test('health is served', async () => {
  const { client, stop } = await serve(new Subscriber());
  assert.equal(await client.check(''), 'SERVING');
  assert.equal(await client.check('hookgate.v1.Subscriber'), 'SERVING');
  await stop();
});

test('a bearer token is required when set', async () => {
  const app = new Subscriber().onEvent(() => context('ok'));
  const { server, client, stop } = await serve(app, { token: ['old-secret', 'new-secret'] });
  for (const token of [undefined, 'Bearer wrong', 'old-secret']) {
    await assert.rejects(client.onEvent(preToolUse(), { token }), (err) => err.code === grpc.status.UNAUTHENTICATED);
  }
  for (const token of ['old-secret', 'new-secret']) {
    assert.equal((await client.onEvent(preToolUse(), { token: `Bearer ${token}` })).additional_context, 'ok');
  }
  assert.equal(server.stats.unauthenticated, 3);
  assert.equal(await client.check(), 'SERVING', 'health checks need no token');
  await stop();
});

function pki(dir) {
  const openssl = (...args) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=test-ca');
  for (const [name, ext] of [['server', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], ['client', 'extendedKeyUsage=clientAuth']]) {
    openssl('req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
    fs.writeFileSync(path.join(dir, `${name}.ext`), `${ext}\n`);
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`, '-days', '1', '-extfile', `${name}.ext`);
  }
}

test('TLS and mutual TLS', async () => {
  const dir = tmpdir();
  pki(dir);
  const read = (name) => fs.readFileSync(path.join(dir, name));
  const app = new Subscriber().onEvent(() => context('over tls'));
  const tls = { certFile: path.join(dir, 'server.pem'), keyFile: path.join(dir, 'server.key') };
  let server = await app.start('127.0.0.1:0', { tls });
  assert.match(server.endpoint, /^https:\/\/127\.0\.0\.1:\d+$/);
  let client = new Client(server.address, grpc.credentials.createSsl(read('ca.pem')));
  assert.equal((await client.onEvent(preToolUse())).additional_context, 'over tls');
  client.close();
  await server.stop();

  server = await app.start('127.0.0.1:0', { tls: { ...tls, clientCaFile: path.join(dir, 'ca.pem') } });
  client = new Client(server.address, grpc.credentials.createSsl(read('ca.pem')));
  await assert.rejects(client.onEvent(preToolUse()), (err) => err.code === grpc.status.UNAVAILABLE);
  client.close();
  client = new Client(server.address, grpc.credentials.createSsl(read('ca.pem'), read('client.key'), read('client.pem')));
  assert.equal((await client.onEvent(preToolUse())).additional_context, 'over tls');
  client.close();
  await server.stop();
});

function accepts(file) {
  return new Promise((resolve) => {
    const probe = net.connect(file);
    probe.once('connect', () => (probe.destroy(), resolve(true)));
    probe.once('error', () => resolve(false));
  });
}

test('Unix sockets: stale, live and private', async () => {
  const dir = tmpdir();
  const file = path.join(dir, 's.sock');
  // A socket file nobody listens on, as a killed server leaves.
  spawnSync(process.execPath, ['-e', "require('net').createServer().listen(process.argv[1], () => process.kill(process.pid, 'SIGKILL'))", file]);
  assert.ok(fs.lstatSync(file).isSocket());
  const app = new Subscriber();
  const server = await app.start(`unix:${file}`);
  assert.equal(server.endpoint, `unix://${file}`);
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.ok(await accepts(file));
  await assert.rejects(app.start(`unix:${file}`), /another server is listening/);
  await server.stop();
  assert.equal(fs.existsSync(file), false, 'removed at a stop');
  fs.writeFileSync(path.join(dir, 'file'), 'not a socket');
  await assert.rejects(app.start(`unix:${path.join(dir, 'file')}`), /not a socket/);
});

test('a TCP port is not shared', async () => {
  const server = await new Subscriber().start('127.0.0.1:0');
  await assert.rejects(new Subscriber().start(server.address), /cannot listen/);
  await server.stop();
});

test('SIGTERM finishes the call in flight, then exits', async () => {
  const dir = tmpdir();
  const index = new URL('../src/index.js', import.meta.url).href;
  fs.writeFileSync(
    path.join(dir, 'policy.mjs'),
    `import fs from 'node:fs';
     import { Subscriber, context } from ${JSON.stringify(index)};
     await new Subscriber().onEvent(async () => {
       fs.writeFileSync('in-handler', '');
       await new Promise((resolve) => setTimeout(resolve, 1000));
       return context('finished');
     }).serve('unix:s.sock');`,
  );
  const child = spawn(process.execPath, ['policy.mjs'], { cwd: dir, stdio: 'inherit' });
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const until = async (condition, what) => {
    const deadline = Date.now() + 20_000;
    while (!(await condition())) {
      assert.equal(child.exitCode, null, `exited before ${what}`);
      assert.ok(Date.now() < deadline, `no ${what} within 20 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  try {
    await until(() => accepts(path.join(dir, 's.sock')), 'listening');
    const client = new Client(`unix:${path.join(dir, 's.sock')}`);
    const call = client.onEvent(preToolUse());
    await until(() => fs.existsSync(path.join(dir, 'in-handler')), 'call in the handler');
    child.kill('SIGTERM');
    assert.equal((await call).additional_context, 'finished');
    assert.equal(await exited, 0);
    assert.equal(fs.existsSync(path.join(dir, 's.sock')), false);
    client.close();
  } finally {
    child.kill('SIGKILL');
  }
});
