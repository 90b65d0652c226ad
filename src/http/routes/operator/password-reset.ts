import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { normaliseEmail } from '../../../domain/members/secret-token.ts';
import { confirmPasswordReset, requireMailer, sendPasswordReset } from '../../../use-cases/accounts/password-reset.ts';
import { checkPasswordResetLimit, checkResetConfirmLimit } from '../../../use-cases/accounts/sign-in-limit.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { responses } from '../../schemas/common.ts';
import { Email, Password } from '../../schemas/member.ts';
import { withExample } from '../../openapi-parts.ts';

/** How long closing the app waits for reset mails on their way (a dead SMTP server must not hold it). */
const CLOSE_WAIT_MS = 10_000;

const MAIL_NOT_SET_UP = 'Without SMTP_URL the server sends no mail and both reset routes answer 503 mail.not_configured.';

/**
 * What a failed reset mail may leave in the log: the SMTP server's reply often repeats the
 * recipient's address, so only its codes are kept, never its text.
 */
function mailFailure(err: unknown): Record<string, unknown> {
  const e = err as { code?: unknown; responseCode?: unknown; name?: unknown };
  return { type: e?.name, code: e?.code, smtpResponseCode: e?.responseCode };
}

/** Password reset by mail (members-and-sessions.md "Password reset"). */
export async function passwordResetRoutes(app: App): Promise<void> {
  const { config, db } = app.ctx;
  // The lookup and the mail of a reset request run after its answer has been sent. The app's close
  // waits for those running and for requests still being answered (a plugin's onClose can run
  // before the server has finished its last requests), up to CLOSE_WAIT_MS.
  const afterAnswer = new WeakMap<FastifyRequest, () => Promise<void>>();
  const running = new Set<Promise<void>>();
  const answering = new Set<FastifyRequest>();
  app.addHook('onClose', async () => {
    const until = Date.now() + CLOSE_WAIT_MS;
    while ((answering.size > 0 || running.size > 0) && Date.now() < until) {
      await Promise.race([Promise.allSettled([...running]), new Promise((r) => setTimeout(r, 20))]);
    }
  });

  app.post(
    '/password-reset',
    {
      config: { access: { surface: 'account', needs: 'none' } },
      onRequest: async (request) => {
        answering.add(request);
      },
      onResponse: async (request) => {
        answering.delete(request);
        const job = afterAnswer.get(request);
        if (!job) return;
        const p = job()
          .catch((err) => request.log.warn({ mail: mailFailure(err) }, 'password reset mail not sent'))
          .finally(() => running.delete(p));
        running.add(p);
      },
      schema: {
        tags: ['operator'],
        security: [],
        operationId: 'operatorRequestPasswordReset',
        summary: 'Ask for a password reset link by mail; the same 202 whether or not the email has an account',
        description: [
          'When the email belongs to an account, a single-use link to `{PUBLIC_BASE_URL}/dashboard/reset-password?token=…`, valid one hour, is mailed to it.',
          'The answer is 202 with the same body for every email, sent before the account is even looked up, so neither its content nor its timing tells whether the account exists.',
          'Limited per email (5 an hour) and per client address (20 an hour): 429 rate_limit.exceeded with Retry-After.',
          MAIL_NOT_SET_UP,
        ].join(' '),
        body: withExample(Type.Object({ email: Email }, { additionalProperties: false }), { email: 'owner@demo-salon.example' }),
        response: responses(
          202,
          Type.Object({ accepted: Type.Literal(true) }),
          ['auth.origin_denied', 'rate_limit.exceeded', 'request.validation_failed', 'mail.not_configured', 'internal.error'],
          {
            description: 'Taken: if the email has an account, its reset link is on its way. The same answer for every email.',
            example: { accepted: true },
          },
        ),
      },
    },
    async (request, reply) => {
      const mailer = requireMailer(app.ctx.mailer);
      const email = normaliseEmail(request.body.email);
      await checkPasswordResetLimit(app.ctx.accountLimits, { email, address: request.ip });
      afterAnswer.set(request, () => sendPasswordReset({ db, mailer, publicBaseUrl: config.publicBaseUrl }, email));
      reply.code(202);
      return ok(request, { accepted: true as const });
    },
  );

  app.post(
    '/password-reset/confirm',
    {
      config: { access: { surface: 'account', needs: 'none' } },
      schema: {
        tags: ['operator'],
        security: [],
        operationId: 'operatorConfirmPasswordReset',
        summary: 'Set a new password with a mailed reset link; ends every session of the account; does not sign in',
        description: [
          'The link works once: it is spent with the change, and so are the other open reset links of the account.',
          'Every session of the account ends at once, on every instance; the person then signs in with the new password (this route sets no cookie).',
          'A token that is unknown, used or expired (links work one hour) answers 404 request.not_found.',
          'Limited to 20 an hour per client address (429 rate_limit.exceeded).',
          MAIL_NOT_SET_UP,
        ].join(' '),
        body: withExample(
          Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }), password: Password }, { additionalProperties: false }),
          { token: 'Xq3vN8bK2mR7tY1uE6iO0aS5dF9gH4jL2zC8xV5bN1m', password: 'a new long passphrase' },
        ),
        response: responses(
          200,
          Type.Object({ passwordChanged: Type.Literal(true) }),
          [
            'request.not_found',
            'auth.origin_denied',
            'rate_limit.exceeded',
            'request.validation_failed',
            'mail.not_configured',
            'internal.error',
          ],
          { description: 'The password is changed and every session of the account has ended.', example: { passwordChanged: true } },
        ),
      },
    },
    async (request) => {
      requireMailer(app.ctx.mailer);
      await checkResetConfirmLimit(app.ctx.accountLimits, request.ip);
      await confirmPasswordReset(db, request.body);
      return ok(request, { passwordChanged: true as const });
    },
  );
}
