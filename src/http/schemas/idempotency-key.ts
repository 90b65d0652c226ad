import { Type } from 'typebox';

/**
 * The header every public write takes, for the document only: its form is checked earlier, in
 * onRequest (plugins/idempotency-key.ts), so that it comes before body validation in the order of
 * checks.
 */
export const IdempotencyKeyHeader = Type.Object({
  'idempotency-key': Type.String({
    description:
      'A UUID (v1 to v5) made by the client for this logical request; send the same key only to retry the same request, within 24 hours.',
    examples: ['5f0c1d2e-8a4b-4c6d-9e7f-1a2b3c4d5e6f'],
  }),
});
