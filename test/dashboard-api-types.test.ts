/**
 * dashboard/src/lib/api-types.ts is generated from the OpenAPI document (`npm run gen:api-types`).
 * A route change the committed file has not seen fails here; the dashboard's type check
 * (`npm run typecheck`) then shows what the change breaks.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { API_TYPES_PATH, generateApiTypes } from '../scripts/gen-api-types.ts';

test('dashboard/src/lib/api-types.ts matches the OpenAPI document', async () => {
  const expected = await generateApiTypes();
  const committed = readFileSync(API_TYPES_PATH, 'utf8');
  assert.ok(committed === expected, 'dashboard/src/lib/api-types.ts is stale: run `npm run gen:api-types` and commit it');
});
