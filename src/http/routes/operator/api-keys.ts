import { Type } from 'typebox';
import { createApiKey, listApiKeys, revokeApiKey } from '../../../use-cases/operator/api-keys.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { responses } from '../../schemas/common.ts';
import { ApiKeyListItem, ApiKeyView, CreateApiKeyBody } from '../../schemas/operator-api-key.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';

export async function apiKeyRoutes(app: App): Promise<void> {
  app.post(
    '/businesses/:slug/api-keys',
    {
      config: operatorAccess(ROLES.owner, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorCreateApiKey',
        summary: 'Create an API key; its secret is returned this once',
        params: Type.Object({ slug: Type.String({ maxLength: 100 }) }),
        body: CreateApiKeyBody,
        response: responses(200, Type.Object({ apiKey: ApiKeyView }), [...OPERATOR_ERRORS, 'request.not_found']),
      },
    },
    async (request) =>
      ok(request, {
        apiKey: await createApiKey(app.ctx.db, request.params.slug, request.body, app.ctx.clock()),
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
        params: Type.Object({ slug: Type.String({ maxLength: 100 }) }),
        response: responses(200, Type.Object({ apiKeys: Type.Array(ApiKeyListItem) }), [...OPERATOR_ERRORS, 'request.not_found']),
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
        params: Type.Object({ keyId: Type.String({ maxLength: 100 }) }),
        response: responses(200, Type.Object({ apiKey: ApiKeyView }), [...OPERATOR_ERRORS, 'request.not_found']),
      },
    },
    async (request) => ok(request, { apiKey: await revokeApiKey(app.ctx.db, request.params.keyId) }),
  );
}
