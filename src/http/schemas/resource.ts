import { Type } from 'typebox';

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Quantity = Type.Integer({ minimum: 1, maximum: 50, description: 'how many units the location has, 1 to 50' });

export const CreateResourceBody = Type.Object(
  {
    locationSlug: Type.String({ minLength: 1, maxLength: 100, description: 'the location that has the resource' }),
    name: Name,
    quantity: Quantity,
  },
  { additionalProperties: false },
);

export const PatchResourceBody = Type.Object(
  {
    name: Type.Optional(Name),
    quantity: Type.Optional(Quantity),
    active: Type.Optional(Type.Boolean({ description: 'an inactive resource cannot be newly required by a service' })),
  },
  { additionalProperties: false },
);

export const ResourceParams = Type.Object({
  resourceId: Type.String({ maxLength: 100, description: 'The id of the resource (`res_…`).' }),
});

export const ResourceView = Type.Object({
  id: Type.String(),
  locationSlug: Type.String(),
  name: Type.String(),
  quantity: Type.Integer({ minimum: 1, maximum: 50 }),
  active: Type.Boolean(),
});
