import { Type } from 'typebox';
import { createApiKey, listApiKeys, revokeApiKey } from '../../../use-cases/operator/api-keys.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { responses } from '../../schemas/common.ts';
import { ApiKeyListItem, ApiKeyView, CreateApiKeyBody } from '../../schemas/operator-api-key.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';
import { apiKeyListItemExample, createApiKeyExample, createdApiKeyExample, revokedApiKeyExample } from '../../openapi-examples.ts';
import { withExample } from '../../openapi-parts.ts';

export async function apiKeyRoutes(app: App): Promise<void> {
  app.post(
    '/businesses/:slug/api-keys',
    {
      config: operatorAccess(ROLES.owner, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorCreateApiKey',
        summary: 'Create an API key; its secret is returned this once',
        description:
          "Creates an API key for the business with the given capabilities, kind (owner or guest_partner) and tier. The whole key (`secret`) is in this response only; the server keeps a hash. The elevated tier is for the platform operator to give. A personal key (`userId`) may hold only what its holder's role allows (`webhook.manage` and `subscription.read` are the owner's alone; otherwise 400 on `body.capabilities`), and acts with what their role allows at each request, so a demotion narrows it at once.",
        params: Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) }),
        body: withExample(CreateApiKeyBody, createApiKeyExample),
        response: responses(200, Type.Object({ apiKey: ApiKeyView }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The new key, with its secret this once.',
          example: { apiKey: createdApiKeyExample },
        }),
      },
    },
    async (request) =>
      ok(request, {
        apiKey: await createApiKey(
          app.ctx.db,
          request.params.slug,
          request.body,
          app.ctx.clock(),
          request.principal?.kind === 'platform' ? 'platform' : 'member',
        ),
      }),
  );

  app.get(
    '/businesses/:slug/api-keys',
    {
      config: operatorAccess(ROLES.managers, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorListApiKeys',
        summary: 'Every key of the business, revoked and expired ones included, by name; never a secret',
        description:
          'Every API key of the business, revoked and expired ones included, sorted by name, with when each was last used. Secrets are never listed.',
        params: Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) }),
        response: responses(200, Type.Object({ apiKeys: Type.Array(ApiKeyListItem) }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The keys of the business.',
          example: { apiKeys: [apiKeyListItemExample] },
        }),
      },
    },
    async (request) => ok(request, { apiKeys: await listApiKeys(app.ctx.db, request.params.slug) }),
  );

  app.delete(
    '/api-keys/:keyId',
    {
      config: operatorAccess(ROLES.owner, 'keyId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorRevokeApiKey',
        summary: 'Revoke a key now',
        description:
          'Revokes a key at once: every instance refuses it from the next request on (401 `auth.invalid_key`). Revoking a revoked key answers it as it is.',
        params: Type.Object({ keyId: Type.String({ maxLength: 100, description: 'The id of the API key (`key_…`).' }) }),
        response: responses(200, Type.Object({ apiKey: ApiKeyView }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The revoked key.',
          example: { apiKey: revokedApiKeyExample },
        }),
      },
    },
    async (request) => ok(request, { apiKey: await revokeApiKey(app.ctx.db, request.params.keyId) }),
  );
}
