/**
 * src/generated/openapi.ts is generated from the server's OpenAPI document (`npm run gen:client`).
 * A change to a public route that the committed file has not seen fails here; the package's type
 * check (`npm run typecheck`) then shows what the change breaks in the client.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CLIENT_TYPES_PATH, generateClientTypes } from '../../../scripts/gen-client-types.ts';

test('clients/typescript/src/generated/openapi.ts matches the OpenAPI document', async () => {
  const expected = await generateClientTypes();
  const committed = readFileSync(CLIENT_TYPES_PATH, 'utf8');
  assert.ok(committed === expected, 'clients/typescript/src/generated/openapi.ts is stale: run `npm run gen:client` and commit it');
});

test('the generated types hold the public routes only', () => {
  const committed = readFileSync(CLIENT_TYPES_PATH, 'utf8');
  assert.match(committed, /"\/v1\/bookings\/\{bookingId\}\/cancel": \{/);
  assert.doesNotMatch(committed, /"\/admin\//);
});
