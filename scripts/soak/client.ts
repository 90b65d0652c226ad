/**
 * The soak's HTTP client: round-robin over the API processes like a load balancer, a timeout on
 * every request, every request recorded, every response body scanned for guest data.
 *
 * Like a load balancer with passive health checks, a process that refused a connection is skipped
 * for a second, and a refused request (never sent) goes to the other process. A request that failed
 * after it was sent (the process was killed under it) is sent again only when that is safe: reads,
 * and public writes, whose Idempotency-Key makes the repeat the same request.
 */
import { Agent, request } from 'undici';
import type { GuestData } from './guest-data.ts';
import type { Recorder } from './recorder.ts';

export interface CallOptions {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  /** the route pattern the request is counted under, e.g. `POST /v1/bookings/:id/cancel` */
  route: string;
  token: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** repeat on the other process after a transport error (safe for reads and idempotent writes) */
  retryOnOther?: boolean;
  /** force one process (0 or 1) */
  api?: number;
}

export interface CallResult {
  status: number;
  /** parsed JSON body (undefined when none or not JSON) */
  body: any;
  code: string | undefined;
  api: number;
}

export class SoakClient {
  private rr = 0;
  private readonly agent: Agent;
  private readonly downUntil: number[];

  constructor(
    private readonly bases: string[],
    private readonly recorder: Recorder,
    private readonly guests: GuestData,
    private readonly timeoutMs: number,
  ) {
    this.agent = new Agent({ connections: 64, keepAliveTimeout: 4_000, connect: { timeout: 2_000 } });
    this.downUntil = bases.map(() => 0);
  }

  private choose(): number {
    const now = Date.now();
    for (let i = 0; i < this.bases.length; i++) {
      const api = this.rr++ % this.bases.length;
      if (this.downUntil[api]! <= now) return api;
    }
    return this.rr++ % this.bases.length;
  }

  async call(o: CallOptions): Promise<CallResult> {
    const first = o.api ?? this.choose();
    const r = await this.once(o, first);
    if (r.status !== 0 || this.bases.length < 2 || o.api !== undefined) return r;
    if (r.code === 'ECONNREFUSED') this.downUntil[first] = Date.now() + 1_000;
    if (r.code === 'ECONNREFUSED' || o.retryOnOther) return this.once(o, (first + 1) % this.bases.length);
    return r;
  }

  private async once(o: CallOptions, api: number): Promise<CallResult> {
    const headers: Record<string, string> = { authorization: `Bearer ${o.token}`, ...(o.headers ?? {}) };
    let payload: string | undefined;
    if (o.body !== undefined) {
      payload = JSON.stringify(o.body);
      headers['content-type'] = 'application/json';
    }
    const startMs = Date.now();
    try {
      const res = await request(`${this.bases[api]}${o.path}`, {
        method: o.method,
        headers,
        body: payload,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const text = await res.body.text();
      const endMs = Date.now();
      let body: any;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = undefined;
      }
      const code = res.statusCode >= 400 ? (typeof body?.error?.code === 'string' ? body.error.code : 'not-envelope') : undefined;
      this.recorder.add({ route: o.route, status: res.statusCode, code, startMs, endMs, api });
      // The business sees its guest's contact (operator booking answers, business-side.md); the
      // public API never does.
      const businessSide = o.route.includes(' /admin/v1/');
      for (const leak of businessSide ? [] : this.guests.leaksIn(text)) {
        this.recorder.anomaly(`guest data in the response of ${o.route} (${res.statusCode}): ${leak}`);
      }
      return { status: res.statusCode, body, code, api };
    } catch (err) {
      const e = err as { code?: string; name?: string };
      const code = e.name === 'TimeoutError' || e.name === 'AbortError' ? 'timeout' : (e.code ?? e.name ?? 'transport');
      this.recorder.add({ route: o.route, status: 0, code, startMs, endMs: Date.now(), api });
      return { status: 0, body: undefined, code, api };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
