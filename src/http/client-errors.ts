import http, { type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../domain/errors.ts';
import type { Metrics } from '../metrics.ts';
import { errorEnvelopeFor } from './envelope.ts';
import { discardWithinBounds, isAnsweredEarly } from './plugins/body-discard.ts';
import { requestIdFrom, requestIdOf } from './request-id.ts';

/** Node's parser errors (llhttp `HPE_*` codes) and its request timeout; `rawPacket` is never read. */
export interface ClientError extends Error {
  code?: string;
  reason?: string;
}

type HttpSocket = Socket & { _httpMessage?: ServerResponse | null };

const HEADER_ERRORS = new Set([
  'HPE_INVALID_HEADER_TOKEN',
  'HPE_INVALID_CONTENT_LENGTH',
  'HPE_UNEXPECTED_CONTENT_LENGTH',
  'HPE_INVALID_TRANSFER_ENCODING',
]);
const BODY_ERRORS = new Set(['HPE_INVALID_CHUNK_SIZE', 'HPE_CHUNK_EXTENSIONS_OVERFLOW', 'HPE_INVALID_EOF_STATE']);

/** llhttp's reasons are fixed texts; anything else is left out rather than echoed. */
function parserReason(err: ClientError): string {
  return typeof err.reason === 'string' && /^[A-Za-z0-9 ,.'`()_-]{1,120}$/.test(err.reason) ? ` (${err.reason})` : '';
}

function invalid(path: string, message: string): AppError {
  return new AppError('request.validation_failed', `The request is not valid HTTP/1.1: ${path} ${message}.`, {
    issues: [{ path, message }],
  });
}

/**
 * The catalog's answer to a request Node's parser refused, or undefined for a connection error
 * (reset, broken pipe) that has nobody left to answer. The closed catalog has no 431, 408 or 501:
 * each maps to the code of the same kind with that code's status (docs/decisions.md).
 */
export function clientErrorAnswer(err: ClientError): AppError | undefined {
  const code = err.code ?? '';
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return invalid('request', 'did not arrive in time');
  if (!code.startsWith('HPE_')) return undefined;
  // A method Node does not know is a route this API does not have, like any method it lacks.
  if (code === 'HPE_INVALID_METHOD') return new AppError('request.not_found');
  if (code === 'HPE_HEADER_OVERFLOW') return invalid('headers', `are larger than ${http.maxHeaderSize} bytes in total`);
  if (code === 'HPE_INVALID_URL') return invalid('path', 'is not a valid request target');
  if (HEADER_ERRORS.has(code)) return invalid('headers', `are malformed${parserReason(err)}`);
  if (BODY_ERRORS.has(code)) return invalid('body', `is not valid chunked encoding${parserReason(err)}`);
  return invalid('request', `is malformed${parserReason(err)}`);
}

function rawAnswer(requestId: string, err: AppError): string {
  const body = JSON.stringify(errorEnvelopeFor(requestId, err));
  return [
    `HTTP/1.1 ${err.status} ${http.STATUS_CODES[err.status]}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    // Like every /admin/v1 answer (plugins/security-headers.ts): whatever the path, no cache keeps it.
    'cache-control: no-store',
    `date: ${new Date().toUTCString()}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Runs `then` once no answer is being written on the socket, queued answers of pipelined requests included. */
function whenNoAnswerPending(socket: HttpSocket, then: () => void): void {
  const current = socket._httpMessage;
  if (!current || current.writableFinished) {
    then();
    return;
  }
  // Node's own 'finish' listener, registered first, has already put the next queued answer on the socket.
  current.once('finish', () => whenNoAnswerPending(socket, then));
}

export interface ClientErrorDeps {
  log: FastifyBaseLogger;
  metrics: Metrics | undefined;
}

/**
 * Fastify's `clientErrorHandler`: answers what Node's HTTP parser refused (headers too large, both
 * Transfer-Encoding and Content-Length, control characters, unknown methods, broken chunks) and
 * requests that timed out, in the envelope with a request id, like every other answer. Fastify's
 * default answers outside the envelope and logs the raw bytes of the request (API key, guest data)
 * at trace level; nothing of the request is logged here.
 *
 * After the answer the connection is closed: the parser cannot find the next request after an
 * error. What the client still sends meanwhile is read and dropped within the body-discard bounds,
 * so that closing does not reset the connection before the client has read the answer.
 */
export function clientErrorHandler(deps: () => ClientErrorDeps): (err: ClientError, socket: Socket) => void {
  // Node reports the same parser error again for every later chunk of the connection.
  const handled = new WeakSet<Socket>();
  return (err, raw) => {
    const socket = raw as HttpSocket;
    if (handled.has(socket)) return;
    handled.add(socket);
    const answer = clientErrorAnswer(err);
    // Nothing to answer, nobody to answer, or the request already has its answer (sent before its
    // body was refused by the parser).
    if (!answer || socket.destroyed || !socket.writable || isAnsweredEarly(socket)) {
      socket.destroy();
      return;
    }
    // The request whose own body or timeout failed is answered now, under its id; bytes pipelined
    // behind a request still being answered wait for that answer.
    const current = socket._httpMessage;
    const own = current && !current.headersSent && !current.req.complete ? current : undefined;
    const requestId = (own && requestIdOf(own.req)) ?? requestIdFrom(undefined);
    discardWithinBounds(socket, socket, () => socket.destroy());
    const send = () => {
      if (!socket.writable) return;
      socket.end(rawAnswer(requestId, answer));
      const { log, metrics } = deps();
      metrics?.httpRequests.inc({ route: 'unparsed', method: 'unknown', status: String(answer.status) });
      log.info({ reqId: requestId, statusCode: answer.status, code: answer.code, parserError: err.code }, 'client error answered');
    };
    if (own) send();
    else whenNoAnswerPending(socket, send);
  };
}
