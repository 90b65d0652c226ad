import { Type } from 'typebox';
import { CAPABILITIES } from '../../domain/capabilities.ts';

const Capability = Type.Enum(CAPABILITIES);

export const CreateApiKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    type: Type.Union([Type.Literal('personal'), Type.Literal('integration')]),
    kind: Type.Union([Type.Literal('owner'), Type.Literal('guest_partner')]),
    capabilities: Type.Array(Capability, { minItems: 1, maxItems: CAPABILITIES.length, uniqueItems: true }),
    tier: Type.Optional(Type.Union([Type.Literal('standard'), Type.Literal('elevated')])),
    expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
    userId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'personal keys only' })),
  },
  { additionalProperties: false },
);

export const ApiKeyView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  kind: Type.String(),
  capabilities: Type.Array(Type.String()),
  tier: Type.String(),
  prefix: Type.String({ description: 'first characters of the secret, to recognise the key' }),
  userId: Type.Optional(Type.String()),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'the last request that presented the key while usable; recorded at most once a minute',
  }),
  secret: Type.Optional(Type.String({ description: 'the whole key; returned once, at creation' })),
});

/** A key as the list shows it: the schema has no `secret`, so the serializer could not send one. */
export const ApiKeyListItem = Type.Omit(ApiKeyView, ['secret']);
