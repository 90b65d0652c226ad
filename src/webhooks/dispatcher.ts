import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { classifyAddress } from '../domain/webhooks/ip-ranges.ts';
import { outcomeOfStatus, type AttemptResult } from '../domain/webhooks/retry-policy.ts';
import { signatureHeader, standardWebhookSignature } from '../domain/webhooks/signing-secret.ts';

/** Resolves a host name to all its addresses; injectable so tests can map a name without /etc/hosts. */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Response bodies are read up to this many bytes and thrown away: nobody reads them. */
const BODY_READ_CAP = 4096;

export interface DispatchOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
  resolver?: Resolver;
}

export interface Delivery {
  url: string;
  secret: string;
  payload: string;
  deliveryId: string;
  event: string;
  timestamp: string;
  attempt: number;
}

export interface DispatchResult extends AttemptResult {
  /** short, for the attempt record and logs: never the body, the secret or the full URL */
  error: string | null;
  durationMs: number;
  startedAt: Date;
}

/** A connection the SSRF rules forbid; recorded as a network error with this text. */
class TargetRefused extends Error {
  readonly code = 'WEBHOOK_TARGET_REFUSED';
}

function refusal(host: string, address: string): TargetRefused | undefined {
  const cls = classifyAddress(address);
  if (cls === 'public') return undefined;
  // The text reaches the integrator's delivery log: it names the class, never the address a name
  // resolved to, so the log cannot be used to read the server's internal DNS.
  return new TargetRefused(host === address ? `refused: ${address} is a ${cls} address` : `refused: ${host} resolves to a ${cls} address`);
}

/**
 * Sends one delivery attempt. The connection goes only to an address that was checked: the agent's
 * `lookup` resolves the host and refuses when any of its addresses is not public unicast (so a
 * DNS answer cannot get around the URL rules), and net connects to exactly the addresses it
 * returned. A literal IP never goes through lookup, so it is checked before the request. Redirects
 * are not followed (undici 7's request follows none without the redirect interceptor).
 */
export class Dispatcher {
  private readonly agent: Agent;

  constructor(private readonly opts: DispatchOptions) {
    const resolver = opts.resolver ?? systemResolver;
    const lookup: LookupFunction = (hostname, options, callback) => {
      resolver(hostname).then(
        (addresses) => {
          if (addresses.length === 0) return callback(new Error(`${hostname} has no address`), '', 4);
          if (!opts.allowPrivateTargets) {
            for (const a of addresses) {
              const refused = refusal(hostname, a.address);
              if (refused) return callback(refused, '', 4);
            }
          }
          const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
          if (options.all) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, wanted);
          const first = wanted[0];
          if (!first) return callback(new Error(`${hostname} has no IPv${options.family} address`), '', 4);
          callback(null, first.address, first.family);
        },
        (err: Error) => callback(err as NodeJS.ErrnoException, '', 4),
      );
    };
    // The attempt's deadline is the AbortSignal in send(); undici's own timers are coarse (they
    // may fire up to about half a second early), so they only back it up.
    const backstop = opts.timeoutMs + 1000;
    this.agent = new Agent({
      connect: { lookup, timeout: backstop },
      headersTimeout: backstop,
      bodyTimeout: backstop,
      keepAliveTimeout: 4_000,
    });
  }

  async send(d: Delivery): Promise<DispatchResult> {
    const startedAt = new Date();
    const t0 = performance.now();
    const done = (r: Omit<DispatchResult, 'durationMs' | 'startedAt'>): DispatchResult => ({
      ...r,
      startedAt,
      durationMs: Math.round(performance.now() - t0),
    });

    let url: URL;
    try {
      url = new URL(d.url);
    } catch {
      return done({ outcome: 'network_error', statusCode: null, error: 'the configured URL is not valid' });
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.opts.allowPrivateTargets)) {
      return done({ outcome: 'network_error', statusCode: null, error: `refused: ${url.protocol}// targets are not allowed` });
    }
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    if (isIP(host) !== 0 && !this.opts.allowPrivateTargets) {
      const refused = refusal(host, host);
      if (refused) return done({ outcome: 'network_error', statusCode: null, error: refused.message });
    }

    // The Standard Webhooks timestamp is this attempt's send time, not the event's: its libraries
    // refuse a timestamp over 5 minutes old, which a late retry or a redelivery of the event's
    // would be (docs/decisions.md, "Standard Webhooks headers"). The body keeps the event's.
    const sentAt = Math.floor(startedAt.getTime() / 1000);
    const deadline = AbortSignal.timeout(this.opts.timeoutMs);
    try {
      const res = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        signal: deadline,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'booking-api-webhooks/1',
          'x-service-signature': signatureHeader(d.secret, d.payload),
          'x-service-delivery-id': d.deliveryId,
          'x-service-event': d.event,
          'x-service-timestamp': d.timestamp,
          'x-service-attempt': String(d.attempt),
          'webhook-id': d.deliveryId,
          'webhook-timestamp': String(sentAt),
          'webhook-signature': standardWebhookSignature(d.secret, d.deliveryId, sentAt, d.payload),
        },
        body: d.payload,
      });
      await drain(res.body);
      const retryAfter = res.headers['retry-after'];
      return done({
        outcome: outcomeOfStatus(res.statusCode),
        statusCode: res.statusCode,
        retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
        error: null,
      });
    } catch (err) {
      return done(failure(err, deadline.aborted, this.opts.timeoutMs));
    }
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }
}

/** Reads at most BODY_READ_CAP bytes; leaving the loop early destroys the stream and its connection. */
async function drain(body: AsyncIterable<Buffer>): Promise<void> {
  let n = 0;
  try {
    for await (const chunk of body) {
      n += chunk.length;
      if (n > BODY_READ_CAP) break;
    }
  } catch {
    // The status decides the outcome; a body that fails or times out half-way changes nothing.
  }
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

function failure(err: unknown, aborted: boolean, timeoutMs: number): Omit<DispatchResult, 'durationMs' | 'startedAt'> {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (aborted || TIMEOUT_CODES.has(e.code ?? '')) {
    return { outcome: 'timeout', statusCode: null, error: `no response within ${timeoutMs} ms` };
  }
  if (err instanceof TargetRefused) return { outcome: 'network_error', statusCode: null, error: err.message };
  const code = e.code ?? e.cause?.code;
  const message = (e.message ?? String(err)).slice(0, 200);
  return { outcome: 'network_error', statusCode: null, error: code ? `${code}: ${message}` : message };
}
