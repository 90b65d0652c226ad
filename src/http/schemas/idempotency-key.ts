import { Type } from 'typebox';

/**
 * The header every public write takes, for the document only: its form is checked earlier, in
 * onRequest (plugins/idempotency-key.ts), so that it comes before body validation in the order of
 * checks.
 */
export const IdempotencyKeyHeader = Type.Object({ 'idempotency-key': Type.String({ description: 'UUID v1-v5' }) });
