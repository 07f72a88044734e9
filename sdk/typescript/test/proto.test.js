// The package's copy of the proto is the repository's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { repository } from '../src/testing.js';

test("the package's proto is the repository's", () => {
  const ours = new URL('../proto/hookgate/v1/hookgate.proto', import.meta.url);
  const theirs = path.join(repository(), 'proto', 'hookgate', 'v1', 'hookgate.proto');
  assert.ok(
    fs.readFileSync(ours, 'utf8') === fs.readFileSync(theirs, 'utf8'),
    'sdk/typescript/proto/hookgate/v1/hookgate.proto is stale: copy proto/hookgate/v1/hookgate.proto over it',
  );
});
