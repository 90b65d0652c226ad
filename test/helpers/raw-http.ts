import http from 'node:http';
import net from 'node:net';
import type { JsonResponse } from './harness.ts';

/** HTTP/1.1 answers in `raw`, in order, each with its JSON body parsed (undefined when not JSON). */
export function parseAnswers(raw: string): JsonResponse[] {
  const out: JsonResponse[] = [];
  let rest = raw;
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) throw new Error(`an incomplete answer: ${JSON.stringify(rest.slice(0, 300))}`);
    const [statusLine, ...lines] = rest.slice(0, headEnd).split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine ?? '')?.[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length']);
    if (!Number.isInteger(length)) throw new Error(`no content-length in ${JSON.stringify(statusLine)}`);
    const bodyText = Buffer.from(rest.slice(headEnd + 4), 'latin1')
      .subarray(0, length)
      .toString('utf8');
    let body: any;
    try {
      body = JSON.parse(bodyText);
    } catch {
      body = undefined;
    }
    out.push({ status, headers, body, raw: bodyText });
    rest = rest.slice(headEnd + 4 + Buffer.byteLength(bodyText, 'utf8'));
  }
  return out;
}

export interface RawExchange {
  /** everything the server sent, as latin1 */
  received: string;
  /** the socket error the client saw, if any (ECONNRESET, EPIPE …) */
  error: string | undefined;
}

/**
 * Sends `parts` over one raw connection (a pause of `gapMs` between parts), then waits until the
 * server closes it, at most `timeoutMs` (then the result says `error: 'TIMEOUT'`).
 */
export function rawExchange(port: number, parts: Array<string | Buffer>, gapMs = 0, timeoutMs = 5000): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let error: string | undefined;
    const timer = setTimeout(() => {
      error = 'TIMEOUT';
      socket.destroy();
    }, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received: Buffer.concat(chunks).toString('latin1'), error });
    });
    let i = 0;
    const next = () => {
      if (i >= parts.length || socket.destroyed) return;
      socket.write(parts[i++]!);
      setTimeout(next, gapMs);
    };
    socket.once('connect', next);
  });
}

export interface UploadResult {
  response: JsonResponse | undefined;
  /** the client's error (EPIPE, ECONNRESET …): the failure a client would retry */
  error: string | undefined;
}

/**
 * A body of `totalBytes` sent the way an HTTP client library sends it (node:http, writing 64 KiB
 * chunks as fast as the socket takes them), with Content-Length or chunked; resolves when the
 * request is over (node:http stops sending once the whole answer has arrived), with the answer and
 * any error the client saw.
 */
export function upload(
  port: number,
  o: { path: string; headers?: Record<string, string>; totalBytes: number; chunked: boolean; agent: http.Agent | false },
): Promise<UploadResult> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...o.headers };
    if (!o.chunked) headers['content-length'] = String(o.totalBytes);
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: o.path, headers, agent: o.agent });
    let error: string | undefined;
    let response: JsonResponse | undefined;
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: any;
        try {
          body = JSON.parse(raw);
        } catch {
          body = undefined;
        }
        response = { status: res.statusCode ?? 0, headers: res.headers, body, raw };
      });
    });
    req.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    req.on('close', () => resolve({ response, error }));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < o.totalBytes) {
        if (req.destroyed) return;
        const n = Math.min(chunk.length, o.totalBytes - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

/**
 * The same body from a client that sends all of it before it looks at any answer (a raw socket, as
 * a simple client or a proxy does): every byte is written, then the answer is read once the server
 * closes the connection. `error` is set when the connection broke before that.
 */
export function rawUpload(port: number, head: string, totalBytes: number, chunked: boolean, timeoutMs = 30_000): Promise<UploadResult> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let error: string | undefined;
    const timer = setTimeout(() => {
      error ??= 'TIMEOUT';
      socket.destroy();
    }, timeoutMs);
    socket.on('data', (c: Buffer) => received.push(c));
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on('close', () => {
      clearTimeout(timer);
      let response: JsonResponse | undefined;
      try {
        response = parseAnswers(Buffer.concat(received).toString('latin1'))[0];
      } catch {
        response = undefined;
      }
      resolve({ response, error });
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    socket.write(`${head}${chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${totalBytes}`}\r\n\r\n`);
    let sent = 0;
    const pump = () => {
      while (sent < totalBytes) {
        if (socket.destroyed) return;
        sent += chunk.length;
        if (!socket.write(chunked ? framed : chunk)) return void socket.once('drain', pump);
      }
      if (chunked && !socket.destroyed) socket.write('0\r\n\r\n');
    };
    pump();
  });
}
