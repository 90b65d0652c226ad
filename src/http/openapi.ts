import type { SwaggerOptions } from '@fastify/swagger';
import type { Config } from '../config.ts';
import { ERROR_CATALOG } from '../domain/errors.ts';
import { sessionCookieName } from '../domain/members/session-policy.ts';

const errorTable = Object.entries(ERROR_CATALOG)
  .map(([code, v]) => `| \`${code}\` | ${v.status} | ${v.retryable} |`)
  .join('\n');

/** The document is generated from the route schemas; only this preamble is written by hand. */
export function openapiDocument(config: Config): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Appointment Booking API',
        version: '1.2.0',
        description: [
          'Public API (`/v1`) for integrators and the operator API (`/admin/v1`) for setting up businesses.',
          '',
          'Every response is an envelope: `{ ok: true, data, meta }` or `{ ok: false, error, meta }`.',
          '',
          'Rate limits: a rolling one-minute window per API key and route group (catalog, availability, booking,',
          'webhook, subscription; standard or elevated tier). Every response of a public route after authentication',
          'carries `RateLimit-Policy: "<group>";q=<limit>;w=60` and `RateLimit: "<group>";r=<remaining>;t=<seconds>`',
          '(draft-ietf-httpapi-ratelimit-headers-09); over the limit: 429 `rate_limit.exceeded` with `Retry-After`',
          '(seconds, rounded up) and `details.retryAfterSeconds`.',
          '',
          '| Error code | HTTP | Retryable |',
          '|---|---|---|',
          errorTable,
        ].join('\n'),
      },
      servers: [{ url: config.publicBaseUrl }],
      tags: [
        { name: 'catalog', description: 'Services and staff of a location' },
        { name: 'availability', description: 'Free slots' },
        { name: 'bookings', description: 'Booking requests and their lifecycle' },
        { name: 'subscription', description: "The business's plan" },
        { name: 'webhooks', description: 'Webhook configuration and delivery log' },
        { name: 'operator', description: 'Operator API: businesses, catalogue, keys and business decisions' },
        { name: 'operations', description: 'Health and readiness' },
      ],
      components: {
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
    refResolver: {
      buildLocalReference(json, _baseUri, _fragment, i) {
        return typeof json.$id === 'string' ? json.$id : `def-${i}`;
      },
    },
  };
}
