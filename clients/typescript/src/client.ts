import createClient, { type Client } from 'openapi-fetch';
import { errorOf } from './errors.ts';
import type { paths } from './generated/openapi.ts';
import { delayBeforeRetry, type RetryOptions, retryPolicy, sleep } from './retry.ts';

type Body<P extends keyof paths, M extends 'get' | 'post' | 'put' | 'delete'> = paths[P][M] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;
type Query<P extends keyof paths, M extends 'get' | 'post' | 'put' | 'delete'> = paths[P][M] extends {
  parameters: { query?: infer Q };
}
  ? NonNullable<Q>
  : never;

export interface BookingClientOptions {
  /** the server's origin, e.g. https://booking.example.com (the paths carry /v1) */
  baseUrl: string;
  /** the business's API key (bka_…) */
  apiKey: string;
  /** a fetch of your own (a proxy agent, a test double of the network); globalThis.fetch by default */
  fetch?: typeof globalThis.fetch;
  /** retries of requests that got no answer or a retryable error, with the same Idempotency-Key */
  retry?: RetryOptions;
}

export interface WriteOptions {
  /**
   * The Idempotency-Key to send; a new UUID when left out. Give the key of an earlier call (see
   * BookingApiError.idempotencyKey) to repeat that call safely: the server replays its answer.
   */
  idempotencyKey?: string;
}

/** A new Idempotency-Key: a random UUID, as the API asks. */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** The typed client of the public routes, for the calls the ergonomic layer does not wrap. */
export type RawClient = Client<paths>;

interface Answer<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

/**
 * The ergonomic layer over the generated client: every method resolves with the API's success
 * envelope (`{ ok, data, meta }`) or rejects with a BookingApiError; writes carry an
 * Idempotency-Key made here unless given, and every retry of a call sends the same one.
 */
export function createBookingClient(options: BookingClientOptions) {
  const raw: RawClient = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const policy = retryPolicy(options.retry);

  async function send<D>(attempt: () => Promise<Answer<D>>, idempotencyKey?: string): Promise<D> {
    for (let n = 1; ; n++) {
      let failure: unknown;
      let retryAfter: string | null = null;
      try {
        const r = await attempt();
        if (r.response.ok && r.data !== undefined) return r.data;
        failure = errorOf(r.response, r.error, idempotencyKey);
        retryAfter = r.response.headers.get('retry-after');
      } catch (err) {
        failure = err;
      }
      const wait = delayBeforeRetry(policy, n + 1, failure, retryAfter);
      if (wait === undefined) throw failure;
      await sleep(wait);
    }
  }

  return {
    raw,

    listServices: (query: Query<'/v1/services', 'get'>) => send(() => raw.GET('/v1/services', { params: { query } })),

    listStaff: (query: Query<'/v1/staff', 'get'>) => send(() => raw.GET('/v1/staff', { params: { query } })),

    searchAvailability: (body: Body<'/v1/availability/search', 'post'>) => send(() => raw.POST('/v1/availability/search', { body })),

    /** v1.4.0: why a time is or is not bookable, per staff member (`data.explanation`). */
    explainAvailability: (body: Body<'/v1/availability/explain', 'post'>) => send(() => raw.POST('/v1/availability/explain', { body })),

    createBooking: (body: Body<'/v1/bookings', 'post'>, opts: WriteOptions = {}) => {
      const key = opts.idempotencyKey ?? newIdempotencyKey();
      return send(() => raw.POST('/v1/bookings', { body, params: { header: { 'idempotency-key': key } } }), key);
    },

    /** v1.4.0: keeps a time for the guest while they type; pass `data.hold.holdId` to createBooking. */
    createHold: (body: Body<'/v1/holds', 'post'>, opts: WriteOptions = {}) => {
      const key = opts.idempotencyKey ?? newIdempotencyKey();
      return send(() => raw.POST('/v1/holds', { body, params: { header: { 'idempotency-key': key } } }), key);
    },

    /** v1.4.0: gives a held time back; a hold that already ended is answered as it is. */
    releaseHold: (holdId: string) => send(() => raw.DELETE('/v1/holds/{holdId}', { params: { path: { holdId } } })),

    getBooking: (bookingId: string, query: Query<'/v1/bookings/{bookingId}', 'get'> = {}) =>
      send(() => raw.GET('/v1/bookings/{bookingId}', { params: { path: { bookingId }, query } })),

    cancelBooking: (bookingId: string, opts: WriteOptions & Query<'/v1/bookings/{bookingId}/cancel', 'post'> = {}) => {
      const { idempotencyKey, ...query } = opts;
      const key = idempotencyKey ?? newIdempotencyKey();
      return send(
        () =>
          raw.POST('/v1/bookings/{bookingId}/cancel', {
            params: { path: { bookingId }, query, header: { 'idempotency-key': key } },
          }),
        key,
      );
    },
  };
}

export type BookingClient = ReturnType<typeof createBookingClient>;
