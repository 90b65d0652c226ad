import { decodeCursor, encodeCursor } from './cursor.ts';

/** Which list a page belongs to, as its cursors are bound to it (cursor.ts), and where it starts. */
export interface PageRequest {
  secret: Buffer;
  list: string;
  businessId: string;
  filters: Record<string, unknown>;
  limit: number;
  cursor: string | undefined;
}

export interface Page<Row> {
  rows: Row[];
  cursor: string | undefined;
}

/**
 * One page of a keyset list. `fetch` is asked for one row more than the page holds: that row tells
 * whether a next page exists without a count query. The cursor of the next page is the position
 * of this page's last row, as `positionOf` states it; both callbacks also get the position this
 * page started after, for lists whose cursor carries more than the position.
 */
export async function keysetPage<Row, Position>(
  request: PageRequest,
  fetch: (after: Position | undefined, fetchLimit: number) => Promise<Row[]>,
  positionOf: (last: Row, after: Position | undefined) => Position,
): Promise<Page<Row>> {
  const { secret, list, businessId, filters, limit } = request;
  const after = request.cursor ? decodeCursor<Position>(secret, list, businessId, filters, request.cursor) : undefined;
  const fetched = await fetch(after, limit + 1);
  const rows = fetched.slice(0, limit);
  const last = rows[rows.length - 1];
  const cursor = fetched.length > limit && last ? encodeCursor(secret, list, businessId, filters, positionOf(last, after)) : undefined;
  return { rows, cursor };
}
