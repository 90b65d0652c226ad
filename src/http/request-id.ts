import { randomToken } from '../domain/ids.ts';

const CLIENT_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** A well-formed X-Request-Id from the caller is kept for end-to-end tracing; otherwise a new one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  if (typeof header === 'string' && CLIENT_ID.test(header)) return header;
  return `req_${randomToken(20)}`;
}
