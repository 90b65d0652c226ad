import { Type } from 'typebox';
import { acceptInvitation } from '../../../use-cases/accounts/accept-invitation.ts';
import { checkSignInLimit } from '../../../use-cases/accounts/sign-in-limit.ts';
import { inviteMember, listInvitations, withdrawInvitationById } from '../../../use-cases/operator/invitations.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { responses } from '../../schemas/common.ts';
import { CreatedInvitation, Email, InvitationView, MemberView, Password, Role, WithdrawnInvitation } from '../../schemas/member.ts';
import { sessionCookie } from '../../session-cookie.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';
import { createdInvitationExample, invitationExample, memberExample, withdrawnInvitationExample } from '../../openapi-examples.ts';
import { SET_SESSION_COOKIE, withExample } from '../../openapi-parts.ts';

const Slug = Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) });

/** Invitations (business-side.md "Accounts and sessions"): owners invite; the invited accept and are signed in. */
export async function invitationRoutes(app: App): Promise<void> {
  const { config } = app.ctx;
  const cookie = sessionCookie(config);

  app.post(
    '/businesses/:slug/invitations',
    {
      config: operatorAccess(ROLES.owner, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorCreateInvitation',
        summary: 'Invite an email into the business with a role; the accept link is returned this once (and mailed when SMTP_URL is set)',
        description:
          'The platform operator creates the first owner of a new business this way. The link is single use and valid 7 days. An email that is already a member is refused (400, body.email): roles change with PATCH /businesses/{slug}/members/{userId}. A mail that cannot be sent does not undo the invitation: the answer says mailSent: false.',
        params: Slug,
        body: withExample(Type.Object({ email: Email, role: Role }, { additionalProperties: false }), {
          email: 'reception@demo-salon.example',
          role: 'frontDesk',
        }),
        response: responses(200, Type.Object({ invitation: CreatedInvitation }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The invitation, with its accept link this once.',
          example: { invitation: createdInvitationExample },
        }),
      },
    },
    async (request) => {
      const principal = request.principal;
      const invitation = await inviteMember(
        {
          db: app.ctx.db,
          mailer: app.ctx.mailer,
          publicBaseUrl: config.publicBaseUrl,
          // the error names the server's refusal; the link is in the message body, never in the error
          onMailError: (err) => request.log.warn({ err }, 'invitation mail not sent; the invitation stands (mailSent: false)'),
        },
        request.params.slug,
        request.body,
        principal?.kind === 'member' ? principal.session.userId : null,
      );
      return ok(request, { invitation });
    },
  );

  app.get(
    '/businesses/:slug/invitations',
    {
      config: operatorAccess(ROLES.owner, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorListInvitations',
        summary: 'Open invitations (not accepted, withdrawn or expired), oldest first; never their links',
        description: 'The invitations of the business that can still be accepted, oldest first. Their links are never shown again.',
        params: Slug,
        response: responses(200, Type.Object({ invitations: Type.Array(InvitationView) }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The open invitations.',
          example: { invitations: [invitationExample] },
        }),
      },
    },
    async (request) => ok(request, { invitations: await listInvitations(app.ctx.db, request.params.slug) }),
  );

  app.delete(
    '/invitations/:invitationId',
    {
      config: operatorAccess(ROLES.owner, 'invitationId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorWithdrawInvitation',
        summary: 'Withdraw an open invitation: its link stops working now (404 when it is not open)',
        description:
          'Withdraws an open invitation: its link stops working at once. An invitation that is no longer open (accepted, withdrawn or expired) answers 404.',
        params: Type.Object({ invitationId: Type.String({ maxLength: 100, description: 'The id of the invitation (`inv_…`).' }) }),
        response: responses(200, Type.Object({ invitation: WithdrawnInvitation }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The withdrawn invitation.',
          example: { invitation: withdrawnInvitationExample },
        }),
      },
    },
    async (request) => ok(request, { invitation: await withdrawInvitationById(app.ctx.db, request.params.invitationId) }),
  );

  app.post(
    '/invitations/accept',
    {
      config: { access: { surface: 'account', needs: 'none' } },
      schema: {
        tags: ['operator'],
        security: [],
        operationId: 'operatorAcceptInvitation',
        summary:
          'Accept an invitation: creates the account (or joins the existing one with that email) and signs in; sets the session cookie',
        description:
          'A new account gets `name` and `password` (at least 10 characters). When an account with the invited email exists, `password` must be its password (otherwise 401 auth.invalid_key, exactly as a wrong sign-in password) and `name` is ignored. Every failed acceptance counts in the sign-in limits (429 rate_limit.exceeded); a successful one does not. A token that is unknown, used, withdrawn or expired answers 404 request.not_found. If the account is already a member of the business, its role stays as it is and the invitation is used up.',
        body: withExample(
          Type.Object(
            {
              token: Type.String({ minLength: 1, maxLength: 200 }),
              name: Type.String({ minLength: 1, maxLength: 100 }),
              password: Password,
            },
            { additionalProperties: false },
          ),
          { token: 'q7Wm2xK9cV4bN1pR8tY3uE6iO0aS5dF2', name: 'Réka Varga', password: 'a long passphrase' },
        ),
        response: responses(
          200,
          Type.Object({ member: MemberView }),
          [
            'request.not_found',
            'auth.invalid_key',
            'auth.origin_denied',
            'rate_limit.exceeded',
            'request.validation_failed',
            'internal.error',
          ],
          {
            description: 'Accepted and signed in: the member with the new membership; the session cookie is set.',
            example: {
              member: {
                ...memberExample,
                memberships: [...memberExample.memberships, { salonSlug: 'north-salon', businessName: 'North Salon', role: 'frontDesk' }],
              },
            },
            headers: SET_SESSION_COOKIE,
          },
        ),
      },
    },
    async (request, reply) => {
      const { member, token, expiresAt } = await acceptInvitation(
        app.ctx.db,
        request.body,
        (email) => checkSignInLimit(app.ctx.accountLimits, { email, address: request.ip }),
        request.id,
      );
      cookie.set(reply, token, expiresAt);
      return ok(request, { member });
    },
  );
}
