// The hookgate.v1 contract, loaded from the package's copy of the proto
// (proto/hookgate/v1/hookgate.proto; test/proto.test.js checks it is the
// repository's). Messages are plain objects: enums as their names, 64-bit
// integers as numbers, fields the gateway left unset absent.

import { fileURLToPath } from 'node:url';
import path from 'node:path';
import * as protoLoader from '@grpc/proto-loader';
import * as grpc from '@grpc/grpc-js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'proto');

const definition = protoLoader.loadSync('hookgate/v1/hookgate.proto', {
  includeDirs: [root],
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: false,
  arrays: true,
  objects: true,
  oneofs: true,
});

/** The `hookgate.v1.Subscriber` service definition. */
export const subscriberService = definition['hookgate.v1.Subscriber'];

/** The loaded package, for clients (tests, the kit). */
export const hookgateV1 = grpc.loadPackageDefinition(definition).hookgate.v1;
