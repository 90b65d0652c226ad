/**
 * A real HTTP receiver on 127.0.0.1 for the webhook tests. Each test takes its own path and says
 * how that path answers; every request is recorded with its raw body bytes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** performance.timeOrigin + performance.now() when the request's headers arrived */
  at: number;
}

/** What one request to a path gets: a status (with headers and body), or no answer at all. */
export type Reply = { status: number; headers?: Record<string, string>; body?: string } | 'hang' | 'close';

export type Behaviour = (attempt: number, req: Received) => Reply;

export class WebhookReceiver {
  readonly received: Received[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly hanging = new Set<ServerResponse>();
  private readonly waiters = new Set<() => void>();
  private server!: Server;
  port = 0;

  static async start(): Promise<WebhookReceiver> {
    const r = new WebhookReceiver();
    r.server = createServer((req, res) => r.handle(req, res));
    r.server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    r.port = (r.server.address() as AddressInfo).port;
    return r;
  }

  /** A fresh path on this receiver answering with `behaviour` (default: 200). */
  path(name: string, behaviour: Behaviour = () => ({ status: 200 })): { url: string; path: string } {
    const path = `/${name}-${this.behaviours.size + 1}`;
    this.behaviours.set(path, behaviour);
    return { url: `http://127.0.0.1:${this.port}${path}`, path };
  }

  setBehaviour(path: string, behaviour: Behaviour): void {
    this.behaviours.set(path, behaviour);
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Resolves when `predicate` holds (checked on every request), or throws after `timeoutMs`. */
  async waitFor(predicate: () => boolean, timeoutMs = 10_000, what = 'requests'): Promise<void> {
    if (predicate()) return;
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!predicate()) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
    });
  }

  /** Ends every request held open by a 'hang' reply. */
  releaseHanging(): void {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
  }

  async close(): Promise<void> {
    this.releaseHanging();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const at = performance.timeOrigin + performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const rec: Received = { path, headers: req.headers, body: Buffer.concat(chunks), at };
      this.received.push(rec);
      const attempt = this.at(path).length;
      const behaviour: Behaviour = this.behaviours.get(path) ?? (() => ({ status: 404 }));
      const reply = behaviour(attempt, rec);
      if (reply === 'hang') {
        this.hanging.add(res);
        res.on('close', () => this.hanging.delete(res));
      } else if (reply === 'close') {
        req.socket.destroy();
      } else {
        res.writeHead(reply.status, reply.headers ?? {});
        res.end(reply.body ?? '');
      }
      for (const w of [...this.waiters]) w();
    });
  }
}

/** The receiver's side of rule 5: HMAC-SHA256 of the raw bytes, compared in constant time. */
export function verifySignature(secret: string, body: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
