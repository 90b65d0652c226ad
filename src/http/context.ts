import type { Config } from '../config.ts';
import type { Capability, KeyKind, Tier } from '../domain/capabilities.ts';
import type { Db } from '../store/db.ts';
import type { DepositProvider } from '../domain/deposits/provider.ts';
import type { AttemptGate } from '../concurrency/attempt-gate.ts';
import type { KeyedLimit } from '../concurrency/keyed-limit.ts';
import type { Metrics } from '../metrics.ts';
import type { RateGroup } from '../rate-limit/policy.ts';
import type { RateLimitStore } from '../rate-limit/store.ts';
import type { AccountLimiter } from '../rate-limit/account-limiter.ts';
import type { RouteRoles } from '../domain/members/roles.ts';
import type { BusinessLocator } from '../store/resource-business.ts';
import type { LiveSession } from '../store/member-sessions.ts';
import type { AttemptSender } from '../use-cases/webhooks/redeliver.ts';
import type { Mailer } from '../domain/mail.ts';
import type { HitOutcome } from './plugins/rate-limit.ts';
import type { ReadCaches } from '../cache/read-caches.ts';

/** What every route handler may use; built once by buildApp. */
export interface AppContext {
  db: Db;
  /** keys and catalogue answers from memory, under business versions (docs/architecture.md) */
  caches: ReadCaches;
  config: Config;
  /** injectable for tests that need a fixed "now" */
  clock: () => Date;
  /** server-wide HMAC key (slot tokens, cursors, payment links); shared by every instance */
  serverSecret: Buffer;
  /** makes deposit payment links; replaceable (a payment provider, or a failing one in tests) */
  deposits: DepositProvider;
  /** this process's Prometheus registry (GET /metrics); a worker inside the API counts into it too */
  metrics: Metrics;
  /** concurrent booking attempts on one calendar wait for each other here, not in the pool */
  bookingGate: AttemptGate;
  /** at most BOOKING_CONCURRENCY_PER_BUSINESS creates of one business at once in this process */
  createLimit: KeyedLimit;
  /** makes an operator's webhook redelivery: the worker's Dispatcher, SSRF check included */
  webhookSender: AttemptSender;
  /** the rate-limit counters (Redis when configured): the public API's limits and sign-in's */
  rateLimits: RateLimitStore;
  /** the account limits (sign-in, invitation acceptance): the shared store, in process when it fails */
  accountLimits: AccountLimiter;
  /** outgoing mail (SMTP_URL); undefined when none is configured: then no mail is sent */
  mailer: Mailer | undefined;
}

export type { RateGroup } from '../rate-limit/policy.ts';

/** Declared on each route; the auth, rate-limit and idempotency hooks read it. */
export type RouteAccess =
  | {
      surface: 'public';
      capability: Capability;
      group: RateGroup;
      /** true for the four endpoints a guest_partner key may call */
      guestPartner?: boolean;
      /** a write: Idempotency-Key required; the value names the operation in the fingerprint */
      idempotentOperation?: string;
    }
  | {
      surface: 'operator';
      /** who may call it: `platform` (the platform operator only) or the member roles that may */
      roles: RouteRoles;
      /**
       * The route parameter naming the business it touches (or a resource of one); `none` for routes
       * about no single business (creating one, the list of businesses a caller may see).
       */
      business: BusinessLocator | 'none';
    }
  /** sign-in, invitation acceptance and password reset (`none`), the signed-in member's own session (`session`) */
  | { surface: 'account'; needs: 'none' | 'session' }
  | { surface: 'open' }
  /** the guest pages (`/book`, `/manage`): HTML, their own hooks (src/http/routes/guest/) */
  | { surface: 'guest' };

/** One registered route as the onRoute hook saw it (src/http/route-table.ts). */
export interface RouteTableEntry {
  method: string;
  /** full path with prefix, Fastify syntax (`/v1/bookings/:bookingId`) */
  url: string;
  access: RouteAccess | undefined;
  operationId: string | undefined;
  /** `schema.hide`: left out of the OpenAPI document */
  hidden: boolean;
}

/** Who calls an operator route: the platform token, or a member's session. */
export type OperatorPrincipal = { kind: 'platform' } | { kind: 'member'; session: LiveSession };

export interface AuthContext {
  keyId: string;
  businessId: string;
  businessSlug: string;
  kind: KeyKind;
  capabilities: Capability[];
  tier: Tier;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** every route with its access config, in registration order (route-table.ts) */
    routeTable: readonly RouteTableEntry[];
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    /** set by the auth hook on operator and account routes */
    principal: OperatorPrincipal | null;
    /** a write of the operator API: its audit action and business (src/http/plugins/audit.ts) */
    audit?: { action: string; businessId: string | null } | undefined;
    /**
     * The version of the business the caches may answer under (src/cache/read-caches.ts), learnt
     * before the handler reads anything; undefined: bypass the caches.
     */
    businessVersion: number | undefined;
    /** the business version of a key read from the database in this request */
    keyReadVersion: number | undefined;
    /**
     * The occupancy version (bookings; migration 012) the availability cache may answer under,
     * learnt like businessVersion; undefined: bypass the cache.
     */
    occupancyVersion: number | undefined;
    /** the occupancy version read with the key from the database in this request */
    keyReadOccupancy: number | undefined;
    /** the rate-limit round trip the auth hook made early, to check a cached key's version */
    rateLimitOutcome: HitOutcome | undefined;
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';

/** The app as every route module sees it: schemas give the handlers their types. */
export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse<IncomingMessage>,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;
