import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.ts';
import { AppError } from './errors.ts';
import { signToken, verifyToken } from './signed-token.ts';

/**
 * Keyset cursors: opaque, signed, and bound to the list, the business and the filters that made
 * them. Any other use is a 400 request.invalid_cursor, never a silently wrong page.
 */
interface CursorBody {
  l: string; // list name
  f: string; // hash of business + filters
  k: unknown; // keyset position
}

function filterHash(businessId: string, filters: Record<string, unknown>): string {
  return createHash('sha256').update(businessId).update(canonicalJson(filters)).digest('base64url').slice(0, 22);
}

export function encodeCursor(
  secret: Buffer,
  list: string,
  businessId: string,
  filters: Record<string, unknown>,
  position: unknown,
): string {
  return signToken(secret, 'cursor', { l: list, f: filterHash(businessId, filters), k: position } satisfies CursorBody);
}

export function decodeCursor<T>(secret: Buffer, list: string, businessId: string, filters: Record<string, unknown>, cursor: string): T {
  const body = verifyToken<CursorBody>(secret, 'cursor', cursor);
  if (!body || body.l !== list || body.f !== filterHash(businessId, filters)) {
    throw new AppError('request.invalid_cursor');
  }
  return body.k as T;
}
