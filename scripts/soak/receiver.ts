/**
 * A local webhook receiver on 127.0.0.1 that behaves like a flaky integrator: it answers a share of
 * deliveries with 500, with 429 and `Retry-After`, or too late (past WEBHOOK_TIMEOUT_MS), and the
 * rest with 200. It verifies every delivery the way the contract tells integrators to (HMAC-SHA256
 * of the raw body with the business's signing secret, constant-time compare) and keeps a log of
 * (deliveryId, attempt, signature valid, what it answered), which the invariants read.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export type Answer = 'ok' | 'error500' | 'rate429' | 'late';

export interface ReceivedDelivery {
  slug: string;
  deliveryId: string;
  /** X-Service-Delivery-Id equals the body's deliveryId */
  idMatches: boolean;
  attempt: number;
  event: string;
  signatureValid: boolean;
  /** X-Service-Timestamp equals the body's timestamp */
  timestampMatches: boolean;
  bodySha256: string;
  answer: Answer;
  at: number;
}

export interface FaultShares {
  error500: number;
  rate429: number;
  late: number;
}

export class WebhookReceiver {
  readonly log: ReceivedDelivery[] = [];
  private readonly secrets = new Map<string, string>();
  private server: Server | undefined;
  port = 0;
  /** requests that could not be read as a delivery at all (no slug, unreadable body) */
  readonly malformed: string[] = [];
  /** guest data found in delivered bodies (a webhook is a response to the integrator too) */
  readonly leaks: string[] = [];

  constructor(
    private readonly faults: FaultShares,
    /** how long a "late" answer waits: past the worker's timeout */
    private readonly lateMs: number,
    private readonly scan: (text: string) => string[] = () => [],
  ) {}

  setSecret(slug: string, secret: string): void {
    this.secrets.set(slug, secret);
  }

  url(slug: string): string {
    return `http://127.0.0.1:${this.port}/hooks/${slug}`;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.keepAliveTimeout = 2_000;
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const addr = server.address();
    this.port = typeof addr === 'object' && addr ? addr.port : 0;
  }

  async stop(): Promise<void> {
    const s = this.server;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  private pick(): Answer {
    const r = Math.random();
    if (r < this.faults.error500) return 'error500';
    if (r < this.faults.error500 + this.faults.rate429) return 'rate429';
    if (r < this.faults.error500 + this.faults.rate429 + this.faults.late) return 'late';
    return 'ok';
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    try {
      for await (const c of req) chunks.push(c as Buffer);
    } catch {
      this.malformed.push('body could not be read');
      return;
    }
    const raw = Buffer.concat(chunks);
    const slug = /^\/hooks\/([^/?]+)/.exec(req.url ?? '')?.[1];
    let body: any;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      body = undefined;
    }
    const secret = slug ? this.secrets.get(slug) : undefined;
    if (!slug || !body || typeof body.deliveryId !== 'string') {
      this.malformed.push(`${req.method} ${req.url} (${raw.length} bytes)`);
      res.writeHead(400).end();
      return;
    }
    for (const leak of this.scan(raw.toString('utf8'))) this.leaks.push(`webhook ${body.deliveryId}: ${leak}`);
    const header = String(req.headers['x-service-signature'] ?? '');
    let signatureValid = false;
    if (secret && header.startsWith('sha256=')) {
      const expected = createHmac('sha256', secret).update(raw).digest();
      const got = Buffer.from(header.slice('sha256='.length), 'hex');
      signatureValid = got.length === expected.length && timingSafeEqual(got, expected);
    }
    const answer = this.pick();
    this.log.push({
      slug,
      deliveryId: body.deliveryId,
      idMatches: req.headers['x-service-delivery-id'] === body.deliveryId,
      attempt: Number(req.headers['x-service-attempt']),
      event: String(req.headers['x-service-event'] ?? ''),
      signatureValid,
      timestampMatches: req.headers['x-service-timestamp'] === body.timestamp,
      bodySha256: createHash('sha256').update(raw).digest('hex'),
      answer,
      at: Date.now(),
    });
    switch (answer) {
      case 'error500':
        res.writeHead(500, { 'content-type': 'text/plain' }).end('soak: injected failure');
        return;
      case 'rate429':
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'text/plain' }).end('soak: slow down');
        return;
      case 'late':
        setTimeout(() => {
          if (!res.destroyed) res.writeHead(200).end('too late');
        }, this.lateMs).unref();
        return;
      default:
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    }
  }
}
