import type { SwaggerOptions } from '@fastify/swagger';
import type { FastifySchema, RouteOptions } from 'fastify';
import type { RouteAccess } from './context.ts';
import { errorExampleComponents, headerComponents, RATE_LIMIT_HEADERS, referToHeaderComponents } from './openapi-parts.ts';
import type { Config } from '../config.ts';
import { ERROR_CATALOG } from '../domain/errors.ts';
import { sessionCookieName } from '../domain/members/session-policy.ts';

const errorTable = Object.entries(ERROR_CATALOG)
  .map(([code, v]) => `| \`${code}\` | ${v.status} | ${v.retryable} |`)
  .join('\n');

/** The product's name: the document's title and the explorer's (/docs). */
export const PRODUCT_NAME = 'Appointment Booking API';

const INTRODUCTION = [
  'A self-hostable appointment-booking server for salons and any business with staff, services and opening hours.',
  'The **public API** (`/v1`) is for integrators: websites, booking widgets and partner platforms list services and',
  'staff, search free slots, request bookings, read and cancel them, and receive signed webhooks. The **operator API**',
  '(`/admin/v1`) is for the business side: the platform operator and the members of a business set it up, read their',
  'day and decide requests.',
  '',
  '## Authentication',
  'Every public route takes an API key of one business as a bearer token: `Authorization: Bearer bka_…`. A key holds',
  'capabilities (`services.read`, `booking.create`, …; each operation names the one it needs) and is bound to its',
  "business: a `salonSlug` of another business is `403 auth.scope_mismatch`. Operator routes take the deployment's",
  "`ADMIN_TOKEN` as a bearer token, or a member's session cookie from `POST /admin/v1/session`.",
  '`/healthz`, `/readyz` and this document need nothing.',
  '',
  '## Idempotency',
  'Every public write takes an `Idempotency-Key` header (a UUID). Retrying with the same key and the same request',
  'returns the stored answer with `meta.idempotent: true` and does nothing twice; the same key with another request is',
  '`409 idempotency.payload_mismatch`; while the first request runs, `503 idempotency.request_in_progress`.',
  '',
  '## Responses and errors',
  'Every response is an envelope: `{ "ok": true, "data": …, "meta": { "requestId", "v" } }` or',
  '`{ "ok": false, "error": { "code", "message", "retryable", "details" }, "meta": … }`. Clients branch on',
  '`error.code`, one of the closed catalog below, never on the message; `retryable: true` means the same request',
  'may succeed later. `meta.requestId` equals the `X-Request-Id` response header: quote it when asking for help.',
  'Lists are paged: a next page exists when `meta.cursor` is present; send it back as `cursor` with the same filters.',
  '',
  '## Rate limits',
  'A rolling one-minute window per API key and route group (catalog, availability, booking, webhook, subscription;',
  'standard or elevated tier). Every response of a public route after authentication carries',
  '`RateLimit-Policy: "<group>";q=<limit>;w=60` and `RateLimit: "<group>";r=<remaining>;t=<seconds>`',
  '(draft-ietf-httpapi-ratelimit-headers-09); over the limit: `429 rate_limit.exceeded` with `Retry-After`',
  '(seconds, rounded up) and `details.retryAfterSeconds`.',
  '',
  '## Versioning and webhooks',
  'The major version is in the path (`/v1`) and in `meta.v`. Minor changes (new optional fields, new endpoints) are',
  'backwards compatible and may be added to v1 without notice, so clients ignore members they do not know; a breaking',
  "change comes as `/v2/`, run in parallel for a while. Booking events are delivered to the business's webhook URL,",
  'signed with its secret, at least once, with retries; `GET /v1/bookings/{bookingId}/events`',
  "returns the exact payloads for reconciliation. More in the repository's docs/ (webhooks.md, decisions.md).",
  '',
  '## Error codes',
  '| Error code | HTTP | Retryable |',
  '|---|---|---|',
];

