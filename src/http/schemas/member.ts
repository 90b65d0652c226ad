import { Type } from 'typebox';
import { MEMBER_ROLES } from '../../domain/members/roles.ts';
import { MEMBER_LANGUAGES } from '../../domain/members/member-view.ts';
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

export const MemberLanguage = Type.Union(
  MEMBER_LANGUAGES.map((l) => Type.Literal(l)),
  { description: "the dashboard's language, chosen by the member (en: English, hu: Hungarian); en until they choose" },
);

export const MemberView = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    language: MemberLanguage,
    memberships: Type.Array(Type.Object({ salonSlug: Type.String(), businessName: Type.String(), role: Role })),
  },
  { additionalProperties: false },
);

export const InvitationView = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    role: Role,
    createdAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.String({ format: 'date-time', description: '7 days after it was made' }),
  },
  { additionalProperties: false },
);

export const CreatedInvitation = Type.Object(
  {
    ...InvitationView.properties,
    acceptUrl: Type.String({
      description:
        '{PUBLIC_BASE_URL}/dashboard/accept-invitation?token=…: single use, valid until expiresAt. Returned only here (and mailed when SMTP_URL is set); only a hash of the token is stored.',
    }),
    mailSent: Type.Boolean({
      description:
        'true when the SMTP server took the invitation mail; false without SMTP_URL or when sending failed (the invitation stands)',
    }),
  },
  { additionalProperties: false },
);

export const WithdrawnInvitation = Type.Object(
  { ...InvitationView.properties, withdrawnAt: Type.String({ format: 'date-time' }) },
  { additionalProperties: false },
);

export const MemberListItem = Type.Object(
  {
    id: Type.String({ description: 'the user id (`userId` of the member routes)' }),
    email: Type.Union([Type.String(), Type.Null()], { description: 'null for a user from before accounts (a personal key holder)' }),
    name: Type.String(),
    role: Role,
    createdAt: Type.String({ format: 'date-time', description: 'when they became a member of this business' }),
  },
  { additionalProperties: false },
);
