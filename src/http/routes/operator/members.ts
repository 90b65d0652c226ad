import { Type } from 'typebox';
import { changeMemberRole, listBusinessMembers, removeBusinessMember } from '../../../use-cases/operator/members.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { responses } from '../../schemas/common.ts';
import { MemberListItem, Role } from '../../schemas/member.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';
import { memberListItemExample } from '../../openapi-examples.ts';
import { withExample } from '../../openapi-parts.ts';

const MemberParams = Type.Object({
  slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }),
  userId: Type.String({ maxLength: 100, description: 'The user id of the member (`usr_…`).' }),
});

/**
 * A business's members (business-side.md): owners only, reads included (the role table gives
 * "members and invitations" to the owner alone). A business keeps at least one owner.
 */
export async function memberRoutes(app: App): Promise<void> {
  app.get(
    '/businesses/:slug/members',
    {
      config: operatorAccess(ROLES.owner, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorListMembers',
        summary: 'The members of the business with their roles, in the order they joined',
        description: 'The members of the business with their role and when they joined, in the order they joined.',
        params: Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) }),
        response: responses(200, Type.Object({ members: Type.Array(MemberListItem) }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The members of the business.',
          example: { members: [memberListItemExample] },
        }),
      },
    },
    async (request) => ok(request, { members: await listBusinessMembers(app.ctx.db, request.params.slug) }),
  );

  app.patch(
    '/businesses/:slug/members/:userId',
    {
      config: operatorAccess(ROLES.owner, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorChangeMemberRole',
        summary: "Change a member's role; in force from their next request",
        description: 'Demoting the last owner answers 409 member.last_owner: make another member owner first.',
        params: MemberParams,
        body: withExample(Type.Object({ role: Role }, { additionalProperties: false }), { role: 'manager' }),
        response: responses(200, Type.Object({ member: MemberListItem }), [...OPERATOR_ERRORS, 'request.not_found', 'member.last_owner'], {
          description: 'The member with the new role.',
          example: {
            member: {
              ...memberListItemExample,
              id: 'usr_3j5l7n9q2s4u6w8y1a0c',
              email: 'anna@demo-salon.example',
              name: 'Anna Kovács',
              role: 'manager',
            },
          },
        }),
      },
    },
    async (request) =>
      ok(request, { member: await changeMemberRole(app.ctx.db, request.params.slug, request.params.userId, request.body.role) }),
  );

  app.delete(
    '/businesses/:slug/members/:userId',
    {
      config: operatorAccess(ROLES.owner, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorRemoveMember',
        summary: 'Remove a member: access ends now, their personal keys are revoked, and their sessions end when no membership is left',
        description: 'Removing the last owner answers 409 member.last_owner.',
        params: MemberParams,
        response: responses(
          200,
          Type.Object({ member: Type.Object({ userId: Type.String(), revokedKeys: Type.Integer(), endedSessions: Type.Integer() }) }),
          [...OPERATOR_ERRORS, 'request.not_found', 'member.last_owner'],
          {
            description: 'What the removal ended.',
            example: { member: { userId: 'usr_3j5l7n9q2s4u6w8y1a0c', revokedKeys: 1, endedSessions: 2 } },
          },
        ),
      },
    },
    async (request) => ok(request, { member: await removeBusinessMember(app.ctx.db, request.params.slug, request.params.userId) }),
  );
}