/** What each operation's description says about who may call it, from the route's access config. */
function accessNote(access: RouteAccess | undefined): string {
  switch (access?.surface) {
    case 'public': {
      const parts = [`API key with the \`${access.capability}\` capability`, `rate-limit group \`${access.group}\``];
      if (access.guestPartner) parts.push('also open to guest-partner keys');
      if (access.idempotentOperation) parts.push('`Idempotency-Key` required');
      return `**Access:** ${parts.join('; ')}.`;
    }
    case 'operator':
      return access.roles === 'platform'
        ? '**Access:** the platform operator (ADMIN_TOKEN) only.'
        : `**Access:** the platform operator, or a signed-in member with the role ${access.roles.map((r) => `\`${r}\``).join(', ')}.`;
    case 'account':
      return access.needs === 'none' ? '**Access:** open (no credentials).' : '**Access:** a signed-in member (session cookie).';
    case 'open':
      return '**Access:** open (no credentials).';
    default:
      return '';
  }
}

/**
 * Per route, what follows from its access config rather than its schema: the access note after the
 * description, `security: []` on open routes, and the rate-limit headers on the answers of public
 * routes once the key is authenticated (a 401 comes before the limit). New objects throughout: the
 * route's own schema also drives serialization.
 */
function transform({ schema, url, route }: { schema: FastifySchema; url: string; route: RouteOptions }) {
  const access = route.config?.access as RouteAccess | undefined;
  const s = schema as FastifySchema & { description?: string; security?: unknown; response?: Record<string, Record<string, unknown>> };
  if (!s || s.hide) return { schema, url };
  const note = accessNote(access);
  const out: typeof s = { ...s, description: [s.description, note].filter(Boolean).join('\n\n') };
  if (access?.surface === 'open') out.security = [];
  if (access?.surface === 'public' && s.response) {
    out.response = Object.fromEntries(
      Object.entries(s.response).map(([status, res]) => [
        status,
        status === '401' ? res : { ...res, headers: { ...(res.headers as object), ...RATE_LIMIT_HEADERS } },
      ]),
    );
  }
  return { schema: out, url };
}

/** The document is generated from the route schemas; only this preamble is written by hand. */
export function openapiDocument(config: Config): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: PRODUCT_NAME,
        version: '1.4.0',
        summary: 'Book appointments with salons and other businesses with staff: services, free slots, bookings, webhooks.',
        description: [...INTRODUCTION, errorTable].join('\n'),
        license: { name: 'MIT', identifier: 'MIT' },
        contact: { name: 'The operator of this deployment', url: config.publicBaseUrl },
      },
      servers: [{ url: config.publicBaseUrl }],
      tags: [
        { name: 'catalog', description: 'The services and staff of a location, as a guest chooses them.' },
        { name: 'availability', description: 'Free slots of a service: a snapshot to offer the guest, not a reservation.' },
        {
          name: 'bookings',
          description: 'Booking requests and their lifecycle: hold a time, create, read and cancel, and the events of each booking.',
        },
        { name: 'subscription', description: "The business's plan, its quotas with this month's use, and its features." },
        { name: 'webhooks', description: 'The webhook URL and its signing secret, and the log of every delivery with its attempts.' },
        {
          name: 'operator',
          description:
            'Operator API (`/admin/v1`): businesses, locations, catalogue, staff and hours, keys, members and invitations, webhooks, and the decisions on bookings. For the platform operator (ADMIN_TOKEN) and signed-in members by role.',
        },
        { name: 'operations', description: 'Liveness and readiness for load balancers and orchestrators; no credentials.' },
      ],
      components: {
        examples: errorExampleComponents(),
        headers: headerComponents(),
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'API key of one business (bka_…)' },
          operatorToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN of the deployment: the platform operator' },
          memberSession: {
            type: 'apiKey',
            in: 'cookie',
            name: sessionCookieName(config.publicBaseUrl),
            description:
              'The session cookie set by POST /admin/v1/session: a member, limited to their businesses and role. Writes must send an Origin (or Referer) of this service.',
          },
        },
      },
    },
    transform,
    transformObject: (document) => ('openapiObject' in document ? referToHeaderComponents(document.openapiObject) : document.swaggerObject),
    refResolver: {
      buildLocalReference(json, _baseUri, _fragment, i) {
        return typeof json.$id === 'string' ? json.$id : `def-${i}`;
      },
    },
  };
}
