import type { IncomingMessage } from 'node:http';
import { randomToken } from '../domain/ids.ts';

const CLIENT_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** A well-formed X-Request-Id from the caller is kept for end-to-end tracing; otherwise a new one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  if (typeof header === 'string' && CLIENT_ID.test(header)) return header;
  return `req_${randomToken(20)}`;
}

const idOfRequest = new WeakMap<IncomingMessage, string>();

/**
 * Fastify's genReqId. The id is also kept by raw request, so that an answer given below Fastify for
 * a request Fastify already started (its body timed out or broke; client-errors.ts) carries the id
 * that request's log lines have.
 */
export function genRequestId(req: IncomingMessage): string {
  const id = requestIdFrom(req.headers['x-request-id']);
  idOfRequest.set(req, id);
  return id;
}

export function requestIdOf(req: IncomingMessage): string | undefined {
  return idOfRequest.get(req);
}
