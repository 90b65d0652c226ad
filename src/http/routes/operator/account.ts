import { Type } from 'typebox';
import { normaliseEmail } from '../../../domain/members/secret-token.ts';
import { currentMember, signOut, updateOwnSettings } from '../../../use-cases/accounts/session.ts';
import { signIn } from '../../../use-cases/accounts/sign-in.ts';
import { checkSignInLimit } from '../../../use-cases/accounts/sign-in-limit.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { responses } from '../../schemas/common.ts';
import { Email, MemberLanguage, MemberView } from '../../schemas/member.ts';
import { memberOf } from '../../plugins/operator-auth.ts';
import { sessionCookie } from '../../session-cookie.ts';
import { memberExample } from '../../openapi-examples.ts';
import { SET_SESSION_COOKIE, withExample } from '../../openapi-parts.ts';

const ACCOUNT_SCHEMA = { tags: ['operator'] };
const SIGNED_IN: Array<Record<string, string[]>> = [{ memberSession: [] }];

/** Sign-in, the signed-in member, sign-out (business-side.md "Accounts and sessions"). */
export async function accountRoutes(app: App): Promise<void> {
  const { config } = app.ctx;
  const cookie = sessionCookie(config);

  app.post(
    '/session',
    {
      config: { access: { surface: 'account', needs: 'none' } },
      schema: {
        ...ACCOUNT_SCHEMA,
        security: [],
        operationId: 'operatorSignIn',
        summary: 'Sign in with email and password; sets the session cookie',
        description:
          'A wrong password and an unknown email answer alike (401 auth.invalid_key). Failed attempts are limited per email and per client address (429 rate_limit.exceeded with Retry-After; the message says the wait in minutes); a successful sign-in does not count.',
        body: withExample(
          Type.Object({ email: Email, password: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
          { email: 'owner@demo-salon.example', password: 'correct horse battery' },
        ),
        response: responses(
          200,
          Type.Object({ member: MemberView }),
          ['auth.invalid_key', 'auth.origin_denied', 'rate_limit.exceeded', 'request.validation_failed', 'internal.error'],
          {
            description: 'Signed in: the member and their businesses; the session cookie is set.',
            example: { member: memberExample },
            headers: SET_SESSION_COOKIE,
          },
        ),
      },
    },
    async (request, reply) => {
      const attempt = await checkSignInLimit(app.ctx.accountLimits, { email: normaliseEmail(request.body.email), address: request.ip });
      const { member, token, expiresAt } = await signIn(app.ctx.db, request.body);
      await attempt.succeeded();
      cookie.set(reply, token, expiresAt);
      return ok(request, { member });
    },
  );

  app.get(
    '/session',
    {
      config: { access: { surface: 'account', needs: 'session' } },
      schema: {
        ...ACCOUNT_SCHEMA,
        security: SIGNED_IN,
        operationId: 'operatorGetSession',
        summary: 'The signed-in member and their businesses (401 auth.invalid_key when none)',
        description:
          'The member the session cookie belongs to, with every business they are a member of and their role there. The dashboard calls it first to know who is signed in.',
        response: responses(200, Type.Object({ member: MemberView }), ['auth.invalid_key', 'internal.error'], {
          description: 'The signed-in member.',
          example: { member: memberExample },
        }),
      },
    },
    async (request) => ok(request, { member: currentMember(memberOf(request)) }),
  );

  app.patch(
    '/session',
    {
      config: { access: { surface: 'account', needs: 'session' } },
      schema: {
        ...ACCOUNT_SCHEMA,
        security: SIGNED_IN,
        operationId: 'operatorUpdateOwnSettings',
        summary: "The signed-in member's own settings: the dashboard's language",
        description:
          "Changes the signed-in member's own account (every role, in no particular business): `language` is the language the dashboard shows them (en or hu). Stored with the account, so every session and every business of theirs uses it. Answers the member as GET /session does.",
        body: withExample(Type.Object({ language: MemberLanguage }, { additionalProperties: false }), { language: 'hu' }),
        response: responses(
          200,
          Type.Object({ member: MemberView }),
          ['auth.invalid_key', 'auth.origin_denied', 'request.validation_failed', 'internal.error'],
          { description: 'The member with the new settings.', example: { member: memberExample } },
        ),
      },
    },
    async (request) => ok(request, { member: await updateOwnSettings(app.ctx.db, memberOf(request), request.body) }),
  );

  app.delete(
    '/session',
    {
      config: { access: { surface: 'account', needs: 'session' } },
      schema: {
        ...ACCOUNT_SCHEMA,
        security: SIGNED_IN,
        operationId: 'operatorSignOut',
        summary: 'Sign out: the session ends on the server, on every instance, and the cookie is cleared',
        description: 'Ends the session on the server (every instance stops accepting it at once) and clears the cookie in the browser.',
        response: responses(
          200,
          Type.Object({ signedOut: Type.Literal(true) }),
          ['auth.invalid_key', 'auth.origin_denied', 'internal.error'],
          { description: 'Signed out; the cookie is cleared.', example: { signedOut: true }, headers: SET_SESSION_COOKIE },
        ),
      },
    },
    async (request, reply) => {
      await signOut(app.ctx.db, memberOf(request));
      cookie.clear(reply);
      return ok(request, { signedOut: true as const });
    },
  );
}
