import { Type } from 'typebox';
import { MEMBER_ROLES } from '../../domain/members/roles.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../domain/members/password.ts';

export const Role = Type.Union(
  MEMBER_ROLES.map((r) => Type.Literal(r)),
  {
    description:
      'owner: everything; manager: locations, catalogue, staff, bookings, reads of keys and deliveries; frontDesk: bookings and reads',
  },
);

export const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254 });

export const Password = Type.String({
  minLength: PASSWORD_MIN,
  maxLength: PASSWORD_MAX,
  description: `at least ${PASSWORD_MIN} characters; stored only as a scrypt hash, never returned or logged`,
});

export const MemberView = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    memberships: Type.Array(Type.Object({ salonSlug: Type.String(), businessName: Type.String(), role: Role })),
  },
  { additionalProperties: false },
);
